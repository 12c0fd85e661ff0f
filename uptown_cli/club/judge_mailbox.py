"""Where a judge's messages come from: a pipe (one message on standard input, as an MTA's
``.forward``, procmail or aliases hand it over), a Maildir, or an IMAP account.

Each source gives ``Incoming`` messages: the message's key (the SHA-256 of its content, the
trace headers that each delivery adds left out, and its Message-ID), its bytes, when the
club's side received it (not the Date header, which is the sender's word: for a pipe, now;
for a Maildir, the time of delivery in the file's unique name, else the file's time; for
IMAP, the message's INTERNALDATE) and ``done``, which acknowledges it once handled (a
Maildir's message moved to ``cur/`` with the ``S`` flag; an IMAP message flagged ``\\Seen``).
A judge that stops between the two reads the message again at its next run, and the store's
key makes that harmless. A message over ``mime.MAX_MESSAGE_BYTES``, or a file that is no
message, comes with its ``problem`` instead of its bytes; at most ``MAX_PER_RUN`` messages
are taken in one run (the rest wait for the next).

IMAP is the standard library's ``imaplib`` over TLS (``imaps://``, port 993) or STARTTLS
(``imap://``, port 143), the certificate verified (``$UPTOWN_IMAP_CAFILE`` names a club's own
certificate authority to trust instead of the system's), the password from
``$UPTOWN_IMAP_PASSWORD`` or ``~/.netrc`` (``transport.account_password``).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import imaplib
import os
import re
import ssl
from collections.abc import Callable, Iterator
from typing import BinaryIO, NamedTuple, TypeVar
from urllib.parse import unquote, urlsplit

from ..errors import MailError, display_path, one_line
from ..i18n import _, system_reason
from .boxes import read_message_file
from .mime import MAX_MESSAGE_BYTES
from .transport import TIMEOUT, account_password, tls_context, url_port

__all__ = ["IMAP_CAFILE_ENV", "IMAP_PASSWORD_ENV", "Incoming", "ImapAccount", "MAX_PER_RUN",
           "from_imap", "from_maildir", "from_pipe", "message_key"]

MAX_PER_RUN = 500
"""Messages one run takes from a Maildir or an IMAP mailbox; the rest wait for the next run."""
IMAP_PASSWORD_ENV = "UPTOWN_IMAP_PASSWORD"
"""The IMAP account's password (else ``~/.netrc``'s entry for the host)."""
IMAP_CAFILE_ENV = "UPTOWN_IMAP_CAFILE"
"""A PEM file of certificates to trust instead of the system's (a club's own server)."""
TRACE_FIELDS = frozenset((b"received", b"return-path", b"delivered-to", b"x-original-to",
                          b"status", b"x-status", b"x-keywords", b"x-uid"))
"""Header fields a delivery adds or changes (lower case): left out of a message's key, so
that one message delivered twice, or read by two ways, has one key."""
MAX_MESSAGE_ID = 250
"""Characters of a Message-ID kept (a real one has a few dozen)."""
_FIELD = re.compile(rb"^([^:\s]+):", re.MULTILINE)
T = TypeVar("T")
_MONTHS = {name: number for number, name in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
_INTERNALDATE = re.compile(rb'INTERNALDATE "\s?(\d{1,2})-(\w{3})-(\d{4}) (\d\d):(\d\d):(\d\d) '
                           rb'([+-])(\d\d)(\d\d)"')


class Incoming(NamedTuple):
    """A message to handle (see the module docstring): its key, its Message-ID (empty when it
    has none), its bytes, when the club's side received it, the call that acknowledges it,
    where it is (for a line about it), and why it cannot be read, or None."""

    key: str
    message_id: str
    data: bytes
    arrived: datetime.datetime
    done: Callable[[], None]
    where: str
    problem: str | None = None


def message_key(data: bytes) -> tuple[str, str]:
    """(the key, the Message-ID) of the message ``data``: the SHA-256 (hex) of its content,
    its line ends made LF and the ``TRACE_FIELDS`` left out of its header, a blank, and its
    Message-ID (one line, at most ``MAX_MESSAGE_ID`` characters)."""
    text = data.replace(b"\r\n", b"\n")
    header, blank, body = text.partition(b"\n\n")
    kept, message_id = [], b""
    for field in re.split(rb"\n(?![ \t])", header):
        found = _FIELD.match(field)
        name = found.group(1).lower() if found else b""
        if name in TRACE_FIELDS:
            continue
        if name == b"message-id" and not message_id:
            message_id = b" ".join(field.partition(b":")[2].split())
        kept.append(field)
    digest = hashlib.sha256(b"\n".join(kept) + blank + body).hexdigest()
    shown = one_line(message_id.decode("utf-8", "replace"))[:MAX_MESSAGE_ID]
    return f"{digest} {shown}".rstrip(), shown


def _incoming(data: bytes, arrived: datetime.datetime, done: Callable[[], None],
              where: str) -> Incoming:
    key, message_id = message_key(data)
    return Incoming(key, message_id, data, arrived, done, where)


def _unread(key: str, arrived: datetime.datetime, done: Callable[[], None], where: str,
            problem: str) -> Incoming:
    """A message that cannot be read, known by ``key`` (where it is, not its content)."""
    return Incoming(f"unread {key}", "", b"", arrived, done, where, problem)


def _nothing() -> None:
    """``done`` of a message nothing has to acknowledge (a pipe's: the MTA is told by the exit
    status)."""


def _over() -> str:
    return _("the message is over {size} MiB").format(size=MAX_MESSAGE_BYTES // 2**20)


# -- a pipe -----------------------------------------------------------------------------------


def from_pipe(stream: BinaryIO, now: datetime.datetime) -> Iterator[Incoming]:
    """The one message on ``stream`` (standard input), received ``now``; the rest of a
    message over the limit is read and dropped (so that the MTA does not see a broken
    pipe). MailError when the stream holds nothing."""
    data = stream.read(MAX_MESSAGE_BYTES + 1)
    if not data:
        raise MailError(_("standard input holds no message (an MTA pipes one message to "
                          "uptown judge)"))
    where = _("standard input")
    if len(data) > MAX_MESSAGE_BYTES:
        while stream.read(1 << 20):
            pass
        yield _unread(hashlib.sha256(data).hexdigest(), now, _nothing, where, _over())
        return
    yield _incoming(data, now, _nothing, where)


# -- a Maildir --------------------------------------------------------------------------------

_DELIVERY_TIME = re.compile(r"(\d{9,11})\.(?:[^.]*?M(\d{1,6}))?")
"""The time of delivery at the start of a Maildir name: seconds, and microseconds after an
``M`` in the name's next part, as Dovecot, Postfix and Python's ``mailbox`` write it."""


def _delivered(name: str, path: str) -> datetime.datetime:
    """When the message ``name`` (at ``path``) was delivered: the time its unique name starts
    with, else the file's modification time."""
    found = _DELIVERY_TIME.match(name)
    if found:
        seconds = int(found.group(1)) + int(found.group(2) or 0) / 1e6
    else:
        seconds = os.stat(path).st_mtime
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def from_maildir(path: str, limit: int = MAX_PER_RUN) -> Iterator[Incoming]:
    """The messages of the Maildir ``path`` not yet handled (those in ``new/``, and those in
    ``cur/`` without the ``S`` flag), in the order of their delivery, ``limit`` at most;
    ``done`` moves one to ``cur/`` with the ``S`` flag, the Maildir way (a rename; another
    judge that moved it first is no failure). MailError for a folder that is no Maildir."""
    shown = display_path(path)
    found = []
    for sub in ("new", "cur"):
        try:
            entries = list(os.scandir(os.path.join(path, sub)))
        except OSError as exc:
            reason = _("no such Maildir folder") if isinstance(exc, FileNotFoundError) else system_reason(exc)
            raise MailError(_("{shown}: {reason} (a Maildir holds new/ and cur/)")
                            .format(shown=shown, reason=reason)) from None
        for entry in entries:
            unique, _colon, info = entry.name.partition(":")
            if entry.name.startswith(".") or sub == "cur" and "S" in info.partition(",")[2]:
                continue
            try:
                found.append((_delivered(unique, entry.path), entry.name, sub))
            except OSError:  # moved by another judge meanwhile
                continue
    for arrived, name, sub in sorted(found)[:limit]:
        file = os.path.join(path, sub, name)
        done = _mark_seen(path, sub, name)
        where = display_path(os.path.join(sub, name))
        try:
            data = read_message_file(file)
        except MailError as exc:
            if not os.path.lexists(file):  # handled by another judge meanwhile
                continue
            yield _unread(f"maildir {name.partition(':')[0]}", arrived, done, where, exc.reason)
            continue
        yield _incoming(data, arrived, done, where)


def _mark_seen(path: str, sub: str, name: str) -> Callable[[], None]:
    """The ``done`` of the Maildir message ``sub/name``: moved to ``cur/``, ``S`` added to
    its flags (``UNIQUE:2,FLAGS``, the flags in ASCII order)."""
    def done() -> None:
        unique, _colon, info = name.partition(":")
        flags = info.partition(",")[2] if info.startswith("2,") else ""
        seen = f"{unique}:2,{''.join(sorted(set(flags) | {'S'}))}"
        try:
            os.rename(os.path.join(path, sub, name), os.path.join(path, "cur", seen))
        except FileNotFoundError:
            return
        except OSError as exc:
            raise MailError(_("cannot mark {name} as read in {path}: {reason}").format(
                name=display_path(name), path=display_path(path),
                reason=system_reason(exc))) from None
    return done


# -- IMAP -------------------------------------------------------------------------------------


class ImapAccount(NamedTuple):
    """The IMAP account of ``imaps://USER@HOST[:PORT]/MAILBOX`` (TLS from the start; port
    993) or ``imap://...`` (STARTTLS; port 143); the mailbox is INBOX when none is named."""

    tls: bool
    user: str
    host: str
    port: int
    mailbox: str

    @classmethod
    def parse(cls, url: str) -> ImapAccount:
        """The account ``url`` names; MailError (one line) for a URL that names none, or
        that holds the password."""
        usage = _("the IMAP account must be imaps://USER@HOST[:PORT]/MAILBOX (TLS) or "
                  "imap://USER@HOST[:PORT]/MAILBOX (STARTTLS)")
        parts = urlsplit(url)
        if (parts.scheme not in ("imap", "imaps") or not parts.hostname or not parts.username
                or parts.query or parts.fragment):
            raise MailError(usage)
        if parts.password is not None:
            raise MailError(_("the IMAP account's URL must not hold the password: use "
                              "${IMAP_PASSWORD_ENV} or ~/.netrc").format(IMAP_PASSWORD_ENV=IMAP_PASSWORD_ENV))
        port = url_port(parts, 993 if parts.scheme == "imaps" else 143, usage)
        user = unquote(parts.username, errors="strict")
        mailbox = unquote(parts.path.lstrip("/"), errors="strict") or "INBOX"
        if not (user + mailbox).isascii() or not (user + mailbox).isprintable():
            raise MailError(_("{usage}: the user and the mailbox must be printable ASCII")
                            .format(usage=usage))
        return cls(parts.scheme == "imaps", user, parts.hostname, port, mailbox)

    @property
    def where(self) -> str:
        """``HOST:PORT``, as a line about the server names it."""
        return f"{self.host}:{self.port}"


@contextlib.contextmanager
def from_imap(url: str, limit: int = MAX_PER_RUN) -> Iterator[Iterator[Incoming]]:
    """The unseen messages of the IMAP account ``url`` (``ImapAccount``), ``limit`` at most,
    read without marking them; ``done`` flags one ``\\Seen``. Logged in when entered, out
    when left; MailError (one line) for anything that fails, a certificate refused saying
    how to trust the club's own."""
    account = ImapAccount.parse(url)
    password = account_password(account.host, account.user, IMAP_PASSWORD_ENV)
    client = _imap_call(account, lambda: _connect(account, password))
    try:
        yield _unseen(client, account, limit)
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            client.logout()


def _connect(account: ImapAccount, password: str) -> imaplib.IMAP4:
    """A client under TLS, logged in, with the mailbox selected."""
    context = tls_context(IMAP_CAFILE_ENV)
    client: imaplib.IMAP4
    if account.tls:
        client = imaplib.IMAP4_SSL(account.host, account.port, ssl_context=context, timeout=TIMEOUT)
    else:
        client = imaplib.IMAP4(account.host, account.port, timeout=TIMEOUT)
    try:
        if not account.tls:
            if "STARTTLS" not in client.capabilities:
                raise MailError(_("{where} does not offer STARTTLS: uptown logs in to IMAP only "
                                  "over TLS (imaps:// for TLS from the start)").format(where=account.where))
            client.starttls(ssl_context=context)
        try:
            client.login(account.user, password)
        except imaplib.IMAP4.error as exc:
            said = _said(exc, password)
            raise MailError(_("{where} refused the login of {user} ({said})").format(
                where=account.where, user=account.user, said=said)) from None
        quoted = '"' + account.mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'
        kind, answer = client.select(quoted)
        if kind != "OK":
            raise MailError(_("{where}: cannot open the mailbox {mailbox} ({said})").format(
                where=account.where, mailbox=account.mailbox, said=_said(answer, password)))
    except BaseException:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            client.shutdown()
        raise
    return client


def _unseen(client: imaplib.IMAP4, account: ImapAccount, limit: int) -> Iterator[Incoming]:
    """Each unseen message of the selected mailbox, as ``from_imap`` says."""
    kind, found = _imap_call(account, lambda: client.uid("SEARCH", "UNSEEN"))
    uids = (found[0] or b"").split()[:limit] if kind == "OK" and found else []
    if not uids:
        return
    kind, lines = _imap_call(account, lambda: client.uid(
        "FETCH", b",".join(uids).decode(), "(UID RFC822.SIZE INTERNALDATE)"))
    sizes: dict[bytes, tuple[int, datetime.datetime]] = {}
    for line in lines:
        text = line if isinstance(line, bytes) else b""
        number, length, moment = (re.search(rb"UID (\d+)", text),
                                  re.search(rb"RFC822\.SIZE (\d+)", text), _internal_date(text))
        if number and length and moment:
            sizes[number.group(1)] = int(length.group(1)), moment
    for uid in uids:
        if uid not in sizes:
            continue
        size, arrived = sizes[uid]
        where = f"{account.mailbox} UID {uid.decode()}"
        done = _flag_seen(client, account, uid)
        if size > MAX_MESSAGE_BYTES:
            yield _unread(f"imap {account.where} {where}", arrived, done, where, _over())
            continue
        kind, parts = _imap_call(account, lambda: client.uid("FETCH", uid.decode(), "(BODY.PEEK[])"))
        data = next((part[1] for part in parts if isinstance(part, tuple)), None)
        if kind != "OK" or not isinstance(data, bytes):
            continue  # expunged meanwhile
        yield _incoming(data, arrived, done, where)


def _internal_date(text: bytes) -> datetime.datetime | None:
    """The INTERNALDATE of a FETCH answer (``17-Jul-1996 02:44:25 -0700``), read without
    the locale's month names."""
    found = _INTERNALDATE.search(text)
    if found is None or found.group(2).decode() not in _MONTHS:
        return None
    day, month, year, hour, minute, second, sign, zone_hours, zone_minutes = found.groups()
    offset = datetime.timedelta(hours=int(zone_hours), minutes=int(zone_minutes))
    try:
        return datetime.datetime(int(year), _MONTHS[month.decode()], int(day), int(hour),
                                 int(minute), int(second),
                                 tzinfo=datetime.timezone(-offset if sign == b"-" else offset))
    except ValueError:
        return None


def _flag_seen(client: imaplib.IMAP4, account: ImapAccount, uid: bytes) -> Callable[[], None]:
    def done() -> None:
        _imap_call(account, lambda: client.uid("STORE", uid.decode(), "+FLAGS.SILENT", r"(\Seen)"))
    return done


def _said(answer: object, password: str) -> str:
    """A server's answer as one line, not shown when it holds the password."""
    if isinstance(answer, list):
        answer = b" ".join(part for part in answer if isinstance(part, bytes))
    text = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else str(answer)
    text = one_line(" ".join(text.split()))
    return _("its reply is not shown") if password and password in text else text


def _imap_call(account: ImapAccount, call: Callable[[], T]) -> T:
    """``call()``, its failure told in one line (MailError)."""
    where = account.where
    try:
        return call()
    except ssl.SSLCertVerificationError as exc:
        raise MailError(_("{where}: the server's certificate is not trusted ({verify_message}); if "
                          "the club's server has a certificate of its own, trust it with "
                          "${IMAP_CAFILE_ENV}=FILE.pem").format(
            where=where, verify_message=exc.verify_message, IMAP_CAFILE_ENV=IMAP_CAFILE_ENV)) from None
    except ssl.SSLError as exc:
        raise MailError(_("{where}: TLS failed ({reason})").format(
            where=where, reason=exc.reason or type(exc).__name__)) from None
    except imaplib.IMAP4.abort as exc:
        raise MailError(_("{where} hung up ({said})").format(where=where, said=_said(str(exc), ""))) from None
    except imaplib.IMAP4.error as exc:
        raise MailError(_("{where} refused a command ({said})").format(
            where=where, said=_said(str(exc), ""))) from None
    except (OSError, UnicodeError) as exc:
        reason = system_reason(exc) if getattr(exc, "strerror", None) else str(exc) or type(exc).__name__
        raise MailError(_("cannot reach {where}: {reason}").format(where=where, reason=reason)) from None
