"""The legal-move lists of a colour's tiles, made once and shared by every game.

For each tile (and each row of the board, for ``$``) a dict maps the set of open squares it
may go on to the tuple of moves onto them, so that ``Game.legal_moves`` only looks moves up.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .geometry import (
    FIT_SQUARES,
    WILD,
)
from .notation import Move, Placement

__all__ = ["tile_moves", "move_lists", "MoveLists", "ROW_SHIFTS"]


@cache
def tile_moves(tile: int) -> dict[int, tuple[Placement, Placement]]:
    """``{square: (move, capturing move)}`` for every square ``tile`` may go on. Moves are
    immutable, so these are shared by every game rather than made anew for each list."""
    return {sq: (Placement(tile, sq, False), Placement(tile, sq, True)) for sq in FIT_SQUARES[tile]}


@cache
def move_lists(color: str) -> list[MoveLists]:
    """For each of ``color``'s tiles but ``$``, then for each row of the board (for ``$``), a
    dict that fills itself: ``open | captures << 9`` (two sets of that tile's nine squares or
    the row's, as ``GATHER`` reads them out of a mask) gives the tuple of ``(color, move)``
    onto those open squares, in square order, none capturing; ``with_captures`` makes the
    capturing ones capture. (Sets of open squares are few, 512 at most, so they are all kept;
    with captures they would be far more varied.)"""
    return [MoveLists(color, tile, FIT_SQUARES[tile]) for tile in range(WILD)] + [
        MoveLists(color, WILD, FIT_SQUARES[WILD][9 * row : 9 * row + 9]) for row in range(9)
    ]


ROW_SHIFTS = tuple(range(0, 81, 9))
"""Where each row of the board starts in a mask of squares."""


class MoveLists(dict[int, tuple[tuple[str, Move], ...]]):
    """See ``move_lists``: one tile's moves onto nine squares, for each choice of them."""

    def __init__(self, color: str, tile: int, squares: Sequence[int]) -> None:
        super().__init__()
        moves = [tile_moves(tile)[sq] for sq in squares]
        self.placing = [(color, placing) for placing, _ in moves]
        self.capturing = [(color, capturing) for _, capturing in moves]

    def __missing__(self, open_squares: int) -> tuple[tuple[str, Move], ...]:
        pairs = self[open_squares] = tuple(
            pair for i, pair in enumerate(self.placing) if open_squares >> i & 1
        )
        return pairs

    def with_captures(self, open_squares: int, captures: int) -> list[tuple[str, Move]]:
        """The pairs onto ``open_squares``, capturing on ``captures`` (some of them)."""
        pairs = list(self[open_squares])
        while captures:
            low = captures & -captures
            captures ^= low
            pairs[(open_squares & (low - 1)).bit_count()] = self.capturing[low.bit_length() - 1]
        return pairs
