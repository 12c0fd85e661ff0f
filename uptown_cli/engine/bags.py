"""Seeded bags: the order in which a colour's 28 tiles come out of its bag.

The shuffle is our own and must never change, so that a seed written in a record gives the
same racks and draws on every machine and every Python, forever. It rests only on SHA-256,
whose output is fixed by its standard (``random.shuffle`` and ``randrange`` are not promised
to stay the same across Python versions).

The order of colour ``C`` under seed ``S`` (both as text, UTF-8): every tile ``T`` (its
canonical name, e.g. ``7``, ``sax``, ``$``) gets the key
``SHA-256("uptown-bag-1\\n" + S + "\\n" + C + "\\n" + T)``; the tiles sorted by key (as bytes)
are the bag, first drawn first. The first five make the starting rack; each later tile is
drawn in turn. ``tests/engine/test_bags.py`` pins the order of a few seeds.
"""

from __future__ import annotations

from collections.abc import Iterable

from .geometry import TILE_NAMES
from .sha256 import sha256

__all__ = ["bag_order", "seeded_bags"]

_NAMES_AS_BYTES = [name.encode("utf-8") for name in TILE_NAMES]


def bag_order(seed: str, color: str) -> list[int]:
    """Colour ``color``'s 28 tiles in the order seed ``seed`` draws them."""
    prefix = f"uptown-bag-1\n{seed}\n{color}\n".encode("utf-8")
    keys = [sha256(prefix + name).digest() for name in _NAMES_AS_BYTES]
    return sorted(range(len(keys)), key=keys.__getitem__)


def seeded_bags(seed: str, colors: Iterable[str]) -> dict[str, list[int]]:
    """``{colour: bag_order(seed, colour)}`` for every colour in ``colors``."""
    return {color: bag_order(seed, color) for color in colors}
