"""``uptown moves``: the legal moves of the player to move, as a table or JSON."""

import textwrap

import pytest
from hypothesis import given, strategies as st
from support.games import BROKEN, TWO, UNSEEDED, finished_game, new_game

from uptown_cli.cli.output import wrap_words
from uptown_cli.engine.geometry import SQUARE_NAMES
from uptown_cli.engine.notation import PASS
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay
from uptown_cli.pictures.text import moves_data


@pytest.fixture
def game(record_after):
    return record_after(5)


def test_json_is_the_engines_legal_moves(uptown, game):
    engine = replay(load_record(game)).game
    result, data = uptown.json("moves", game, "--json")
    assert result.exit_code == 0
    legal = [str(move) for _, move in engine.legal_moves()]
    assert data == {"to_move": "Cy", "moves": legal, "by_color": {"green": legal}}
    assert any(" x" in m for m in legal)


def test_two_players_list_both_colours(uptown, tmp_path):
    path = new_game(tmp_path / "two.yaml", "Ana", "Bo")
    data = uptown.json("moves", path, "--json")[1]
    assert data["to_move"] == "Ana"
    assert set(data["by_color"]) == {"red", "green"}
    red, green = set(data["by_color"]["red"]), set(data["by_color"]["green"])
    both = red & green
    assert both  # both racks hold an H at the start of this game
    expected = (red ^ green) | {f"{color} {move}" for move in both for color in ("red", "green")}
    assert sorted(data["moves"]) == sorted(expected)


@pytest.mark.parametrize("as_one_argument", [True, False], ids=["one argument", "words"])
def test_two_player_moves_are_taken_by_move_as_they_are(uptown, tmp_path, as_one_argument):
    path = new_game(tmp_path / "two.yaml", "Ana", "Bo")
    data = uptown.json("moves", path, "--json")[1]
    ambiguous = next(move for move in data["moves"] if move.startswith("green "))
    words = [ambiguous] if as_one_argument else ambiguous.split()
    result = uptown.invoke("move", path, *words)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Move 1: green (Ana) {ambiguous.split(' ', 1)[1]}")


def test_table(uptown, game):
    result = uptown.invoke("moves", game)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    count = len(uptown.json("moves", game, "--json")[1]["moves"])
    assert lines[0] == f"Cy to move (green): {count} legal moves"
    assert lines[1].split() == ["colour", "tile", "squares"]
    assert all(line.startswith("green ") for line in lines[3:])
    assert "| colour " in uptown.invoke("moves", game, "--format", "pipe").stdout


def test_after_the_end(uptown, tmp_path):
    path = tmp_path / "f.yaml"
    finished_game(path, TWO)
    result, data = uptown.json("moves", path, "--json")
    assert result.exit_code == 0
    assert data["to_move"] is None and data["moves"] == []
    assert uptown.invoke("moves", path).stdout == "The game is over: there are no moves.\n"


def test_after_the_end_of_a_game_without_a_seed(uptown, tmp_path):
    path = tmp_path / "f.yaml"
    finished_game(path)
    path.write_text(
        "".join(line for line in path.read_text().splitlines(True) if not line.startswith("seed:"))
    )
    result, data = uptown.json("moves", path, "--json")
    assert (result.exit_code, data) == (0, {"to_move": None, "moves": [], "by_color": {}})


def test_a_forced_pass_is_the_single_move_pass(game):
    engine = replay(load_record(game)).game
    first = engine.to_move.colors[0]
    assert moves_data(engine, [(first, PASS)]) == {
        "to_move": "Cy",
        "moves": ["pass"],
        "by_color": {"green": ["pass"]},
    }


def test_without_a_seed(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(UNSEEDED)
    result = uptown.invoke("moves", path)
    assert result.exit_code == 1
    assert result.stderr == f"Error: {path} has no seed, so the racks and legal moves are unknown\n"


def test_errors(uptown, tmp_path):
    """A broken record and a missing one: one line naming the file, status 1; a bad option:
    click's usage error, status 2; nothing on standard output."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN)
    broken = uptown.invoke("moves", bad)
    assert (broken.exit_code, broken.stdout) == (1, "")
    assert broken.stderr.startswith(f"Error: {bad}:") and broken.stderr.count("\n") == 1
    missing = uptown.invoke("moves", tmp_path / "none.yaml")
    assert (missing.exit_code, missing.stdout) == (1, "")
    assert missing.stderr == f"Error: {tmp_path / 'none.yaml'}: no such file (uptown new creates a game)\n"
    option = uptown.invoke("moves", bad, "--format", "nope")
    assert (option.exit_code, option.stdout) == (2, "")
    assert "Invalid value for '--format': 'nope'" in option.stderr


@given(st.lists(st.sampled_from(SQUARE_NAMES + tuple("x" + name for name in SQUARE_NAMES))),
       st.integers(min_value=3, max_value=60))
def test_the_squares_wrap_as_textwrap_would_wrap_them(squares, width):
    text = " ".join(squares)
    assert wrap_words(text, width) == textwrap.wrap(text, width)
