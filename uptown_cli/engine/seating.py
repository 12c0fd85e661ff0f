"""Who sits at the table: the colours dealt round it (the SPEC's order), and when two names
are one player's."""

from __future__ import annotations

from collections.abc import Sequence

from .game import COLORS


def dealt_colors(named: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Each seat's colours: those it names, or for the seats that name none the colours nobody
    named, dealt round the table one at a time in the order red, blue, green, yellow, orange
    (twice round with 2 players, who play two colours each), while they last."""
    taken = {color for colors in named for color in colors}
    free = [color for color in COLORS if color not in taken]
    dealt = [list(colors) for colors in named]
    waiting = [seat for seat, colors in enumerate(named) if not colors]
    for _ in range(2 if len(named) == 2 else 1):
        for seat in waiting:
            if free:
                dealt[seat].append(free.pop(0))
    return [tuple(colors) for colors in dealt]


def seat_colors(players: int) -> list[tuple[str, ...]]:
    """The colours of each of ``players`` seats when nobody names theirs: ``[("red",
    "green"), ("blue", "yellow")]`` with 2, else one each."""
    return dealt_colors([()] * players)


def name_key(name: str) -> str:
    """What two spellings of one player's name share: the name without blanks round it, in
    Unicode's composed form (NFC), case folded. ``" Ana"``, ``"ana"`` and ``"ANA "`` are one
    player; so are the composed and decomposed spellings of ``"Gréedy"``."""
    if name.isascii():  # the usual case, without loading unicodedata's tables
        return name.strip().casefold()
    import unicodedata

    folded = unicodedata.normalize("NFC", name.strip()).casefold()
    return unicodedata.normalize("NFC", folded)


def same_name(first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` name the same player (see ``name_key``)."""
    return name_key(first) == name_key(second)
