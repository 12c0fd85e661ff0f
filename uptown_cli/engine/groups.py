"""Groups and cut points of one colour, from its 81-bit mask of squares.

A group is a set of squares joined edge to edge; a cut point is a square whose removal splits
its group. Both are worked out for the whole mask at once: Euler's formula counts the groups,
the 8 squares around each square decide whether it is a cut point, and a search runs only
beside an enclosed square (``geometry.holes``).
"""

from __future__ import annotations

from .geometry import (
    NEIGHBOURS,
    NOT_FIRST_COLUMN,
    NOT_LAST_COLUMN,
    crowded,
    holes,
    joined_around,
    may_enclose,
    spread,
    spread_around,
    squares_of,
)

__all__ = ["count_groups", "is_cut_point", "cut_points"]


def count_groups(mask: int) -> int:
    """How many groups (edge-joined sets) the squares of ``mask`` form, by Euler's formula:
    squares, less edge-joined pairs, plus fully occupied 2x2 blocks, plus the holes (sets of
    enclosed squares, ``geometry.holes``, joined edge to edge or corner to corner)."""
    across = mask & (mask >> 1) & NOT_LAST_COLUMN
    if not across:
        return mask.bit_count() - (mask & (mask >> 9)).bit_count()
    count = (mask.bit_count() - across.bit_count() - (mask & (mask >> 9)).bit_count()
             + (across & (across >> 9)).bit_count())
    # A quick test first: the first square of a hole has three squares of ``mask`` above it.
    if (across & (across << 1)) << 9 & (mask << 1) & ~mask and may_enclose(mask):
        enclosed = holes(mask)
        while enclosed:
            reached = enclosed & -enclosed
            while True:
                grown = spread_around(reached) & enclosed
                if grown == reached:
                    break
                reached = grown
            enclosed &= ~reached
            count += 1
    return count


def is_cut_point(sq: int, mask: int) -> bool:
    """Whether taking ``sq`` out of ``mask`` would split its group in two or more."""
    neighbours = NEIGHBOURS[sq] & mask
    if neighbours & (neighbours - 1) == 0 or joined_around(sq, mask):
        return False
    rest = mask & ~(1 << sq)
    reached = neighbours & -neighbours
    while True:
        grown = spread(reached) & rest
        if grown & neighbours == neighbours:
            return False
        if grown == reached:
            return True
        reached = grown


def cut_points(mask: int) -> int:
    """The squares of ``mask`` whose removal would split their group.

    Candidates first, for every square at once: the squares whose edge neighbours in ``mask``
    are not all joined to one another through the eight squares around them. Going round a
    square clockwise, an edge neighbour starts a stretch unless the edge neighbour before it
    and the corner between them are in ``mask`` (the four then fill a 2x2 block); two starts
    or more make a candidate. Every cut point is a candidate, and when ``mask`` encloses no
    square (``geometry.holes``) every candidate is a cut point: a candidate that is not lies
    on a loop round an enclosed square beside it, so only those are searched."""
    right = (mask >> 1) & NOT_LAST_COLUMN
    across = mask & right
    down = mask >> 9
    if not across or not mask & down:
        return crowded(mask)  # no 2x2 block, no loop: two neighbours or more make a cut point
    blocks = across & (across >> 9)  # by their top left square
    above = blocks << 9
    start_up = (mask << 9) ^ (above << 1)
    start_right = right ^ above
    start_down = down ^ blocks
    left = (mask << 1) & NOT_FIRST_COLUMN
    start_left = left ^ (blocks << 1)
    cuts = mask & (
        ((start_up | start_right) & (start_down | start_left))
        | (start_up & start_right)
        | (start_down & start_left)
    )
    if (across & (across << 1)) << 9 & left & ~mask and may_enclose(mask):  # as count_groups
        for sq in squares_of(cuts & spread_around(holes(mask))):
            if not is_cut_point(sq, mask):
                cuts &= ~(1 << sq)
    return cuts
