"""Forfeits (docs/DEADLINES.md, "Forfeit in the rules"): a forfeited player's turns are
skipped, their tiles stay, the game ends among the players still in play, and they rank last."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uptown_cli.engine.game import Game
from uptown_cli.engine.notation import PASS
from uptown_cli.engine.scoring import standings
from uptown_cli.errors import IllegalMove

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


def first_move(game):
    color, move = game.legal_moves()[0]
    return game.play(move, color)


@pytest.mark.parametrize("count", [3, 4, 5])
def test_a_forfeited_players_turns_are_skipped_and_their_tiles_stay(count):
    game = Game.new(NAMES[:count], seed="f")
    first_move(game)
    bo_tiles = dict(game.board)
    turn = game.forfeit()
    assert (turn.number, turn.player.name, turn.move) == (2, "Bo", PASS)
    assert game.forfeited == [("Bo", 2)] and game.board == bo_tiles
    in_play = [name for name in NAMES[:count] if name != "Bo"]
    for k in range(2 * count):  # the others in seat order, from Cy's turn on
        assert game.to_move.name == in_play[(1 + k) % len(in_play)]
        first_move(game)


def test_with_two_players_a_forfeit_ends_the_game_and_the_forfeiter_ranks_last():
    game = Game.new(NAMES[:2], seed="f")
    first_move(game)
    game.forfeit()
    assert game.finished and game.to_move is None
    ranks = {s.name: (s.rank, s.forfeit) for s in standings(game)}
    assert ranks == {"Ana": (1, None), "Bo": (2, 2)}
    with pytest.raises(IllegalMove):
        game.forfeit()


def test_a_later_forfeit_ranks_above_an_earlier_and_below_every_player_in_play():
    game = Game.new(NAMES[:4], seed="g")
    game.forfeit()  # Ana at move 1
    first_move(game)  # Bo
    game.forfeit()  # Cy at move 3
    ranks = {s.name: s.rank for s in standings(game)}
    assert ranks["Ana"] == 4 and ranks["Cy"] == 3 and {ranks["Bo"], ranks["Di"]} <= {1, 2}


def test_a_round_of_passes_among_the_players_in_play_ends_the_game():
    game = Game.new(NAMES[:3], seed="h")
    game.forfeit()
    game.play(PASS, stand_in=True)  # Bo, passed for by another
    assert not game.finished
    game.play(PASS, stand_in=True)  # Cy
    assert game.finished


def test_a_pass_written_for_a_player_is_allowed_with_tiles_to_place_and_a_forced_pass_is_not():
    game = Game.new(NAMES[:2], seed="i")
    with pytest.raises(IllegalMove):
        game.play(PASS)
    turn = game.play(PASS, stand_in=True)
    assert turn.move == PASS and game.to_move.name == "Bo"


def test_a_forfeit_is_taken_back_by_pop_and_rewind():
    game = Game.new(NAMES[:3], seed="j")
    first_move(game)
    game.forfeit()
    first_move(game)
    game.pop()
    game.pop()
    assert game.forfeited == [] and game.to_move.name == "Bo"
    game.forfeit()
    copied = game.copy()
    assert copied.forfeited == [("Bo", 2)] and copied.to_move.name == "Cy"
    game.rewind()
    assert game.forfeited == [] and copied.forfeited == [("Bo", 2)]


def test_redo_plays_forfeits_and_stand_in_passes_again_as_they_were_played():
    game = Game.new(NAMES[:3], seed="j")
    first_move(game)
    game.forfeit()
    game.play(PASS, stand_in=True)                  # Cy, with tiles he could place
    first_move(game)
    history, forfeited = list(game.history), list(game.forfeited)
    assert [turn.kind for turn in history] == ["move", "forfeit", "stand-in", "move"]
    for turn in game.rewind():
        game.redo(turn)
    assert game.history == history and game.forfeited == forfeited


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 5), seed=st.integers(0, 10**6), plan=st.lists(st.integers(0, 9), max_size=60))
def test_forfeits_anywhere_keep_the_turn_order_the_end_and_the_undo_right(count, seed, plan):
    """Random games with forfeits at random (a step of 0 is a forfeit): the player to move never
    has forfeited, the game ends exactly when fewer than two are left or a round of passes or
    every colour in play is done, and taking everything back gives the start again."""
    game = Game.new(NAMES[:count], seed=str(seed))
    for step in plan:
        if game.finished:
            break
        if step == 0:
            game.forfeit()
        else:
            first_move(game)
        out = {name for name, _ in game.forfeited}
        playing = [p for p in game.players if p.name not in out]
        if len(playing) < 2:
            assert game.finished
        if not game.finished:
            assert game.to_move.name not in out
        ranks = {s.name: s.rank for s in standings(game)}
        assert all(ranks[name] > len(playing) for name in out)
        assert all(ranks[p.name] <= len(playing) for p in playing)
    game.rewind()
    assert game.forfeited == [] and game.ply == 0 and game.to_move.name == "Ana" and not game.board
