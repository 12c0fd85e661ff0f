"""One test per rule of the game (docs/RULES.md), every refusal reason, two-player rules, pop and
unknown bags."""

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.errors import IllegalMove, Reason
from uptown_cli.engine.geometry import FIT, parse_square, parse_tile, squares_of
from uptown_cli.engine.notation import PASS, Placement, parse_move

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
THREE = (("red",), ("blue",), ("green",))
TWO = (("red", "green"), ("blue", "yellow"))


def bag(*first):
    """A colour's bag order: the named tiles first (rack, then draws), the rest in tile order."""
    head = [parse_tile(t) for t in first]
    return head + [t for t in range(28) if t not in head]


def new_game(seats=THREE, heads=None):
    """A game for ``seats`` (colour tuples); known bags built from ``heads`` when given
    (``{colour: [tile, ...]}``, colours not named get the plain tile order), else unknown bags."""
    players = [Player(name, colors) for name, colors in zip(NAMES, seats)]
    bags = None
    if heads is not None:
        bags = {c: bag(*heads.get(c, ())) for p in players for c in p.colors}
    return Game(players, bags)


def parse(text):
    """``(move, colour or None)`` from ``7 B7``, ``green: 7 B7`` or ``pass``."""
    color, _, move = text.rpartition(":")
    return parse_move(move), color.strip() or None


def play(game, *moves):
    """Play each move (``7 B7``, ``green: 7 B7``, ``pass``); returns the last Turn."""
    turn = None
    for text in moves:
        turn = game.play(*parse(text))
    return turn


def snapshot(game):
    """Everything a caller can observe about a game."""
    colors = game.colors
    return (
        game.board,
        game.racks,
        game.bag_sizes,
        game.ply,
        list(game.history),
        game.to_move,
        game.finished,
        {
            c: (game.played_count(c), game.groups(c), game.cut_points(c), game.unplayed_tiles(c))
            for c in colors
        },
        {(a, b): game.captured(a, b) for a in colors for b in colors},
        game.legal_moves() if game.knows_racks else None,
    )


def refusal(game, text, color=None):
    """The reason ``text`` (by ``color``) is refused, after checking that neither check()
    nor play() changed the game."""
    move, named = parse(text)
    color = color or named
    before = snapshot(game)
    with pytest.raises(IllegalMove) as checked:
        game.check(move, color)
    with pytest.raises(IllegalMove) as played:
        game.play(move, color)
    assert snapshot(game) == before
    assert checked.value.reason == played.value.reason
    return played.value.reason


def play_out(game, choose=lambda moves: moves[0]):
    """Play the game to its end (known bags), each move chosen from the legal ones."""
    while not game.finished:
        color, move = choose(game.legal_moves())
        game.play(move, color)


def free_square(game, tile):
    """The first empty square ``tile`` fits."""
    return next(sq for sq in squares_of(FIT[tile]) if game.at(sq) is None)


# A position used by the capture rules: blue has the chain B1-B2-B3, red to move.
CHAIN_HEADS = {
    "red": ["I", "H", "G", "2", "$", "B", "1", "3", "E"],
    "blue": ["1", "2", "3"],
    "green": ["I", "H", "G"],
}
CHAIN_SETUP = ["I I9", "1 B1", "I I1", "H H9", "2 B2", "H H1", "G G9", "3 B3", "G G1"]


def chain_game(known=True):
    """CHAIN_SETUP played, with CHAIN_HEADS as bags when ``known``: red's rack is 2 $ B 1 3."""
    game = new_game(THREE, CHAIN_HEADS if known else None)
    play(game, *CHAIN_SETUP)
    return game


both_bags = pytest.mark.parametrize("known", [True, False], ids=["known_bags", "unknown_bags"])


# -- players and colours ------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 6])
def test_two_to_five_players(count):
    seats = [(c,) for c in ("red", "blue", "green", "yellow", "orange", "red")[:count]]
    with pytest.raises(ValueError, match="2 to 5 players"):
        Game([Player(n, s) for n, s in zip(NAMES + ("Fay",), seats)])


def test_three_to_five_players_have_one_colour_each():
    with pytest.raises(ValueError):
        new_game((("red", "green"), ("blue",), ("yellow",)))
    for n in (3, 4, 5):
        game = new_game([(c,) for c in ("red", "blue", "green", "yellow", "orange")[:n]])
        assert len(game.colors) == n


def test_two_players_have_two_colours_each():
    with pytest.raises(ValueError):
        new_game((("red",), ("blue",)))
    assert new_game(TWO).colors == ("red", "green", "blue", "yellow")


@pytest.mark.parametrize("seats", [(("red",), ("red",), ("blue",)), (("red",), ("blue",), ("purple",))])
def test_colours_are_known_and_taken_once(seats):
    with pytest.raises(ValueError):
        new_game(seats)


def test_turn_order_is_the_order_of_the_players():
    game = new_game((("blue",), ("red",), ("green",)))
    order = []
    for text in ["1 A1", "2 A2", "3 A3", "4 A4"]:
        order.append(game.to_move.name)
        play(game, text)
    assert order == ["Ana", "Bo", "Cy", "Ana"]
    assert [t.color for t in game.history] == ["blue", "red", "green", "blue"]


# -- racks and draws ----------------------------------------------------------------------


def test_rack_starts_with_the_first_five_tiles_of_the_bag():
    bags = seeded_bags("7f3a9c01", ("red", "blue", "green"))
    game = Game([Player(n, (c,)) for n, c in zip(NAMES, bags)], bags)
    assert game.racks == {c: sorted(order[:5]) for c, order in bags.items()}
    assert game.bag_sizes == {c: 23 for c in bags}


def test_player_draws_one_tile_of_that_colour_after_placing():
    game = new_game(THREE, {"red": ["7", "A", "B", "C", "D", "sax"]})
    turn = play(game, "7 B7")
    assert turn.drawn == parse_tile("sax")
    assert game.racks["red"] == sorted(parse_tile(t) for t in ["A", "B", "C", "D", "sax"])
    assert game.bag_sizes == {"red": 22, "blue": 23, "green": 23}
    assert game.racks["blue"] == sorted(parse_tile(t) for t in "ABCDE")


def test_no_draw_once_the_bag_is_empty():
    game = new_game(THREE, {})
    drawn = []
    while game.played_count("green") < 24:
        color, move = game.legal_moves()[0]
        turn = game.play(move, color)
        if color == "red":
            drawn.append(turn.drawn)
    assert all(t is not None for t in drawn[:23]) and drawn[23] is None
    assert game.bag_sizes == {"red": 0, "blue": 0, "green": 0}
    assert {c: len(r) for c, r in game.racks.items()} == {"red": 4, "blue": 4, "green": 4}


@both_bags
def test_tile_is_played_only_once(known):
    game = chain_game(known)
    assert refusal(game, "I I5") is Reason.REUSED


def test_tile_must_be_on_the_rack():
    game = new_game(THREE, {})
    assert refusal(game, "7 B7") is Reason.NOT_ON_RACK
    with pytest.raises(IllegalMove, match=r"red has no 7 on its rack \(A B C D E\)"):
        game.play(parse_move("7 B7"))


# -- where tiles go -----------------------------------------------------------------------


def test_letter_goes_in_its_row():
    game = new_game()
    game.check(parse_move("B B1"))
    game.check(parse_move("B B9"))
    assert refusal(game, "B C2") is Reason.WRONG_SQUARE


def test_number_goes_in_its_column():
    game = new_game()
    game.check(parse_move("7 A7"))
    game.check(parse_move("7 I7"))
    assert refusal(game, "7 B8") is Reason.WRONG_SQUARE
    with pytest.raises(IllegalMove, match="^red plays 7 on B8, but 7 goes in column 7$"):
        game.play(parse_move("7 B8"))


def test_symbol_goes_in_its_region():
    game = new_game()
    game.check(parse_move("sax D7"))
    game.check(parse_move("sax F9"))
    for square in ["C7", "D6", "G9", "E5"]:
        assert refusal(game, f"sax {square}") is Reason.WRONG_SQUARE


def test_wild_goes_anywhere():
    game = new_game()
    for sq in range(81):
        game.check(Placement(parse_tile("$"), sq))


@both_bags
def test_tile_that_does_not_fit_is_refused(known):
    assert refusal(chain_game(known), "B C2") is Reason.WRONG_SQUARE


# -- captures -----------------------------------------------------------------------------


@both_bags
def test_placing_on_an_opponents_tile_captures_it(known):
    game = chain_game(known)
    turn = play(game, "3 B3")
    assert turn.captured == ("blue", parse_tile("3"))
    assert turn.move == parse_move("3 xB3")
    assert game.at(parse_square("B3")) == ("red", parse_tile("3"))
    assert game.captured("red", "blue") == 1
    assert game.played_count("blue") == 3


@both_bags
def test_captured_tile_leaves_the_board_for_good(known):
    game = chain_game(known)
    play(game, "3 xB3")
    assert refusal(game, "3 C3") is Reason.REUSED


@both_bags
def test_no_placing_on_own_tile(known):
    game = chain_game(known)
    assert refusal(game, "$ G9") is Reason.OWN_TILE


@both_bags
def test_capture_may_not_split_a_group(known):
    game = chain_game(known)
    assert refusal(game, "2 xB2") is Reason.SPLIT
    assert game.cut_points("blue") == 1 << parse_square("B2")


@both_bags
def test_wild_can_not_capture_a_cut_point_either(known):
    assert refusal(chain_game(known), "$ xB2") is Reason.SPLIT


@both_bags
def test_end_of_chain_can_be_captured(known):
    for move in ["1 xB1", "B xB1", "3 xB3"]:
        game = chain_game(known)
        play(game, move)
        assert game.groups("blue") == 1
        assert game.played_count("red") == 4


@both_bags
def test_lone_tile_can_be_captured(known):
    game = new_game(THREE, {"red": ["I", "E"], "blue": ["5"], "green": ["I"]} if known else None)
    play(game, "I I9", "5 E5", "I I1")
    assert game.groups("blue") == 1
    play(game, "E xE5")
    assert game.groups("blue") == 0
    assert game.captured("red", "blue") == 1


@both_bags
def test_wild_can_capture(known):
    game = chain_game(known)
    turn = play(game, "$ xB3")
    assert turn.captured == ("blue", parse_tile("3"))
    assert game.at(parse_square("B3")) == ("red", parse_tile("$"))


@both_bags
def test_capturing_tile_is_an_ordinary_tile(known):
    """It counts in its colour's groups and can itself be captured."""
    game = chain_game(known)
    play(game, "$ xB3", "A A5")
    assert game.groups("red") == 2
    play(game, "B xB3")
    assert game.groups("red") == 1
    assert game.captured("green", "red") == 1
    assert game.at(parse_square("B3")) == ("green", parse_tile("B"))


def test_capture_of_a_tile_in_a_ring_is_allowed():
    """In a 2x2 block no tile is a cut point."""
    game = new_game()
    play(game, "9 A9", "1 A1", "9 I9", "8 A8", "2 A2", "8 I8")
    play(game, "7 A7", "B B1", "7 I7", "6 A6", "man B2", "6 I6")
    assert game.groups("blue") == 1 and game.cut_points("blue") == 0
    play(game, "B xB2")
    assert game.groups("blue") == 1


def test_groups_join_edge_to_edge_not_corner_to_corner():
    game = new_game()
    play(game, "1 A1", "9 A9", "9 I9", "2 B2")
    assert game.groups("red") == 2
    play(game, "8 A8", "8 I8", "B B1")
    assert game.groups("red") == 1


# -- two players --------------------------------------------------------------------------


def test_two_player_colours_have_their_own_racks_and_bags():
    bags = seeded_bags("two", ("red", "green", "blue", "yellow"))
    game = Game([Player("Ana", TWO[0]), Player("Bo", TWO[1])], bags)
    assert game.racks == {c: sorted(order[:5]) for c, order in bags.items()}
    color, move = next((c, m) for c, m in game.legal_moves() if c == "green")
    turn = game.play(move, color)
    assert turn.drawn == bags["green"][5]
    assert game.bag_sizes == {"red": 23, "green": 22, "blue": 23, "yellow": 23}
    assert game.racks["red"] == sorted(bags["red"][:5])


def test_two_players_may_play_either_rack():
    game = new_game(TWO, {"red": ["7"], "green": ["sax"]})
    assert {c for c, _ in game.legal_moves()} == {"red", "green"}
    assert play(game, "7 B7").color == "red"
    play(game, "blue: A A1")
    assert play(game, "sax E8").color == "green"


def test_two_players_choose_the_rack_when_both_hold_the_tile():
    game = new_game(TWO, {"red": ["7"], "green": ["7"]})
    assert refusal(game, "7 B7") is Reason.AMBIGUOUS_COLOR
    assert play(game, "green: 7 B7").color == "green"


def test_two_player_colours_never_capture_each_other():
    game = new_game(TWO)
    play(game, "red: 1 A1", "blue: 9 I9", "green: A A2", "blue: I I1")
    assert refusal(game, "red: A xA2") is Reason.OWN_TILE
    assert refusal(game, "green: 1 xA1") is Reason.OWN_TILE
    assert refusal(game, "$ A1", "green") is Reason.OWN_TILE


def test_two_player_colours_are_not_each_others_groups():
    game = new_game(TWO)
    play(game, "red: 1 A1", "blue: 9 I9", "green: 2 A2", "blue: I I1", "red: 3 A3", "yellow: 9 H9")
    assert game.groups("red") == 2 and game.groups("green") == 1
    assert game.player_groups(game.players[0]) == 3
    assert game.player_groups(game.players[1]) == 3
    assert game.cut_points("green") == 0


def test_opponent_may_capture_either_colour_of_a_player():
    game = new_game(TWO)
    play(game, "red: 1 A1", "blue: 9 I9", "green: 2 A2", "blue: A xA1", "red: I xI9", "yellow: 2 xA2")
    assert game.captured("blue", "red") == 1 and game.captured("yellow", "green") == 1
    assert game.captured("red", "blue") == 1


@pytest.mark.parametrize("seats", [TWO, THREE, (("red",), ("blue",), ("green",), ("yellow",), ("orange",))])
def test_every_colour_plays_exactly_24(seats):
    game = new_game(seats, {})
    play_out(game, choose=lambda moves: moves[len(moves) // 2])
    for color in game.colors:
        assert game.played_count(color) == 24
        assert len(game.racks[color]) == 4 and game.bag_sizes[color] == 0
        assert len(game.unplayed_tiles(color)) == 4


def test_colour_that_played_24_is_exhausted():
    """With two players one colour can reach 24 before the other: it may not be played."""
    game = new_game(TWO, {})
    while not (game.played_count("red") == 24 and game.to_move.name == "Ana"):
        moves = game.legal_moves()
        color, move = ([m for m in moves if m[0] == "red"] or moves)[0]
        game.play(move, color)
    tile = game.racks["red"][0]
    assert refusal(game, str(Placement(tile, squares_of(FIT[tile])[0])), "red") is Reason.EXHAUSTED
    assert {c for c, _ in game.legal_moves()} == {"green"}


def test_colour_that_played_24_is_exhausted_with_unknown_bags():
    game, text, color = exhausted_case()
    assert refusal(game, text, color) is Reason.EXHAUSTED
    play(game, "green: car I3")


# -- passes and the end -------------------------------------------------------------------


def blocked_game():
    """Red to move with A B C man ring on its rack, which fit rows A to C only: row A is red's,
    rows B and C are blue's and green's paths, whose inner tiles are all cut points."""
    red = [str(n) for n in range(1, 10)] + ["G", "H", "I", "car"]
    blue = [str(n) for n in range(1, 10)] + ["C", "woman", "D", "sax"]
    green = [str(n) for n in range(2, 9)] + ["D", "sax", "G", "H", "I", "cards"]
    red_at = [f"A{n}" for n in range(1, 10)] + ["G1", "H1", "I1", "G2"]
    blue_at = [f"B{n}" for n in range(1, 10)] + ["C1", "C9", "D1", "D9"]
    green_at = [f"C{n}" for n in range(2, 9)] + ["D2", "D8", "G5", "H5", "I5", "G6"]
    game = new_game(THREE, {"red": red + ["A", "B", "C", "man", "ring"], "blue": blue, "green": green})
    for moves in zip(zip(red, red_at), zip(blue, blue_at), zip(green, green_at)):
        play(game, *(f"{tile} {square}" for tile, square in moves))
    return game


def test_pass_only_when_forced():
    game = new_game(THREE, {})
    assert refusal(game, "pass") is Reason.NOT_FORCED
    game = blocked_game()
    assert game.racks["red"] == sorted(parse_tile(t) for t in ["A", "B", "C", "man", "ring"])
    assert game.legal_moves() == [("red", PASS)]
    turn = play(game, "pass")
    assert turn.move == PASS and turn.color == "red" and turn.drawn is None
    assert game.played_count("red") == 13
    assert refusal(game, "pass") is Reason.NOT_FORCED


def test_cut_points_and_own_tiles_block_every_placement():
    game = blocked_game()
    reasons = set()
    for tile in game.racks["red"]:
        for sq in squares_of(FIT[tile]):
            with pytest.raises(IllegalMove) as refused:
                game.check(Placement(tile, sq))
            reasons.add(refused.value.reason)
    assert reasons == {Reason.OWN_TILE, Reason.SPLIT}


def test_forced_pass_is_recorded_under_the_first_colour():
    game = new_game(TWO)
    assert play(game, "pass").color == "red"
    assert play(game, "pass").color == "blue"


def test_pass_named_with_second_colour_is_recorded_under_the_first():
    """ENGINE BUG: a pass played with color='green' by the red+green player is recorded
    under green; the rules (docs/RULES.md) record a forced pass under the player's first colour,
    so it must be either refused or recorded as red's."""
    game = new_game(TWO)
    try:
        turn = game.play(PASS, "green")
    except IllegalMove:
        return
    assert turn.color == "red"


def test_game_ends_after_a_round_of_passes():
    game = new_game()
    play(game, "pass", "pass")
    assert not game.finished and game.to_move.name == "Cy"
    play(game, "pass")
    assert game.finished and game.to_move is None


def test_placement_breaks_a_round_of_passes():
    game = new_game()
    play(game, "pass", "pass", "7 B7", "pass", "pass")
    assert not game.finished and game.passes == 2
    play(game, "pass")
    assert game.finished and game.passes == 3
    game.pop()
    game.pop()
    assert game.passes == 1


def test_game_ends_when_every_colour_is_down_to_4():
    game = new_game(THREE, {})
    while not game.finished:
        assert min(game.played_count(c) for c in game.colors) < 24
        color, move = game.legal_moves()[0]
        game.play(move, color)
    assert game.last.color == "green" and game.ply == 72
    assert game.to_move is None and game.legal_moves() == []


def the_rule_says_over(game):
    """Whether the game is over by the rules, worked out from its history alone (none of the
    counts the game keeps): among the players who have not forfeited, fewer than two, a round of
    passes since the last placement or forfeit, or every colour down to 4 tiles."""
    out = {turn.player.name for turn in game.history if turn.kind == "forfeit"}
    playing = [p for p in game.players if p.name not in out]
    passes = 0
    for turn in reversed(game.history):
        if not turn.move.is_pass or turn.kind == "forfeit":
            break
        passes += 1
    placed = Counter(turn.color for turn in game.history if not turn.move.is_pass)
    return (len(playing) < 2 or passes >= len(playing)
            or all(placed[c] >= 24 for p in playing for c in p.colors))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(2, 5))
def test_game_over_follows_the_rule_after_every_kind_of_step(seed, count):
    """``finished`` is kept rather than worked out on every call: after moves, stand-in passes,
    forfeits, moves taken back and played again, copies and re-deals it still says what the
    rule says."""
    rng = random.Random(seed)
    game = Game.new(NAMES[:count], seed=str(seed))
    bags = seeded_bags(str(seed), game.colors)
    for _ in range(400):
        assert game.finished == the_rule_says_over(game)
        step = rng.random()
        if game.ply and (step < 0.05 or game.finished):
            turns = game.rewind(max(0, game.ply - rng.randint(1, 4)))
            assert game.finished == the_rule_says_over(game)
            for turn in turns[:rng.randint(0, len(turns))]:
                game.redo(turn)
                assert game.finished == the_rule_says_over(game)
        elif step < 0.08:
            game = game.copy()
        elif step < 0.10:
            game = game.redealt(bags)
        elif step < 0.13 and count > 2 and not game.finished:
            game.forfeit()
        elif step < 0.15 and not game.finished:
            game.play(PASS, stand_in=True)
        elif not game.finished:
            color, move = rng.choice(game.legal_moves())
            game.play(move, color)


@both_bags
def test_no_move_once_the_game_is_over(known):
    game = new_game(THREE, {} if known else None)
    if known:
        play_out(game)
    else:
        play(game, "pass", "pass", "pass")
    assert refusal(game, "pass") is Reason.GAME_OVER
    assert refusal(game, "$ E5") is Reason.GAME_OVER


# -- turn and colour ----------------------------------------------------------------------


@both_bags
def test_only_the_player_to_move_plays(known):
    assert refusal(chain_game(known), "1 A1", "blue") is Reason.WRONG_TURN
    assert refusal(chain_game(known), "pass", "green") is Reason.WRONG_TURN


@both_bags
@pytest.mark.parametrize("color", ["orange", "purple"])
def test_colour_must_be_in_the_game(known, color):
    assert refusal(chain_game(known), "1 A1", color) is Reason.UNKNOWN_COLOR


# -- an illegal move changes nothing ------------------------------------------------------


def exhausted_case():
    """Unknown bags, two players: red and blue have played 24 tiles each, Ana to move."""
    game = new_game(TWO)
    symbols = ["$", "man", "ring", "woman", "sign", "skyline", "sax", "cards", "champagne"]
    for name in symbols + list("123456789") + list("IHGFED"):
        tile = parse_tile(name)
        game.play(Placement(tile, free_square(game, tile)), "red")
        game.play(Placement(tile, free_square(game, tile)), "blue")
    return game, "car I3", "red"


def finished_case():
    """Unknown bags, three players: a whole round of passes has ended the game."""
    game = new_game()
    play(game, "pass", "pass", "pass")
    return game, "7 B7", None


REFUSALS = {
    Reason.GAME_OVER: finished_case,
    Reason.WRONG_TURN: lambda: (chain_game(), "1 A1", "blue"),
    Reason.UNKNOWN_COLOR: lambda: (chain_game(), "1 A1", "orange"),
    Reason.EXHAUSTED: exhausted_case,
    Reason.REUSED: lambda: (chain_game(), "I I5", None),
    Reason.NOT_ON_RACK: lambda: (chain_game(), "7 B7", None),
    Reason.WRONG_SQUARE: lambda: (chain_game(), "B C2", None),
    Reason.OWN_TILE: lambda: (chain_game(), "$ G9", None),
    Reason.SPLIT: lambda: (chain_game(), "2 xB2", None),
    Reason.NOT_FORCED: lambda: (chain_game(), "pass", None),
    Reason.AMBIGUOUS_COLOR: lambda: (new_game(TWO, {"red": ["7"], "green": ["7"]}), "7 B7", None),
}


@pytest.mark.parametrize("reason", REFUSALS, ids=lambda reason: reason.value)
def test_illegal_move_leaves_the_state_exactly_as_it_was(reason):
    game, text, color = REFUSALS[reason]()
    assert refusal(game, text, color) is reason


def test_every_refusal_reason_is_covered_and_raised():
    # Read from the checkout: the module may be compiled (docs/PERFORMANCE.md, "A faster
    # engine").
    source = (Path(__file__).resolve().parents[2] / "uptown_cli" / "engine" / "game.py").read_text(
        encoding="utf-8")
    assert set(REFUSALS) == set(Reason)
    assert set(re.findall(r'IllegalMove\(\s*Reason\.(\w+)', source)) == {r.name for r in REFUSALS}


# -- pop ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move", ["3 C3", "3 xB3", "$ xB3", "$ F9"], ids=["placement", "capture", "wild_capture", "join"]
)
@both_bags
def test_pop_undoes_a_move_exactly(known, move):
    game = chain_game(known)
    before = snapshot(game)
    turn = play(game, move)
    assert game.pop() == turn
    assert snapshot(game) == before
    assert play(game, move) == turn


def test_pop_undoes_a_pass_exactly():
    game = blocked_game()
    before = snapshot(game)
    play(game, "pass")
    game.pop()
    assert snapshot(game) == before
    game = new_game()
    play(game, "pass", "pass")
    before = snapshot(game)
    play(game, "pass")
    game.pop()
    assert snapshot(game) == before


@pytest.mark.parametrize("seats", [TWO, THREE])
def test_pop_undoes_a_whole_game_move_by_move(seats):
    game = new_game(seats, {})
    snapshots = []
    while not game.finished:
        snapshots.append(snapshot(game))
        color, move = game.legal_moves()[-1]
        game.play(move, color)
    while snapshots:
        game.pop()
        assert snapshot(game) == snapshots.pop()


# -- unknown bags -------------------------------------------------------------------------


def test_unknown_bags_have_no_racks():
    game = new_game()
    assert game.racks is None and game.bag_sizes is None and not game.knows_racks
    with pytest.raises(ValueError):
        game.legal_moves()
    assert play(game, "7 B7").drawn is None


def test_unknown_bags_accept_any_tile_not_yet_played():
    game = new_game()
    play(game, "7 B7", "7 C7", "7 D7", "sax E8", "$ A1")
    assert game.played_count("red") == 2


def test_unknown_bags_cannot_tell_a_forced_pass():
    game = new_game()
    play(game, "pass")
    assert game.to_move.name == "Bo"


@pytest.mark.parametrize("broken", [[0] * 28, list(range(27)), list(range(1, 29))])
def test_bags_must_hold_the_28_tiles_once(broken):
    players = [Player(n, (c,)) for n, c in zip(NAMES, ("red", "blue", "green"))]
    with pytest.raises(ValueError):
        Game(players, {"red": broken, "blue": list(range(28)), "green": list(range(28))})


def test_refusal_message_says_why():
    game = chain_game()
    message = "^red may not capture blue's 2 on B2: it would split blue's group$"
    with pytest.raises(IllegalMove, match=message):
        game.play(parse_move("wild xb2"))
