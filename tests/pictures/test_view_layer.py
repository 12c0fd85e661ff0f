"""One view layer: ``pictures.text`` renders turns, racks and draws for open and hidden games
with the viewer as an argument; ``fairplay.viewer`` knows who the viewer is (no click)."""

import re

import pytest
from support.games import new_game

from uptown_cli.engine.geometry import tile_name
from uptown_cli.errors import KeyFileError, ViewerError
from uptown_cli.pictures.text import drawn_text, position_data, to_move_text
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay
from uptown_cli.fairplay.viewer import HiddenView, player_view
from uptown_cli.records.names import player_named


@pytest.fixture
def hidden_game(uptown, tmp_path):
    """A hidden two-player game both players have joined (one key folder holds both keys)."""
    path = tmp_path / "hidden.yaml"
    assert uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo").exit_code == 0
    for name in ("Ana", "Bo"):
        assert uptown.invoke("join", path, "--as", name).exit_code == 0
    return path


def test_an_open_game_is_rendered_for_everyone_alike(tmp_path):
    record = load_record(new_game(tmp_path / "open.yaml"))
    game = replay(record).game
    assert to_move_text(game).startswith("Ana to move, rack: red ")
    assert position_data(game)["racks"]["red"]


def test_a_hidden_game_shows_no_rack_to_the_public(hidden_game):
    record = load_record(hidden_game)
    game = replay(record).game
    view = HiddenView(record)
    assert to_move_text(game, view) == ("Ana to move.\n"
                                        "Racks are hidden (with --as NAME, a player sees their own).")
    data = position_data(game, view)
    assert data["racks"] is None and data["to_come"] is None and data["to_reveal"] == ["Ana", "Bo"]


def test_a_player_sees_their_own_racks_and_no_one_elses(hidden_game):
    record = load_record(hidden_game)
    game = replay(record).game
    view = player_view(record, "ana", None)
    assert view.name == "Ana"
    text = to_move_text(game, view)
    assert text.startswith("Ana to move.\nAna's rack: red ") and "blue" not in text
    assert set(position_data(game, view)["racks"]) == {"red", "green"}


def test_a_hidden_draw_is_told_as_coming_later(uptown, hidden_game, tmp_path):
    """move renders the mover's turn with the mover's view: the tile drawn is not told yet,
    and the mover's racks left are shown with the draw to come."""
    result = uptown.invoke("move", hidden_game, "--bot", "greedy", "--as", "Ana")
    assert result.exit_code == 0, result.output
    assert "draws a tile once the next player has moved;\nthen uptown show --as Ana shows it." in (
        result.stdout)
    rack = re.search(r"\nBo to move\.\nAna's rack: red (.+); green (.+)\n"
                     r"\(\+\? is drawn when the next player has moved\.\)\n$", result.stdout)
    assert rack is not None, result.stdout
    racks = sorted(part.split() for part in rack.groups())
    assert sorted(len(r) for r in racks) == [5, 5] and sum(r[-1] == "+?" for r in racks) == 1
    seeded = replay(load_record(new_game(tmp_path / "open.yaml"))).game
    color, move = seeded.legal_moves()[0]
    turn = seeded.play(move, color)
    assert drawn_text(seeded, turn) == f"{color} draws {tile_name(turn.drawn)}."


def test_before_everyone_joined_the_state_says_who_joins_next(uptown, tmp_path):
    path = tmp_path / "waiting.yaml"
    uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo")
    record = load_record(path)
    game = replay(record).game
    assert to_move_text(game, HiddenView(record)).startswith("Waiting for Ana and Bo to join")
    assert position_data(game, HiddenView(record))["to_move"] is None


def test_the_viewer_errors_are_library_errors(hidden_game, tmp_path, monkeypatch):
    record = load_record(hidden_game)
    with pytest.raises(ViewerError, match="no player is named 'Cy'"):
        player_named(record.players, "Cy")
    monkeypatch.setenv("UPTOWN_KEYS", str(tmp_path / "elsewhere"))
    with pytest.raises(KeyFileError, match="Ana's commitment was not made with a key of yours"):
        player_view(record, "Ana", None)


def _standing(name, score, rank, captures=0):
    from uptown_cli.engine.scoring import Standing

    return Standing(name, ("red",), score, captures, {}, score, rank)


def test_the_result_names_the_winner_the_tie_break_and_a_shared_first_place():
    from uptown_cli.pictures.text import winner_text

    assert winner_text([_standing("Ana", 4, 2), _standing("Bo", 3, 1)]) == (
        "The game is over: Bo wins, with a score of 3.")
    assert winner_text([_standing("Ana", 3, 2, 5), _standing("Bo", 3, 1, 2)]) == (
        "The game is over: Bo wins on fewer captures, with a score of 3.")
    assert winner_text([_standing("Ana", 3, 1), _standing("Bo", 3, 1), _standing("Cy", 5, 3)]) == (
        "The game is over: Ana and Bo share first place, with a score of 3.")
