"""The engine as a library: a new game in one call, moves from their text, is_legal, copy,
and a game and a move that print as what they are."""

import pickle
import random

import pytest
from support.engine_games import random_game, shown

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import COLORS, VARIANTS, Game, Player, seat_colors
from uptown_cli.engine.geometry import FACES, SQUARE_NAMES, parse_square
from uptown_cli.engine.notation import PASS, Pass, Placement, board_diagram, parse_move
from uptown_cli.engine.scoring import standings
from uptown_cli.errors import IllegalMove, RacksUnknown, Reason, SetupError

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_new_game_deals_the_colours_as_the_rules_do(players):
    game = Game.new(NAMES[:players], seed="deal")
    assert [p.name for p in game.players] == NAMES[:players]
    assert [p.colors for p in game.players] == seat_colors(players)


@pytest.mark.parametrize("seats, message", [
    ([("Ana", ["red", "green"]), ("Bo", ["blue"]), ("Cy", ["yellow"])], "Ana needs 1 colour"),
    ([("Ana", ["red"]), ("Bo", ["blue", "yellow"])], "Ana needs 2 colours"),
])
def test_a_player_with_the_wrong_number_of_colours_is_told_how_many(seats, message):
    with pytest.raises(SetupError) as refused:
        Game(seats)
    assert str(refused.value) == message


def test_a_player_who_names_colours_keeps_them_and_the_others_are_dealt_the_rest():
    game = Game.new(["Ana", Player("Bo", ["red"]), "Cy"])
    assert [p.colors for p in game.players] == [("blue",), ("red",), ("green",)]


def test_a_seed_deals_the_seeds_bags_and_no_seed_leaves_the_racks_unknown():
    game = Game.new(["Ana", "Bo", "Cy"], seed="club-7")
    dealt = Game(game.players, seeded_bags("club-7", game.colors))
    assert shown(game) == shown(dealt) and game.seed == "club-7"
    unknown = Game.new(["Ana", "Bo", "Cy"])
    assert unknown.racks is None and unknown.seed is None
    with pytest.raises(RacksUnknown):
        unknown.legal_moves()


def test_a_game_keeps_its_variant_and_is_scored_by_it():
    game = random_game(3, 11, 30)
    blockers = Game.new([p.name for p in game.players], seed="11", variant="blockers")
    for turn in game.history:
        blockers.play(turn.move, turn.color)
    assert blockers.variant == "blockers" and game.variant == "standard"
    assert standings(blockers) == standings(blockers, "blockers") == standings(game, "blockers")
    with pytest.raises(SetupError, match="unknown variant 'chess'"):
        Game.new(["Ana", "Bo"], variant="chess")
    assert VARIANTS == ("standard", "blockers") and COLORS[0] == "red"


def test_a_new_games_repr_is_the_call_that_makes_it_and_says_how_far_it_went():
    game = Game.new(["Ana", "Bo"], seed="club-7", variant="blockers")
    assert repr(game) == "Game.new(['Ana', 'Bo'], seed='club-7', variant='blockers')"
    again = eval(repr(game), {"Game": Game})
    assert shown(again) == shown(game) and again.variant == "blockers"
    game.play_text("A A1")
    assert repr(game).endswith(") after 1 move")
    game.play_text("F F1")
    assert repr(game).endswith(") after 2 moves")
    assert repr(Game.new(["Ana", "Bo", "Cy"])) == "Game.new(['Ana', 'Bo', 'Cy'])"


def test_a_games_repr_names_colours_that_are_not_the_dealt_ones_and_bags_of_its_own():
    named = Game.new([Player("Ana", ["blue"]), Player("Bo", ["red"]), Player("Cy", ["green"])])
    assert repr(named).startswith("Game.new([Player(name='Ana', colors=('blue',)),")
    assert eval(repr(named), {"Game": Game, "Player": Player}).players == named.players
    own = random_game(3, 5, 4)
    assert repr(own) == "<Game of ['P1', 'P2', 'P3'] with bags of its own after 4 moves>"


def test_a_game_prints_as_its_board():
    game = random_game(4, 3, 20)
    lines = str(game).splitlines()
    assert str(game) == board_diagram(game.board) and len(lines) == 10
    assert lines[0].split() == list("123456789")
    for row, line in zip("ABCDEFGHI", lines[1:]):
        cells = line.split()
        assert cells[0] == row and len(cells) == 10
        for name, cell in zip(SQUARE_NAMES[9 * "ABCDEFGHI".index(row):], cells[1:]):
            held = game.at(parse_square(name))
            assert cell == ("." if held is None else held[0][0] + FACES[held[1]])
    assert all(len(face) <= 3 for face in FACES)


DIAGRAM = """\
    1    2    3      4    5    6      7    8    9
A  rman  .    .      .    .    .      .    .    .
B   .    .    .      .    .    .      .    .    .
C   .    .    .      .    .    .      .    .    .
D   .    .    .      .    .    .      .    .    .
E   .    .    .      .    gE   .      .   bsax  .
F   .    .    .      .    .    .      .    .    .
G   .    .    .      .    .    .      .    .    .
H   .    .    .      .    .    .      .    .    .
I   .    .    .      .    .    .      .    .    ."""
"""The board after E E5, sax E8, E xE5 and man A1: five columns a square, a wider gap
between regions, blanks at the end of no line."""


def test_the_board_diagram_is_nine_rows_of_nine_squares_five_columns_each():
    game = Game.new(["Ana", "Bo", "Cy"], seed="club-7")
    for text in ["E E5", "sax E8", "E xE5", "man A1"]:
        game.play_text(text)
    assert str(game) == DIAGRAM


def test_a_copy_is_a_game_of_its_own_in_the_same_position():
    game = random_game(2, 8, 25)
    trial = game.copy()
    assert shown(trial) == shown(game) and repr(trial) == repr(game)
    before = shown(game)
    rng = random.Random(1)
    while not trial.finished:
        color, move = rng.choice(trial.legal_moves())
        trial.play(move, color)
    trial.rewind(10)
    assert shown(game) == before
    color, move = game.legal_moves()[0]
    game.play(move, color)
    assert trial.ply == 10


def test_is_legal_says_what_check_says():
    game = random_game(3, 21, 18)
    color = game.to_move.colors[0]
    for tile in range(28):
        for square in range(0, 81, 4):
            move = Placement(tile, square)
            try:
                game.check(move, color)
                legal = True
            except IllegalMove:
                legal = False
            assert game.is_legal(move, color) is legal
    assert game.is_legal(PASS) is False


def test_play_text_plays_the_move_its_text_writes():
    game = Game.new(["Ana", "Bo"], seed="club-7")
    turn = game.play_text("ring A5", color="red")
    assert turn.move == parse_move("ring A5") and turn.color == "red"
    with pytest.raises(IllegalMove) as refused:
        game.play_text("ring A6", color="blue")
    assert refused.value.reason is Reason.NOT_ON_RACK


def test_a_move_prints_as_written_and_its_repr_reads_it_back():
    for text in ["sax E8", "4 xB4", "$ I9", "pass"]:
        move = parse_move(text)
        assert str(move) == text and eval(repr(move), {"parse_move": parse_move}) == move
    assert repr(parse_move("SAX e8")) == "parse_move('sax E8')"


def test_a_placement_and_the_pass_are_two_kinds_of_move():
    move = parse_move("7 B7")
    assert isinstance(move, Placement) and move.is_pass is False and move.tile == 15
    assert isinstance(PASS, Pass) and PASS.is_pass is True and Pass() == PASS
    assert bool(PASS) and pickle.loads(pickle.dumps(PASS)) == PASS
    assert move != PASS and hash(Placement(15, 15)) == hash(move)


def test_every_reason_is_a_code():
    assert [r.value for r in Reason] == [r.name.lower() for r in Reason]
