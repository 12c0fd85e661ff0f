"""A judge's state: its folder, its signing key and its database, where each message is handled
exactly once and nothing it decides is lost or sent twice.

The folder (mode 0700) holds ``judge.key`` (the judge's address and its Ed25519 signing key,
mode 0600, written as ``fairplay.keys`` writes key files), ``judge.db`` (SQLite in WAL mode,
``SCHEMA`` below) and ``games/``, where each game's file is written from the database after
each commit: the database's text is the game, the file its projection (``sync_files`` writes
again any file that differs, first thing on every start).

``Store.handle`` runs the work a message causes in one ``BEGIN IMMEDIATE`` transaction, after
checking that the message's key (its Message-ID and the SHA-256 of its content) was not handled
already, so that judges started at once (cron and deliveries) each handle a message once,
one after another. The work reads and writes games, queues messages and logs events through
its ``Txn``; an exception rolls it all back and records nothing (the message is tried again
next run). ``Store.tick`` is the same transaction for work no message caused (the rulings on
time). ``Store.send_pending`` sends the outbox, each message marked ``sending`` (committed)
before it goes and ``sent`` after: a judge killed between the two sends it again with the
same Message-ID at its next start (docs/JUDGE.md, "What happens on a crash").

``UPTOWN_JUDGE_CRASH=POINT`` (or ``POINT:N``, the Nth time) ends the process with
``os._exit`` at that named point (``CRASH_POINTS``), for the tests that kill a judge at each
step and start it again.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterator
from email.message import Message
from email.utils import formatdate
from typing import NamedTuple

from ..errors import JudgeError, MailError, OutputError, RecipientRefused, display_path
from ..fairplay.keys import read_private, write_private
from ..fairplay.signatures import new_signing_key
from ..i18n import _, system_reason
from ..records.safe_file import holds, write_file
from .headers import checked_address, plain_file_name
from .judge import Judge
from .mail import wire_bytes

__all__ = ["CRASH_ENV", "CRASH_POINTS", "Game", "Outcome", "Queued", "Sending", "Store", "Txn",
           "crash_point", "create_judge"]

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,      -- 'schema_version', 'address', 'archive', 'created'
    value TEXT NOT NULL
);
CREATE TABLE handled (            -- every message handled, once
    key        TEXT PRIMARY KEY,  -- SHA-256 of its content (hex), a blank, its Message-ID
    message_id TEXT NOT NULL,
    arrived    TEXT NOT NULL,     -- when the club's side received it (ISO 8601, UTC)
    handled    TEXT NOT NULL,     -- when the judge handled it
    outcome    TEXT NOT NULL      -- what the judge did with it, in a line
);
CREATE TABLE games (              -- the judge's copy of each game: the truth
    game_id TEXT PRIMARY KEY,
    path    TEXT NOT NULL UNIQUE, -- its file's name in games/
    text    TEXT NOT NULL,        -- the record
    updated TEXT NOT NULL
);
CREATE TABLE outbox (             -- every message the judge sends
    id         INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    cause      TEXT NOT NULL,     -- the handled key, or 'tick NAME ...'
    sender     TEXT NOT NULL,     -- the envelope's sender: the judge's address
    recipients TEXT NOT NULL,     -- JSON list of addresses
    data       BLOB NOT NULL,     -- the message as it goes on the wire
    state      TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
    tries      INTEGER NOT NULL DEFAULT 0,
    refused    TEXT NOT NULL DEFAULT '{}',  -- JSON {address: the server's reply}
    reason     TEXT,              -- why the last try failed
    queued     TEXT NOT NULL,
    sent       TEXT
);
CREATE INDEX outbox_waiting ON outbox (state) WHERE state IN ('queued', 'sending');
CREATE TABLE events (             -- what happened to each game, in order
    id      INTEGER PRIMARY KEY,
    at      TEXT NOT NULL,
    game_id TEXT,                 -- NULL for an event of no one game
    event   TEXT NOT NULL,
    detail  TEXT NOT NULL,
    cause   TEXT NOT NULL
);
CREATE INDEX events_game ON events (game_id, id);
"""
"""The database's tables (docs/JUDGE.md shows them); ``settings``' ``schema_version`` is
``SCHEMA_VERSION``, and a database of another version is refused."""

DATABASE = "judge.db"
KEY_FILE = "judge.key"
GAMES = "games"
SEND_LOCK = ".send.lock"
"""Held (``flock``) by the one judge that sends the outbox: a row another judge finds
``sending`` meanwhile was left so by a crash."""
FILES_LOCK = ".files.lock"
"""Held while a game's text is read from the database and its file written, so that two
judges never put an older text over a newer one."""
BUSY_SECONDS = 60.0
"""How long a judge waits for another's transaction before it gives up (the message is
handled at the next run)."""
CRASH_ENV = "UPTOWN_JUDGE_CRASH"
"""``POINT`` or ``POINT:N``: where ``crash_point`` ends the process (for the tests only)."""
CRASH_STATUS = 86
"""The exit status of a process that ``crash_point`` ended."""
CRASH_POINTS = ("before-commit", "after-commit", "before-done", "after-claim", "after-send")
"""Where ``crash_point`` may end the process: the work done but not committed; committed but
no file written; files written but the message not acknowledged (``judge_run``); a message
marked ``sending`` but not sent; sent but not yet marked ``sent``."""
_reached: dict[str, int] = {}


def crash_point(name: str) -> None:
    """End the process at once (``os._exit``) when ``$UPTOWN_JUDGE_CRASH`` names this point
    (``NAME``, or ``NAME:N`` for the Nth time it is reached): a crash, for the tests."""
    wanted = os.environ.get(CRASH_ENV)
    if not wanted:
        return
    point, _colon, count = wanted.partition(":")
    if point != name:
        return
    _reached[name] = _reached.get(name, 0) + 1
    if _reached[name] == int(count or 1):
        os._exit(CRASH_STATUS)


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")


def _utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).isoformat(timespec="microseconds")


class Game(NamedTuple):
    """A game the judge keeps: its id, its file's name in ``games/`` and its record's text."""

    game_id: str
    path: str
    text: str


class Outcome(NamedTuple):
    """What handling a message or a tick did: the work's own line, the games it wrote and
    how many messages it queued."""

    text: str
    games: tuple[str, ...]
    queued: int


class Queued(NamedTuple):
    """A message of the outbox: its Message-ID, the envelope's sender and recipients, and the
    message as it goes on the wire."""

    message_id: str
    sender: str
    recipients: tuple[str, ...]
    data: bytes


class Sending(NamedTuple):
    """What ``send_pending`` did: the Message-IDs sent; the recipients refused, each with the
    server's reply; the messages that failed for good, each with why; and why sending stopped
    (the server could not be reached: the rest waits for the next run), or None."""

    sent: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]
    failed: tuple[tuple[str, str], ...]
    stopped: str | None


class Txn:
    """What the work of one transaction may do: read and write games, queue messages and log
    events, all committed together or not at all."""

    __slots__ = ("_db", "_store", "cause", "written", "queued")

    def __init__(self, store: Store, cause: str) -> None:
        self._store = store
        self._db = store.db
        self.cause = cause
        self.written: list[str] = []
        self.queued = 0

    def game(self, game_id: str) -> tuple[str, str] | None:
        """(its file's name, its text) of the game ``game_id``, or None when the judge has none."""
        row = self._db.execute("SELECT path, text FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else (row[0], row[1])

    def put_game(self, game_id: str, path: str, text: str) -> None:
        """Keep ``text`` as the game ``game_id``, its file ``games/PATH`` (a plain file name,
        not another game's)."""
        if plain_file_name(path) != path or path in (".", ".."):
            raise JudgeError(_("{path!r} is not a plain file name for a game in {folder}")
                             .format(path=path, folder=f"{GAMES}/"))
        other = self._db.execute("SELECT game_id FROM games WHERE path = ? AND game_id != ?",
                                 (path, game_id)).fetchone()
        if other is not None:
            raise JudgeError(_("{path} is the file of another game ({game_id})")
                             .format(path=f"{GAMES}/{path}", game_id=other[0]))
        self._db.execute(
            "INSERT INTO games (game_id, path, text, updated) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET path = excluded.path, text = excluded.text, "
            "updated = excluded.updated", (game_id, path, text, _now()))
        if game_id not in self.written:
            self.written.append(game_id)

    def send(self, recipients: list[str], message: Message) -> str:
        """Queue ``message`` to ``recipients`` (checked addresses), from the judge; returns
        its Message-ID, made from the cause and the message's place among those this
        transaction queued, so that the same work queues the same Message-IDs."""
        checked = tuple(checked_address(address, _("a recipient")) for address in recipients)
        sender = self._store.address
        digest = hashlib.sha256(f"{self.cause}\0{self.queued}".encode("utf-8")).hexdigest()
        message_id = f"<{digest[:32]}.judge@{sender.rpartition('@')[2]}>"
        del message["Message-ID"]
        message["Message-ID"] = message_id
        if "Date" not in message:
            message["Date"] = formatdate(localtime=True)
        if "From" not in message:
            message["From"] = sender
        self._db.execute(
            "INSERT INTO outbox (message_id, cause, sender, recipients, data, state, queued) "
            "VALUES (?, ?, ?, ?, ?, 'queued', ?)",
            (message_id, self.cause, sender, json.dumps(checked), wire_bytes(message), _now()))
        self.queued += 1
        return message_id

    def log(self, game_id: str | None, event: str, detail: str) -> None:
        """Add an event to the log: of the game ``game_id`` (None: of no one game)."""
        self._db.execute("INSERT INTO events (at, game_id, event, detail, cause) VALUES (?, ?, ?, ?, ?)",
                         (_now(), game_id, event, detail, self.cause))


class Store:
    """A judge's folder and database, open (see the module docstring). With ``dry_run``,
    every transaction is rolled back, no file is written and nothing is sent: what it
    would do is returned all the same."""

    __slots__ = ("folder", "db", "address", "archive", "dry_run", "unwritten")

    def __init__(self, folder: str, db: sqlite3.Connection, dry_run: bool) -> None:
        self.folder = folder
        self.db = db
        self.dry_run = dry_run
        self.unwritten: list[str] = []
        """A line for each game file that could not be written after its commit (the
        database keeps the game; ``sync_files`` writes it at the next start)."""
        settings = dict(db.execute("SELECT name, value FROM settings").fetchall())
        self.address = settings.get("address", "")
        self.archive = settings.get("archive") or None

    @classmethod
    def open(cls, folder: str, dry_run: bool = False) -> Store:
        """The judge's store in ``folder``, its database made on first use (``SCHEMA``; the
        folder must hold the judge's key, ``create_judge`` makes it first); JudgeError (one
        line) for a folder that is no judge's, or a database that cannot be used."""
        _key_data(folder)  # nothing is made in a folder that is no judge's
        path = os.path.join(folder, DATABASE)
        shown = display_path(path)
        try:
            db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise JudgeError(_("cannot open {path}: {reason}").format(path=shown, reason=exc)) from None
        try:
            db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise JudgeError(_("{path}: the database cannot be kept in WAL mode (it is in "
                                   "{mode} mode)").format(path=shown, mode=mode))
            db.execute("PRAGMA synchronous = FULL")
            _create_schema(db, shown)
            return cls(folder, db, dry_run)
        except sqlite3.Error as exc:
            db.close()
            raise JudgeError(_("cannot use {path}: {reason}").format(path=shown, reason=exc)) from None
        except BaseException:
            db.close()
            raise

    def close(self) -> None:
        """Close the database (its WAL is folded into it when no other judge has it open)."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def judge(self) -> Judge:
        """The judge this folder is: its address, its signing key (``judge.key``) and the
        club's archive address (``uptown judge init`` set them); JudgeError when it is none."""
        seed, address = _key_data(self.folder)
        return Judge(address, seed, self.archive)

    @property
    def games_folder(self) -> str:
        """The folder of the game files, ``games/`` in the judge's folder."""
        return os.path.join(self.folder, GAMES)

    @contextlib.contextmanager
    def _transaction(self, crashes: bool = False) -> Iterator[None]:
        """One ``BEGIN IMMEDIATE`` transaction (the database's write lock, waited for up to
        ``BUSY_SECONDS``), committed when the block ends, rolled back on any exception or in
        a dry run; with ``crashes``, a transaction of a message or a tick, whose commit has
        crash points."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise JudgeError(_("{path}: {reason} (another judge held it for {seconds:.0f} s); "
                               "nothing was done, try again").format(
                path=display_path(os.path.join(self.folder, DATABASE)), reason=exc,
                seconds=BUSY_SECONDS)) from None
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        if self.dry_run:
            self.db.execute("ROLLBACK")
            return
        if crashes:
            crash_point("before-commit")
        self.db.execute("COMMIT")
        if crashes:
            crash_point("after-commit")

    def handled(self, key: str) -> bool:
        """Whether the message whose key is ``key`` was handled already."""
        return self.db.execute("SELECT 1 FROM handled WHERE key = ?", (key,)).fetchone() is not None

    def handle(self, key: str, message_id: str, arrived: datetime.datetime,
               work: Callable[[Txn], str]) -> Outcome | None:
        """Run ``work`` for the message whose key is ``key`` (see the module docstring), unless
        it was handled already (None then); its outcome is recorded with the key, and the
        files of the games it wrote are written once it is committed."""
        with self._transaction(crashes=True):
            if self.handled(key):
                return None
            txn = Txn(self, key)
            outcome = work(txn)
            self.db.execute("INSERT INTO handled (key, message_id, arrived, handled, outcome) "
                            "VALUES (?, ?, ?, ?, ?)", (key, message_id, _utc(arrived), _now(), outcome))
        self._project(txn.written)
        return Outcome(outcome, tuple(txn.written), txn.queued)

    def tick(self, name: str, work: Callable[[Txn], str]) -> Outcome:
        """Run ``work``, caused by no message (the rulings on time), in one transaction as
        ``handle`` does; its cause in the outbox and the log is ``tick NAME`` and the time."""
        with self._transaction(crashes=True):
            txn = Txn(self, f"tick {name} {_now()}")
            outcome = work(txn)
        self._project(txn.written)
        return Outcome(outcome, tuple(txn.written), txn.queued)

    def games(self) -> list[Game]:
        """Every game the judge keeps (as committed)."""
        return [Game(*row) for row in
                self.db.execute("SELECT game_id, path, text FROM games ORDER BY game_id")]

    def outbox(self, states: tuple[str, ...] = ("queued", "sending")) -> list[Queued]:
        """The messages of the outbox in those states, in the order they were queued."""
        marks = ", ".join("?" * len(states))
        return [Queued(row[0], row[1], tuple(json.loads(row[2])), row[3]) for row in
                self.db.execute(f"SELECT message_id, sender, recipients, data FROM outbox "
                                f"WHERE state IN ({marks}) ORDER BY id", states)]

    def sync_files(self) -> list[str]:
        """Write every game file whose text differs from the database's (a crash between a
        commit and the file, or a file changed by hand); returns the names written."""
        return self._project([row[0] for row in self.db.execute("SELECT game_id FROM games")])

    def _project(self, game_ids: list[str]) -> list[str]:
        """Write the files of the games ``game_ids`` from the database, where they differ,
        atomically (``records.safe_file.write_file``), each text read under ``FILES_LOCK``
        so that the newest commit is what stays on disk; a file that cannot be written is
        told in ``unwritten``, and the others are written."""
        if self.dry_run or not game_ids:
            return []
        written = []
        with self._locked(FILES_LOCK, wait=True):
            for game_id in game_ids:
                row = self.db.execute("SELECT path, text FROM games WHERE game_id = ?",
                                      (game_id,)).fetchone()
                if row is None:
                    continue
                path = os.path.join(self.games_folder, row[0])
                data = row[1].encode("utf-8")
                if not holds(path, data):
                    try:
                        write_file(path, data, display_path(path))
                    except OutputError as exc:
                        self.unwritten.append(_("{error} (the judge's database keeps the game; the "
                                                "file is written at its next start)").format(error=exc))
                        continue
                    written.append(row[0])
        return written

    @contextlib.contextmanager
    def _locked(self, name: str, wait: bool) -> Iterator[bool]:
        """Hold an exclusive ``flock`` on the lock file ``name`` in the judge's folder: waiting
        for it (``wait``), or not (yields whether it is held)."""
        path = os.path.join(self.folder, name)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            raise JudgeError(_("cannot open {path}: {reason}").format(
                path=display_path(path), reason=system_reason(exc))) from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(fd)

    def send_pending(self, send_one: Callable[[Queued], dict[str, str]]) -> Sending:
        """Send the outbox with ``send_one`` (which returns the recipients the server refused,
        each with its reply; raises ``RecipientRefused`` when it refused them all, any other
        ``MailError`` when it could not be reached): each message marked ``sending`` (committed)
        before it goes, then ``sent``. A message left ``sending`` by a crash goes again, with
        its Message-ID. A message refused for every recipient is marked ``failed`` and the
        others go on; when the server cannot be reached, sending stops and the rest waits.
        Only one judge sends at a time; another that finds it sending leaves the outbox to it
        (which looks again once it is done)."""
        sent: list[str] = []
        refused: list[tuple[str, str]] = []
        failed: list[tuple[str, str]] = []
        if self.dry_run:
            return Sending((), (), (), None)
        while True:
            with self._locked(SEND_LOCK, wait=False) as held:
                if not held:
                    break
                stopped = self._send_all(send_one, sent, refused, failed)
                if stopped is not None:
                    return Sending(tuple(sent), tuple(refused), tuple(failed), stopped)
            if not self.outbox(("queued",)):  # none queued by another judge meanwhile
                break
        return Sending(tuple(sent), tuple(refused), tuple(failed), None)

    def _send_all(self, send_one: Callable[[Queued], dict[str, str]], sent: list[str],
                  refused: list[tuple[str, str]], failed: list[tuple[str, str]]) -> str | None:
        """Send every waiting message, the send lock held; why sending stopped, or None."""
        while True:
            row = self.db.execute("SELECT id, message_id, sender, recipients, data FROM outbox "
                                  "WHERE state IN ('queued', 'sending') ORDER BY id LIMIT 1").fetchone()
            if row is None:
                return None
            number, queued = row[0], Queued(row[1], row[2], tuple(json.loads(row[3])), row[4])
            self._mark(number, "UPDATE outbox SET state = 'sending', tries = tries + 1 WHERE id = ?")
            crash_point("after-claim")
            try:
                said = send_one(queued)
            except RecipientRefused as exc:
                self._mark(number, "UPDATE outbox SET state = 'failed', reason = ? WHERE id = ?",
                           exc.reason)
                failed.append((queued.message_id, exc.reason))
                continue
            except MailError as exc:
                self._mark(number, "UPDATE outbox SET state = 'queued', reason = ? WHERE id = ?",
                           exc.reason)
                return exc.reason
            crash_point("after-send")
            self._mark(number, "UPDATE outbox SET state = 'sent', sent = ?, refused = ?, "
                       "reason = NULL WHERE id = ?", _now(), json.dumps(said))
            sent.append(queued.message_id)
            refused += sorted(said.items())

    def _mark(self, number: int, sql: str, *values: object) -> None:
        """One change of an outbox row, committed at once."""
        with self._transaction():
            self.db.execute(sql, (*values, number))


def _create_schema(db: sqlite3.Connection, shown: str) -> None:
    """Make the tables of a new database (under the write lock, so that two judges started
    at once make them once); refuse a database of another version."""
    version = _schema_version(db)
    if version is None:
        db.execute("BEGIN IMMEDIATE")
        try:
            version = _schema_version(db)
            if version is None:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany("INSERT INTO settings (name, value) VALUES (?, ?)",
                               [("schema_version", str(SCHEMA_VERSION)), ("created", _now())])
                version = str(SCHEMA_VERSION)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    if version != str(SCHEMA_VERSION):
        raise JudgeError(_("{path} is not a judge's database that this uptown reads (its schema "
                           "is {found}, this uptown's is {version})").format(
            path=shown, found=version or _("unknown"), version=SCHEMA_VERSION))


def _schema_version(db: sqlite3.Connection) -> str | None:
    """The database's ``schema_version`` ("" for a database that is not a judge's), or None
    for an empty one."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        return None
    if "settings" not in tables:
        return ""
    row = db.execute("SELECT value FROM settings WHERE name = 'schema_version'").fetchone()
    return "" if row is None else str(row[0])


def _judge_folder(folder: str) -> None:
    """Make ``folder`` (mode 0700), or take an existing one that is empty (made 0700) or is a
    judge's already (it holds ``judge.key`` or ``judge.db``); JudgeError for any other."""
    shown = display_path(folder)
    try:
        parent = os.path.dirname(os.path.abspath(folder))
        os.makedirs(parent, exist_ok=True)
        os.mkdir(folder, 0o700)
    except FileExistsError:
        if not os.path.isdir(folder) or os.path.islink(folder):
            raise JudgeError(_("{folder} exists and is not a folder").format(folder=shown)) from None
        try:
            names = set(os.listdir(folder))
        except OSError as exc:
            raise JudgeError(_("cannot read the folder {folder}: {reason}").format(
                folder=shown, reason=system_reason(exc))) from None
        if names and not names & {KEY_FILE, DATABASE}:
            raise JudgeError(_("{folder} exists and is not a judge's folder (it holds no {key}): "
                               "give a new folder or an empty one").format(folder=shown, key=KEY_FILE))
        if os.stat(folder).st_uid != os.geteuid():
            raise JudgeError(_("{folder} belongs to another user").format(folder=shown))
    except OSError as exc:
        raise JudgeError(_("cannot create the folder {folder}: {reason}").format(
            folder=shown, reason=system_reason(exc))) from None
    try:
        os.chmod(folder, 0o700)
        os.makedirs(os.path.join(folder, GAMES), exist_ok=True)
    except OSError as exc:
        raise JudgeError(_("cannot set up the folder {folder}: {reason}").format(
            folder=shown, reason=system_reason(exc))) from None


def create_judge(folder: str, address: str, archive: str | None = None) -> Judge:
    """Set up a judge in ``folder`` (``_judge_folder``): its signing key in ``judge.key``
    (mode 0600), its database, its address and the club's archive address (or none); returns
    the judge (``club.judge.Judge``, whose ``card`` players give to ``uptown new --judge``).
    A folder that is this address's judge already keeps its key (the archive is set anew);
    one that is another address's judge is refused."""
    address = checked_address(address, _("the judge's address"))
    archive = checked_address(archive, _("the archive address")) if archive else None
    _judge_folder(folder)
    path = os.path.join(folder, KEY_FILE)
    if os.path.lexists(path):
        seed, known = _key_data(folder)
        if known != address:
            raise JudgeError(_("{folder} is the judge of {known} already, not of {address}").format(
                folder=display_path(folder), known=known, address=address))
    else:
        seed = new_signing_key()
        try:
            write_private(folder, path, {"address": address, "signing": seed.hex()}, replace=False)
        except FileExistsError:  # another init at the same moment: its key is the judge's
            seed, _known = _key_data(folder)
    with Store.open(folder) as store, store._transaction():
        store.db.executemany("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) "
                             "DO UPDATE SET value = excluded.value",
                             [("address", address), ("archive", archive or "")])
    return Judge(address, seed, archive)


def _key_data(folder: str) -> tuple[bytes, str]:
    """(the signing key, the address) of the judge in ``folder``, from ``judge.key``."""
    path = os.path.join(folder, KEY_FILE)
    shown = display_path(path)
    data = read_private(path, _("{path} does not exist: this folder is not a judge's (uptown judge "
                                "init makes one)").format(path=shown))
    signing, address = data.get("signing"), data.get("address")
    if not (isinstance(signing, str) and re.fullmatch("[0-9a-f]{64}", signing)
            and isinstance(address, str)):
        raise JudgeError(_("{path} is not a judge's key file").format(path=shown))
    return bytes.fromhex(signing), address
