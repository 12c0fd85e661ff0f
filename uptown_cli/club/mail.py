"""The message that carries a game, and the ways it is sent.

``game_message`` builds it with the standard library's ``email``: a plain-text body (the board
and standings, 80 columns, and the one command the recipient runs next) and the game file
attached exactly as it is on disk.  ``send_smtp`` sends it with ``smtplib`` over TLS
(``smtps://``) or STARTTLS (``smtp://``), certificates verified by ``ssl``'s default context
(``$UPTOWN_SMTP_CAFILE`` names other trusted certificates); ``send_sendmail`` hands it to the
local sendmail program.  The password comes from ``$UPTOWN_SMTP_PASSWORD`` or ``~/.netrc`` and
appears in no message, error or file.
"""

from __future__ import annotations

import netrc
import os
import shutil
import smtplib
import socket
import ssl
import subprocess
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, getaddresses, make_msgid
from urllib.parse import unquote, urlsplit

from ..errors import MailError
from ..engine.game import Game
from ..engine.game import same_name
from ..records.schema import Record, address_problem, load_record_text
from ..records.entries import PlayerEntry
from ..records.replay import replay

__all__ = ["SMTP_ENV", "GameFile", "game_message", "send_smtp", "send_sendmail"]

SMTP_ENV = "UPTOWN_SMTP"
"""``smtp://USER@HOST:587`` (STARTTLS) or ``smtps://USER@HOST:465`` (TLS from the start)."""
PASSWORD_ENV = "UPTOWN_SMTP_PASSWORD"
CAFILE_ENV = "UPTOWN_SMTP_CAFILE"
"""A PEM file of certificates to trust instead of the system's (a club's own server)."""
FROM_ENV = "UPTOWN_FROM"
"""The sender's address when ``--as`` names no player with an email in the record."""
TIMEOUT = 30.0
"""Seconds to wait for the mail server or the sendmail program at each step."""
SUBJECT_TAG = "[uptown]"
GAME_TYPE = ("application", "yaml")
"""The attachment's media type (RFC 9512)."""


@dataclass(frozen=True)
class GameFile:
    """A game file as read for sending: its path, exact bytes, record and replayed game."""

    path: str
    data: bytes
    record: Record
    game: Game

    @classmethod
    def read(cls, path: str, shown: str) -> GameFile:
        """The game at ``path`` (``shown`` names it in errors); RecordError for a bad record."""
        from ..records.reading import read_file

        data = read_file(path, shown).encode("utf-8")
        record = load_record_text(data, shown)
        return cls(path, data, record, replay(record).game)

    @property
    def name(self) -> str:
        """The file's name, without its folder."""
        return os.path.basename(self.path)

    @property
    def joining(self) -> PlayerEntry | None:
        """The next player to join a game with hidden racks, while not all have joined."""
        hidden = self.record.hidden
        if hidden is None or len(hidden.commitments) == len(self.record.players):
            return None
        return self.record.players[len(hidden.commitments)]

    @property
    def waiting_for(self) -> PlayerEntry | None:
        """Who the game waits for: the next to join, else the player to move (None when over)."""
        if self.joining is not None:
            return self.joining
        mover = self.game.to_move
        return None if mover is None else self.player(mover.name)

    def player(self, name: str) -> PlayerEntry:
        """The player ``name`` names (as records compare names: game.name_key); MailError when there is none."""
        for entry in self.record.players:
            if same_name(entry.name, name):
                return entry
        names = ", ".join(p.name for p in self.record.players)
        raise MailError(f"no player is named {name!r} (players: {names})")

    def subject(self) -> str:
        """``[uptown] EVENT-or-FILE: move N, NAME to move`` (``NAME to join``, ``game over``)."""
        title = self.record.fields.get("event") or self.name
        if self.joining is not None:
            state = f"{self.joining.name} to join"
        elif self.game.to_move is None:
            state = "game over"
        else:
            state = f"move {len(self.record.moves) + 1}, {self.game.to_move.name} to move"
        return f"{SUBJECT_TAG} {title}: {state}"

    def next_command(self, recipient: PlayerEntry | None) -> str:
        """The one command the recipient runs next, once the message is received."""
        if self.joining is not None:
            return f"uptown join {self.name} --as {self.joining.name}"
        if self.game.to_move is None:
            revealed = dict(self.record.hidden.revealed) if self.record.hidden else None
            if (revealed is not None and recipient is not None
                    and recipient.name not in revealed):
                return f"uptown reveal {self.name} --as {recipient.name}"
            return f"uptown validate {self.name}"
        return f"uptown move {self.name} TILE SQUARE --as {self.game.to_move.name} --send"

    def body(self, recipient: PlayerEntry | None) -> str:
        """The board and standings as text (80 columns) and what the recipient does next."""
        from ..pictures.text import board_text, standings_rows
        from ..engine.scoring import standings
        from ..pictures.table import simple_table

        rows, headers = standings_rows(standings(self.game, self.record.variant),
                                       self.record.variant)
        table = simple_table(rows, headers)
        if table is None:
            from tabulate import tabulate

            table = tabulate(rows, headers)
        state = self.subject()[len(SUBJECT_TAG) + 1:]
        lines = [state, "", board_text(self.game), "", "Standings:", table, ""]
        lines.append(f"The game is attached as {self.name}. Save it with uptown receive (pipe")
        lines.append("this message to it, or give the saved message), then run:")
        lines.append(f"    {self.next_command(recipient)}")
        return "\n".join(lines) + "\n"


def recipients(game: GameFile, to: str | None, sender: PlayerEntry | None) -> list[PlayerEntry]:
    """Who gets the game: ``to`` names a player or is ``all`` (everyone but the sender);
    by default the player the game waits for, or everyone once it is over."""
    if to is None:
        waiting = game.waiting_for
        chosen = [waiting] if waiting is not None else None
    elif to.casefold() == "all":
        chosen = None
    else:
        chosen = [game.player(to)]
    if chosen is None:
        chosen = [p for p in game.record.players if sender is None or p.name != sender.name]
    missing = [p.name for p in chosen if p.email is None]
    if missing:
        raise MailError(f"{', '.join(missing)} {'has' if len(missing) == 1 else 'have'} no email "
                        f"address in {game.record.path} (add 'email:' under the player)")
    return chosen


def sender_address(game: GameFile, as_name: str | None) -> tuple[PlayerEntry | None, Address]:
    """(the sending player or None, the From address): ``--as``'s email in the record, else
    ``$UPTOWN_FROM``."""
    sender = game.player(as_name) if as_name is not None else None
    if sender is not None and sender.email is not None:
        return sender, Address(sender.name, addr_spec=sender.email)
    text = os.environ.get(FROM_ENV, "")
    found = getaddresses([text]) if text else []
    if len(found) != 1 or address_problem(found[0][1]) is not None:
        who = f"{sender.name} has no email in {game.record.path}" if sender else "no --as"
        raise MailError(f"who sends this? {who}, and ${FROM_ENV} is not one address "
                        "(e.g. Ana <ana@example.org>)")
    return sender, Address(found[0][0], addr_spec=found[0][1])


def game_message(game: GameFile, as_name: str | None = None, to: str | None = None) -> EmailMessage:
    """The message that carries ``game`` from ``as_name`` (or ``$UPTOWN_FROM``) to ``to``
    (see ``recipients``), the game file attached byte for byte."""
    sender, from_address = sender_address(game, as_name)
    chosen = recipients(game, to, sender)
    message = EmailMessage()
    message["From"] = from_address
    message["To"] = [Address(p.name, addr_spec=p.email) for p in chosen]
    message["Subject"] = game.subject()
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = make_msgid(domain=from_address.domain)
    message.set_content(game.body(chosen[0] if len(chosen) == 1 else None))
    message.add_attachment(game.data, maintype=GAME_TYPE[0], subtype=GAME_TYPE[1],
                           filename=game.name)
    return message


def to_addresses(message: EmailMessage) -> list[str]:
    """The plain addresses of a message's To header."""
    return [address for _, address in getaddresses(message.get_all("To", []))]


# -- transports ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SmtpServer:
    """Where ``$UPTOWN_SMTP`` says to send: scheme, user (may be empty), host and port."""

    tls: bool
    user: str
    host: str
    port: int

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise MailError(f"${SMTP_ENV} must be smtp://USER@HOST:587 (STARTTLS) or "
                            "smtps://USER@HOST:465 (TLS)")
        if parts.password is not None:
            raise MailError(f"${SMTP_ENV} must not hold the password: use ${PASSWORD_ENV} "
                            "or ~/.netrc")
        try:
            port = parts.port or (465 if parts.scheme == "smtps" else 587)
        except ValueError:
            raise MailError(f"${SMTP_ENV} has a port that is not a number") from None
        return cls(parts.scheme == "smtps", unquote(parts.username or ""), parts.hostname, port)

    def password(self) -> str:
        """``$UPTOWN_SMTP_PASSWORD``, else the ``~/.netrc`` entry for the host."""
        password = os.environ.get(PASSWORD_ENV)
        if password:
            return password
        try:
            entry = netrc.netrc().authenticators(self.host)
        except FileNotFoundError:
            entry = None
        except (netrc.NetrcParseError, OSError) as exc:
            raise MailError(f"~/.netrc cannot be read ({getattr(exc, 'msg', None) or exc})"
                            ) from None
        if entry is None or not entry[2] or entry[0] not in ("", self.user):
            raise MailError(f"no password for {self.user}@{self.host}: set ${PASSWORD_ENV} "
                            f"or add 'machine {self.host} login {self.user} password ...' "
                            "to ~/.netrc")
        return entry[2]


def send_smtp(message: EmailMessage, url: str) -> None:
    """Send ``message`` through the server ``url`` names (see ``SmtpServer``), over TLS with
    the certificate verified, logging in when the URL names a user."""
    server = SmtpServer.parse(url)
    password = server.password() if server.user else ""
    try:
        _deliver(message, server, password)
    except MailError as exc:
        raise MailError(str(exc).replace(password, "***") if password else str(exc)) from None


def _deliver(message: EmailMessage, server: SmtpServer, password: str) -> None:
    where = f"{server.host}:{server.port}"
    context = _tls_context()
    try:
        client: smtplib.SMTP
        if server.tls:
            client = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT, context=context)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
            try:
                client.starttls(context=context)
            except smtplib.SMTPNotSupportedError:
                client.close()
                raise MailError(f"{where} does not offer STARTTLS; nothing was sent "
                                "(uptown sends only over TLS)") from None
            except BaseException:
                client.close()
                raise
        with client:
            if server.user:
                client.login(server.user, password)
            client.send_message(message)
    except smtplib.SMTPNotSupportedError:
        raise MailError(f"{where} does not offer to log in (AUTH); nothing was sent") from None
    except smtplib.SMTPAuthenticationError as exc:
        raise MailError(f"{where} refused the login of {server.user} ({exc.smtp_code}: "
                        f"{_server_text(exc.smtp_error)}); nothing was sent") from None
    except ssl.SSLCertVerificationError as exc:
        raise MailError(f"{where}: the server's certificate is not trusted "
                        f"({exc.verify_message}); nothing was sent") from None
    except ssl.SSLError as exc:
        raise MailError(f"{where}: TLS failed ({exc.reason or exc}); nothing was sent") from None
    except smtplib.SMTPResponseException as exc:
        raise MailError(f"{where} refused the message ({exc.smtp_code}: "
                        f"{_server_text(exc.smtp_error)}); nothing was sent") from None
    except smtplib.SMTPRecipientsRefused as exc:
        refused = ", ".join(exc.recipients)
        raise MailError(f"{where} refused the recipients {refused}; nothing was sent") from None
    except (smtplib.SMTPException, socket.timeout, OSError) as exc:
        reason = getattr(exc, "strerror", None) or exc or type(exc).__name__
        raise MailError(f"cannot send through {where}: {reason}") from None


def _tls_context() -> ssl.SSLContext:
    """The default context (certificates and host names verified), trusting the
    certificates of ``$UPTOWN_SMTP_CAFILE`` instead of the system's when it is set."""
    cafile = os.environ.get(CAFILE_ENV) or None
    try:
        return ssl.create_default_context(cafile=cafile)
    except (OSError, ssl.SSLError) as exc:
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
        raise MailError(f"${CAFILE_ENV} {cafile}: cannot read certificates from it "
                        f"({reason}); nothing was sent") from None


def _server_text(reply: bytes | str) -> str:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else reply
    return " ".join(text.split())


def send_sendmail(message: EmailMessage) -> None:
    """Hand ``message`` to the local sendmail program (the first ``sendmail`` on PATH, else
    /usr/sbin/sendmail), addressed to its To header."""
    program = shutil.which("sendmail") or shutil.which("sendmail", path="/usr/sbin:/usr/lib")
    if program is None:
        raise MailError("no sendmail program found (on PATH or in /usr/sbin); nothing was sent")
    try:
        done = subprocess.run([program, "-oi", "--", *to_addresses(message)],
                              input=message.as_bytes(), capture_output=True, timeout=TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        raise MailError(f"sendmail did not finish within {TIMEOUT:.0f} s") from None
    except OSError as exc:
        raise MailError(f"cannot run {program}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise MailError(f"sendmail failed (exit status {done.returncode})"
                        + (f": {said[0]}" if said else ""))
