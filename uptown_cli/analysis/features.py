"""What a colour's position promises: the figures the learned evaluation (``value``) reads.

Each colour of a ``Playout``'s position (a game as one sampled deal has it, the racks and
bags known) is described by a few numbers, all worked out from bit masks: its groups, how many
tiles it still has to play, the squares where one of its unplayed tiles would join two of its
groups (empty, or an opponent's tile it may capture), its lone tiles, the open squares beside
it that its tiles still fit, the tiles of its own an opponent could capture, and how many tiles
the opponents still have to play. ``colour_features`` gives them as one row, the first a
constant 1.
"""

from __future__ import annotations

from ..engine.game import TILES_PLAYED_PER_COLOR
from ..engine.geometry import (
    ALL_SQUARES,
    FIT,
    NOT_FIRST_COLUMN,
    NOT_LAST_COLUMN,
    WILD,
    joined_around,
)
from ..engine.groups import count_groups, cut_points
from ..engine.playout import Playout

__all__ = ["FEATURES", "colour_features", "position_features"]

FEATURES = ("constant", "groups", "left", "groups_left", "bridges", "bridges_left", "lone",
            "room", "exposed", "pressure")
"""The names of the figures of ``colour_features``, in order."""


def _reach(tiles: list[int]) -> int:
    """The squares some tile of ``tiles`` fits."""
    reach = 0
    for tile in tiles:
        reach |= FIT[tile]
    return reach


def position_features(playout: Playout) -> list[list[float]]:
    """``colour_features`` of every colour of ``playout``'s position, in colour order."""
    masks = playout.masks
    free = [mask & ~cut_points(mask) if mask else 0 for mask in masks]
    open_to = _capturable_by_seat(playout, free)
    return [colour_features(playout, c, open_to[playout.owner[c]], free[c])
            for c in range(len(masks))]


def _capturable_by_seat(playout: Playout, free: list[int]) -> list[int]:
    """For each seat, the squares it may play on now: empty, or another seat's tile that is not
    a cut point of its colour (``free``, by colour)."""
    empty = ALL_SQUARES & ~playout.occupied
    out = []
    for seat in range(len(playout.seats)):
        squares = empty
        for c, mask in enumerate(free):
            if playout.owner[c] != seat:
                squares |= mask
        out.append(squares)
    return out


def colour_features(playout: Playout, c: int, open_squares: int,
                    free: int | None = None) -> list[float]:
    """The figures of ``FEATURES`` for colour number ``c`` of ``playout``'s position, where
    ``open_squares`` are the squares its player may play on now and ``free`` its tiles that
    are not cut points (worked out when not given)."""
    mask = playout.masks[c]
    left = (TILES_PLAYED_PER_COLOR - playout.played[c]) / TILES_PLAYED_PER_COLOR
    rack = playout.racks[c]
    if not left:
        reach = 0
    elif WILD in rack or WILD in playout.bags[c][playout.draw_at[c]:]:
        reach = open_squares
    else:
        reach = _reach(rack + playout.bags[c][playout.draw_at[c]:]) & open_squares
    up = (mask << 9) & ALL_SQUARES
    down = mask >> 9
    right = (mask >> 1) & NOT_LAST_COLUMN
    lft = (mask << 1) & NOT_FIRST_COLUMN
    beside = up | down | right | lft
    two_or_more = ((up & down) | ((up | down) & (right | lft)) | (right & lft)) & ~mask & reach
    bridges = 0
    while two_or_more:
        low = two_or_more & -two_or_more
        two_or_more ^= low
        if not joined_around(low.bit_length() - 1, mask):
            bridges += 1
    groups = count_groups(mask)
    exposed = 0
    opponents_left = 0
    for other, other_mask in enumerate(playout.masks):
        if playout.owner[other] != playout.owner[c]:
            opponents_left += TILES_PLAYED_PER_COLOR - playout.played[other]
    if opponents_left:
        if free is None:
            free = mask & ~cut_points(mask) if mask else 0
        exposed = free.bit_count()
    pressure = opponents_left / (TILES_PLAYED_PER_COLOR * (len(playout.masks) - 1))
    return [1.0, float(groups), left, groups * left, float(bridges), bridges * left,
            float((mask & ~beside).bit_count()), min(12, (beside & reach).bit_count()) / 12,
            exposed * pressure / 4, pressure]
