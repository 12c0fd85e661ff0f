"""A player and a move as a record writes them: the entries ``records.schema`` reads, with
their lines, and the keys that only some records have (their modules are loaded only for the
records that have them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .annotations import MoveNotes


HIDDEN_KEYS = ("hidden", "protocol", "commitments", "revealed")
"""The top-level keys of a game with hidden racks (see ``records.hidden_fields``)."""
LINK_KEY = "link"
"""The key of a move's chain link, in a game with hidden racks."""
NOTE_KEYS = ("eval", "best", "variations", "comment")
"""The keys a move may carry besides its colour (and ``link`` in a game with hidden racks):
see ``records.annotations``."""


class PlayerEntry(NamedTuple):
    """A player as recorded: name, colours in order, the line of the entry, and their email
    address when the record gives one."""

    name: str
    colors: tuple[str, ...]
    line: int
    email: str | None = None


class MoveEntry(NamedTuple):
    """A move as recorded: the colour, the move text exactly as typed, its line, and the
    chain link written with it (games with hidden racks only), and its notes (annotated
    records: see ``annotations``)."""

    color: str
    text: str
    line: int
    link: str | None = None
    notes: MoveNotes | None = None
