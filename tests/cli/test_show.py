"""``uptown show`` and ``uptown replay``: the board, the players, --at, --from/--to, colour."""

import re

import pytest
from support.games import BROKEN, UNSEEDED, finished_game, new_game

from uptown_cli.cli import output
from uptown_cli.engine.geometry import tile_name
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay
from uptown_cli.pictures.text import board_text

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def finished(finished_record):
    return finished_record[0]


@pytest.fixture
def game(record_after):
    return record_after(4)


def test_show_board_players_and_rack(uptown, game):
    result = uptown.invoke("show", game)
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith(f"{game}: standard, after 4 of 4 moves\n")
    assert "      1     2     3      4     5     6      7     8     9" in out
    for row in "ABCDEFGHI":
        assert re.search(rf"^ {row} \|.*\| {row}$", out, re.M)
    assert "+-- man ---" in out and "+-- champagne ---" in out
    assert "Colours: r red (Ana)  b blue (Bo)  g green (Cy)" in out
    assert "Last move [in brackets]: move 4, red (Ana)" in out
    assert out.count("[r") == 1
    assert re.search(r"^\*\s+Bo\s+blue\s+23\s", out, re.M)
    assert "Bo to move, rack: blue " in out
    assert all(len(line) <= 80 for line in out.splitlines()[1:])


def test_show_at(uptown, game):
    result = uptown.invoke("show", game, "--at", 0)
    assert result.exit_code == 0
    assert "after 0 of 4 moves" in result.stdout
    assert "Ana to move" in result.stdout
    assert "Last move" not in result.stdout


def test_show_json(uptown, game):
    result, data = uptown.json("show", game, "--json")
    assert result.exit_code == 0
    assert set(data) >= {"moves", "finished", "to_move", "board", "racks", "bags"}
    assert data["moves"] == 4 and data["finished"] is False and data["to_move"] == "Bo"
    assert data["board"] == {
        "A1": {"color": "red", "tile": "1"},
        "C1": {"color": "blue", "tile": "C"},
        "H1": {"color": "green", "tile": "H"},
    }
    assert {c: len(r) for c, r in data["racks"].items()} == {"red": 5, "blue": 5, "green": 5}
    assert data["bags"] == {"red": 21, "blue": 22, "green": 22}


def test_show_json_without_a_seed(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(UNSEEDED)
    result, data = uptown.json("show", path, "--json")
    assert data == {
        "moves": 2,
        "finished": False,
        "to_move": "Cy",
        "board": {"B7": {"color": "red", "tile": "7"}, "E8": {"color": "blue", "tile": "sax"}},
        "racks": None,
        "bags": None,
    }
    assert "Cy to move (green); racks unknown (no seed)." in uptown.invoke("show", path).stdout


def test_show_finished_game(uptown, finished):
    result = uptown.invoke("show", finished)
    assert result.exit_code == 0
    assert re.search(r"The game is over: \w+ wins, with a score of \d+\.$", result.stdout.rstrip())
    assert uptown.json("show", finished, "--json")[1]["to_move"] is None


def test_show_reads_standard_input(uptown, finished):
    result = uptown.invoke("show", "-", "--json", input=finished.read_bytes())
    assert result.exit_code == 0
    assert '"finished": true' in result.stdout


def test_show_defaults_to_game_yaml_or_uptown_game(uptown, game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert uptown.invoke("show").exit_code == 0
    other = tmp_path / "other.yaml"
    other.write_text(UNSEEDED)
    assert "after 2 of 2 moves" in uptown.invoke("show", env={"UPTOWN_GAME": str(other)}).stdout


def test_show_format(uptown, game):
    assert "| player " in uptown.invoke("show", game, "--format", "github").stdout
    result = uptown.invoke("show", game, "--format", "nope")
    assert result.exit_code == 2
    assert "'--format': 'nope': try plain" in result.stderr


@pytest.mark.parametrize("command", ["show", "replay"])
def test_errors(uptown, command, tmp_path):
    missing = uptown.invoke(command, tmp_path / "none.yaml")
    assert (missing.exit_code, missing.stderr) == (
        1,
        f"Error: {tmp_path / 'none.yaml'}: no such file (uptown new creates a game)\n",
    )
    folder = uptown.invoke(command, tmp_path)
    assert folder.exit_code == 1 and "Is a directory" in folder.stderr
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    broken = uptown.invoke(command, path)
    assert broken.exit_code == 1
    assert broken.stderr == (
        f"Error: {path}:10: move 3: green plays 7 on B8, but 7 goes in column 7"
        " (the record is invalid)\n"
    )
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("uptown: 1\nuptown: 1\n")
    result = uptown.invoke(command, bad_yaml)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {bad_yaml}:2: ")
    assert result.stderr.count("\n") == 1


def test_show_at_out_of_range(uptown, game):
    result = uptown.invoke("show", game, "--at", 5)
    assert result.exit_code == 2
    assert "has 4 moves, not 5" in result.stderr
    assert uptown.invoke("show", game, "--at", -1).exit_code == 2


def test_colour_only_on_a_terminal_and_never_with_no_color(uptown, game, monkeypatch):
    class Terminal:
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert not ANSI.search(uptown.invoke("show", game).stdout)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setattr(output.sys, "stdout", Terminal())
    assert output.use_color()
    assert not output.use_color(no_color=True)
    assert not output.use_color("never")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not output.use_color()
    assert output.use_color("always")


def test_force_color_paints_off_a_terminal(uptown, game, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert ANSI.search(uptown.invoke("show", game).stdout)
    assert not ANSI.search(uptown.invoke("show", game, "--color", "never").stdout)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not ANSI.search(uptown.invoke("show", game).stdout)
    assert ANSI.search(uptown.invoke("show", game, "--color", "always").stdout)


def test_coloured_board_has_the_same_layout(tmp_path):
    game = finished_game(tmp_path / "g.yaml")
    plain = board_text(game)
    coloured = board_text(game, use_color=True)
    assert "\x1b[31m" in coloured
    assert ANSI.sub("", coloured) == plain


def test_replay_heads_every_position(uptown, game):
    result = uptown.invoke("replay", game)
    assert result.exit_code == 0
    headings = re.findall(r"^Move (\d+): (\w+) \((\w+)\) ", result.stdout, re.M)
    assert headings == [
        ("1", "red", "Ana"),
        ("2", "blue", "Bo"),
        ("3", "green", "Cy"),
        ("4", "red", "Ana"),
    ]
    assert result.stdout.startswith("Colours: r red (Ana)")
    assert result.stdout.count("+-- man ---") == 4


def test_replay_names_captures(uptown, finished):
    game = replay(load_record(finished)).game
    turn = next(t for t in game.history if t.captured)
    out = uptown.invoke("replay", finished, "--from", turn.number, "--to", turn.number).stdout
    victim, tile = turn.captured
    assert f"Move {turn.number}: {turn.color} (" in out
    assert f"{turn.move}, captures {victim} {tile_name(tile)}\n" in out
    assert "x" in str(turn.move)
    assert out.count("Move ") == 1


def test_replay_range(uptown, game):
    out = uptown.invoke("replay", game, "--from", 2, "--to", 3).stdout
    assert re.findall(r"^Move (\d+):", out, re.M) == ["2", "3"]


def test_replay_without_moves(uptown, tmp_path):
    path = new_game(tmp_path / "g.yaml")
    result = uptown.invoke("replay", path)
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith("No moves yet.")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--to", 5], "has 4 moves, not 5"),
        (["--from", 4, "--to", 2], "4 is after the last move shown (2)"),
        (["--from", 0], "0 is not in the range"),
    ],
)
def test_replay_range_errors(uptown, game, args, message):
    result = uptown.invoke("replay", game, *args)
    assert result.exit_code == 2
    assert message in result.stderr
