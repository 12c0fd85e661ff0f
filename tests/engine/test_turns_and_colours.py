"""Whose turn it is, with which colour, and when a colour or the game is done: the rules a
wrong index or a turned comparison would break without another test noticing."""

import pytest

from uptown_cli.engine.game import TILES_PLAYED_PER_COLOR, Game, Player
from uptown_cli.engine.geometry import FIT, parse_tile, squares_of
from uptown_cli.engine.notation import Placement, parse_move
from uptown_cli.errors import IllegalMove, Reason

TWO = [Player("Ana", ("red", "green")), Player("Bo", ("blue", "yellow"))]
THREE = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]


def free_square(game, tile):
    """The first empty square ``tile`` fits."""
    return next(sq for sq in squares_of(FIT[tile]) if game.at(sq) is None)


def play_tile(game, name, color):
    """``color`` plays its tile ``name`` on the first empty square it fits."""
    tile = parse_tile(name)
    return game.play(Placement(tile, free_square(game, tile)), color)


def red_and_blue_exhausted():
    """Two players, unknown racks: red and blue have each played 24 tiles (all but A B C car),
    green and yellow none; Ana to move."""
    game = Game(TWO)
    for name in ["$", "man", "ring", "woman", "sign", "skyline", "sax", "cards", "champagne",
                 *"123456789", *"IHGFED"]:
        play_tile(game, name, "red")
        play_tile(game, name, "blue")
    assert game.played_count("red") == game.played_count("blue") == TILES_PLAYED_PER_COLOR
    return game


def test_each_turn_is_numbered_from_1_and_is_the_movers():
    """A Turn names the player whose turn it was and counts the moves, passes included."""
    game = Game(THREE)
    texts = ["7 B7", "pass", "sax E8", "E E5", "pass", "pass"]
    for number, text in enumerate(texts, 1):
        mover = game.to_move
        turn = game.play(parse_move(text))
        assert turn.number == number == game.ply
        assert turn.player == mover == game.owner(turn.color)
    assert [t.player.name for t in game.history] == ["Ana", "Bo", "Cy", "Ana", "Bo", "Cy"]


def test_each_turn_is_the_movers_with_two_players_and_either_colour():
    game = Game.new(["Ana", "Bo"], seed="turns")
    while game.ply < 12:
        mover = game.to_move
        color, move = game.legal_moves()[game.ply % 3 % len(game.legal_moves())]
        turn = game.play(move, color)
        assert turn.player == mover and turn.color in mover.colors and turn.number == game.ply


def test_a_colour_that_has_played_its_24_tiles_plays_no_25th():
    game = red_and_blue_exhausted()
    assert not game.playable("red") and game.playable("green")
    assert not game.is_legal(Placement(parse_tile("car"), free_square(game, parse_tile("car"))), "red")


def test_a_tile_both_colours_have_left_is_the_colour_s_that_may_still_play():
    """Red has car left too, but has played its 24: car without a colour is green's."""
    game = red_and_blue_exhausted()
    assert game.play(parse_move("car I3")).color == "green"


def test_with_unknown_racks_a_tile_one_colour_has_played_is_the_other_colour_s():
    game = Game(TWO)
    game.play(parse_move("7 B7"), "red")
    game.play(parse_move("sax E8"), "blue")
    assert game.play(parse_move("7 C7")).color == "green"


def test_a_tile_neither_colour_holds_is_refused_as_the_first_colour_s():
    """Nobody can play it: the refusal speaks of the player's first colour."""
    game = Game(TWO)
    for text, color in [("7 B7", "red"), ("sax E8", "blue"), ("7 C7", "green"), ("sax F8", "yellow")]:
        game.play(parse_move(text), color)
    with pytest.raises(IllegalMove) as unknown:
        game.play(parse_move("7 D7"))
    assert unknown.value.reason is Reason.REUSED and str(unknown.value).startswith("red's 7")
    known = Game.new(["Ana", "Bo"], seed="club-7")  # neither red nor green has 9 on its rack
    with pytest.raises(IllegalMove) as off_rack:
        known.play(parse_move("9 A9"))
    assert off_rack.value.reason is Reason.NOT_ON_RACK and str(off_rack.value).startswith("red has no 9")


def test_two_players_go_on_with_the_other_colour_and_end_when_all_four_are_done():
    game = Game.new(["Ana", "Bo"], seed="endgame")
    while game.played_count("red") < TILES_PLAYED_PER_COLOR:  # Ana plays red while it lasts
        color, move = next(((c, m) for c, m in game.legal_moves() if c in ("red", "blue")),
                           game.legal_moves()[0])
        game.play(move, color)
    while not game.finished:
        done = [c for c in game.colors if game.played_count(c) == TILES_PLAYED_PER_COLOR]
        assert len(done) < 4 or game.passes >= 2
        if game.to_move.name == "Ana":
            assert all(c == "green" for c, m in game.legal_moves() if not m.is_pass)
        color, move = game.legal_moves()[0]
        game.play(move, color)
    assert all(game.played_count(c) == TILES_PLAYED_PER_COLOR for c in game.colors)
    assert game.ply >= 96 and game.to_move is None


def test_a_pass_that_is_not_forced_is_refused_naming_the_first_legal_move():
    game = Game.new(["Ana", "Bo"], seed="club-7")
    color, move = game.legal_moves()[0]
    with pytest.raises(IllegalMove) as refused:
        game.play(parse_move("pass"))
    assert str(refused.value) == f"Ana may not pass: {color} {move} is legal"
    assert refused.value.reason is Reason.NOT_FORCED
