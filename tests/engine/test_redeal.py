"""``Game.redealt``: a position already played, dealt other bags without playing its moves
again, is the game those bags give when the moves are played one by one."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.engine_games import assert_same_games, game_colors, random_game, replayed, shown

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.notation import PASS, parse_move
from uptown_cli.errors import SetupError


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6), plies=st.integers(0, 130),
       other=st.integers(0, 10**6))
def test_a_game_redealt_its_own_bags_is_the_game_as_played(players, seed, plies, other):
    """Dealt its own bags, a game is itself (racks, draws in its history, and every move
    after, played and taken back); dealt None, it is the game with its racks unknown."""
    game = random_game(players, seed, plies)
    bags = seeded_bags(str(seed), game.colors)
    assert_same_games(game.redealt(bags), replayed(game, bags), random.Random(other))
    assert_same_games(game.redealt(None), replayed(game, None), random.Random(other))


def test_a_redealt_game_is_a_copy_the_game_does_not_share():
    game = random_game(3, 1, 20)
    before = shown(game)
    copy = game.redealt(seeded_bags("1", game.colors))
    while not copy.finished:
        copy.play(*reversed(copy.legal_moves()[0]))
    assert shown(game) == before


def test_bags_that_had_not_drawn_a_tile_placed_are_refused():
    players = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]
    game = Game(players)
    game.play(parse_move("A A1"))
    a_last = {"red": list(range(1, 28)) + [0], "blue": list(range(28)),
              "green": list(range(28))}  # A is tile 0
    with pytest.raises(SetupError, match="red's bag had not drawn A by move 1"):
        game.redealt(a_last)


def test_a_pass_is_kept_as_played_though_the_new_racks_could_place_a_tile():
    """Re-dealing checks no pass: a view of a hidden game keeps a pass no deal fits."""
    players = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]
    game = Game(players)
    for text in ("A A1", "pass", "B B1"):
        game.play(parse_move(text))
    view = game.redealt({color: list(range(28)) for color in game_colors(players)})
    assert [turn.move for turn in view.history] == [turn.move for turn in game.history]
    assert view.history[1].move == PASS and view.passes == 0
    assert view.racks == {"red": [1, 2, 3, 4, 5], "blue": [0, 1, 2, 3, 4],
                          "green": [0, 2, 3, 4, 5]}
    assert [turn.drawn for turn in view.history] == [5, None, 5]
