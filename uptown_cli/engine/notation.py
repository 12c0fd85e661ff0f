"""Moves as they are written: ``7 B7``, ``4 xB4``, ``sax E8``, ``pass``."""

from __future__ import annotations

import functools
from typing import NamedTuple, Optional, cast

from ..errors import NotationError
from .geometry import parse_square, parse_tile, square_name, tile_name


class Move(NamedTuple):
    """One placement (a tile on a square, ``capture`` as written) or a forced pass. (A named
    tuple: cheap to make, and hashed as its fields are.)"""

    tile: Optional[int]
    square: Optional[int]
    capture: bool = False

    @property
    def is_pass(self) -> bool:
        return self.tile is None

    def __str__(self) -> str:
        if self.is_pass:
            return "pass"
        tile, square = cast(int, self.tile), cast(int, self.square)
        return f"{tile_name(tile)} {'x' if self.capture else ''}{square_name(square)}"


PASS = Move(None, None)


@functools.lru_cache(maxsize=8192)
def parse_move(text: str) -> Move:
    """The move written as ``text``; the ``x`` of a capture may be left out. (Moves are
    immutable, so the same text gives back the same Move, parsed once.)"""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a move")
    words = text.split()
    if len(words) == 1 and words[0].lower() == "pass":
        return PASS
    if len(words) != 2:
        raise NotationError(f"{text!r} is not a move: write TILE SQUARE (7 B7, 4 xB4) or pass")
    tile = parse_tile(words[0])
    where = words[1]
    capture = len(where) == 3 and where[0] in "xX"
    return Move(tile, parse_square(where[1:] if capture else where), capture)
