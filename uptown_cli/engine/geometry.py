"""Board geometry and tile names: squares, the nine regions, the 28 tiles and where each may go.

Squares are ints 0..80 (``row * 9 + column``, row 0 is ``A`` at the top, column 0 is ``1``);
a set of squares is an 81-bit int with bit ``sq`` set for each square in it.
Tiles are ints 0..27: letters ``A``..``I`` (0..8), numbers ``1``..``9`` (9..17), the nine
symbols in region order (18..26) and the wild ``$`` (27).
"""

from ..errors import NotationError
from ..i18n import N_, _, pgettext

__all__ = [
    "ROWS", "COLUMNS", "SQUARE_NAMES", "ALL_SQUARES", "REGION_NAMES", "TILE_NAMES", "FACES", "WILD",
    "TILES_PER_COLOR", "TILE_ALIASES", "square_name", "parse_square", "parse_tile", "tile_name",
    "tile_fit_text", "shown_color", "shown_tile", "ROW_MASKS", "COLUMN_MASKS", "REGION_MASKS", "FIT", "FIT_SQUARES",
    "NOT_FIRST_COLUMN", "NOT_LAST_COLUMN", "NEIGHBOURS", "RING", "spread", "flood",
    "spread_around", "crowded", "holes", "may_enclose", "joined_around", "squares_of",
]

ROWS = "ABCDEFGHI"
"""The rows' names, top to bottom."""
COLUMNS = "123456789"
"""The columns' names, left to right."""
SQUARE_NAMES = tuple(r + c for r in ROWS for c in COLUMNS)
"""Each square's name by its number: ``A1`` .. ``I9``."""
ALL_SQUARES = (1 << 81) - 1
"""The set of all 81 squares."""

REGION_NAMES = ("man", "ring", "woman", "sign", "skyline", "sax", "car", "cards", "champagne")
"""The nine 3x3 regions, in reading order, by the symbol that goes in each."""
TILE_NAMES = tuple(ROWS) + tuple(COLUMNS) + REGION_NAMES + ("$",)
"""Each tile's canonical name by its number."""
FACES = TILE_NAMES[:18] + ("man", "rng", "wom", "sgn", "sky", "sax", "car", "crd", "chp", "$")
"""Each tile's face on a board diagram: at most three characters."""
WILD = 27
"""The wild tile ``$``, which goes on any square."""
TILES_PER_COLOR = 28
"""How many tiles each colour has: one of each."""

TILE_ALIASES = {
    "guy": "man",
    "lady": "woman",
    "lamp": "sign",
    "street-sign": "sign",
    "city": "skyline",
    "saxophone": "sax",
    "wine": "champagne",
    "wild": "$",
    "dollar": "$",
}
"""Other names a tile may be written with, and the canonical name each stands for."""


def square_name(sq: int) -> str:
    """``B7`` for square 15."""
    return SQUARE_NAMES[sq]


_SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}
_TILE_INDEX = {name.lower(): i for i, name in enumerate(TILE_NAMES)}
_TILE_INDEX.update({alias: _TILE_INDEX[name] for alias, name in TILE_ALIASES.items()})


def _ascii(text: object) -> str:
    """``text`` itself when it is ASCII text (so that case folding cannot turn, say, a Kelvin
    sign into ``k``); a KeyError otherwise."""
    if not isinstance(text, str) or not text.isascii():
        raise KeyError(text)
    return text


def parse_square(text: object) -> int:
    """The square named ``text`` (``B7`` or ``b7``); a NotationError for anything else."""
    try:
        return _SQUARE_INDEX[_ascii(text).upper()]
    except KeyError:
        raise NotationError(_("{text!r} is not a square (A1 to I9)").format(text=text)) from None


def parse_tile(text: object) -> int:
    """The tile named ``text``: canonical names and the aliases, in any case; a NotationError
    for anything else."""
    try:
        return _TILE_INDEX[_ascii(text).lower()]
    except KeyError:
        raise NotationError(
            _("{text!r} is not a tile (A-I, 1-9, a symbol such as sax, or $)").format(text=text)
        ) from None


def tile_name(tile: int) -> str:
    """``sax`` for tile 23: the tile's canonical name."""
    return TILE_NAMES[tile]


# The tables below are made with shifts, not square by square: they are made every time a
# command starts, and square by square took a millisecond (tests/engine/test_geometry.py
# checks them square by square).
ROW_MASKS = tuple(0b111111111 << (9 * r) for r in range(9))
"""The squares of each row."""
COLUMN_MASKS = tuple(sum(1 << (9 * r) for r in range(9)) << c for c in range(9))
"""The squares of each column."""
REGION_MASKS = tuple((0b111 | 0b111 << 9 | 0b111 << 18) << (27 * (g // 3) + 3 * (g % 3))
                     for g in range(9))
"""The squares of each region."""

FIT = ROW_MASKS + COLUMN_MASKS + REGION_MASKS + (ALL_SQUARES,)
"""FIT[tile]: the squares that tile may be placed on."""

NOT_FIRST_COLUMN = ALL_SQUARES & ~COLUMN_MASKS[0]
"""Every square but those of column 1 (what a shift one square right may land on)."""
NOT_LAST_COLUMN = ALL_SQUARES & ~COLUMN_MASKS[8]
"""Every square but those of column 9 (what a shift one square left may land on)."""

NEIGHBOURS = tuple(((1 << sq << 9) & ALL_SQUARES) | (1 << sq >> 9)
                   | ((1 << sq << 1) & NOT_FIRST_COLUMN) | ((1 << sq >> 1) & NOT_LAST_COLUMN)
                   for sq in range(81))
"""NEIGHBOURS[sq]: the squares edge to edge with ``sq``."""
_EDGE = ROW_MASKS[0] | ROW_MASKS[8] | COLUMN_MASKS[0] | COLUMN_MASKS[8]


def spread(mask: int) -> int:
    """``mask`` together with every square edge to edge with it."""
    return (
        mask
        | ((mask << 9) & ALL_SQUARES)
        | (mask >> 9)
        | ((mask << 1) & NOT_FIRST_COLUMN)
        | ((mask >> 1) & NOT_LAST_COLUMN)
    )


def flood(seed: int, within: int) -> int:
    """The squares of ``within`` joined edge to edge to ``seed`` (a subset of ``within``)."""
    while True:
        grown = spread(seed) & within
        if grown == seed:
            return seed
        seed = grown


def may_enclose(mask: int) -> bool:
    """False when ``mask`` surely encloses no square (see ``holes``). A hole has a first
    square in reading order, with the three squares above it and the one to its left in
    ``mask``; a last one, with the three below and the one to its right in ``mask``; and a
    first and a last one in column order likewise (the squares to its left and the one above,
    the squares to its right and the one below). Without all four, there is no hole."""
    across = mask & (mask >> 1) & NOT_LAST_COLUMN
    row = across & (across << 1)  # the middles of three in a row
    first = (row << 9) & (mask << 1) & ~mask
    if not first:
        return False
    last = (row >> 9) & (mask >> 1) & NOT_LAST_COLUMN & ~mask
    if not last or last.bit_length() < (first & -first).bit_length():
        return False
    down = mask & (mask >> 9)
    column = down & (down << 9)  # the middles of three in a column
    return bool((column << 1) & NOT_FIRST_COLUMN & (mask << 9) & ~mask
                and (column >> 1) & NOT_LAST_COLUMN & (mask >> 9) & ~mask)


def holes(mask: int) -> int:
    """The squares not in ``mask`` that it encloses: those of the rest of the board that cannot
    reach its edge by steps edge to edge or corner to corner through squares not in ``mask``."""
    if not may_enclose(mask):
        return 0
    rest = ALL_SQUARES & ~mask
    outside = rest & _EDGE
    while True:
        grown = spread_around(outside) & rest
        if grown == outside:
            return rest & ~outside
        outside = grown


def spread_around(mask: int) -> int:
    """``mask`` together with every square edge to edge or corner to corner with it."""
    tall = mask | ((mask << 9) & ALL_SQUARES) | (mask >> 9)
    return tall | ((tall << 1) & NOT_FIRST_COLUMN) | ((tall >> 1) & NOT_LAST_COLUMN)


def crowded(mask: int) -> int:
    """The squares of ``mask`` with two or more neighbours in ``mask``."""
    down = mask >> 9
    up = (mask << 9) & ALL_SQUARES
    right = (mask >> 1) & NOT_LAST_COLUMN
    left = (mask << 1) & NOT_FIRST_COLUMN
    return mask & ((up & down) | ((up | down) & (left | right)) | (left & right))


def _ring(sq: int) -> int:
    square = 1 << sq
    across = square | ((square << 1) & NOT_FIRST_COLUMN) | ((square >> 1) & NOT_LAST_COLUMN)
    return (across | ((across << 9) & ALL_SQUARES) | (across >> 9)) & ~square


RING = tuple(_ring(sq) for sq in range(81))
"""RING[sq]: the squares around ``sq``, edge to edge or corner to corner."""

_AROUND = (-9, -8, 1, 10, 9, 8, -1, -10)
"""Offsets of the squares around a square, in turn round it from above: edge neighbours at
even places, each corner between the two edge neighbours it touches."""


def _joined_windows() -> frozenset[int]:
    """Every set of squares around a square (as a mask with the square at bit 10) in which the
    edge neighbours lie on one unbroken stretch of the ring, a corner joining the two edge
    neighbours either side of it."""
    # A pattern has bit i set when the square at _AROUND[i] is in; window[pattern] is its mask.
    window = [0] * 256
    for pattern in range(1, 256):
        low = pattern & -pattern
        window[pattern] = window[pattern ^ low] | 1 << (10 + _AROUND[low.bit_length() - 1])
    edges = 0b01010101
    # Bit i of a pattern turned by k: whether the square k places before the i-th is in, so an
    # edge neighbour joined to the one before it (by the corner between) is a bit of ``links``.
    return frozenset(
        window[pattern] for pattern in range(256)
        if (pattern & edges).bit_count() - (pattern & _turned(pattern, 1) & _turned(pattern, 2)
                                            & edges).bit_count() <= 1)


def _turned(pattern: int, places: int) -> int:
    """The 8 bits of ``pattern`` turned ``places`` higher, the top ones coming in at the bottom."""
    return ((pattern << places) | (pattern >> (8 - places))) & 0xFF


_JOINED_WINDOWS = _joined_windows()


def joined_around(sq: int, mask: int) -> bool:
    """Whether the squares of ``mask`` edge to edge with ``sq`` are joined to one another by
    squares of ``mask`` around ``sq`` (so taking ``sq`` out of ``mask`` cannot part them)."""
    return ((mask & RING[sq]) << 10) >> sq in _JOINED_WINDOWS


def squares_of(mask: int) -> list[int]:
    """The squares in ``mask``, in increasing order."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


FIT_SQUARES = tuple(tuple(squares_of(fit)) for fit in FIT)
"""FIT_SQUARES[tile]: the squares that tile may be placed on, in increasing order."""


_REGION_PHRASES = (N_("the man region"), N_("the ring region"), N_("the woman region"),
                   N_("the sign region"), N_("the skyline region"), N_("the sax region"),
                   N_("the car region"), N_("the cards region"), N_("the champagne region"))
"""How ``tile_fit_text`` names each region, whole (a language's article agrees with the symbol)."""


def tile_fit_text(tile: int) -> str:
    """Where a tile may go, in words: ``column 7``, ``row B``, ``the sax region``."""
    if tile < 9:
        return _("row {row}").format(row=ROWS[tile])
    if tile < 18:
        return _("column {column}").format(column=COLUMNS[tile - 9])
    if tile < 27:
        return _(_REGION_PHRASES[tile - 18])
    return _("any square")


def shown_color(color: str) -> str:
    """A colour's name in messages for people, in the language in use (``azul``)."""
    return pgettext("colour", color)


def shown_tile(tile: int) -> str:
    """A tile's name in messages for people, in the language in use (``saxofón``, ``7``)."""
    return pgettext("tile", tile_name(tile))
