"""A player: a name and the colours it plays. Kept apart from ``game`` because mypyc, which
can compile ``game`` (docs/PERFORMANCE.md, "A faster engine"), compiles no class built on a
named tuple's."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

__all__ = ["Player"]


class _Seat(NamedTuple):
    name: str
    colors: tuple[str, ...]


class Player(_Seat):
    """A player: their name and colours (given as any iterable, kept as a tuple)."""

    __slots__ = ()

    def __new__(cls, name: str, colors: Iterable[str]) -> Player:
        return super().__new__(cls, name, tuple(colors))
