"""Receiving a game by email: take the game out of a message, compare it with the local copy,
and save it when it is the same game carried further.

``attached_game`` reads one message with the standard library's ``email`` and refuses, in one
line, anything but one game file attached to plain-text mail: no game, several, one over
1 MiB, malformed MIME, a nested message, a compressed attachment, HTML-only mail, or an
attachment name that is a path.  ``newest_in_mailbox`` picks, from an mbox or a Maildir, the
newest message (by its Date) that carries the game wanted.  ``receive`` compares the game
with the local copy (``compare.compare_records``, as ``uptown diff`` does) and writes only a
copy that extends it (``records.safe_file.replace_record``, locked and atomic as ``move``
writes), or a new game that validates (``records.safe_file.create_record``); a copy that
rewrites the history or is another game is refused and kept beside the local one
(``kept_path``, as a new record is written).
"""

from __future__ import annotations

import email
import mailbox
import os
import re
import stat
from dataclasses import dataclass
from email.message import Message
from email.utils import parsedate_to_datetime
from typing import Callable

from ..records.compare import DIFFERENT_GAMES, EXTENDS, IDENTICAL, compare_records
from ..errors import MailError, RecordError
from ..records.schema import Record, load_record_text
from ..records.reading import load_record
from ..records.replay import replay, validate_text
from ..records.yaml_reader import MAX_BYTES

__all__ = [
    "MAX_MESSAGE_BYTES", "GAME_SUFFIXES", "message_game", "newest_in_mailbox", "carries",
    "receive", "KEPT_COPY"
]

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""A message larger than this is refused unread (a game is at most 1 MiB)."""
GAME_SUFFIXES = (".yaml", ".yml")
"""The endings of a game file's name."""
GAME_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
COMPRESSED_SUFFIXES = (".gz", ".tgz", ".zip", ".bz2", ".xz", ".7z", ".tar", ".zst", ".rar",
                       ".z", ".lz", ".lzma")
COMPRESSED_TYPES = ("application/gzip", "application/x-gzip", "application/zip",
                    "application/x-zip-compressed", "application/x-bzip2", "application/x-xz",
                    "application/x-7z-compressed", "application/x-tar", "application/zstd",
                    "application/x-rar-compressed", "application/vnd.rar",
                    "application/x-compress")


@dataclass(frozen=True)
class Attached:
    """The game a message carries: its attachment's file name (None if it has none), its
    bytes, and the message's Date as a timestamp (None when missing or unreadable)."""

    name: str | None
    data: bytes
    sent: float | None
    where: str

    def record(self) -> Record:
        """The attached game as a record; MailError when it is not one."""
        shown = f"{self.where} ({self.name or 'attached game'})"
        try:
            return load_record_text(self.data, shown)
        except RecordError as exc:
            raise MailError(f"the attached game is not a valid record: {exc}") from None


def read_message(data: bytes, where: str) -> Message:
    """The message in ``data`` (``where`` names it in errors), parsed with the ``compat32``
    policy: it keeps every defect found, as the newer policies do, and loads in a tenth of
    the time, which a command run on every turn notices."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise MailError(f"{where}: the message is over {MAX_MESSAGE_BYTES // 2**20} MiB; "
                        "nothing was written")
    return email.message_from_bytes(data)


def attached_game(message: Message, where: str) -> Attached:
    """The one game attached to ``message``; MailError (one line) for anything else."""
    def refuse(what: str) -> MailError:
        return MailError(f"{where}: {what}; nothing was written")

    games, plain, html = [], False, False
    for part in message.walk():
        if part.defects:
            raise refuse(f"malformed MIME ({_defect_text(part.defects[0])})")
        kind = part.get_content_type()
        if part.get_content_maintype() == "message":
            raise refuse(f"a nested message ({kind}) is not read: attach the game itself")
        if part.is_multipart():
            continue
        name = part.get_filename()
        if name is not None:
            _check_name(name, refuse)
            if name.lower().endswith(COMPRESSED_SUFFIXES) or kind in COMPRESSED_TYPES:
                raise refuse(f"{name!r} is compressed: attach the game file itself")
        if (name or "").lower().endswith(GAME_SUFFIXES) or kind in GAME_TYPES:
            games.append(part)
        elif name is None and kind == "text/plain":
            plain = True
        elif name is None and kind == "text/html":
            html = True
    if html and not plain:
        raise refuse("HTML-only mail is not read: send plain text with the game attached")
    if not games:
        raise refuse("no game is attached (uptown send attaches it)")
    if len(games) > 1:
        names = ", ".join(repr(p.get_filename() or "unnamed") for p in games)
        raise refuse(f"{len(games)} games are attached ({names}): send one game per message")
    part = games[0]
    data = part.get_payload(decode=True)
    if part.defects:  # found while decoding (bad base64)
        raise refuse(f"malformed MIME ({_defect_text(part.defects[0])})")
    if not isinstance(data, bytes):
        raise refuse("the attached game cannot be decoded")
    if len(data) > MAX_BYTES:
        raise refuse(f"the attached game is over 1 MiB ({len(data):,} bytes)")
    return Attached(part.get_filename(), data, _sent(message), where)


def _check_name(name: str, refuse: Callable[[str], MailError]) -> None:
    """Refuse an attachment name that is not a plain file name (a path, ``..``, hidden)."""
    if (not name or "/" in name or "\\" in name or ".." in name or name.startswith(".")
            or not name.isprintable()):
        raise refuse(f"the attachment name {name!r} is not a plain file name")


def _defect_text(defect: Exception) -> str:
    return type(defect).__name__.removesuffix("Defect") + (f": {defect}" if str(defect) else "")


def _sent(message: Message) -> float | None:
    try:
        return parsedate_to_datetime(str(message["Date"])).timestamp()
    except (TypeError, ValueError, IndexError):
        return None


def message_game(data: bytes, where: str) -> Attached:
    """The game attached to the message in ``data``."""
    return attached_game(read_message(data, where), where)


def newest_in_mailbox(path: str, kind: str, wanted: Callable[[Attached], bool]) -> Attached:
    """The game of the newest message (by Date, then by place) in the mbox or Maildir at
    ``path`` that carries a game ``wanted`` accepts; messages that carry none are passed by."""
    if kind == "maildir" and not os.path.isdir(path) or kind == "mbox" and not os.path.isfile(path):
        raise MailError(f"{path}: no such {'Maildir folder' if kind == 'maildir' else 'mbox file'}")
    box: mailbox.Mailbox
    box = mailbox.Maildir(path, factory=None, create=False) if kind == "maildir" else \
        mailbox.mbox(path, create=False)
    found: list[tuple[float, int, Attached]] = []
    try:
        for place, key in enumerate(box.keys()):
            where = f"{path} message {place + 1}"
            try:
                game = message_game(box.get_bytes(key), where)
                if wanted(game):
                    found.append((game.sent or 0.0, place, game))
            except MailError:
                continue
    except OSError as exc:
        raise MailError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        box.close()
    if not found:
        raise MailError(f"{path}: no message carries this game")
    return max(found, key=lambda item: item[:2])[2]


def carries(local_path: str) -> Callable[[Attached], bool]:
    """Whether a message's game is the game at ``local_path`` (any game, when there is no
    local copy yet)."""
    if not os.path.exists(local_path):
        return lambda game: True
    local = load_record(local_path)

    def same_game(game: Attached) -> bool:
        try:
            return compare_records(local, game.record()).relation != DIFFERENT_GAMES
        except MailError:
            return False

    return same_game


# -- comparing and saving ------------------------------------------------------------------

SAVED_NEW = "saved-new"
EXTENDED = "extended"
SAME = "same"
OLDER = "older"
DIVERGED = "diverged"

MAX_KEPT = 100
"""How many refused copies of one game ``receive`` keeps beside it (``kept_path``)."""


@dataclass(frozen=True)
class Received:
    """What ``receive`` did: ``outcome`` (one of the names above), where, and what it says."""

    outcome: str
    path: str
    message: str

    @property
    def written(self) -> bool:
        return self.outcome in (SAVED_NEW, EXTENDED)

    def to_json(self) -> dict[str, object]:
        return {"outcome": self.outcome, "path": self.path, "written": self.written,
                "message": self.message}


def receive(game: Attached, local_path: str, shown: str,
            on_wait: Callable[[], None] | None = None) -> Received:
    """Compare ``game`` with the local copy at ``local_path`` and save it when it extends it
    (or when there is no local copy and it validates). MailError or RecordError (one line)
    when it is invalid (nothing written), or when it rewrites the history or is another game
    (the local copy unchanged, the received one kept beside it, see ``kept_path``)."""
    received = game.record()
    _check_valid(received)
    if not os.path.lexists(local_path):
        from ..records.safe_file import create_record

        create_record(local_path, received.text)
        return Received(SAVED_NEW, shown, f"Saved {shown}: a new game, "
                        f"{_moves(len(received.moves))}; {_waiting(received)}.")
    local = load_record(local_path, shown)
    comparison = compare_records(local, received)
    if comparison.relation not in (IDENTICAL, EXTENDS):
        raise _refused(comparison.message(), received, local_path, shown)
    progress, news = _hidden_progress(local, received)
    if progress == DIVERGED:
        raise _refused(news, received, local_path, shown)
    if comparison.relation == IDENTICAL and progress == SAME:
        return Received(SAME, shown, f"{shown} already holds this copy of the game "
                        f"({_moves(len(local.moves))}); nothing was written.")
    if comparison.longer == "a" or progress == OLDER:
        return Received(OLDER, shown, f"{shown} is newer than the received copy; "
                        "nothing was written.")
    if comparison.relation == EXTENDS:
        news = ", ".join(filter(None, [_new_moves(local, received), news]))
    from ..records.safe_file import replace_record

    replace_record(local_path, received.text, local.text, on_wait)
    return Received(EXTENDED, shown, f"Saved {shown}: {news}; {_waiting(received)}.")


def _refused(what: str, received: Record, local_path: str, shown: str) -> MailError:
    """The one-line refusal of a copy that rewrites the history or is another game, once the
    received copy is kept beside the local one (``kept_path``)."""
    try:
        kept = kept_path(received.text, local_path)
    except RecordError as exc:
        return MailError(f"{what}; refused: your copy is unchanged, and the received one could "
                         f"not be kept ({exc})")
    kept_shown = os.path.join(os.path.dirname(shown), os.path.basename(kept))
    return MailError(f"{what}; refused: your copy is unchanged, the received one is kept as "
                     f"{kept_shown}")


KEPT_COPY = re.compile(r"\.received-[0-9]+\.ya?ml$")
"""The names of received copies kept beside a game (``kept_path``): not games of their own."""


def kept_path(text: str, local_path: str) -> str:
    """Keep the record ``text`` beside ``local_path`` under the first name
    ``NAME.received-N.yaml`` that is free (or already holds that text), written as a new record
    is (atomic, never over an existing file); returns its path."""
    from ..records.safe_file import create_record

    directory, name = os.path.split(local_path)
    stem, suffix = os.path.splitext(name)
    data = text.encode("utf-8")
    for number in range(1, MAX_KEPT + 1):
        path = os.path.join(directory, f"{stem}.received-{number}{suffix or '.yaml'}")
        if not os.path.lexists(path):
            try:
                create_record(path, text)
                return path
            except RecordError:
                if not os.path.lexists(path):  # not made meanwhile by another receive
                    raise
        if _holds(path, data):
            return path
    raise RecordError(f"{MAX_KEPT} received copies of {name} are kept already")


def _holds(path: str, data: bytes) -> bool:
    """Whether ``path`` is a regular file (a link is not followed) holding exactly ``data``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as stream:
        try:
            return stat.S_ISREG(os.fstat(fd).st_mode) and stream.read(len(data) + 1) == data
        except OSError:
            return False


def _check_valid(record: Record) -> None:
    result = validate_text(record.text, record.path)
    if result.errors:  # a finished hidden game may wait for its keys: not invalid
        raise MailError(f"the attached game is invalid: {result.errors[0]}; nothing was written")


def _hidden_progress(local: Record, received: Record) -> tuple[str, str]:
    """In a game with hidden racks: (``SAME``, ``OLDER`` or ``EXTENDED``, what the received
    copy adds: players joined, keys revealed), or (``DIVERGED``, what differs) when the copies
    reveal different keys, or each has revealed keys the other lacks."""
    if local.hidden is None or received.hidden is None:
        return SAME, ""
    mine, theirs = dict(local.hidden.revealed), dict(received.hidden.revealed)
    if any(theirs.get(name, value) != value for name, value in mine.items()):
        return DIVERGED, f"{local.path}: the received copy reveals another key for a player"
    joined = received.hidden.joined()[len(local.hidden.commitments):]
    revealed = [name for name in theirs if name not in mine]
    lacking = len(received.hidden.commitments) < len(local.hidden.commitments) or set(mine) - set(theirs)
    if lacking and revealed:
        return DIVERGED, f"{local.path}: each copy has revealed keys the other lacks"
    if lacking:
        return OLDER, ""
    said = [f"{name} joined" for name in joined] + [f"{name} revealed their key" for name in revealed]
    return (EXTENDED, ", ".join(said)) if said else (SAME, "")


def _new_moves(local: Record, received: Record) -> str:
    """``move 5 (Bo: sax E8) is new`` or ``moves 5-6 (...) are new``."""
    owner = {c: p.name for p in received.players for c in p.colors}
    first, entries = len(local.moves) + 1, received.moves[len(local.moves):]
    listed = ", ".join(f"{owner[m.color]}: {m.text}" for m in entries)
    if len(entries) == 1:
        return f"move {first} ({listed}) is new"
    return f"moves {first}-{first + len(entries) - 1} ({listed}) are new"


def _waiting(record: Record) -> str:
    """Who the game waits for now, as the end of a sentence."""
    hidden = record.hidden
    if hidden is not None and len(hidden.commitments) < len(record.players):
        return f"{record.players[len(hidden.commitments)].name} to join"
    mover = replay(record).game.to_move
    return "the game is over" if mover is None else f"{mover.name} to move"


def _moves(count: int) -> str:
    return f"{count} move{'' if count == 1 else 's'}"
