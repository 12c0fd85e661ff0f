"""Taking a game's moves back, to go through its positions again from an earlier one."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game, Turn


def rewind(game: Game, ply: int = 0) -> list[Turn]:
    """Take ``game``'s moves back to move ``ply`` (the start by default); returns the Turns
    taken back, in the order they were played (to play them again)."""
    turns = []
    while game.ply > ply:
        turns.append(game.pop())
    turns.reverse()
    return turns
