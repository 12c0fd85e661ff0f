"""Standings under the two scorings: ``standard`` (Uptown) and ``blockers`` (Blockers!).

Lower is better. Standard: a player's score is their number of groups (both colours added
with two players). Blockers!: groups plus the most tiles they captured from any one opponent.
Ties are broken by fewer tiles captured in total; still tied, the rank is shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Optional

from ..errors import SetupError
from .game import VARIANTS, Game
from ..i18n import _ as gettext

__all__ = ["Standing", "standings", "win_share", "win_shares"]


class Standing(NamedTuple):
    """A player's standing; ``captured`` counts the tiles taken from each opponent, by name."""

    name: str
    colors: tuple[str, ...]
    groups: int
    captures: int
    captured: dict[str, int]
    score: int
    rank: int
    forfeit: Optional[int] = None
    """The move at which the player forfeited (``Game.forfeit``), or None: a forfeited player
    ranks below every player still in play, a later forfeit above an earlier one."""


def standings(game: Game, variant: str | None = None,
              forfeits: Sequence[str] = ()) -> list[Standing]:
    """Every player's standing, in seat order, as the game is now, scored as ``variant`` scores
    (the game's own variant by default). ``forfeits``: players who forfeited after the end (a
    reveal not made in time), ranked last together, above those who forfeited in the game."""
    if variant is None:
        variant = game.variant
    elif variant not in VARIANTS:
        raise SetupError(gettext("unknown variant {variant!r} (standard or blockers)")
                         .format(variant=variant))
    rows = []
    for player in game.players:
        captured = {
            other.name: sum(game.captured(mine, theirs) for mine in player.colors for theirs in other.colors)
            for other in game.players
            if other is not player
        }
        groups = game.player_groups(player)
        captures = sum(captured.values())
        score = groups + (max(captured.values()) if variant == "blockers" else 0)
        rows.append((player, groups, captures, captured, score))
    order_keys = [(score, captures) for _, _, captures, _, score in rows]
    if game.forfeited or forfeits:
        return _forfeit_ranks(game, rows, order_keys, forfeits)
    return [
        Standing(
            name=player.name,
            colors=player.colors,
            groups=groups,
            captures=captures,
            captured=captured,
            score=score,
            rank=1 + sum(other < key for other in order_keys),
        )
        for (player, groups, captures, captured, score), key in zip(rows, order_keys)
    ]


def win_share(mine: tuple[float, int], everyone: Sequence[tuple[float, int]]) -> float:
    """A seat's share of first place, from its ``(score, captures)`` and every seat's (its
    own among them), ranked as ``standings`` ranks: 0 behind anyone, else 1/k when k seats
    share first place."""
    if any(other < mine for other in everyone):
        return 0.0
    return 1.0 / sum(other == mine for other in everyone)


def win_shares(table: Sequence[Standing]) -> list[float]:
    """Each seat's ``win_share`` in a game's ``standings``, read from their ranks."""
    firsts = sum(s.rank == 1 for s in table)
    return [1.0 / firsts if s.rank == 1 else 0.0 for s in table]


def _forfeit_ranks(game: Game, rows: list[tuple[Any, ...]], order_keys: list[tuple[int, int]],
                   forfeits: Sequence[str] = ()) -> list[Standing]:
    """``standings`` of a game with forfeits: the players still in play ranked among
    themselves as usual, then the forfeited, the later forfeit higher."""
    at = dict(game.forfeited)
    at.update((name, len(game.history) + 1) for name in forfeits if name not in at)
    playing = [key for (player, *_), key in zip(rows, order_keys) if player.name not in at]
    standings = []
    for (player, groups, captures, captured, score), key in zip(rows, order_keys):
        forfeit = at.get(player.name)
        rank = (1 + sum(other < key for other in playing) if forfeit is None
                else 1 + len(playing) + sum(ply > forfeit for ply in at.values()))
        standings.append(Standing(player.name, player.colors, groups, captures, captured, score,
                                  rank, forfeit))
    return standings
