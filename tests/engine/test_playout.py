"""Playouts: every move a policy draws is legal and of the best class it could be, and the
final scores are those the rules give."""

import random

import pytest
from support.engine_games import seeded_game

from uptown_cli.engine.geometry import NEIGHBOURS
from uptown_cli.engine.notation import PASS, Placement
from uptown_cli.engine.playout import (
    APART,
    CAPTURE,
    EMPTY,
    NOT_WILD,
    QUICK,
    TOUCHING,
    WILD,
    Playout,
)

LINE, SYMBOL = range(0, 18), range(18, 27)
"""Letters and numbers; the symbols."""
from uptown_cli.engine.scoring import standings


def class_of(policy, game, color, move):
    """The index in ``policy`` of the first class that holds ``move`` (a reference written from
    the class definitions, square by square)."""
    touching = (NEIGHBOURS[move.square] & game.mask(color)).bit_count()
    for index, (closeness, target, tiles) in enumerate(policy):
        close = {TOUCHING: touching >= 1, APART: touching == 0}
        if close[closeness] and (target == CAPTURE) == move.capture and move.tile in tiles:
            return index
    raise AssertionError(f"{move} is in no class")


MIXED = [
    (closeness, target, tiles)
    for closeness, target in ((TOUCHING, CAPTURE), (APART, EMPTY), (TOUCHING, EMPTY), (APART, CAPTURE))
    for tiles in (LINE, SYMBOL, WILD)
]
"""A policy that uses every kind of class, in another order than ``QUICK``: captures that join
first, letters and numbers before symbols before ``$``."""


@pytest.mark.parametrize("policy", [QUICK, MIXED], ids=["quick", "mixed"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_playout_draws_legal_moves_of_the_best_class_and_scores_by_the_rules(policy, players):
    for seed in range(3):
        game, bags = seeded_game(players, f"playout-{players}-{seed}")
        rng = random.Random(seed)
        while game.ply < 10 * seed:  # start some playouts mid-game
            color, move = rng.choice(game.legal_moves())
            game.play(move, color)
        variant = ("standard", "blockers")[seed % 2]
        playout = Playout(game, bags, variant)
        colors = game.colors
        while not game.finished:
            legal = game.legal_moves()
            chosen = playout.choose(policy, rng.random)
            if chosen is None:
                assert legal == [(game.to_move.colors[0], PASS)]
                playout.pass_turn()
                game.play(PASS)
                continue
            c, tile, sq = chosen
            color, move = colors[c], Placement(tile, sq, game.at(sq) is not None)
            assert (color, move) in legal
            best = min(class_of(policy, game, col, m) for col, m in legal)
            assert class_of(policy, game, color, move) == best
            playout.play(c, tile, sq)
            game.play(move, color)
        assert playout.results() == [(s.score, s.captures) for s in standings(game, variant)]


def test_quick_plays_the_wild_tile_only_when_no_other_tile_of_the_class_can_go():
    """``$`` goes anywhere: ``QUICK`` keeps it for when nothing else of its class fits."""
    assert list(WILD) == [27] and list(NOT_WILD) == list(range(27))
    assert [tiles for _, _, tiles in QUICK] == [NOT_WILD, WILD] * 4


@pytest.mark.parametrize("seed", range(6))
def test_a_playout_can_draw_each_move_of_the_best_class_once_for_each_share_of_chance(seed):
    """``choose`` draws the move numbered by its random number among the moves of the best
    class: the numbers spread evenly give each of those moves once."""
    game, bags = seeded_game(3, f"shares-{seed}")
    rng = random.Random(seed)
    while game.ply < 4 * seed:
        color, move = rng.choice(game.legal_moves())
        game.play(move, color)
    legal = game.legal_moves()
    best = min(class_of(QUICK, game, c, m) for c, m in legal)
    expected = sorted((game.colors.index(c), m.tile, m.square) for c, m in legal
                      if class_of(QUICK, game, c, m) == best)
    playout = Playout(game, bags)
    drawn = [playout.choose(QUICK, lambda i=i: (i + 0.5) / len(expected)) for i in range(len(expected))]
    assert sorted(drawn) == expected


def test_reset_goes_back_to_the_start_and_a_seeded_run_repeats():
    game, bags = seeded_game(3, "reset")
    playout = Playout(game, bags, "blockers")
    first = playout.run(MIXED, random.Random(4))
    playout.reset()
    assert playout.masks == [0, 0, 0] and playout.passes == 0
    assert playout.run(MIXED, random.Random(4)) == first


def test_a_playout_after_a_round_of_passes_is_over():
    game, bags = seeded_game(3, "passes")
    playout = Playout(game, bags)
    for _ in range(3):
        playout.pass_turn()
    assert playout.run(QUICK, random.Random(1)) == [(0, 0)] * 3


def test_a_playout_given_some_turns_plays_that_many_and_scores_where_it_stopped():
    game, bags = seeded_game(2, "turns")
    playout = Playout(game, bags)
    rng = random.Random(3)
    results = playout.run(QUICK, rng, plies=6)
    assert sum(playout.played) == 6  # nobody passes this early
    assert results == playout.results()
    assert playout.run(QUICK, rng, plies=0) == results  # no turn: nothing moves
    playout.reset()
    assert playout.run(QUICK, random.Random(3), plies=6) == results  # the same turns again
    assert sum(playout.played) == 6
    end = playout.run(QUICK, rng, plies=10_000)
    assert all(p == 24 for p in playout.played) and end == playout.results()


def test_a_round_of_passes_ends_a_playout_and_a_placement_breaks_one():
    """Two of three players pass: the playout goes on. A placement starts the count again;
    three passes in a row end it, with no move more."""
    game, bags = seeded_game(3, "passes")
    playout = Playout(game, bags)
    playout.pass_turn()
    playout.pass_turn()
    assert (playout.passes, playout.turn) == (2, 2)
    playout.play(*playout.choose(QUICK, random.Random(1).random))
    assert (playout.passes, playout.turn) == (0, 0)
    playout.pass_turn()
    playout.pass_turn()
    played = sum(playout.played)
    playout.run(QUICK, random.Random(2), plies=5)
    assert sum(playout.played) > played
    for _ in range(3):
        playout.pass_turn()
    played = list(playout.played)
    assert playout.run(QUICK, random.Random(3)) == playout.results() and playout.played == played


def test_a_playout_is_over_once_every_colour_has_played_its_tiles_or_a_round_of_passes():
    game, bags = seeded_game(3, "over")
    playout = Playout(game, bags)
    assert not playout.over()
    playout.pass_turn()
    playout.pass_turn()
    assert not playout.over()  # two passes of three
    playout.pass_turn()
    assert playout.over()
    playout.reset()
    playout.advance(QUICK, random.Random(5), plies=71)
    assert sum(playout.played) == 71 and not playout.over()  # one tile of one colour left
    playout.advance(QUICK, random.Random(5))
    assert all(p == 24 for p in playout.played) and playout.over()


def test_advance_plays_as_run_does_without_reading_the_scores():
    game, bags = seeded_game(2, "advance")
    playout = Playout(game, bags)
    results = playout.run(QUICK, random.Random(8), plies=12)
    masks = list(playout.masks)
    playout.reset()
    assert playout.advance(QUICK, random.Random(8), plies=12) is None
    assert playout.masks == masks and playout.results() == results
