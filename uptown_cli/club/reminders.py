"""Reminders to late players (``uptown remind``, docs/DEADLINES.md): which are due, their text,
and the log beside the games that makes each go out once per period.

A game that waits for a player past their deadline (``Awaited``) is due a reminder to that
player (the board and the command to run) and a notice to each other player (who is late, and
what they may do once the player is out of time), once in each ``period`` counted from the
deadline. The log, ``FOLDER/.uptown-reminders.jsonl``, holds one JSON line per message sent; a
run that sends holds an exclusive lock on it from reading it to its last line, so that two runs
at once, or 48 hourly runs from cron, send each message once. Sending itself is the caller's
(``club.mail``); a message it fails to send does not stop the others (``send_due``).

A game is no source of addresses: anyone may mail one in. In a game with joins (hidden racks,
or signed), only the players whose join it holds are mailed; in an open game without joins,
only the addresses of the club's members, listed in ``FOLDER/.uptown-members``
(``read_members``).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shlex
import stat
import textwrap
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from ..engine.clock import Deadline, TimeState
from ..engine.game import name_key
from ..engine.moments import describe, parse_time, show_time, write_time
from ..engine.words import Word
from ..errors import MailError, RecipientRefused, SetupError, UptownError, display_path
from ..fairplay.memory import game_ident
from ..i18n import _, current_language, language, system_reason
from ..pictures.text import board_text
from ..records.times import stand_in_actions, waiting_deadline
from ..records.entries import PlayerEntry
from .headers import address_key, checked_address
from .mail import GameFile, carrying, wire_bytes

__all__ = ["LOG_NAME", "MEMBERS_NAME", "PERIOD", "Kind", "Unmailed", "Person", "read_members", "Run", "Awaited", "LogEntry", "Reminder", "read_games", "awaited_games", "reminder_message", "due", "action_label", "reminder_text", "notice_text", "ReminderLog", "read_log", "send_due"]

#: The reminders' log, one JSON line a message, beside the games.
LOG_NAME = ".uptown-reminders.jsonl"
MEMBERS_NAME = ".uptown-members"
"""The club's members' addresses, one a line, beside the games (``read_members``)."""
MEMBERS_BYTES = 1 << 20
"""The most of a members file that is read."""
PERIOD = timedelta(days=1)
"""How often a late player is reminded, from their deadline on (the Diplomacy judges' daily)."""
SUBJECT_TAG = "[uptown]"
WIDTH = 78
"""The width the prose of a message is wrapped to (the board and commands are left whole)."""


class Kind(Word):
    """Who a message of ``remind`` is for."""

    REMINDER = "reminder"
    """The late player."""
    NOTICE = "notice"
    """The others, told who is late."""


_LOG_KEYS = ("sent", "game", "file", "action", "late", "to", "kind", "period")


class Unmailed(Word):
    """Why a player is not mailed (``Person.unmailed``)."""

    NO_EMAIL = "no email"
    """The record has no address for them."""
    NOT_JOINED = "not joined"
    """A game with joins holds none of theirs: its address for them is nobody's word."""
    NOT_A_MEMBER = "not a member"
    """An open game without joins, and their address is not among the club's members."""


class Person(NamedTuple):
    """A player as reminders address them: their name, email (None when they are not mailed:
    ``unmailed`` says why) and the language of their mail (None: the sender's)."""

    name: str
    address: str | None = None
    lang: str | None = None
    unmailed: Unmailed | None = None


class Awaited(NamedTuple):
    """A game that waits for one player: ``game`` (its identity, the log's key: the hidden
    game id or the open game's digest), ``file`` and ``title`` as shown, ``action`` (``move
    18``, ``join``, ``reveal``), the ``player`` and the ``others``, their ``deadline``, the
    ``command`` the player runs, the commands others may run once the player is out of time
    without their ``--as`` (``stand_ins``, one for each action the late policy allows then:
    none under ``wait``) and the ``board``."""

    game: str
    file: str
    title: str
    action: str
    player: Person
    others: tuple[Person, ...]
    deadline: Deadline
    command: str
    stand_ins: tuple[str, ...] = ()
    board: str = ""


class LogEntry(NamedTuple):
    """One message sent: when, for which game, wait and late player, to whom, which kind, and
    the start of the period it belongs to."""

    sent: datetime
    game: str
    file: str
    action: str
    late: str
    to: str
    kind: str
    period: datetime

    @property
    def key(self) -> tuple[str, str, str, str, str, datetime]:
        """What makes two messages one: the same game, wait, late player, recipient, kind, period."""
        return self.game, self.action, name_key(self.late), name_key(self.to), self.kind, self.period

    def line(self) -> bytes:
        """The entry as one line of the log."""
        values = {key: getattr(self, key) for key in _LOG_KEYS}
        values.update(sent=write_time(self.sent), period=write_time(self.period))
        return (json.dumps(values, ensure_ascii=False) + "\n").encode("utf-8")

    @classmethod
    def from_line(cls, line: bytes) -> LogEntry | None:
        """The entry a log line holds; None when it holds none."""
        try:
            values = json.loads(line)
            if not isinstance(values, dict) or set(values) != set(_LOG_KEYS) \
                    or not all(isinstance(value, str) for value in values.values()):
                return None
            values.update(sent=parse_time(values["sent"]), period=parse_time(values["period"]))
        except (ValueError, SetupError, RecursionError):  # RecursionError: nested past reason
            return None
        return cls(**values)


class Reminder(NamedTuple):
    """A message due: to whom, which kind (the late player's ``reminder``, the others'
    ``notice``), for which wait and period, its subject and body."""

    awaited: Awaited
    to: Person
    kind: str
    period: datetime
    subject: str
    body: str

    def log_entry(self, sent: datetime) -> LogEntry:
        """The log's line for this message, sent at ``sent``."""
        awaited = self.awaited
        return LogEntry(sent, awaited.game, awaited.file, awaited.action, awaited.player.name,
                        self.to.name, self.kind, self.period)


def read_games(files: Iterable[str]) -> dict[str, GameFile]:
    """The games of ``files`` by path, each read once (``club.mail.GameFile``: what is checked
    is what is attached); a file that is no valid record is ``validate``'s and ``status``'s to
    report, and is left out here (as ``send`` refuses it)."""
    games = {}
    for path in files:
        try:
            games[path] = GameFile.read(path, display_path(path))
        except UptownError:
            continue
    return games


def read_members(folder: str) -> frozenset[str] | None:
    """The addresses of the club's members, as ``FOLDER/.uptown-members`` lists them (one a
    line; blank lines and ``#`` comments left out), each as ``headers.address_key`` gives it;
    None when there is no such file. MailError when it cannot be read."""
    path = os.path.join(folder, MEMBERS_NAME)
    try:
        with open(path, "rb") as stream:
            data = stream.read(MEMBERS_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise MailError(_("cannot read the club's members {path}: {exc}")
                        .format(path=display_path(path), exc=system_reason(exc))) from None
    lines = (line.split("#", 1)[0].strip() for line in data.decode("utf-8", "replace").splitlines())
    return frozenset(key for key in map(address_key, lines) if key is not None)


def _person(player: PlayerEntry, joined: set[str] | None,
            members: frozenset[str] | None) -> Person:
    """``player`` as reminders address them: mailed only when the game holds their join
    (``joined``: the names that joined, None in a game without joins), or, in an open game
    without joins, when their address is a member's (``members``)."""
    person = Person(player.name, player.email, player.lang)
    if player.email is None:
        return person._replace(unmailed=Unmailed.NO_EMAIL)
    if joined is not None:
        return person if name_key(player.name) in joined else person._replace(
            address=None, unmailed=Unmailed.NOT_JOINED)
    if members is None or address_key(player.email) not in members:
        return person._replace(address=None, unmailed=Unmailed.NOT_A_MEMBER)
    return person


def awaited_games(games: Iterable[GameFile], members: frozenset[str] | None = None
                  ) -> list[Awaited]:
    """One ``Awaited`` per game of ``games`` with a clock that waits for a move, its commands
    quoted for the shell as a game's mail quotes them (``GameFile.next_command``); its players
    addressed as ``_person`` says (``members``: ``read_members``)."""
    waiting = []
    for found in games:
        record, game = found.record, found.game
        timing = record.timing
        if timing is None or timing.clock is None or game.to_move is None \
                or found.joining is not None:  # joins carry no time yet: not reminded
            continue
        name = game.to_move.name
        deadline = waiting_deadline(timing, record.moves, record.owners, name,
                                    pauses=record.pauses)
        assert deadline is not None  # a game with a clock
        joins = record.joins
        joined = None if joins is None else {name_key(name) for name, _ in joins.commitments}
        people = {p.name: _person(p, joined, members) for p in record.players}
        file, player = shlex.quote(found.attachment_name), shlex.quote(name)
        judged = joins is not None and joins.judge is not None  # the judge acts, not the others
        actions = () if judged else stand_in_actions(timing, record.moves, record.owners, name,
                                                     record.pauses)
        stand_ins = tuple(
            f"uptown move {file} {f'--bot {timing.late.bot}' if what == 'bot' else what} "
            f"--for {player} --send" for what in actions)
        waiting.append(Awaited(
            game_ident(record), found.path, record.fields.get("event") or found.attachment_name,
            f"move {len(record.moves) + 1}", people[name],
            tuple(person for other, person in people.items() if other != name), deadline,
            # TRANSLATORS: what the late player types in place of MOVE: their move (7 B7)
            _("uptown move {file} MOVE --as {name} --send").format(file=file, name=player),
            stand_ins, board_text(game)))
    return waiting


def reminder_message(reminder: Reminder, game: GameFile, sender: tuple[str, str]) -> bytes:
    """The message of ``reminder`` from ``sender`` (a display name and a checked address),
    ``game`` attached as ``send`` attaches it (``club.mail.carrying``); RecipientRefused when
    the address cannot be mailed (it needs SMTPUTF8)."""
    to = reminder.to
    try:
        address = checked_address(to.address or "", _("{name}'s email").format(name=to.name))
    except MailError as exc:  # this address's fault: the other messages may go
        raise RecipientRefused(exc.reason, exc.outcome) from None
    return wire_bytes(carrying(game, sender, [(to.name, address)], reminder.subject,
                               reminder.body))


def period_start(deadline: Deadline, now: datetime, period: timedelta = PERIOD) -> datetime:
    """The start of the period ``now`` falls in, periods counted from ``deadline.late_at``."""
    return deadline.late_at + (now - deadline.late_at) // period * period


def due(waiting: Iterable[Awaited], log: Iterable[LogEntry], now: datetime,
        period: timedelta = PERIOD) -> list[Reminder]:
    """The messages due at ``now``: for each game whose player is late or out of time (not on
    vacation), a reminder to them and a notice to each other player, unless the log holds it
    for this period already."""
    sent = {entry.key for entry in log}
    found = []
    for awaited in waiting:
        if awaited.deadline.state(now) not in (TimeState.LATE, TimeState.OUT_OF_TIME):
            continue
        start = period_start(awaited.deadline, now, period)
        messages = []
        for person in (awaited.player, *awaited.others):  # each in their own language
            with language(person.lang or current_language()):
                messages.append((person, Kind.REMINDER, reminder_text(awaited, now))
                                if person is awaited.player else
                                (person, Kind.NOTICE, notice_text(awaited, person, now)))
        for person, kind, (subject, body) in messages:
            reminder = Reminder(awaited, person, kind, start, subject, body)
            if reminder.log_entry(now).key not in sent:
                found.append(reminder)
    return found


def action_label(action: str) -> str:
    """An ``Awaited.action`` (``move 18``, ``join``, ``reveal``: the log's words) as people
    read it, in their language."""
    kind, _sep, number = action.partition(" ")
    if kind == "move" and number.isdigit():
        return _("move {number}").format(number=number)
    return {"join": _("join"), "reveal": _("reveal")}.get(action, action)


def _lateness(awaited: Awaited, now: datetime) -> str:
    """``due 2026-12-04 15:36 UTC, late by 5h; out of time from ...``."""
    deadline = awaited.deadline
    values = {"due": show_time(deadline.late_at), "late": describe(deadline.time_left(now)),
              "out": show_time(deadline.out_at)}
    if deadline.state(now) == TimeState.OUT_OF_TIME:
        return _("due {due}, late by {late}; out of time since {out}").format(**values)
    if deadline.out_at > deadline.late_at:
        return _("due {due}, late by {late}; the grace ends {out}").format(**values)
    return _("due {due}, late by {late}").format(**values)


def reminder_text(awaited: Awaited, now: datetime) -> tuple[str, str]:
    """The subject and body of the reminder to the late player."""
    name, deadline = awaited.player.name, awaited.deadline
    action = action_label(awaited.action)
    subject = _("{tag} {title}: {name}, your {action} is late").format(
        tag=SUBJECT_TAG, title=awaited.title, name=name, action=action)
    lines = [_prose(_("{name}, {file} has waited for your {action} since {since} ({lateness}).")
                    .format(name=name, file=awaited.file, action=action,
                            since=show_time(deadline.since), lateness=_lateness(awaited, now)))]
    if awaited.stand_ins:
        lines.append(_prose(_("You are out of time: the other players may now act for you (this "
                              "game's late policy).") if deadline.state(now) == TimeState.OUT_OF_TIME else
                            _("From {time} the other players may act for you (this game's late "
                              "policy).").format(time=show_time(deadline.out_at))))
    lines += ["", awaited.board.rstrip("\n"), "", _("The command to run:"), f"  {awaited.command}"]
    return subject, "\n".join(lines) + "\n"


def notice_text(awaited: Awaited, to: Person, now: datetime) -> tuple[str, str]:
    """The subject and body of the notice to ``to``, another player: who is late."""
    name = awaited.player.name
    action = action_label(awaited.action)
    subject = _("{tag} {title}: {name} is late ({action})").format(
        tag=SUBJECT_TAG, title=awaited.title, name=name, action=action)
    lines = [_prose(_("{file} waits for {name}'s {action} ({lateness}). {name} has been reminded.")
                    .format(file=awaited.file, name=name, action=action,
                            lateness=_lateness(awaited, now)))]
    if awaited.stand_ins:
        if awaited.deadline.state(now) == TimeState.OUT_OF_TIME:
            lines += [_prose(_("{name} is out of time: you may act for them with").format(name=name)),
                      ""] + [f"  {command} --as {shlex.quote(to.name)}"
                             for command in awaited.stand_ins]
        else:
            lines.append(_prose(_("Once {name} is out of time ({time}), you may act for them; you "
                                  "will be told how.").format(
                                      name=name, time=show_time(awaited.deadline.out_at))))
    return subject, "\n".join(lines) + "\n"


def _prose(text: str) -> str:
    """``text`` wrapped to WIDTH columns, words (times, file names) never broken."""
    return textwrap.fill(text, WIDTH, break_long_words=False, break_on_hyphens=False)


class ReminderLog:
    """The reminder log of one folder, open and locked for a run that sends: ``entries`` as
    read under the lock, ``append`` one more (written and synced before it returns)."""

    def __init__(self, path: str, fd: int, entries: list[LogEntry]):
        self.path = path
        self.fd = fd
        self.entries = entries

    @classmethod
    def locked(cls, folder: str) -> ReminderLog | None:
        """The log of ``folder`` (made, mode 0600, when missing), locked; None when another
        run holds it (that run sends what is due). A torn last line is cut off. MailError when
        it cannot be used."""
        path = os.path.join(folder, LOG_NAME)
        fd = _open_log(path, os.O_RDWR | os.O_CREAT | os.O_APPEND)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            data = _read_all(fd, path)
            entries, whole = _parse_log(path, data)
            if whole < len(data):
                os.ftruncate(fd, whole)  # a torn last line: a run stopped while writing it
            elif data and not data.endswith(b"\n"):
                os.write(fd, b"\n")  # a whole last entry that lost its line end
        except BlockingIOError:
            os.close(fd)
            return None
        except BaseException as exc:
            os.close(fd)
            if isinstance(exc, OSError):
                raise MailError(_("cannot lock the reminder log {path}: {exc}; nothing was sent")
                                .format(path=path, exc=_why(exc))) from None
            raise
        return cls(path, fd, entries)

    def append(self, entry: LogEntry) -> None:
        """Add ``entry`` as the log's last line, synced."""
        data = entry.line()
        try:
            while data:
                data = data[os.write(self.fd, data):]
            os.fsync(self.fd)
        except OSError as exc:
            raise MailError(_("cannot write the reminder log {path}: {exc}")
                            .format(path=self.path, exc=_why(exc))) from None
        self.entries.append(entry)

    def close(self) -> None:
        """Let go of the log (and its lock)."""
        os.close(self.fd)

    def __enter__(self) -> ReminderLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_log(folder: str) -> list[LogEntry]:
    """The entries of ``folder``'s log, read without a lock (for ``--dry-run``); none when
    there is no log."""
    path = os.path.join(folder, LOG_NAME)
    if not os.path.lexists(path):
        return []
    fd = _open_log(path, os.O_RDONLY)
    try:
        return _parse_log(path, _read_all(fd, path))[0]
    finally:
        os.close(fd)


def _open_log(path: str, flags: int) -> int:
    """The log at ``path`` opened with ``flags`` (never through a link, never waiting on a
    FIFO), or MailError when it cannot be opened or is no regular file."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise MailError(_("cannot open the reminder log {path}: {exc}; nothing was sent")
                        .format(path=path, exc=_why(exc))) from None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        raise MailError(_("the reminder log {path} is not a regular file; nothing was sent")
                        .format(path=path))
    return fd


class Run(NamedTuple):
    """What a run of ``send_due`` did: the messages sent (and logged), those not sent with
    why, and those not tried once the mail server failed."""

    sent: list[Reminder]
    failed: list[tuple[Reminder, str]]
    untried: list[Reminder]


def send_due(folder: str, waiting: Sequence[Awaited], now: datetime,
             send: Callable[[Reminder], None], period: timedelta = PERIOD) -> Run | None:
    """Send what is due for ``folder``'s games with ``send``, logging each message once it is
    sent; None when another run holds the log. A message refused for its address
    (``RecipientRefused``: a 550, an address the server will not take) is passed by and the
    others sent; any other failure of ``send`` (MailError: the server cannot be reached, the
    login is refused) leaves the rest for the next run, as each would fail alike."""
    log = ReminderLog.locked(folder)
    if log is None:
        return None
    with log:
        sent: list[Reminder] = []
        failed: list[tuple[Reminder, str]] = []
        messages = due(waiting, log.entries, now, period)
        for index, reminder in enumerate(messages):
            try:
                send(reminder)
            except RecipientRefused as exc:
                failed.append((reminder, exc.reason))
                continue
            except MailError as exc:
                failed.append((reminder, exc.reason))
                return Run(sent, failed, list(messages[index + 1:]))
            log.append(reminder.log_entry(now))
            sent.append(reminder)
        return Run(sent, failed, [])


def _read_all(fd: int, path: str) -> bytes:
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    except OSError as exc:
        raise MailError(_("cannot read the reminder log {path}: {exc}")
                        .format(path=path, exc=_why(exc))) from None
    return b"".join(chunks)


def _parse_log(path: str, data: bytes) -> tuple[list[LogEntry], int]:
    """The entries of a log's bytes, and the length of its whole lines (a torn last line, with
    no line end, is from a run stopped while writing it: it is left out, unless it is a whole
    entry that lost only its line end). MailError naming any other line that is no entry."""
    lines = data.split(b"\n")
    torn = lines.pop()
    if torn and LogEntry.from_line(torn) is not None:
        lines.append(torn)
        torn = b""
    entries = []
    for number, line in enumerate(lines, 1):
        entry = LogEntry.from_line(line)
        if entry is None:
            raise MailError(_("{path}:{number}: not a line of the reminder log (mend or remove it); "
                              "nothing was sent").format(path=path, number=number))
        entries.append(entry)
    return entries, len(data) - len(torn)


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return _("it is a symbolic link")
    return system_reason(exc)

