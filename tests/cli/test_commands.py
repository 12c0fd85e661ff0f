"""One coherent command line: 80 columns, JSON everywhere, dry runs and hints, completion,
the pager, export to a file."""

from pathlib import Path
import re
import json
import os
import subprocess

import click
import pytest
from support.games import legal_moves, new_game

from uptown_cli.cli import output
from uptown_cli.records.reading import load_record

ROOT = Path(__file__).resolve().parents[2]

RECORDS = ROOT / "records"
IN_PROGRESS = RECORDS / "in-progress.yaml"


@pytest.mark.parametrize("args", [
    ["show", RECORDS / "2p-standard.yaml"],
    ["show", RECORDS / "5p-blockers.yaml", "--at", "60"],
    ["moves", IN_PROGRESS],
    ["analyze", RECORDS / "2p-standard.yaml", "--iterations", "2"],
    ["analyze", RECORDS / "annotated.yaml", "--iterations", "2"],
    ["stats", RECORDS],
    ["score", RECORDS / "5p-blockers.yaml", "--variant", "blockers"],
    ["replay", IN_PROGRESS],
    ["validate", RECORDS],
    ["selfplay", "--players", "5", "--bots", "random,greedy", "--games", "2", "--seed", "1"],
    ["--help"], ["move", "--help"], ["selfplay", "--help"], ["new", "--help"], ["export", "--help"],
])
def test_every_text_output_fits_80_columns(uptown, args):
    result = uptown.invoke(*args)
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_moves_wrap_their_squares_within_80_columns(uptown, tmp_path):
    path = new_game(tmp_path / "two.yaml", "Ana", "Bo")
    lines = uptown.invoke("moves", path).stdout.splitlines()
    assert max(map(len, lines)) <= 80
    assert len(lines) > 2 + len({line.split()[1] for line in lines[3:] if line[:1] != " "})


def test_machine_table_formats_print_no_title(uptown):
    assert uptown.invoke("score", IN_PROGRESS, "--format", "tsv").stdout.splitlines()[0].split()[0] == "rank"
    csv = uptown.invoke("score", IN_PROGRESS, "--format", "csv").stdout.splitlines()
    assert csv[0] == "rank,player,colours,groups,captures,score"
    assert uptown.invoke("moves", IN_PROGRESS, "--format", "csv").stdout.startswith("colour,tile,squares\n")


def test_blockers_standings_show_what_is_added_to_the_groups(uptown):
    result, data = uptown.json("score", RECORDS / "3p-blockers.yaml", "--json")
    lines = uptown.invoke("score", RECORDS / "3p-blockers.yaml").stdout.splitlines()
    assert "+ most from one" in lines[1]
    bo = next(p for p in data["players"] if p["name"] == "Bo")
    row = next(line.split() for line in lines if " Bo " in line)
    assert row[-2:] == [str(max(bo["captured"].values())), str(bo["score"])]
    assert bo["score"] == bo["groups"] + max(bo["captured"].values())
    assert "most from one" not in uptown.invoke("score", RECORDS / "4p-standard.yaml").stdout


# -- JSON from every command that outputs data ------------------------------------------------


def test_new_json(uptown, tmp_path):
    result, data = uptown.json("new", tmp_path / "g.yaml", "-p", "Ana", "-p", "Bo", "--seed", "7", "--json")
    game_id = data.pop("game")
    assert re.fullmatch("[0-9a-f]{32}", game_id) and load_record(tmp_path / "g.yaml").game_id == game_id
    assert data == {"path": str(tmp_path / "g.yaml"), "variant": "standard", "seed": "7",
                    "signed": False, "judge": None, "to_join": None,
                    "players": [{"name": "Ana", "colors": ["red", "green"]},
                                {"name": "Bo", "colors": ["blue", "yellow"]}],
                    "to_move": "Ana"}


def test_move_json_and_replay_json_agree(uptown, new_record):
    move = legal_moves(new_record)["moves"][0]
    result, played = uptown.json("move", new_record, *move.split(), "--json")
    assert result.exit_code == 0
    assert (played["number"], played["player"], played["move"], played["written"]) == (1, "Ana", move, True)
    assert played["to_move"] == "Bo" and played["finished"] is False
    _, replayed = uptown.json("replay", new_record, "--json")
    assert replayed == [{key: played[key] for key in replayed[0]}]


# -- dry runs and hints write nothing ----------------------------------------------------------


def test_move_dry_run_writes_nothing(uptown, new_record):
    before = new_record.read_bytes()
    move = legal_moves(new_record)["moves"][0]
    result = uptown.invoke("move", new_record, *move.split(), "--dry-run")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Move 1: red (Ana) {move} (dry run: nothing was written)\n")
    assert new_record.read_bytes() == before
    assert uptown.invoke("move", new_record, "1", "I9", "--dry-run").exit_code == 1  # still checked


def test_hint_suggests_a_legal_move_and_writes_nothing(uptown, new_record):
    before = new_record.read_bytes()
    result, data = uptown.json("hint", new_record, "--bot", "greedy", "--json")
    assert result.exit_code == 0
    assert data["move"] in legal_moves(new_record)["moves"] and data["to_move"] == "Ana"
    text = uptown.invoke("hint", new_record, "--bot", "greedy").stdout
    assert text.splitlines()[1] == f"To play it: uptown move {new_record} {data['move']}"
    assert new_record.read_bytes() == before


def test_hint_asks_the_strongest_bot_unless_told(uptown, new_record):
    from uptown_cli.turns.bot_games import DEFAULT_LEVEL, LEVELS

    strongest = LEVELS[DEFAULT_LEVEL]
    result, data = uptown.json("hint", new_record, "--json")
    assert result.exit_code == 0 and data["bot"] == strongest.bot
    asked = uptown.json("hint", new_record, "--json", "--bot", strongest.bot, "--playouts",
                        str(strongest.playouts))[1]
    assert data == asked and data["move"] in legal_moves(new_record)["moves"]


def test_move_bot_mc_takes_playouts(uptown, new_record):
    assert uptown.invoke("move", new_record, "--bot", "mc", "--playouts", "2").exit_code == 0
    refused = uptown.invoke("move", new_record, "--bot", "greedy", "--playouts", "2")
    assert refused.exit_code == 2 and "--playouts goes with --bot mc" in refused.stderr


# -- shell completion, the pager, export -o ---------------------------------------------------


def complete(uptown, cwd, *words):
    env = dict(os.environ, _UPTOWN_COMPLETE="bash_complete", COMP_WORDS=" ".join(["uptown", *words]),
               COMP_CWORD=str(len(words)))
    result = subprocess.run([str(uptown.path)], env=env, cwd=cwd, capture_output=True, text=True, timeout=60)
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if line]


def test_move_completes_the_legal_moves_of_the_player_to_move(uptown, new_record):
    moves = legal_moves(new_record)["moves"]
    tiles = sorted({move.split()[0] for move in moves})
    assert complete(uptown, new_record.parent, "move", "") == tiles
    assert complete(uptown, new_record.parent, "move", "game.yaml", "") == tiles
    squares = sorted(move.split()[1] for move in moves if move.split()[0] == "9")
    assert complete(uptown, new_record.parent, "move", "9", "") == squares
    assert complete(uptown, new_record.parent, "move", "9", "B") == [s for s in squares if s.startswith("B")]


def test_file_and_as_complete_record_files_and_player_names(uptown, new_record):
    """FILE completes to records (and folders), in move as in every command; --as to the
    names of FILE's players, matched as records match names (ana is Ana)."""
    folder = new_record.parent
    (folder / "club.yaml").write_bytes(new_record.read_bytes())
    (folder / "cards.txt").write_text("not a record")
    tiles = sorted({move.split()[0] for move in legal_moves(new_record)["moves"]})
    assert complete(uptown, folder, "move", "c") == ["club.yaml", *[t for t in tiles if t.lower().startswith("c")]]
    assert complete(uptown, folder, "show", "c") == ["club.yaml"]
    assert complete(uptown, folder, "show", "club.yaml", "--as", "") == ["Ana", "Bo", "Cy"]
    assert complete(uptown, folder, "move", "club.yaml", "--as", "b") == ["Bo"]
    assert complete(uptown, folder, "moves", "--as", "C") == ["Cy"]  # game.yaml, the default
    assert complete(uptown, folder, "hint", "nosuch.yaml", "--as", "") == []


def test_replay_pages_on_a_terminal(monkeypatch):
    paged = []
    monkeypatch.setattr(output.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(click, "echo_via_pager", lambda text, color=None: paged.append(text))
    output.page("board")
    assert paged == ["board"]


def test_export_to_a_file(uptown, tmp_path):
    out = tmp_path / "moves.jsonl"
    result = uptown.invoke("export", IN_PROGRESS, "--jsonl", "-o", out)
    assert result.exit_code == 0 and result.stdout == ""
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 17 and rows[0]["move"] == 1
