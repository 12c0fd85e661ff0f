"""A player and a move as a record writes them: the entries ``records.schema`` reads, with
their lines, and the keys that only some records have (their modules are loaded only for the
records that have them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from ..engine.notation import FORFEIT

__all__ = ["MoveNotes", "PlayerEntry", "PauseEntry", "pause_text", "forfeits"]


HIDDEN_KEYS = ("hidden", "protocol", "commitments", "revealed", "withdrawn", "judge", "void")
"""The top-level keys of a game with hidden racks, or signed by its players (see
``records.hidden_fields``)."""
LINK_KEY = "link"
"""The key of a move's chain link, in a game with hidden racks."""
SIG_KEY = "sig"
"""The key of an entry's signature by its writer, in a game whose entries are signed."""
JUDGED_KEYS = ("judged", "stamp")
"""The keys a club judge adds under every entry of a game it keeps: when it received the
entry, and its signature over that (docs/JUDGE.md)."""
JUDGE = "judge"
"""What ``by`` says under an entry the club judge wrote for a player out of time."""
TIMING_KEYS = ("clock", "late", "vacation", "started")
"""The top-level keys of a game's time control, in the order ``new`` writes them."""
STAMP_KEYS = ("at", "by", "bot")
"""The keys under an entry that say when it was written, and by whom for a player out of time
(docs/DEADLINES.md; ``records.times``)."""
NOTE_KEYS = ("eval", "best", "variations", "comment")
"""The keys a move may carry besides its colour (and ``link`` in a game with hidden racks):
see ``records.annotations``."""


class Settled:
    """A value made once and never changed that keeps its lines beside it without comparing
    them (so not a named tuple, which compares every field: a record's notes and hidden fields
    stay equal when a move appended moves their lines): equal to and hashed as another of its
    class by ``_compared()``, shown with every slot."""

    __slots__: tuple[str, ...] = ()

    def _compared(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


class MoveNotes(Settled):
    """What a move carries besides the move. ``eval`` is ``(score, chance to win 0..1)``;
    ``lines`` (not compared) holds the line of each move of ``best`` (first) and of each
    variation. Not to be changed once made."""

    __slots__ = ("eval", "best", "variations", "comment", "mark", "lines")

    def __init__(self, eval: tuple[float, float] | None = None, best: str | None = None,
                 variations: tuple[tuple[str, ...], ...] = (), comment: str | None = None,
                 mark: str | None = None, lines: tuple[tuple[int, ...], ...] = ()) -> None:
        self.eval: Final = eval
        self.best: Final = best
        self.variations: Final = variations
        self.comment: Final = comment
        self.mark: Final = mark
        self.lines: Final = lines

    def _compared(self) -> tuple[object, ...]:
        return self.eval, self.best, self.variations, self.comment, self.mark


class PlayerEntry(NamedTuple):
    """A player as recorded: name, colours in order, the line of the entry, their email
    address when the record gives one, and the language of the mail they get (``lang``:
    ``es``; None: the sender's)."""

    name: str
    colors: tuple[str, ...]
    line: int
    email: str | None = None
    lang: str | None = None


class MoveEntry(NamedTuple):
    """A move as recorded: the colour, the move text exactly as typed, its line, and the
    chain link written with it (games with hidden racks only), its notes (annotated
    records: see ``annotations``), and its stamp: ``at``, ``by`` and ``bot`` (see
    ``records.times``)."""

    color: str
    text: str
    line: int
    link: str | None = None
    notes: MoveNotes | None = None
    at: str | None = None
    """When the entry was written (UTC, ISO 8601, as written), when the record says."""
    by: str | None = None
    """The player who wrote it for this colour's player (out of time), when another did."""
    bot: str | None = None
    """The bot that chose a move written for a player out of time (with ``by``)."""
    sig: str | None = None
    """Its writer's signature (hex as written), in a game whose entries are signed."""
    judged: str | None = None
    """When the club judge received it (as written), in a game under a judge."""
    stamp: str | None = None
    """The judge's signature over that (hex as written)."""


class PauseEntry(NamedTuple):
    """A vacation written among the moves (``- blue: pause 7d``): not a turn. ``after`` is how
    many moves come before it; its colour, its days, when it was written (``at``) and when it
    begins when booked ahead (``start``, the ``from:`` under it), as written; its line."""

    after: int
    color: str
    days: int
    at: str | None
    start: str | None
    line: int
    sig: str | None = None
    """Its player's signature (hex as written), in a game whose entries are signed."""
    judged: str | None = None
    """When the club judge received it (as written), in a game under a judge."""
    stamp: str | None = None
    """The judge's signature over that (hex as written)."""

    @property
    def text(self) -> str:
        """The entry's text after its colour, as the tools write it: ``pause 7d``."""
        return pause_text(self.days)


def pause_text(days: int) -> str:
    """The text of a pause of ``days`` days after its colour: ``pause 7d``."""
    return f"pause {days}d"


def forfeits(moves: Sequence[MoveEntry], owners: Mapping[str, str],
             settled: Mapping[str, str]) -> list[dict[str, object]]:
    """``{"name", "reason", "at", "move"}`` for each forfeit written in ``moves`` (its player's
    name from ``owners``, colour to name; ``resigned``, or ``out of time`` when written by
    another), in move order, then for each player ``settled`` as not revealing by their
    deadline (``reveal``, at the deadline)."""
    written: list[dict[str, object]] = [
        {"name": owners.get(m.color, m.color), "reason": "out of time" if m.by else "resigned",
         "at": m.at, "move": number}
        for number, m in enumerate(moves, 1) if m.text == FORFEIT]
    return written + [{"name": name, "reason": "reveal", "at": deadline, "move": None}
                      for name, deadline in settled.items()]
