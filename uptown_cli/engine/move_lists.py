"""Where ``Game.legal_moves`` reads a tile's moves: each colour's tile windows and, for each
shape of window, the functions that pick the moves; made once and shared by every game.

A tile (or, for ``$``, each row of the board) may go on nine squares, which lie in a mask of
squares in one of three shapes: a row, a column, a region. Shifted down to its first square
and masked, the mask of squares a tile could go on gives a small number, its *window*; the
squares among them holding a tile to capture lie in the same window 81 bits up. For each
window a ``Pickers`` table keeps a function that picks the moves onto its squares, capturing
where they capture, out of the tile's eighteen moves, so that ``Game.legal_moves`` only looks
moves up. The tables depend on the shape alone, so every tile and colour shares them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter

from .geometry import COLUMN_MASKS, FIT_SQUARES, REGION_MASKS, ROW_MASKS, WILD
from .notation import Move, Placement

__all__ = ["tile_moves", "tile_windows", "Window", "Pickers", "Pairs", "CAPTURES_UP"]

CAPTURES_UP = 81
"""How far above the squares a tile could go on the ones it would capture on are shifted, in
the mask a window is read from (``Game.legal_moves``)."""

Pairs = tuple[tuple[str, Move], ...]
"""``(colour, move)`` pairs, as ``Game.legal_moves`` lists them."""


@cache
def tile_moves(tile: int) -> dict[int, tuple[Placement, Placement]]:
    """``{square: (move, capturing move)}`` for every square ``tile`` may go on. Moves are
    immutable, so these are shared by every game rather than made anew for each list."""
    return {sq: (Placement(tile, sq, False), Placement(tile, sq, True)) for sq in FIT_SQUARES[tile]}


class Pickers(dict[int, Callable[[Pairs], Pairs]]):
    """For a window of one shape (see the module), a function that takes a tile's eighteen
    pairs (its moves onto its nine squares in square order, then the same moves capturing) and
    returns the pairs onto the window's open squares, in square order, capturing on the ones
    marked 81 bits up. Made when a window is first met: at most 3 ** 9 of them."""

    def __init__(self, shape: int) -> None:
        super().__init__()
        self.offsets = [at for at in range(81) if shape >> at & 1]
        """Where each of the shape's nine squares lies in a window."""
        self.keep = shape | shape << CAPTURES_UP
        """The squares of a window, and of its captures."""

    def __missing__(self, window: int) -> Callable[[Pairs], Pairs]:
        indexes = [i + 9 * (window >> (CAPTURES_UP + at) & 1)
                   for i, at in enumerate(self.offsets) if window >> at & 1]
        picker = self[window] = _picking(indexes)
        return picker


def _picking(indexes: list[int]) -> Callable[[Pairs], Pairs]:
    """A function that gives the items at ``indexes`` of a tuple, as a tuple (``itemgetter``
    of one index gives the item alone, so one index or none is read as a slice)."""
    if len(indexes) > 1:
        return itemgetter(*indexes)
    return itemgetter(slice(indexes[0], indexes[0] + 1) if indexes else slice(0))


_ROW_PICKERS, _COLUMN_PICKERS, _REGION_PICKERS = (
    Pickers(ROW_MASKS[0]), Pickers(COLUMN_MASKS[0]), Pickers(REGION_MASKS[0]))

Window = tuple[int, int, Pickers, Pairs]
"""How to read one tile's (or one row's, for ``$``) legal moves out of a mask: ``(shift,
keep, pickers, pairs)``; ``pickers[mask >> shift & keep](pairs)`` are the moves."""


def _window(color: str, tile: int, pickers: Pickers, squares: Sequence[int]) -> Window:
    """The ``Window`` of ``color``'s ``tile`` onto ``squares``, which lie in ``pickers``' shape
    from the first of them."""
    moves = [tile_moves(tile)[sq] for sq in squares]
    pairs = tuple((color, placing) for placing, _ in moves) + tuple(
        (color, capturing) for _, capturing in moves)
    return squares[0], pickers.keep, pickers, pairs


@cache
def tile_windows(color: str) -> list[Window]:
    """The ``Window`` of each of ``color``'s tiles but ``$``, in tile order, then of ``$``
    onto each row, top to bottom."""
    shapes = [_ROW_PICKERS] * 9 + [_COLUMN_PICKERS] * 9 + [_REGION_PICKERS] * 9
    return [_window(color, tile, pickers, FIT_SQUARES[tile]) for tile, pickers in enumerate(shapes)] + [
        _window(color, WILD, _ROW_PICKERS, FIT_SQUARES[WILD][9 * row:9 * row + 9]) for row in range(9)]
