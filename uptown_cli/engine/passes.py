"""Forced passes: a player may pass only when no tile of their racks fits a square. What a
pass is checked against when the racks are hidden (``Stuck``: the tiles left to each colour
that fit nowhere), and a pass that no rack could have forced (``surely_unforced``)."""

from __future__ import annotations

from .game import RACK_SIZE, Game
from .players import Player
from .geometry import FIT_SQUARES, shown_color
from .notation import Placement
from ..i18n import _

__all__ = ["Stuck", "stuck_tiles", "surely_unforced", "can_place"]


Stuck = dict[str, tuple[int, frozenset[int]]]
"""What a pass is checked against: per colour of the passer that can still play, how many
tiles its rack holds and which of its tiles left fit no square."""


def stuck_tiles(game: Game, player: Player) -> Stuck:
    """``Stuck`` for a pass by ``player`` now."""
    stuck = {}
    for color in player.colors:
        if game.playable(color):
            unplayed = game.unplayed_tiles(color)
            stuck[color] = (min(RACK_SIZE, len(unplayed)), frozenset(
                t for t in unplayed if not any(can_place(game, color, t, sq)
                                               for sq in FIT_SQUARES[t])))
    return stuck


def surely_unforced(game: Game, player: Player) -> str | None:
    """Why a pass by ``player`` now cannot be forced whatever their racks hold, or None: a
    colour that holds more tiles than there are tiles left to it that fit nowhere."""
    for color, (holds, fit_nowhere) in stuck_tiles(game, player).items():
        if len(fit_nowhere) < holds:
            return _("{name}'s pass cannot be forced: {colour} holds {holds} tiles and only "
                     "{stuck} of its tiles left fit nowhere; {name}'s entry was written by hand"
                     ).format(name=player.name, colour=shown_color(color), holds=holds,
                              stuck=len(fit_nowhere))
    return None


def can_place(game: Game, color: str, tile: int, square: int) -> bool:
    """Whether ``color`` could place ``tile`` on ``square`` now, its rack aside."""
    return game.is_legal(Placement(tile, square), color)
