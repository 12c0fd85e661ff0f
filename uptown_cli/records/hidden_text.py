"""The hidden-racks lists of a record's text (``commitments``, ``revealed``, ``withdrawn``):
an entry added, its value written over, or the entry taken out, without touching the rest of
the file, each checked by reading the new text back."""

from __future__ import annotations

from ..errors import RecordError
from .hidden_fields import HiddenFields
from .nodes import Mapping, Sequence
from .schema import Record
from .writing import end_of_lines, insert_item, quote, read_new_text, readable, summary
from ..i18n import _

__all__ = ["record_with_entry", "record_without_entry"]


def record_with_entry(old: str | Record, list_name: str, name: str, value: str,
                      path: str = "<record>") -> Record:
    """The record ``old`` (a Record, or a record's text) with ``- NAME: VALUE`` in the
    hidden-racks list ``list_name``: written over the value of ``name``'s entry when the list
    has one (not in ``withdrawn``), else appended; checked by reading it back as that one
    entry changed or added."""
    old = readable(old, path)
    what = _("{name}'s {list} entry").format(name=name, list=list_name)
    item = _list_item(old, list_name, name) if list_name != "withdrawn" else None
    if item is None:
        new = insert_item(old, list_name, [f"{quote(name)}: {quote(value)}"], path, what)
    else:
        scalar = item.pairs[0][1]
        new = old.text[:scalar.start] + quote(value, flow=item.flow) + old.text[scalar.end:]
    expected = None if old.hidden is None else old.hidden.with_entry(list_name, name, value)
    return _edited(old, new, _("writing {what} to {path}").format(what=what, path=path), expected)


def record_without_entry(old: Record, list_name: str, name: str) -> Record:
    """The record ``old`` without ``name``'s entry in the hidden-racks list ``list_name`` (its
    lines, comments on them too), checked by reading it back as that one entry less."""
    what = _("{name}'s {list} entry").format(name=name, list=list_name)
    item = _list_item(old, list_name, name)
    if item is None or item.flow:
        raise RecordError(_("{path}: {what} is not on a line of its own; nothing was written")
                          .format(path=old.path, what=what))
    text = old.text
    start = text.rfind("\n", 0, item.start) + 1
    new = text[:start] + text[end_of_lines(text, item):]
    expected = None if old.hidden is None else old.hidden.without_entry(list_name, name)
    return _edited(old, new, _("removing {what} from {path}").format(what=what, path=old.path),
                   expected)


def _list_item(record: Record, list_name: str, name: str) -> Mapping | None:
    """The ``- NAME: VALUE`` item of ``name`` in the top-level list ``list_name``, or None."""
    pair = record.parsed().get(list_name)
    if pair is None or not isinstance(pair[1], Sequence):
        return None
    return next((item for item in pair[1].items if isinstance(item, Mapping)
                 and len(item.pairs) == 1 and item.pairs[0][0].value == name), None)


def _edited(old: Record, new: str, doing: str, expected: HiddenFields | None) -> Record:
    """The record in ``new``, the text of ``old`` with one hidden-racks entry changed, checked
    to read back as ``old`` with the hidden-racks fields ``expected``."""
    refused = _("{doing} would not read back as that one entry changed").format(doing=doing)
    record = read_new_text(new, refused)
    if (summary(record) != summary(old) or record.extras != old.extras
            or expected is None or record.hidden != expected):
        raise RecordError(_("{refused}; nothing was written").format(refused=refused))
    record.path = old.path  # read back as "<new text>": named as its file again
    return record
