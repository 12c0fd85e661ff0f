"""A game without a seed has unknown racks: what needs them says so with RacksUnknown (a
ValueError), never a TypeError from deep inside the engine."""

import pytest

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.errors import RacksUnknown
from uptown_cli.engine.notation import parse_move

PLAYERS = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]


def test_has_legal_placement_without_racks_says_they_are_unknown():
    game = Game(PLAYERS)
    game.play(parse_move("7 B7"))
    with pytest.raises(RacksUnknown, match="the racks are unknown"):
        game.has_legal_placement()
    with pytest.raises(RacksUnknown):
        game.legal_moves()
    assert issubclass(RacksUnknown, ValueError)


def test_has_legal_placement_with_racks():
    game = Game(PLAYERS, seeded_bags("0123", ["red", "blue", "green"]))
    assert game.has_legal_placement() is True


def test_a_pass_without_racks_is_still_recorded():
    game = Game(PLAYERS)
    game.play(parse_move("pass"))
    assert game.ply == 1
