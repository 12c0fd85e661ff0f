"""How a message goes: ``send_smtp`` through the server ``$UPTOWN_SMTP`` names, or
``send_sendmail`` through the local sendmail program.

SMTP goes over TLS (``smtps://``) or STARTTLS (``smtp://``), certificates verified by ``ssl``'s
default context (``$UPTOWN_SMTP_CAFILE`` names other trusted certificates). Without TLS it goes
only to this computer (``localhost``, ``127.0.0.0/8``, ``::1``) when the server offers no
STARTTLS, or anywhere when the URL asks for it with ``?tls=no`` (never with a password, unless
to this computer). The envelope is sent step by step, so that each recipient the server refuses
is named (``Delivery.refused``) and a message the server has taken (250 to DATA) counts as sent,
whatever happens after. The password comes from ``$UPTOWN_SMTP_PASSWORD`` or ``~/.netrc``; it
is in no message, error or file: a reply of the server that holds it is not shown.
"""

from __future__ import annotations

import ipaddress
import netrc
import os
import re
import shutil
import smtplib
import ssl
import subprocess
from typing import NamedTuple
from urllib.parse import SplitResult, parse_qs, quote, unquote, urlsplit

from ..errors import NOTHING_SENT, MailError, RecipientRefused

SMTP_ENV = "UPTOWN_SMTP"
"""``smtp://[USER@]HOST[:PORT]`` (STARTTLS; port 587) or ``smtps://[USER@]HOST[:PORT]`` (TLS
from the start; port 465); ``?tls=no`` sends without TLS."""
from ..i18n import _, system_reason

__all__ = ["SMTP_ENV", "account_password", "check_settings", "send_sendmail", "send_smtp",
           "tls_context", "url_port"]
PASSWORD_ENV = "UPTOWN_SMTP_PASSWORD"
CAFILE_ENV = "UPTOWN_SMTP_CAFILE"
"""A PEM file of certificates to trust instead of the system's (a club's own server)."""
TIMEOUT = 30.0
"""Seconds to wait for the mail server or the sendmail program at each step."""
NO_TLS = "no"
"""The value of the URL's ``tls`` parameter that sends without TLS."""


class SmtpServer(NamedTuple):
    """Where ``$UPTOWN_SMTP`` says to send: TLS from the start or not, user (may be empty),
    host and port, and whether TLS is left out on purpose (``?tls=no``)."""

    tls: bool
    user: str
    host: str
    port: int
    plain: bool = False

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        usage = _("${env} must be smtp://[USER@]HOST[:PORT] (STARTTLS) or "
                  "smtps://[USER@]HOST[:PORT] (TLS)").format(env=SMTP_ENV)
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname or parts.path not in ("", "/"):
            raise MailError(usage)
        if parts.password is not None:
            raise MailError(_("${SMTP_ENV} must not hold the password: use ${PASSWORD_ENV} or "
                              "~/.netrc").format(SMTP_ENV=SMTP_ENV, PASSWORD_ENV=PASSWORD_ENV))
        query = parse_qs(parts.query, keep_blank_values=True)
        if set(query) - {"tls"} or query.get("tls", [NO_TLS]) != [NO_TLS]:
            raise MailError(_("{usage}; the one setting after ? is tls=no (send without TLS)")
                            .format(usage=usage))
        plain = "tls" in query
        if plain and parts.scheme == "smtps":
            raise MailError(_("${SMTP_ENV}: smtps:// is TLS; give smtp://...?tls=no to send without "
                              "it").format(SMTP_ENV=SMTP_ENV))
        port = url_port(parts, 465 if parts.scheme == "smtps" else 587, usage)
        user = unquote(parts.username or "", errors="strict")
        if not user.isascii() or not user.isprintable():
            raise MailError(_("${SMTP_ENV}: the user name must be printable ASCII (the SMTP login "
                              "sends no other)").format(SMTP_ENV=SMTP_ENV))
        return cls(parts.scheme == "smtps", user, parts.hostname, port, plain)

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"

    def plain_url(self) -> str:
        """The ``$UPTOWN_SMTP`` that asks this server for mail without TLS (``?tls=no``)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        user = f"{quote(self.user, safe='')}@" if self.user else ""
        return f"smtp://{user}{host}:{self.port}?tls={NO_TLS}"

    @property
    def local(self) -> bool:
        """Whether the server is on this computer (a loopback address or ``localhost``)."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    def password(self) -> str:
        """``$UPTOWN_SMTP_PASSWORD``, else the ``~/.netrc`` entry for the host
        (``account_password``)."""
        return account_password(self.host, self.user, PASSWORD_ENV)


def account_password(host: str, user: str, env: str) -> str:
    """The password of ``user`` at ``host``: the variable ``env``, else the ``~/.netrc`` entry
    for the host; printable ASCII (a login sends no other). Shared by SMTP and the judge's
    IMAP (``club.judge_mailbox``)."""
    password = os.environ.get(env) or _netrc_password(host, user, env)
    if not password.isascii() or not password.isprintable():
        raise MailError(_("the password for {user}@{host} holds a character that is not printable "
                          "ASCII, which the login cannot send").format(user=user, host=host),
                        NOTHING_SENT)
    return password


def _netrc_password(host: str, user: str, env: str) -> str:
    try:
        entry = netrc.netrc().authenticators(host)
    except FileNotFoundError:
        entry = None
    except (netrc.NetrcParseError, OSError, UnicodeError) as exc:
        reason = (_("it is not UTF-8 text") if isinstance(exc, UnicodeError)
                  else getattr(exc, "msg", None) or system_reason(exc))
        raise MailError(_("~/.netrc cannot be read ({reason})").format(reason=reason)) from None
    if entry is None or not entry[2] or entry[0] not in ("", user):
        raise MailError(_("no password for {user}@{host}: set ${PASSWORD_ENV} or add 'machine "
                          "{host} login {user} password ...' to ~/.netrc")
                        .format(user=user, host=host, PASSWORD_ENV=env))
    return entry[2]


def url_port(parts: SplitResult, default: int, usage: str) -> int:
    """The port of the server URL ``parts`` (``default`` when it names none), its host name
    checked to be one; MailError (``usage``, said to be wrong) when either is not. Shared by
    SMTP and the judge's IMAP (``club.judge_mailbox``)."""
    try:
        port = parts.port or default
        (parts.hostname or "").encode("idna")
    except ValueError:  # UnicodeError is one
        raise MailError(_("{usage}: its port or host name is not one").format(usage=usage)) from None
    return port


class Delivery(NamedTuple):
    """What the server did with a message it took: the recipients it refused, each with its
    reply (the others got the message)."""

    refused: dict[str, str]


def check_settings(url: str | None, sendmail: bool = False) -> None:
    """Whether mail can go as set up, before anything is written (``move --send``): the
    sendmail program found, or ``url`` read as ``SmtpServer.parse`` reads it, its password
    found (a user named), and ``$UPTOWN_SMTP_CAFILE`` readable (TLS); MailError (one line)
    for the first thing wrong. The server itself is not asked."""
    if sendmail:
        _sendmail_program()
        return
    server = SmtpServer.parse(url or "")
    if server.user:
        server.password()
    if not server.plain:
        tls_context()


def send_smtp(data: bytes, sender: str, recipients: list[str], url: str) -> Delivery:
    """Send the message ``data`` from ``sender`` to ``recipients`` through the server ``url``
    names (see ``SmtpServer``), logging in when the URL names a user. MailError (one line)
    when nothing was sent; the recipients refused are in the ``Delivery``."""
    server = SmtpServer.parse(url)
    password = server.password() if server.user else ""
    return _Session(server, password).deliver(data, sender, recipients)


class _Session:
    """One conversation with the server, its errors told in one line without the password."""

    def __init__(self, server: SmtpServer, password: str) -> None:
        self.server = server
        self.password = password

    def said(self, reply: bytes | str) -> str:
        """The server's reply as one line, or a note that it is not shown when it holds the
        password (masking the password in it would show the rest, and so the password)."""
        text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else reply
        text = " ".join(text.split())
        if self.password and self.password in text:
            return _("its reply is not shown")
        return text

    def untrusted(self, why: str) -> str:
        """The refusal of a certificate ``ssl`` does not trust (``why``), with how to trust
        it: a club's own server often has a certificate of its own making."""
        where, server = self.server.where, self.server
        if server.local and not server.tls:
            return _("{where}: the server's certificate is not trusted ({why}): trust it with "
                     "${CAFILE_ENV}=FILE, FILE its certificate or its CA's in PEM, or send to "
                     "this computer without TLS with {url}").format(
                where=where, why=why, CAFILE_ENV=CAFILE_ENV,
                url=server.plain_url())
        return _("{where}: the server's certificate is not trusted ({why}): trust it with "
                 "${CAFILE_ENV}=FILE, FILE its certificate or its CA's in PEM").format(
            where=where, why=why, CAFILE_ENV=CAFILE_ENV)

    def deliver(self, data: bytes, sender: str, recipients: list[str]) -> Delivery:
        where = self.server.where
        client: smtplib.SMTP | None = None
        try:
            client = self.connect()
            delivery = self.transmit(client, data, sender, recipients)
        except smtplib.SMTPAuthenticationError as exc:
            raise MailError(_("{where} refused the login of {user} ({smtp_code}: {smtp_error})")
                            .format(where=where, user=self.server.user, smtp_code=exc.smtp_code,
                                    smtp_error=self.said(exc.smtp_error)), NOTHING_SENT) from None
        except smtplib.SMTPNotSupportedError:
            raise MailError(_("{where} does not offer to log in (AUTH)")
                            .format(where=where), NOTHING_SENT) from None
        except ssl.SSLCertVerificationError as exc:
            raise MailError(self.untrusted(exc.verify_message), NOTHING_SENT) from None
        except ssl.SSLError as exc:
            raise MailError(_("{where}: TLS failed ({value})").format(
                where=where, value=exc.reason or type(exc).__name__), NOTHING_SENT) from None
        except smtplib.SMTPResponseException as exc:
            raise MailError(_("{where} refused the message ({smtp_code}: {smtp_error})").format(
                where=where, smtp_code=exc.smtp_code, smtp_error=self.said(exc.smtp_error)),
                NOTHING_SENT) from None
        except (smtplib.SMTPException, OSError, UnicodeError) as exc:
            reason = (_("the server hung up") if isinstance(exc, smtplib.SMTPServerDisconnected)
                      else system_reason(exc) if getattr(exc, "strerror", None) else self.said(str(exc))
                      or type(exc).__name__)
            raise MailError(_("cannot send through {where}: {reason}")
                            .format(where=where, reason=reason), NOTHING_SENT) from None
        finally:
            if client is not None:
                _close(client)
        return delivery

    def connect(self) -> smtplib.SMTP:
        """A client connected, under TLS when it should be, and logged in."""
        server = self.server
        client: smtplib.SMTP
        if server.tls:
            client = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT,
                                      context=tls_context())
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
        try:
            encrypted = server.tls
            client.ehlo_or_helo_if_needed()
            if not server.tls and not server.plain:
                if client.has_extn("starttls"):
                    client.starttls(context=tls_context())
                    client.ehlo()
                    encrypted = True
                elif not server.local:
                    raise MailError(_("{where} does not offer STARTTLS; nothing was sent (uptown "
                                      "sends without TLS only to this computer, or with ?tls=no in "
                                      "${SMTP_ENV})").format(where=server.where, SMTP_ENV=SMTP_ENV))
            if server.user:
                if not encrypted and not server.local:
                    raise MailError(_("{where}: uptown sends no password without TLS except to this "
                                      "computer").format(where=server.where), NOTHING_SENT)
                client.login(server.user, self.password)
        except BaseException:
            _close(client)
            raise
        return client

    def transmit(self, client: smtplib.SMTP, data: bytes, sender: str,
                 recipients: list[str]) -> Delivery:
        """The envelope and the message, step by step: each recipient refused is kept with
        its reply; once the server answers 250 to the message, it is sent."""
        where = self.server.where
        code, reply = client.mail(sender)
        if code != 250:
            raise MailError(_("{where} refused the sender {sender} ({code}: {reply})").format(
                where=where, sender=sender, code=code, reply=self.said(reply)), NOTHING_SENT)
        refused: dict[str, str] = {}
        for address in recipients:
            code, reply = client.rcpt(address)
            if code not in (250, 251):
                refused[address] = f"{code}: {self.said(reply)}"
        if len(refused) == len(recipients):
            listed = "; ".join(f"{a} ({why})" for a, why in refused.items())
            raise RecipientRefused(_("{where} refused every recipient: {refused}")
                                   .format(where=where, refused=listed), NOTHING_SENT)
        code, reply = client.docmd("DATA")
        if code != 354:
            raise MailError(_("{where} refused the message ({code}: {reply})")
                            .format(where=where, code=code, reply=self.said(reply)), NOTHING_SENT)
        try:
            client.send(_dot_stuffed(data))
            code, reply = client.getreply()
        except OSError:  # smtplib's errors are OSErrors too
            raise MailError(_("{where} stopped answering while the message went out: it may or may "
                              "not have been delivered (ask the recipients before sending it again)")
                            .format(where=where)) from None
        if code != 250:
            raise MailError(_("{where} refused the message ({code}: {reply})")
                            .format(where=where, code=code, reply=self.said(reply)), NOTHING_SENT)
        return Delivery(refused)


def _dot_stuffed(data: bytes) -> bytes:
    """The message as DATA sends it (RFC 5321): each line that starts with a dot given one
    more, CR LF at the end, and the line with one dot after it."""
    data = re.sub(rb"(?m)^\.", b"..", data)
    return data + (b"" if data.endswith(b"\r\n") else b"\r\n") + b".\r\n"


def _close(client: smtplib.SMTP) -> None:
    """End the conversation politely if the server still listens; a failure here changes
    nothing (the message, if any, is sent)."""
    try:
        client.quit()
    except (smtplib.SMTPException, OSError):
        client.close()


def tls_context(env: str = CAFILE_ENV) -> ssl.SSLContext:
    """The default context (certificates and host names verified), trusting the
    certificates of the file the variable ``env`` names (``$UPTOWN_SMTP_CAFILE``) instead of
    the system's when it is set."""
    cafile = os.environ.get(env) or None
    try:
        return ssl.create_default_context(cafile=cafile)
    except (OSError, ssl.SSLError) as exc:
        reason = system_reason(exc) if getattr(exc, "strerror", None) else getattr(exc, "reason", None) or exc
        raise MailError(_("${CAFILE_ENV} {cafile}: cannot read certificates from it ({reason})")
                        .format(CAFILE_ENV=env, cafile=cafile, reason=reason),
                        NOTHING_SENT) from None


def send_sendmail(data: bytes, recipients: list[str]) -> None:
    """Hand the message ``data`` to the local sendmail program (the first ``sendmail`` on
    PATH, else /usr/sbin/sendmail), addressed to ``recipients``."""
    program = _sendmail_program()
    try:
        done = subprocess.run([program, "-oi", "--", *recipients], input=data,
                              capture_output=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise MailError(_("sendmail did not finish within {TIMEOUT:.0f} s").format(TIMEOUT=TIMEOUT)) from None
    except OSError as exc:
        raise MailError(_("cannot run {program}: {value}")
                        .format(program=program, value=system_reason(exc))) from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        failed = _("sendmail failed (exit status {status})").format(status=done.returncode)
        raise MailError(failed + (f": {said[0]}" if said else ""))



def _sendmail_program() -> str:
    """The first ``sendmail`` on PATH, else in /usr/sbin or /usr/lib; MailError when none is."""
    program = shutil.which("sendmail") or shutil.which("sendmail", path="/usr/sbin:/usr/lib")
    if program is None:
        raise MailError(_("no sendmail program found (on PATH or in /usr/sbin)"), NOTHING_SENT)
    return program
