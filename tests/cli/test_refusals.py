"""Mistakes that must be refused in one line, leaving every file as it was."""

from pathlib import Path
import subprocess
import sys

import pytest
from support.games import new_game

ROOT = Path(__file__).resolve().parents[2]

RECORDS = ROOT / "records"
POSITION = RECORDS / "in-progress.yaml"


@pytest.mark.parametrize("command", [["svg"], ["html"], ["export"]])
def test_an_output_file_never_writes_over_a_record(uptown, tmp_path, game_file, command):
    game = game_file(POSITION.read_bytes())
    for target in (game, tmp_path / "other.yml"):
        result = uptown.invoke(*command, game, "--force", "-o", target)
        assert result.exit_code == 1
        assert "would write over a record; nothing was written" in result.stderr
    assert game.read_bytes() == POSITION.read_bytes()
    assert not (tmp_path / "other.yml").exists()


def test_export_with_nothing_to_export_leaves_an_old_output_file(uptown, tmp_path):
    old = tmp_path / "moves.csv"
    old.write_text("yesterday's rows\n")
    result = uptown.invoke("export", tmp_path / "nosuch.yaml", "--force", "-o", old)
    assert result.exit_code == 1
    assert old.read_text() == "yesterday's rows\n"


def test_as_names_the_player_to_move_in_an_open_game_too(uptown, tmp_path):
    game = new_game(tmp_path / "g.yaml")
    for command in (["moves"], ["hint", "--bot", "greedy"]):
        nobody = uptown.invoke(*command, game, "--as", "Nobody")
        assert nobody.exit_code == 1 and "no player is named 'Nobody'" in nobody.stderr
        wrong = uptown.invoke(*command, game, "--as", "Bo")
        assert wrong.exit_code == 1
        assert wrong.stderr == "Error: it is Ana's turn, not Bo's\n"
        assert uptown.invoke(*command, game, "--as", "ana").exit_code == 0


def test_hint_refuses_playouts_for_bots_without_playouts(uptown, tmp_path):
    game = new_game(tmp_path / "g.yaml")
    result = uptown.invoke("hint", game, "--bot", "greedy", "--playouts", "3")
    assert result.exit_code == 2 and "--playouts goes with --bot mc or --bot horizon" in result.stderr


def test_a_hint_on_a_finished_game_does_not_talk_of_writing(uptown):
    result = uptown.invoke("hint", RECORDS / "2p-standard.yaml")
    assert result.exit_code == 1
    assert result.stderr == f"Error: the game in {RECORDS / '2p-standard.yaml'} is over\n"


def test_diff_does_not_call_a_copy_that_shares_an_illegal_move_an_extension(uptown, tmp_path):
    shared = "uptown: 1\nplayers: [{name: A}, {name: B}, {name: C}]\nmoves:\n  - red: A B1\n"
    short, long = tmp_path / "a.yaml", tmp_path / "b.yaml"
    short.write_text(shared)
    long.write_text(shared + "  - blue: B A9\n")
    result = uptown.invoke("diff", short, long)
    assert result.exit_code == 1
    assert "but its move 1 is illegal" in result.stdout


def modules_after(args, names):
    """(exit status, which of ``names`` are loaded) once ``uptown ARGS`` has run in a fresh
    Python."""
    probe = ("import sys\nfrom uptown_cli.cli import main\n"
             f"try:\n    main({list(map(str, args))!r})\n"
             "except SystemExit as exc:\n    print(exc.code, file=sys.stderr)\n"
             f"print(sorted(set({list(names)!r}) & set(sys.modules)), file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    status, loaded = result.stderr.strip().splitlines()[-2:]
    return status, loaded


def test_show_of_a_finished_game_imports_no_tabulate():
    assert modules_after(["show", RECORDS / "2p-standard.yaml"], ["tabulate"])[1] == "[]"


LOADED_ONLY_WHEN_NEEDED = ("uptown_cli.fairplay.keys", "uptown_cli.fairplay.viewer",
                           "uptown_cli.fairplay.signatures", "uptown_cli.fairplay.memory",
                           "uptown_cli.fairplay.check", "uptown_cli.fairplay.draws",
                           "uptown_cli.analysis.bots", "uptown_cli.analysis.deals",
                           "uptown_cli.engine.clock", "uptown_cli.engine.late")
"""Modules of hidden racks, signed entries, bots and clocks, which a command on an open game
with no bots and no clock does without (docs/PERFORMANCE.md, start-up)."""


@pytest.mark.parametrize("command", [["moves"], ["score"], ["show"],
                                     ["move", "--dry-run", "H", "H1"]])
def test_an_open_game_is_read_and_played_without_the_modules_it_does_not_need(game_file, command):
    game = game_file(POSITION.read_bytes())
    assert modules_after([command[0], game, *command[1:]], LOADED_ONLY_WHEN_NEEDED) == ("0", "[]")


@pytest.mark.parametrize("command,name", [
    (["svg"], "board.svg"), (["html"], "game.html"), (["export"], "moves.csv"),
    (["send"], "move.eml"), (["analyze", "--annotate"], "annotated.yaml")])
def test_every_o_refuses_an_existing_file_unless_force(uptown, tmp_path, game_file, command, name):
    """One -o rule: a file that exists is refused, before any work, unless --force replaces it."""
    game = game_file(POSITION.read_bytes())
    if command[0] == "send":
        game = tmp_path / "mailed.yaml"
        uptown.invoke("new", game, "-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>",
                      "--seed", "1")
        command = ["send", "--as", "Ana"]
    old = tmp_path / name
    old.write_text("yesterday\n")
    result = uptown.invoke(command[0], game, *command[1:], "-o", old)
    assert result.exit_code == 1
    assert result.output == f"Error: -o {old} exists; add --force to replace it (nothing was done)\n"
    assert old.read_text() == "yesterday\n"
    if command[0] == "analyze":
        return  # replacing is tested in analysis/test_review.py, with a quicker review
    result = uptown.invoke(command[0], game, *command[1:], "-o", old, "--force")
    assert result.exit_code == 0, result.output
    assert old.read_text() != "yesterday\n"
