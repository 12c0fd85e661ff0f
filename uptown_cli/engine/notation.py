"""Moves as they are written (``7 B7``, ``4 xB4``, ``sax E8``, ``pass``) and the board as text.

A move is a ``Placement`` (a tile on a square) or the ``Pass``; ``Move`` is either of the two.
``move.is_pass`` tells them apart, for a type checker too: after ``if move.is_pass: return``,
``move.tile`` and ``move.square`` are known to be there.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Literal, NamedTuple

from ..errors import NotationError
from .geometry import COLUMNS, FACES, ROWS, parse_square, parse_tile, square_name, tile_name
from ..i18n import _

__all__ = ["Move", "Placement", "Pass", "PASS", "FORFEIT", "parse_move", "board_diagram"]


class Placement(NamedTuple):
    """A tile (0..27, ``geometry``) put on a square (0..80); ``capture`` as written (the ``x``
    of ``4 xB4``). A named tuple: cheap to make, hashed as its fields are."""

    tile: int
    square: int
    capture: bool = False

    @property
    def is_pass(self) -> Literal[False]:
        """False: a placement is no pass."""
        return False

    def __str__(self) -> str:
        return f"{tile_name(self.tile)} {'x' if self.capture else ''}{square_name(self.square)}"

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


class Pass(NamedTuple):
    """The pass, allowed only to a player who cannot place a tile. ``PASS`` is the pass: every
    ``Pass()`` equals it."""

    @property
    def is_pass(self) -> Literal[True]:
        """True: this is the pass."""
        return True

    def __bool__(self) -> Literal[True]:
        return True  # a move is never false, though this tuple is empty

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "parse_move('pass')"


Move = Placement | Pass
"""Any move: a ``Placement`` or the ``Pass``."""

PASS = Pass()
"""The pass."""

FORFEIT = "forfeit"
"""What a record writes for a forfeit (``- blue: forfeit``), where a move would be: the player
to move leaves the game."""


@functools.lru_cache(maxsize=8192)
def parse_move(text: object) -> Move:
    """The move written as ``text`` (``7 B7``, ``4 xb4``, ``SAX e8``, ``Wild C3``, ``pass``: the
    ``x`` of a capture may be left out, names are read in any case); a NotationError when it
    is none. (Moves are immutable, so the same text gives back the same Move, parsed once.)"""
    if not isinstance(text, str):
        raise NotationError(_("{text!r} is not a move").format(text=text))
    words = text.split()
    if len(words) == 1 and words[0].lower() == "pass":
        return PASS
    if len(words) != 2:
        raise NotationError(_("{text!r} is not a move: write TILE SQUARE (7 B7, 4 xB4) or pass")
                            .format(text=text))
    tile = parse_tile(words[0])
    where = words[1]
    capture = len(where) == 3 and where[0] in "xX"
    return Placement(tile, parse_square(where[1:] if capture else where), capture)


_CELL = 5


def board_diagram(board: Mapping[int, tuple[str, int]]) -> str:
    """The board ``{square: (colour, tile)}`` (as ``Game.board`` gives it) as plain text, nine
    rows of nine squares, each tile as its colour's first letter and its face (``r7``,
    ``gsax``, ``b$``), an empty square as ``.``; a wider gap between regions."""

    def row(label: str, cells: Iterable[str]) -> str:
        texts = [cell.center(_CELL) for cell in cells]
        return f"{label} " + "  ".join("".join(texts[i:i + 3]) for i in (0, 3, 6))

    lines = [row(" ", COLUMNS)]
    for r, name in enumerate(ROWS):
        cells = []
        for sq in range(9 * r, 9 * r + 9):
            held = board.get(sq)
            cells.append("." if held is None else held[0][0] + FACES[held[1]])
        lines.append(row(name, cells))
    return "\n".join(line.rstrip() for line in lines)
