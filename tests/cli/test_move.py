"""``uptown move``: the ways to write a move, FILE first or not, --as, --rack, --bot, refusals."""

import re
import pytest
from support.games import AT_LINE, BROKEN, UNSEEDED, finished_game, new_game

from uptown_cli.records.reading import load_record


@pytest.fixture
def game(new_record):
    return new_record


def recorded(path):
    return [(m.color, m.text) for m in load_record(path).moves]


def test_plays_appends_and_tells_what_next(uptown, game):
    result = uptown.invoke("move", game, "9", "B9")
    assert result.exit_code == 0
    assert recorded(game) == [("red", "9 B9")]
    out = result.stdout
    assert out.startswith("Move 1: red (Ana) 9 B9\n")
    assert " B |  .     .     .   |  .     .     .   |  .     .    [r9] | B" in out
    assert "red draws cards.\nBo to move, rack: blue C F 8 skyline car\n" in out


@pytest.mark.parametrize("words", [["9 B9"], ["9", "b9"]])
def test_ways_of_writing_a_move(uptown, game, words):
    assert uptown.invoke("move", game, *words).exit_code == 0
    assert recorded(game) == [("red", "9 B9")]


def test_aliases_and_lower_case_are_written_canonically(uptown, game):
    for words in (
        ["1", "a1"],
        ["CITY", "e5"],
        ["guy", "a2"],
        ["h", "h2"],
        ["dollar", "i9"],
        ["Lamp", "d1"],
    ):
        assert uptown.invoke("move", game, *words).exit_code == 0, words
    assert recorded(game) == [
        ("red", "1 A1"),
        ("blue", "skyline E5"),
        ("green", "man A2"),
        ("red", "H H2"),
        ("blue", "$ I9"),
        ("green", "sign D1"),
    ]


def test_file_is_the_first_word_when_it_names_a_record(uptown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    new_game(tmp_path / "game.yaml")
    assert uptown.invoke("move", "9", "B9").exit_code == 0
    assert recorded(tmp_path / "game.yaml") == [("red", "9 B9")]
    new_game(tmp_path / "club")
    assert uptown.invoke("move", "club", "9 B9").exit_code == 0
    assert recorded(tmp_path / "club") == [("red", "9 B9")]
    new_game(tmp_path / "env.yml")
    assert uptown.invoke("move", "1 A1", env={"UPTOWN_GAME": "env.yml"}).exit_code == 0
    assert recorded(tmp_path / "env.yml") == [("red", "1 A1")]
    missing = uptown.invoke("move", "other.yaml", "9 B9")
    assert (missing.exit_code, missing.stderr) == (
        1,
        "Error: other.yaml: no such file (uptown new creates a game)\n",
    )


@pytest.mark.parametrize(
    "words, message",
    [
        (["9", "B8"], "red plays 9 on B8, but 9 goes in column 9; nothing was written"),
        (["7", "B7"], "red has no 7 on its rack (H 1 3 8 9); nothing was written"),
        (["pass"], "Ana may not pass: red H H1 is legal; nothing was written"),
        (["7", "Z9"], "'Z9' is not a square (A1 to I9)"),
        (["seven", "B7"], "'seven' is not a tile"),
        (["9", "B9", "now"], "is not a move: write TILE SQUARE"),
    ],
)
def test_illegal_moves_exit_1_and_leave_the_file_untouched(uptown, game, words, message):
    before = game.read_bytes()
    result = uptown.invoke("move", game, *words)
    assert result.exit_code == 1
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""
    assert game.read_bytes() == before


def test_as_refuses_to_play_for_anyone_else(uptown, game):
    result = uptown.invoke("move", game, "9 B9", "--as", "Bo")
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: it is Ana's turn, not Bo's; nothing was written\n",
    )
    result = uptown.invoke("move", game, "9 B9", "--as", "Zed")
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: no player is named 'Zed' (players: Ana, Bo, Cy)\n",
    )
    assert recorded(game) == []
    assert uptown.invoke("move", game, "9 B9", "--as", "ana").exit_code == 0
    assert recorded(game) == [("red", "9 B9")]


def test_two_players_choose_the_rack_with_color(uptown, tmp_path):
    path = new_game(tmp_path / "two.yaml", "Ana", "Bo")
    result = uptown.invoke("move", path, "H H5")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: both red and green could play H: say which colour "
        "(name the rack: red 7 B7, or --rack); nothing was written\n"
    )
    wrong = uptown.invoke("move", path, "H H5", "--rack", "blue")
    assert (wrong.exit_code, wrong.stderr) == (1, "Error: Ana plays red and green, not blue\n")
    assert uptown.invoke("move", path, "H H5", "--rack", "purple").exit_code == 2
    assert uptown.invoke("move", path, "H H5", "--rack", "green").exit_code == 0
    assert uptown.invoke("move", path, "9 B9").exit_code == 1  # Bo's turn now, and 9 is not on his racks
    assert recorded(path) == [("green", "H H5")]


def test_a_tile_only_one_rack_holds_needs_no_color(uptown, tmp_path):
    path = new_game(tmp_path / "two.yaml", "Ana", "Bo")
    assert uptown.invoke("move", path, "man A1").exit_code == 0
    assert recorded(path) == [("green", "man A1")]


def test_the_last_move_prints_the_final_standings_and_then_refuses(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    game = finished_game(path)
    last = game.history[-1]
    text = path.read_text()
    path.write_text(text[: text.rindex("  - ")])
    result = uptown.invoke("move", path, str(last.move))
    assert result.exit_code == 0
    assert path.read_text() == text + AT_LINE
    text += AT_LINE
    assert re.search(r"The game is over: \w+ wins, with a score of \d+\.\nFinal standings:\n",
                     result.stdout)
    assert result.stdout.splitlines()[-5].split()[:3] == ["rank", "player", "colours"]
    again = uptown.invoke("move", path, str(last.move))
    assert (again.exit_code, again.stderr) == (
        1,
        f"Error: the game in {path} is over; nothing was written\n",
    )
    assert uptown.invoke("move", path, "--bot", "random").exit_code == 1
    assert path.read_text() == text


def test_bot(uptown, game):
    result = uptown.invoke("move", game, "--bot", "greedy")
    assert result.exit_code == 0
    assert len(recorded(game)) == 1 and recorded(game)[0][0] == "red"
    result = uptown.invoke("move", game, "--bot", "nope")
    assert result.exit_code == 2
    assert "Invalid value for '--bot': 'nope' is not one of 'random', 'greedy', 'mc', 'horizon'" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bot", "random", "9 B9"], "--bot chooses the move and its rack"),
        (["--bot", "random", "--rack", "red"], "--bot chooses the move and its rack"),
        ([], "which move?"),
        (["-", "9 B9"], "standard input cannot be used"),
    ],
)
def test_usage_errors(uptown, game, monkeypatch, args, message):
    monkeypatch.chdir(game.parent)
    result = uptown.invoke("move", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert recorded(game) == []


def test_comments_and_layout_are_kept(uptown, game):
    text = (
        game.read_text()
        .replace("players:", "players:   # in turn order")
        .replace("moves:", "# moves below\nmoves:")
    )
    game.write_text(text)
    assert uptown.invoke("move", game, "9 B9").exit_code == 0
    assert uptown.invoke("move", game, "C C5").exit_code == 0
    assert game.read_text() == text + f"  - red: 9 B9\n{AT_LINE}  - blue: C C5\n{AT_LINE}"


def test_a_game_without_a_seed(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(UNSEEDED)
    result = uptown.invoke("move", path, "7 C7")
    assert result.exit_code == 0
    assert (
        "green draws a tile (unknown: the game has no seed).\n"
        "Ana to move (red); racks unknown (no seed).\n" in result.stdout
    )
    assert recorded(path)[-1] == ("green", "7 C7")


def test_an_invalid_record_is_refused(uptown, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BROKEN)
    result = uptown.invoke("move", path, "9 B9")
    assert result.exit_code == 1
    assert "move 3: green plays 7 on B8" in result.stderr
    assert path.read_text() == BROKEN
