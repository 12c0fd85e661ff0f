"""Disputes: a player's claim that an entry another player wrote for them, out of time, is
wrong (docs/DEADLINES.md, "Disputes"). In a game without a club judge every time is its
writer's word, so a pass or forfeit a rival writes for a late player is a claim the victim may
dispute; a disputed game is marked in ``status`` and left out of ``ratings`` until the player
who disputed it settles it::

    disputes:
      - Bo: 5                  # Bo disputes move 5, written for him by another
        at: "2026-12-04T09:00:00Z"
        sig: 91ab...           # in a game whose entries are signed: Bo's signature
      - Bo: 5 settled          # Bo settles it (the players agreed)
        at: "2026-12-06T10:00:00Z"
        sig: 4c02...

Read here as text; whether each is Bo's to write is ``turns.validation``'s and
``fairplay.signatures``' to say.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..errors import RecordError
from ..i18n import _
from .hidden_fields import SIG_DIGITS, is_hex
from .nodes import Mapping, Node, Scalar, Sequence, describe
from .times import time_problem

if TYPE_CHECKING:
    from .entries import MoveEntry
    from .hidden_fields import HiddenFields

__all__ = ["Dispute", "read_disputes", "open_disputes", "dispute_text", "dispute_errors",
           "dispute_words", "written_for", "claims_against"]

_VALUE = re.compile(r"([1-9][0-9]{0,3})( settled)?")


class Dispute(NamedTuple):
    """An item of ``disputes``: who (``name``), the move disputed (``number``), whether it
    settles that dispute, when it was written and its signature, as written; its line."""

    name: str
    number: int
    settled: bool
    at: str | None
    sig: str | None
    line: int

    @property
    def text(self) -> str:
        """Its value as the tools write it: ``5``, ``5 settled``."""
        return dispute_text(self.number, self.settled)


def dispute_text(number: int, settled: bool) -> str:
    """The value of a dispute of move ``number`` (``5``), or of its settling (``5 settled``)."""
    return f"{number} settled" if settled else str(number)


def read_disputes(root: Mapping, problem: Callable[[str, Node | int | None], None]
                  ) -> list[Dispute]:
    """The items of ``disputes`` in ``root``, each checked as text (``- NAME: N`` or ``-
    NAME: N settled``, with ``at`` and ``sig`` under it); a bad one is a problem and left out."""
    pair = root.get("disputes")
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        return []
    if not isinstance(pair[1], Sequence):
        problem(_("'disputes' must be a list of '- NAME: MOVE' items, not {node}").format(
            node=describe(pair[1])), pair[1])
        return []
    found = []
    for item in pair[1].items:
        fields = ({key.value: value for key, value in item.pairs}
                  if isinstance(item, Mapping) and item.pairs else {})
        first = item.pairs[0] if isinstance(item, Mapping) and item.pairs else None
        value = first[1] if first is not None else None
        matched = _VALUE.fullmatch(value.value) if isinstance(value, Scalar) else None
        under = {key: node.value for key, node in fields.items()
                 if key in ("at", "sig") and isinstance(node, Scalar)}
        wrong = next((node for key, node in fields.items() if key in under and (
            time_problem(under[key]) if key == "at" else not is_hex(under[key], SIG_DIGITS))),
            None)
        if wrong is not None:
            problem(_("under a dispute, 'at' is the time it was written (2026-12-01T12:00:00Z) "
                      "and 'sig' its writer's signature, {digits} hex digits (0-9, a-f)").format(
                digits=SIG_DIGITS), wrong)
            continue
        if first is None or matched is None or len(fields) != 1 + len(under) or any(
                key not in ("at", "sig") for key in list(fields)[1:]):
            problem(_("each item of 'disputes' is a player's name and the number of the move "
                      "they dispute ('- Bo: 5', or '- Bo: 5 settled'), with 'at' and 'sig' "
                      "under it"), item)
            continue
        found.append(Dispute(first[0].value, int(matched.group(1)), bool(matched.group(2)),
                             under.get("at"), under.get("sig"), item.line))
    return found


def open_disputes(disputes: list[Dispute]) -> list[Dispute]:
    """The disputes not settled since by the player who made them, in file order."""
    settled = {(d.name, d.number) for d in disputes if d.settled}
    return [d for d in disputes if not d.settled and (d.name, d.number) not in settled]


class _Record(Protocol):
    """What the check of disputes reads of a record (``records.schema.Record``)."""

    path: str
    moves: list[MoveEntry]
    disputes: list[Dispute]
    joins: HiddenFields | None

    @property
    def owners(self) -> dict[str, str]:
        ...


def dispute_errors(record: _Record) -> list[RecordError]:
    """A RecordError for each item of ``disputes`` that is not a player's dispute of an entry
    another player wrote for them (``by``), or that settles no dispute of theirs; a game under
    a club judge has none (the judge keeps the time)."""
    errors = []
    opened: set[tuple[str, int]] = set()
    judged = record.joins is not None and record.joins.judge is not None
    signed = record.joins is not None and record.joins.signed
    for dispute in record.disputes:
        what = dispute_words(dispute)
        entry = record.moves[dispute.number - 1] if dispute.number <= len(record.moves) else None
        if judged:
            problem = _("{what}: a game under a club judge has no disputes (the judge keeps the "
                        "time)").format(what=what)
        elif entry is None:
            problem = _("{what}: the game has no move {number}").format(what=what,
                                                                       number=dispute.number)
        elif dispute.number not in written_for(record, dispute.name):
            problem = _("{what}: move {number} is not an entry another player wrote for "
                        "{name}").format(what=what, number=dispute.number, name=dispute.name)
        elif dispute.settled and (dispute.name, dispute.number) not in opened:
            problem = _("{what}: {name} has not disputed move {number}").format(
                what=what, name=dispute.name, number=dispute.number)
        elif not dispute.settled and (dispute.name, dispute.number) in opened:
            problem = _("{what}: {name} disputes move {number} already").format(
                what=what, name=dispute.name, number=dispute.number)
        elif dispute.sig is not None and not signed:
            problem = _("{what}: 'sig' belongs to games whose entries are signed").format(
                what=what)
        else:
            (opened.discard if dispute.settled else opened.add)((dispute.name, dispute.number))
            continue
        errors.append(RecordError(problem, path=record.path, line=dispute.line))
    return errors


def written_for(record: _Record, name: str) -> list[int]:
    """The numbers of the moves of ``record`` another player wrote for ``name`` (``by``: a
    pass, a forfeit or a bot's move, out of time): those ``name`` may dispute."""
    return [index + 1 for index, move in enumerate(record.moves)
            if move.by not in (None, name) and record.owners.get(move.color) == name]


def claims_against(record: _Record, name: str) -> list[str]:
    """What ``name``'s own tool tells them of each entry another player wrote for them in a
    game without a club judge, that they have not disputed: a claim resting on its writer's
    clock alone, which they may dispute."""
    if record.joins is not None and record.joins.judge is not None:
        return []
    disputed = {d.number for d in open_disputes(record.disputes) if d.name == name}
    return [_("{by} wrote move {number} for you ({text}, at {at} by {by}'s own clock): times "
              "in a game without a club judge are the players' word; if you were in time, "
              "dispute it: uptown dispute {path} --as {name} --move {number}").format(
        by=move.by, number=number, text=move.text, at=move.at or "?", path=record.path,
        name=name)
        for number in written_for(record, name) if number not in disputed
        for move in (record.moves[number - 1],)]


def dispute_words(dispute: Dispute) -> str:
    """A dispute named in words: ``Bo's dispute of move 5``, ``Bo's settling of move 5``."""
    if dispute.settled:
        return _("{name}'s settling of the dispute of move {number}").format(
            name=dispute.name, number=dispute.number)
    return _("{name}'s dispute of move {number}").format(name=dispute.name,
                                                         number=dispute.number)
