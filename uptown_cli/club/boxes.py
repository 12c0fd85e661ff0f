"""Message files and mailboxes, read so that nothing waits for ever or fills the memory, and
the copy of a game to take from a mailbox.

``read_message_file`` reads one message file; ``mbox_messages`` and ``maildir_messages`` give
each message of an mbox file or a Maildir folder in turn, each read with the limit of one
message (``mime.MAX_MESSAGE_BYTES``). Only regular files are read, opened without waiting: a
FIFO, a device, a folder, a link that leads nowhere or in a loop, or a file that cannot be read
is a ``Letter`` with its problem, said in one line and passed by. An mbox is read line by line
(``>From`` unescaped, as mboxrd writes it). ``best_copy`` takes, among the messages that carry
the game, the copy that carries the local one furthest, never by the Date header.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from typing import Iterable, Iterator, NamedTuple, cast

from ..errors import NOTHING_WRITTEN, MailError, display_path, one_line
from ..fairplay.copies import Comparison, Relation, compare_records
from ..i18n import _ as gettext
from ..i18n import ngettext, system_reason
from ..records.reading import load_record
from ..records.schema import Record
from .inbox import progress
from .mime import MAX_MESSAGE_BYTES, Attached, find_game, read_message

__all__ = ["best_copy", "maildir_messages", "mbox_messages", "read_message_file"]

READ_CHUNK = 1024 * 1024
"""Bytes asked for by one read of a message file, or one piece of a long mbox line."""
_ESCAPED_FROM = re.compile(rb">+From ")


class Letter(NamedTuple):
    """One message of a mailbox: where it is, and its bytes or why it was not read."""

    where: str
    data: bytes = b""
    problem: str | None = None


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return (gettext("a folder") if stat.S_ISDIR(mode) else gettext("a FIFO") if stat.S_ISFIFO(mode)
            else gettext("a device") if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else gettext("a socket") if stat.S_ISSOCK(mode) else gettext("not a file"))


def _open_regular(path: str) -> int | str:
    """A descriptor of the regular file at ``path`` (links followed), opened without waiting,
    or what the file is instead (a FIFO or a device is told by its type before it is opened,
    and again once open); OSError when it cannot be opened."""
    kind = _kind(os.stat(path).st_mode)
    if kind is None:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        kind = _kind(os.fstat(descriptor).st_mode)
        if kind is None:
            return descriptor
        os.close(descriptor)
    return gettext("it is {kind}, not a message file").format(kind=kind)


def _why(exc: OSError, path: str) -> str:
    if exc.errno == errno.ENOENT and os.path.islink(path):
        return gettext("it is a link that leads nowhere")
    if exc.errno == errno.ELOOP:
        return gettext("it is a link in a loop")
    return gettext("it cannot be read ({reason})").format(reason=system_reason(exc))


def _letter(path: str, where: str) -> Letter:
    """The message file at ``path``, read whole up to the limit of one message."""
    try:
        descriptor = _open_regular(path)
    except OSError as exc:
        return Letter(where, problem=_why(exc, path))
    if isinstance(descriptor, str):
        return Letter(where, problem=descriptor)
    try:
        chunks, size = [], 0
        while size <= MAX_MESSAGE_BYTES:
            chunk = os.read(descriptor, min(READ_CHUNK, MAX_MESSAGE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return Letter(where, problem=_why(exc, path))
    finally:
        os.close(descriptor)
    if size > MAX_MESSAGE_BYTES:
        return Letter(where, problem=f"it is over {MAX_MESSAGE_BYTES // 2**20} MiB")
    return Letter(where, b"".join(chunks))


def read_message_file(path: str) -> bytes:
    """The bytes of the message file ``path``; MailError (one line) for anything else."""
    letter = _letter(path, display_path(path))
    if letter.problem is not None:
        raise MailError(gettext("cannot read {where}: {problem}")
                        .format(where=letter.where, problem=letter.problem), NOTHING_WRITTEN)
    return letter.data


def maildir_messages(path: str) -> Iterator[Letter]:
    """Every message of the Maildir folder ``path`` (``new/`` and ``cur/``, in the order of
    their names, which start with the time of delivery)."""
    shown = display_path(path)
    names = []
    for sub in ("new", "cur"):
        try:
            names += [(entry.name, os.path.join(path, sub, entry.name))
                      for entry in os.scandir(os.path.join(path, sub))
                      if not entry.name.startswith(".")]
        except OSError as exc:
            reason = gettext("no such Maildir folder") if exc.errno == errno.ENOENT else system_reason(exc)
            raise MailError(gettext("{shown}: {reason} (a Maildir holds new/ and cur/)")
                            .format(shown=shown, reason=reason)) from None
    for name, file in sorted(names):
        where = os.path.join(os.path.dirname(file), _short(name))
        yield _letter(file, display_path(where))


MAILDIR_NAME = 32
"""The most characters of a Maildir message's file name shown (a longer one, such as
``1733150000.M123456P7890.mail.example.org,S=2345,W=2400:2,S``, keeps its start, which holds
the time of delivery and is unique, and its end, the flags, with ``...`` between)."""


def _short(name: str) -> str:
    if len(name) <= MAILDIR_NAME:
        return name
    return f"{name[:MAILDIR_NAME - 12]}...{name[-9:]}"


def mbox_messages(path: str) -> Iterator[Letter]:
    """Every message of the mbox file ``path``: each starts at a line ``From ...``, which is
    left out; a message over the limit is a ``Letter`` with that problem, read no further."""
    shown = display_path(path)
    try:
        descriptor = _open_regular(path)
    except OSError as exc:
        reason = gettext("no such mbox file") if exc.errno == errno.ENOENT else _why(exc, path)
        raise MailError(gettext("{shown}: {reason}").format(shown=shown, reason=reason)) from None
    if isinstance(descriptor, str):
        raise MailError(gettext("{shown}: {descriptor}").format(shown=shown, descriptor=descriptor))
    with os.fdopen(descriptor, "rb") as stream:
        number, size, at_line_start = 0, 0, True
        lines: list[bytes] | None = None
        try:
            while piece := stream.readline(READ_CHUNK):
                starts, at_line_start = at_line_start, piece.endswith(b"\n")
                if starts and piece.startswith(b"From "):
                    if lines is not None:
                        yield _mbox_letter(gettext("{shown} message {number}").format(
                            shown=shown, number=number), lines, size)
                    number, lines, size = number + 1, [], 0
                    continue
                if lines is None:
                    raise MailError(gettext("{shown}: not an mbox file (it does not start with a 'From ' line)")
                                    .format(shown=shown))
                if starts and _ESCAPED_FROM.match(piece):
                    piece = piece[1:]
                size += len(piece)
                if size <= MAX_MESSAGE_BYTES:
                    lines.append(piece)
        except OSError as exc:
            raise MailError(gettext("cannot read {shown}: {value}")
                            .format(shown=shown, value=system_reason(exc))) from None
        if lines is not None:
            yield _mbox_letter(gettext("{shown} message {number}").format(shown=shown, number=number), lines, size)


def _mbox_letter(where: str, lines: list[bytes], size: int) -> Letter:
    if size > MAX_MESSAGE_BYTES:
        return Letter(where, problem=f"it is over {MAX_MESSAGE_BYTES // 2**20} MiB")
    data = b"".join(lines)
    return Letter(where, data[:-1] if data.endswith(b"\n\n") else data)


def best_copy(letters: Iterable[Letter], local_path: str,
              skipped: list[str]) -> tuple[Attached, Record]:
    """Of the messages that carry the game at ``local_path``, the copy that carries it
    furthest (see ``inbox.progress``; the later message when two go as far), and its record;
    with no local copy, the furthest of those whose attachment has the local file's name (or,
    in a game with hidden racks, whose game id is that name without ``.yaml``). A message that
    cannot be read, or whose game cannot, is added to ``skipped`` in one line; messages with no
    game or another game are passed by. MailError when none carries it."""
    local = load_record(local_path) if os.path.lexists(local_path) else None
    name = os.path.basename(local_path)
    found: list[tuple[tuple[int, ...], Attached]] = []
    records: dict[bytes, Record] = {}
    read: dict[bytes, tuple[Record, tuple[int, ...] | None]] = {}
    for place, letter in enumerate(letters):
        try:
            if letter.problem is not None:
                raise MailError(gettext("{where}: {problem}")
                                .format(where=letter.where, problem=letter.problem))
            game = find_game(read_message(letter.data, letter.where), letter.where)
            if game is None or local is None and not _named(game, name, records):
                continue
            if game.data not in read:
                record = _record(game, records)
                read[game.data] = record, progress(local, record)
        except MailError as exc:
            skipped.append(exc.reason)
            continue
        key = read[game.data][1]
        if key is not None:
            found.append(((*key, place), game))
    if not found:
        if local is not None:
            none = (ngettext("{path}: no message in the mailbox carries this game; {count} was "
                             "skipped", "{path}: no message in the mailbox carries this game; "
                             "{count} were skipped", len(skipped)) if skipped else
                    gettext("{path}: no message in the mailbox carries this game"))
        else:
            none = (ngettext("no message in the mailbox carries a game named {name}; {count} was "
                             "skipped", "no message in the mailbox carries a game named {name}; "
                             "{count} were skipped", len(skipped)) if skipped else
                    gettext("no message in the mailbox carries a game named {name}"))
        raise MailError(none.format(path=display_path(local_path), name=name,
                                    count=len(skipped)))
    best = max(found, key=lambda item: item[0])[1]
    chosen = read[best.data][0]
    if local is None:
        others = [record for record, _ in read.values()
                  if _other_game(compare_records(chosen, record))]
        if others:
            raise MailError(gettext("{value} different games in the mailbox are attached as {name}: "
                              "receive the one you want from its message (uptown receive FILE.eml)")
                            .format(value=_games(others) + 1, name=name))
    carriers: dict[bytes, Attached] = {}
    for key, game in found:  # the first message of each copy that carries the local one on
        if key[0] == 3:
            carriers.setdefault(game.data, game)
    for data, game in carriers.items():
        conflict = _fork(compare_records(chosen, read[data][0]), chosen, read[data][0])
        if conflict is not None:
            raise MailError(gettext("{path}: two copies in the mailbox carry it on differently "
                                    "({one}, {other}): {conflict}; neither was taken (receive "
                                    "the right one from its message)")
                            .format(path=display_path(local_path), one=best.where,
                                    other=game.where, conflict=conflict))
    return best, chosen


def _record(game: Attached, records: dict[bytes, Record]) -> Record:
    """``game.record()``, read once per copy (kept in ``records``)."""
    if game.data not in records:
        records[game.data] = game.record()
    return records[game.data]


def _other_game(comparison: Comparison) -> bool:
    """Whether the copies compared are of two games (not one game whose joins differ)."""
    return comparison.relation == Relation.DIFFERENT_GAMES and comparison.fields != ("commitments",)


def _games(records: list[Record]) -> int:
    """How many games ``records`` hold, each counted once however many copies of it there are:
    copies with one game id are one game; a copy without one is another game only when it is
    one for each such copy before it (``compare_records``)."""
    ids: set[str] = set()
    plain: list[Record] = []
    for record in records:
        if record.game_id is not None:
            ids.add(record.game_id)
        elif all(_other_game(compare_records(seen, record)) for seen in plain):
            plain.append(record)
    return len(ids) + len(plain)


def _fork(comparison: Comparison, a: Record, b: Record) -> str | None:
    """What two copies of one game that each carry it on contradict (``a`` the first one):
    who wrote the move, the join or the address they differ in; None when one extends the
    other (or they differ only in what ``receive`` itself refuses: an illegal move)."""
    if comparison.relation == Relation.DIVERGING:
        number = cast(int, comparison.move)

        one, other = (r.moves[number - 1] for r in (a, b))
        return one_line(gettext("move {number} is {name}'s {move} in one and {other_name}'s "
                                "{other_move} in the other").format(
            number=number, name=a.owners.get(one.color, "?"), move=one.text,
            other_name=b.owners.get(other.color, "?"), other_move=other.text))
    if comparison.relation == Relation.ADDRESS_CHANGED:
        return one_line(comparison.detail or gettext("an address differs"))
    if comparison.relation == Relation.DIFFERENT_GAMES and comparison.fields == ("commitments",):
        assert a.hidden is not None and b.hidden is not None
        seat = next((seat for seat, (mine, theirs) in enumerate(zip(a.hidden.commitments,
                                                                    b.hidden.commitments))
                     if mine != theirs), None)
        who = a.hidden.commitments[seat][0] if seat is not None else gettext("a player")
        return one_line(gettext("{name} joined with two different keys").format(name=who))
    return None


def _named(game: Attached, name: str, records: dict[bytes, Record]) -> bool:
    """Whether ``game`` is attached as ``name``, or is the hidden game whose id it names
    (its record read as by ``_record``)."""
    if game.file_name == name:
        return True
    stem = os.path.splitext(name)[0]
    try:
        hidden = _record(game, records).hidden
    except MailError:
        return False
    return hidden is not None and hidden.game_id == stem
