"""The player to move (turns.own_turn): who may move, the move played with its refusals, the
seed of a bot, and the warning naming passes no deal fits."""

import pytest

from uptown_cli.turns.own_turn import (player_to_move, secret_seed, suspect_warning, take_turn,
                                       unstamped)
from uptown_cli.engine.game import Game
from uptown_cli.engine.notation import parse_move
from uptown_cli.errors import IllegalMove, NotationError, ViewerError


def test_the_player_to_move_is_refused_to_anyone_else_and_in_a_finished_game():
    game = Game.new(["Ana", "Bo"], seed="s")
    assert player_to_move(game, None, "g.yaml").name == "Ana"
    assert player_to_move(game, "ana", "g.yaml").name == "Ana"  # names compared as records do
    with pytest.raises(ViewerError, match=r"^it is Ana's turn, not Bo's; nothing was written$"):
        player_to_move(game, "Bo", "g.yaml")
    with pytest.raises(ViewerError, match=r"^it is Ana's turn, not Bo's$"):
        player_to_move(game, "Bo", "g.yaml", writes=False)
    with pytest.raises(ViewerError, match="no player is named 'Cy'"):
        player_to_move(game, "Cy", "g.yaml")
    while not game.finished:
        game.play(*reversed(game.legal_moves()[0]))
    with pytest.raises(ViewerError, match=r"^the game in g.yaml is over; nothing was written$"):
        player_to_move(game, None, "g.yaml")


def test_a_capture_marked_on_an_empty_square_is_refused_with_the_way_to_write_it():
    game = Game.new(["Ana", "Bo", "Cy"], seed="s")
    color, move = game.legal_moves()[0]
    marked = parse_move(f"{str(move).split()[0]} x{str(move).split()[1]}")
    with pytest.raises(NotationError, match=rf"marks a capture, but .* is empty \(write {move}\)"):
        take_turn(game, marked, None)
    assert game.ply == 0
    turn, link = take_turn(game, move, None)
    assert (turn.number, turn.color, turn.move, link) == (1, color, move, None)


def test_a_move_both_racks_could_play_asks_for_the_rack():
    game = Game.new(["Ana", "Bo"], seed="1")  # both of Ana's racks hold a tile of one name
    both = {}
    for color, move in game.legal_moves():
        both.setdefault(move, set()).add(color)
    move = next(move for move, colors in both.items() if len(colors) == 2)
    with pytest.raises(IllegalMove, match=r"\(name the rack: red 7 B7, or --rack\)$"):
        take_turn(game, move, None)
    assert take_turn(game, move, sorted(both[move])[0])[0].color == sorted(both[move])[0]


def test_an_open_games_bot_seed_ignores_when_moves_were_made():
    timed = 'moves:\n  - red: 7 B7\n    at: "2026-12-01T12:00:00Z"\n    by: Bo\n    bot: greedy\n'
    assert unstamped(timed) == "moves:\n  - red: 7 B7\n"
    assert unstamped("moves:\n  - red: 7 B7\n") == "moves:\n  - red: 7 B7\n"


def test_a_hidden_games_bot_seed_comes_from_the_movers_key():
    class Written:
        text = "uptown: 1\n"

    seeds = {secret_seed(key, Written) for key in (b"1" * 32, b"2" * 32)}
    assert len(seeds) == 2


def test_the_warning_names_each_players_passes_no_deal_fits():
    game = Game.new(["Ana", "Bo", "Cy"])
    assert suspect_warning([]) is None
    bo, cy = game.players[1], game.players[2]

    class Pass:
        def __init__(self, player, number):
            self.player, self.number = player, number

    assert suspect_warning([Pass(bo, 5)]) == (
        "Warning: Bo's pass at move 5 looks unforced; checked when Bo reveals")
    assert suspect_warning([Pass(bo, 5), Pass(bo, 8), Pass(cy, 9)]) == (
        "Warning: one of Bo's passes (moves 5, 8) and Cy's pass at move 9 look unforced; "
        "checked when Bo and Cy reveal")
