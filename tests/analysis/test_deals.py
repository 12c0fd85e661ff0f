"""A player's view (``analysis.deals``) is re-dealt, not replayed: it is the game its sampled
bags give when every move is played again, and what it learns of the opponents' passes it
learns by taking the board back, not by playing the moves again."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.engine_games import assert_same_games, random_game, replayed, table_of

from uptown_cli.analysis import deals
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game
from uptown_cli.engine.geometry import FIT_SQUARES
from uptown_cli.engine.notation import PASS, Placement
from uptown_cli.engine.passes import can_place, stuck_tiles

GAMES = {"players": st.integers(2, 5), "seed": st.integers(0, 10**6),
         "plies": st.integers(0, 130), "deal": st.integers(0, 10**6)}
"""A random game (to its end, from 96 plies on) and the seed of a deal. Random legal games
(their racks known) do not pass: passes come with ``public_game_with_passes``."""
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(**GAMES)
def test_a_sampled_view_is_the_game_its_bags_give_played_again(players, seed, plies, deal):
    game = random_game(players, seed, plies)
    if game.finished:
        return
    view = game.redealt(deals.sample_bags(game, random.Random(deal)))
    again = replayed(game, deals.sample_bags(game, random.Random(deal)))
    for color in game.to_move.colors:
        assert view.racks[color] == game.racks[color]
    assert_same_games(view, again, random.Random(deal))


@SLOW
@given(**GAMES)
def test_a_movers_imagined_game_is_the_game_its_bags_give_played_again(players, seed, plies,
                                                                         deal):
    """From the public game (racks unknown, as a hidden game is replayed): the mover's own
    racks as they are, the others' as sampled, the board, captures, turn and legal moves those
    bags give when the moves are played again."""
    game = random_game(players, seed, plies)
    if game.finished:
        return
    public, me = replayed(game, None), game.to_move
    own = seeded_bags(str(seed), me.colors)  # as random_game dealt them
    view, set_aside = deals.imagined_game(public, me, own, random.Random(deal))
    bags = deals._bags(public, me, own.__getitem__, deals._played(public), random.Random(deal))[0]
    assert set_aside == []
    assert {color: view.racks[color] for color in me.colors} == {
        color: game.racks[color] for color in me.colors}
    assert_same_games(view, replayed(public, bags), random.Random(deal))


def public_game_with_passes(players, seed, plies):
    """A game with racks unknown, as the public replays a hidden game, after about ``plies``
    random moves, in which every player but the one to move at the end (seat ``seed`` modulo
    ``players``) sometimes passes, forced or not (the public cannot tell)."""
    table = table_of(players)
    game, rng, me = Game(table), random.Random(seed), table[seed % players]
    while not game.finished and (game.ply < plies or game.to_move != me):
        player = game.to_move
        placements = [(color, Placement(tile, square)) for color in player.colors
                      if game.playable(color) for tile in game.unplayed_tiles(color)
                      for square in FIT_SQUARES[tile] if can_place(game, color, tile, square)]
        if not placements or (player != me and rng.random() < 0.1):
            game.play(PASS)
        else:
            color, move = rng.choice(placements)
            game.play(move, color)
    return game


def limits_replayed(game, me):
    """``deals._pass_limits`` worked out on the moves played again, by ``stuck_tiles`` (what a
    record check asks of a pass)."""
    board, limits = Game(game.players), {}
    for turn in game.history:
        if turn.move.is_pass and turn.player != me:
            for color, (_, fit_nowhere) in stuck_tiles(board, turn.player).items():
                steps = limits.setdefault(color, {})
                step = board.played_count(color)
                steps[step] = steps.get(step, fit_nowhere) & fit_nowhere
        board.play(turn.move, turn.color)
    return limits


@SLOW
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), plies=st.integers(0, 130))
def test_the_pass_limits_taken_back_are_those_of_the_moves_played_again(players, seed, plies):
    game = public_game_with_passes(players, seed, plies)
    for me in game.players:
        assert deals._pass_limits(game, me) == limits_replayed(game, me)


def test_a_view_after_passes_plays_no_move_again(monkeypatch):
    """The mover's view of a game in which others passed (unforced here: no deal fits them,
    so they are set aside) is made without playing a move: the passes are found by taking
    the board back, and kept in the view as played."""
    game = public_game_with_passes(3, 4, 40)
    me = game.to_move
    passes = [turn for turn in game.history if turn.move.is_pass]
    assert passes and all(turn.player != me for turn in passes)
    played = deals._played(game)
    own = {color: deals._sample_bag(played[color], {}, random.Random(1)) for color in me.colors}

    def no_play(*args, **kwargs):
        raise AssertionError("a move was played again")

    monkeypatch.setattr(Game, "play", no_play)
    view, set_aside = deals.imagined_game(game, me, own, random.Random(2))
    assert set_aside == passes
    assert [(turn.color, turn.move) for turn in view.history] == [
        (turn.color, turn.move) for turn in game.history]
    assert view.board == game.board and view.to_move == me and view.passes == game.passes
    for color in me.colors:
        drawn = own[color][:min(28, 5 + game.played_count(color))]
        assert view.racks[color] == sorted(set(drawn) - set(played[color]))


def test_a_forfeit_is_not_taken_for_a_pass_its_player_was_forced_to():
    """A forfeit (by the player, or written for them once out of time) is a pass on the board
    but says nothing of their rack: no view sets it aside as unforced."""
    game = random_game(3, 5, 4)
    public = replayed(game, None)
    public.forfeit()
    me = public.to_move
    _view, set_aside = deals.imagined_game(public, me, seeded_bags("5", me.colors),
                                           random.Random(1))
    assert set_aside == []
