"""Joins and revealed keys checked with the keys they hold: the commitment a key makes, whether a
key is the one its player joined with, which revealed key counts, and what a withdrawn join
proves. The record keeps these values as written (``records.hidden_fields``); only this module
hashes them.
"""

from __future__ import annotations

import functools

from ..errors import RecordError
from ..i18n import _
from ..records.hidden_fields import HiddenFields
from ..records.schema import Record
from .draws import commitment, head

__all__ = ["commitment_of", "key_gives", "counted_reveals", "valid_reveals", "bad_reveals", "reveal_line",
           "withdraws", "joined_with", "hand_written_joins"]


def commitment_of(hidden: HiddenFields, name: str, key: bytes,
                  earlier: list[str] | None = None, signing_key: str | None = None) -> str:
    """The commitment (hex) that ``name`` makes with ``key`` after the commitments ``earlier``
    (hex, those of the seats before, as they were; default: every commitment there now, as
    for a player joining now); from version 5 with their public signing key (hex; default:
    the one their join publishes), and in an open game without a chain."""
    if earlier is None:
        earlier = [value for _, value in hidden.commitments]
    if signing_key is None:
        signing_key = hidden.signing_keys().get(name, "")
    game_id = bytes.fromhex(hidden.game_id)
    chain_head = head(game_id, name, key, hidden.version) if hidden.racks else b""
    made = commitment(game_id, name, chain_head, [bytes.fromhex(value) for value in earlier],
                      hidden.version, bytes.fromhex(signing_key))
    return made.hex()


def key_gives(hidden: HiddenFields, name: str, key: bytes) -> bool:
    """Whether ``key`` gives ``name``'s commitment, with the commitments before it as they
    are: whether it is the key ``name`` joined with."""
    names = hidden.joined()
    if name not in names:
        return False
    seat = names.index(name)
    earlier = [value for _, value in hidden.commitments[:seat]]
    return commitment_of(hidden, name, key, earlier) == hidden.commitments[seat][1]


@functools.lru_cache(maxsize=32)
def _counted(hidden: HiddenFields) -> dict[str, tuple[str, int, bool]]:
    """Each player's revealed entry that counts, as ``(key, its index in revealed, whether it
    gives the player's commitment)``: the first whose key does, else the first."""
    counted: dict[str, tuple[str, int, bool]] = {}
    for index, (name, value) in enumerate(hidden.revealed):
        if name in counted and counted[name][2]:
            continue
        gives = key_gives(hidden, name, bytes.fromhex(value))
        if name not in counted or gives:
            counted[name] = (value, index, gives)
    return counted


def counted_reveals(hidden: HiddenFields) -> dict[str, str]:
    """Each player's revealed key that counts (hex, by name): the first that gives their
    commitment, else their first entry."""
    return {name: value for name, (value, _, _) in _counted(hidden).items()}


def valid_reveals(hidden: HiddenFields, pending: bool = False) -> dict[str, str]:
    """The revealed keys that give their player's commitment (hex, by name). Any other
    ``revealed`` entry was not written by that player and counts as not revealed; in a game
    under a club judge, nor does one the judge has not stamped (it stamps a key only when it
    comes before its player's reveal deadline, so a late reveal changes nothing settled),
    unless ``pending`` (the judge's own question, of a copy it is sent)."""
    stamped = hidden.signatures["revealed"]
    return {name: value for name, (value, index, gives) in _counted(hidden).items()
            if gives and (pending or hidden.judge is None or stamped[index].stamp is not None)}


def bad_reveals(hidden: HiddenFields) -> list[str]:
    """The players whose ``revealed`` entries all fail to give their commitment."""
    return [name for name, (_, _, gives) in _counted(hidden).items() if not gives]


def reveal_line(hidden: HiddenFields, name: str) -> int | None:
    """The line of ``name``'s revealed entry that counts (None: there is none)."""
    found = _counted(hidden).get(name)
    lines = hidden.entry_lines.get("revealed", ())
    if found is None or found[1] >= len(lines):
        return hidden.lines.get(("revealed", name))
    return lines[found[1]]


def withdraws(hidden: HiddenFields, name: str, value: str, earlier: list[str]) -> bool:
    """Whether a ``withdrawn`` key of ``name`` gives the commitment ``value`` made after the
    commitments ``earlier`` (hex): that join was undone by whoever made it."""
    return any(who == name and commitment_of(hidden, name, bytes.fromhex(key), earlier,
                                             signature.key or "") == value
               for (who, key), signature in zip(hidden.withdrawn, hidden.signatures["withdrawn"]))


def joined_with(hidden: HiddenFields, index: int) -> bool:
    """Whether the key of ``withdrawn`` entry ``index`` gives the commitment its player holds
    now: the join it says was taken back is still there."""
    name, key = hidden.withdrawn[index]
    return name in hidden.joined() and key_gives(hidden, name, bytes.fromhex(key))


def hand_written_joins(record: Record) -> tuple[list[RecordError], list[RecordError]]:
    """(problems, warnings) that the keys in ``record``'s joins and reveals prove: a withdrawn
    key that gives a commitment still there (``join --undo`` takes it out, so the entry was
    written by hand), and each revealed entry ignored because another for its player counts
    (anyone can write one: it never blocks the real key)."""
    hidden = record.hidden
    if hidden is None:
        return [], []
    problems = []
    lines = hidden.entry_lines.get("withdrawn", ())
    for index, (name, _key) in enumerate(hidden.withdrawn):
        if joined_with(hidden, index):
            problems.append(RecordError(_(
                "{name}'s withdrawn key gives {name}'s commitment, which is still there: uptown "
                "join --undo takes the commitment out, so this entry was written by hand; remove "
                "it").format(name=name), path=record.path, line=lines[index]))
    counted = _counted(hidden)
    warnings = []
    for index, ((name, _key), line) in enumerate(zip(hidden.revealed,
                                                  hidden.entry_lines.get("revealed", ()))):
        if counted[name][1] != index:
            warnings.append(RecordError(_(
                "another key revealed for {name} (line {line} is the one counted): ignored; "
                "{name} did not write it").format(name=name, line=reveal_line(hidden, name)),
                path=record.path, line=line))
    return problems, warnings

