"""A vacation among a record's moves (``- blue: pause 3d``, docs/DEADLINES.md) appended to its
text as ``records.writing`` appends a move, checked by reading the new text back."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import RecordError
from ..i18n import _
from .entries import MoveEntry, PauseEntry, pause_text
from .schema import Record
from .writing import entry_lines, insert_item, read_new_text, readable, summary

__all__ = ["record_with_pause"]


def record_with_pause(old: str | Record, color: str, days: int, path: str = "<record>",
                      stamp: dict[str, str] | None = None) -> Record:
    """The record ``old`` with a pause of ``days`` for the player of ``color`` appended among
    its moves (``- blue: pause 3d``), written as ``record_with_move`` writes a move: ``stamp``
    holds ``at`` (and ``from``, for a pause booked ahead). The new text is read back, and must
    be the same record with exactly this one pause more."""
    old = readable(old, path)
    stamp = stamp or {}
    text = pause_text(days)
    what = f"{color}: {text}"
    new = insert_item(old, "moves", entry_lines(color, text, stamp), path, what)
    refused = f"appending {what} to {path} would not read back as that one pause more"
    record = read_new_text(new, refused)
    added = PauseEntry(len(old.moves), color, days, stamp.get("at"), stamp.get("from"), 0)
    if (summary(record) != summary(old) or record.extras != old.extras
            or record.hidden != old.hidden or _unplaced(record.moves) != _unplaced(old.moves)
            or _unplaced(record.pauses) != _unplaced(old.pauses) + [added]):
        raise RecordError(_("{refused}; nothing was written").format(refused=refused))
    record.path = old.path  # read back as "<new text>": named as its file again
    return record


def _unplaced(entries: Sequence[MoveEntry] | Sequence[PauseEntry]) -> list[object]:
    """``entries`` without their lines (a flow list of moves is written again as a block)."""
    return [entry._replace(line=0) for entry in entries]
