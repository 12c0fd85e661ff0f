"""Squares, regions, tiles and where they fit, and the notation of moves (docs/RULES.md)."""

import pytest

from uptown_cli.engine.game import Game
from uptown_cli.engine.geometry import (
    FIT,
    NEIGHBOURS,
    RING,
    REGION_MASKS,
    REGION_NAMES,
    SQUARE_NAMES,
    TILE_NAMES,
    flood,
    joined_around,
    parse_square,
    parse_tile,
    square_name,
    squares_of,
    tile_fit_text,
    tile_name,
)
from uptown_cli.errors import NotationError
from uptown_cli.engine.notation import PASS, Placement, parse_move

ROWS = "ABCDEFGHI"

# The table of regions of docs/RULES.md, written out: the symbol of each 3x3 block.
REGION_TABLE = {
    ("ABC", "123"): "man",
    ("ABC", "456"): "ring",
    ("ABC", "789"): "woman",
    ("DEF", "123"): "sign",
    ("DEF", "456"): "skyline",
    ("DEF", "789"): "sax",
    ("GHI", "123"): "car",
    ("GHI", "456"): "cards",
    ("GHI", "789"): "champagne",
}


def region_in_table(name):
    """The symbol of the region holding the square named ``name``, read from the table."""
    return next(symbol for (rows, columns), symbol in REGION_TABLE.items()
                if name[0] in rows and name[1] in columns)


def names(squares):
    """The names of a collection of squares, as a set."""
    return {square_name(sq) for sq in squares}


# -- squares ------------------------------------------------------------------------------


def test_there_are_81_squares_a1_to_i9():
    assert len(SQUARE_NAMES) == 81
    assert set(SQUARE_NAMES) == {r + c for r in ROWS for c in "123456789"}


@pytest.mark.parametrize(
    "name, index",
    [("A1", 0), ("A9", 8), ("B1", 9), ("B7", 15), ("E5", 40), ("I1", 72), ("I9", 80)],
)
def test_square_index_is_row_times_nine_plus_column(name, index):
    assert parse_square(name) == index
    assert square_name(index) == name


def test_every_square_name_round_trips():
    for sq in range(81):
        assert parse_square(square_name(sq)) == sq


@pytest.mark.parametrize("text, name", [("b7", "B7"), ("e5", "E5"), ("i9", "I9"), ("a1", "A1")])
def test_lower_case_square_is_read(text, name):
    assert square_name(parse_square(text)) == name


@pytest.mark.parametrize(
    "text", ["", "A", "7", "J1", "A0", "A10", "7B", "B 7", " B7", "B7 ", "xB7", "AA", None, 15]
)
def test_not_a_square(text):
    with pytest.raises(NotationError):
        parse_square(text)


def test_square_names_are_ascii_only():
    """ENGINE BUG: parse_square upper-cases with str.upper, so the Turkish dotless
    'ı' (U+0131) becomes 'I' and 'ı5' is read as I5; the notation (docs/RULES.md) reads only B7
    and b7."""
    with pytest.raises(NotationError):
        parse_square("\u01315")


def test_tile_names_are_ascii_only():
    """ENGINE BUG: parse_tile lower-cases with str.lower, so the Kelvin sign (U+212A)
    becomes 'k' and 's\u212ayline' is read as skyline."""
    with pytest.raises(NotationError):
        parse_tile("s\u212ayline")


# -- regions ------------------------------------------------------------------------------


def test_regions_are_exactly_the_spec_table():
    for (rows, columns), symbol in REGION_TABLE.items():
        squares = {r + c for r in rows for c in columns}
        region = REGION_MASKS[REGION_NAMES.index(symbol)]
        assert {SQUARE_NAMES[sq] for sq in squares_of(region)} == squares


def test_region_names_are_the_nine_symbols_in_reading_order():
    assert REGION_NAMES == (
        "man", "ring", "woman", "sign", "skyline", "sax", "car", "cards", "champagne",
    )


@pytest.mark.parametrize(
    "square, symbol",
    [("A1", "man"), ("C3", "man"), ("A4", "ring"), ("C9", "woman"), ("D1", "sign"),
     ("E5", "skyline"), ("F7", "sax"), ("G3", "car"), ("I4", "cards"), ("G7", "champagne"),
     ("I9", "champagne")],
)
def test_region_of_corner_and_centre_squares(square, symbol):
    assert REGION_MASKS[REGION_NAMES.index(symbol)] >> parse_square(square) & 1


# -- tiles --------------------------------------------------------------------------------


def test_a_colour_has_28_tiles():
    assert TILE_NAMES == tuple("ABCDEFGHI") + tuple("123456789") + REGION_NAMES + ("$",)
    assert len(set(TILE_NAMES)) == 28


def test_letter_fits_its_row():
    for letter in ROWS:
        assert names(squares_of(FIT[parse_tile(letter)])) == {letter + c for c in "123456789"}
        assert tile_fit_text(parse_tile(letter)) == f"row {letter}"


def test_number_fits_its_column():
    for number in "123456789":
        assert names(squares_of(FIT[parse_tile(number)])) == {r + number for r in ROWS}
        assert tile_fit_text(parse_tile(number)) == f"column {number}"


def test_symbol_fits_its_region():
    for (rows, columns), symbol in REGION_TABLE.items():
        assert names(squares_of(FIT[parse_tile(symbol)])) == {r + c for r in rows for c in columns}
        assert tile_fit_text(parse_tile(symbol)) == f"the {symbol} region"


def test_wild_fits_every_square():
    assert names(squares_of(FIT[parse_tile("$")])) == set(SQUARE_NAMES)
    assert tile_fit_text(parse_tile("$")) == "any square"


def test_every_square_takes_exactly_four_tiles():
    """Its row's letter, its column's number, its region's symbol and the wild."""
    for sq in range(81):
        fitting = {tile_name(t) for t in range(28) if FIT[t] >> sq & 1}
        name = square_name(sq)
        assert fitting == {name[0], name[1], region_in_table(name), "$"}


def test_neighbours_and_ring_are_the_squares_edge_to_edge_and_all_around():
    for sq in range(81):
        row, column = divmod(sq, 9)
        around = {(row + dr) * 9 + column + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                  if (dr or dc) and 0 <= row + dr < 9 and 0 <= column + dc < 9}
        assert set(squares_of(RING[sq])) == around
        assert set(squares_of(NEIGHBOURS[sq])) == {n for n in around if n // 9 == row or n % 9 == column}


@pytest.mark.parametrize("square", ["E5", "A1", "A5", "E9", "I9"])
def test_joined_around_is_whether_the_edge_neighbours_meet_within_the_ring(square):
    """The 256-entry table of ``joined_around`` against a flood fill, for every set of squares
    around a square in the middle, in a corner and on each kind of edge."""
    sq = parse_square(square)
    ring = squares_of(RING[sq])
    for pattern in range(1 << len(ring)):
        mask = sum(1 << n for i, n in enumerate(ring) if pattern >> i & 1)
        near = mask & NEIGHBOURS[sq]
        joined = flood(near & -near, mask) & near == near
        assert joined_around(sq, mask) == joined, (square, pattern)


# -- tile names ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", TILE_NAMES)
def test_canonical_tile_names_round_trip(name):
    assert tile_name(parse_tile(name)) == name


@pytest.mark.parametrize(
    "text, name",
    [("a", "A"), ("i", "I"), ("SAX", "sax"), ("Sax", "sax"), ("MAN", "man"), ("Ring", "ring"),
     ("WOMAN", "woman"), ("SkyLine", "skyline"), ("CHAMPAGNE", "champagne"), ("Cards", "cards"),
     ("CAR", "car"), ("SIGN", "sign")],
)
def test_tile_names_are_read_in_any_case(text, name):
    assert tile_name(parse_tile(text)) == name


ALIASES = [
    ("guy", "man"),
    ("lady", "woman"),
    ("lamp", "sign"),
    ("street-sign", "sign"),
    ("city", "skyline"),
    ("saxophone", "sax"),
    ("wine", "champagne"),
    ("wild", "$"),
    ("dollar", "$"),
]


@pytest.mark.parametrize("alias, name", ALIASES)
@pytest.mark.parametrize("case", [str.lower, str.upper, str.title])
def test_every_alias_is_read_in_any_case(alias, name, case):
    assert tile_name(parse_tile(case(alias))) == name


@pytest.mark.parametrize(
    "text", ["", "J", "0", "10", "x", "man ", "sign-street", "saxophones", "$$", "pass", None, 3]
)
def test_not_a_tile(text):
    with pytest.raises(NotationError):
        parse_tile(text)


# -- moves --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("7 B7", "7 B7"),
        ("sax E8", "sax E8"),
        ("$ C3", "$ C3"),
        ("4 xB4", "4 xB4"),
        ("4 xb4", "4 xB4"),
        ("4 XB4", "4 xB4"),
        ("4 B4", "4 B4"),
        ("SAX e8", "sax E8"),
        ("Saxophone E8", "sax E8"),
        ("Wild C3", "$ C3"),
        ("dollar xC3", "$ xC3"),
        ("guy a1", "man A1"),
        ("LADY c9", "woman C9"),
        ("street-sign D2", "sign D2"),
        ("lamp xF3", "sign xF3"),
        ("city e5", "skyline E5"),
        ("wine I9", "champagne I9"),
        ("b b1", "B B1"),
        ("  7   B7  ", "7 B7"),
        ("pass", "pass"),
        ("PASS", "pass"),
        ("Pass", "pass"),
    ],
)
def test_move_is_written_canonically(text, canonical):
    assert str(parse_move(text)) == canonical


def test_parsed_move_fields():
    assert parse_move("4 xB4") == Placement(parse_tile("4"), parse_square("B4"), True)
    assert parse_move("7 B7") == Placement(parse_tile("7"), parse_square("B7"), False)
    assert parse_move("pass") == PASS
    assert PASS.is_pass and not parse_move("7 B7").is_pass


def test_every_move_round_trips_through_its_text():
    for tile in range(28):
        for sq in range(81):
            for capture in (False, True):
                move = Placement(tile, sq, capture)
                assert parse_move(str(move)) == move


def test_move_is_immutable():
    move = parse_move("7 B7")
    with pytest.raises(AttributeError):
        move.square = 0


@pytest.mark.parametrize(
    "text",
    ["", "   ", "7", "B7", "7 B7 x", "7 B 7", "pass B7", "pass pass", "K B7", "7 J7", "7 xx7",
     "7 x", "7 x B7", "7 yB7", "7 xB77", "passe", None, 7],
)
def test_not_a_move(text):
    with pytest.raises(NotationError):
        parse_move(text)


def test_notation_error_is_a_value_error_that_quotes_the_text():
    with pytest.raises(ValueError, match="'K'"):
        parse_move("K B7")


def test_canonical_sets_the_x_from_the_board():
    """On reading the x may be left out or wrong; the board decides how the move is written."""
    game = Game([("Ana", ("red",)), ("Bo", ("blue",)), ("Cy", ("green",))])
    game.play(parse_move("7 B7"))
    assert game.canonical(parse_move("B B7")) == "B xB7"
    assert game.canonical(parse_move("B xB7")) == "B xB7"
    assert game.canonical(parse_move("B xB8")) == "B B8"
    assert game.canonical(PASS) == "pass"
