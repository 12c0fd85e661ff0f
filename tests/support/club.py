"""Helpers shared by the club-play tests (``from support.club import ...``): a test certificate
authority, a real SMTP server (aiosmtpd) with STARTTLS and AUTH that keeps what it is sent, a
scripted SMTP server that answers each command as a test says, and a game of two copies (the
``game`` fixture) with the messages ``send`` writes for it."""

import datetime
import email
import email.policy
import ipaddress
import json
import os
import socket
import ssl
from typing import NamedTuple

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from click.testing import CliRunner
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from uptown_cli.cli import main

USER = "club"
PASSWORD = "s3cret-Pa55word"
SERVER_WAIT = 10
"""Seconds the SMTP server may take to start (aiosmtpd's ready_timeout)."""


def _name(text):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def make_certificates(folder):
    """(CA file, server certificate file, server key file) made for 127.0.0.1 in ``folder``."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(_name("uptown test CA")).issuer_name(_name("uptown test CA"))
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False,
                                       encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(_name("127.0.0.1")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = [os.path.join(folder, name) for name in ("ca.pem", "server.pem", "server.key")]
    with open(paths[0], "wb") as out:
        out.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths[1], "wb") as out:
        out.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(paths[2], "wb") as out:
        out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()))
    return paths


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Capture:
    """An aiosmtpd handler that keeps every message as (recipients, bytes), and refuses the
    recipients in ``refused`` (550, as a server refuses an address it does not know)."""

    def __init__(self):
        self.messages = []
        self.refused = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"

    def take(self):
        taken, self.messages[:] = list(self.messages), []
        return taken


def check_login(server, session, envelope, mechanism, auth_data):
    ok = (isinstance(auth_data, LoginPassword) and auth_data.login == USER.encode()
          and auth_data.password == PASSWORD.encode())
    return AuthResult(success=ok, handled=False)


class MailServer(NamedTuple):
    """A running SMTP server on 127.0.0.1: its port, what it captured, and the environment a
    client needs (with the test CA trusted)."""

    port: int
    capture: Capture
    env: dict


def start_server(folder, tls=True, implicit=False):
    """Start an SMTP server (STARTTLS, or TLS from the start with ``implicit``, or no TLS) with
    AUTH; returns (controller, MailServer)."""
    ca_file, cert_file, key_file = make_certificates(folder)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    capture = Capture()
    port = free_port()
    options = dict(hostname="127.0.0.1", port=port, authenticator=check_login,
                   ready_timeout=SERVER_WAIT)
    if implicit:  # aiosmtpd counts only STARTTLS as TLS when it offers AUTH
        options.update(ssl_context=context, auth_require_tls=False)
    elif tls:
        options.update(tls_context=context, require_starttls=True, auth_require_tls=True)
    else:
        options["auth_require_tls"] = False
    controller = Controller(capture, **options)
    controller.start()
    scheme = "smtps" if implicit else "smtp"
    env = {"UPTOWN_SMTP": f"{scheme}://{USER}@127.0.0.1:{port}", "UPTOWN_SMTP_PASSWORD": PASSWORD,
           "UPTOWN_SMTP_CAFILE": ca_file, "HOME": str(folder)}
    return controller, MailServer(port, capture, env)


@pytest.fixture
def smtp_server(tmp_path):
    """A real SMTP server with STARTTLS on a test certificate and AUTH, stopped after the test."""
    controller, server = start_server(_folder(tmp_path, "server"))
    try:
        yield server
    finally:
        controller.stop()


def _folder(tmp_path, name):
    path = tmp_path / name
    path.mkdir(exist_ok=True)
    return str(path)


def run(args, env=None, input=None, cwd=None):
    """Run ``uptown ARGS`` in-process (in ``cwd``), returning click's Result."""
    here = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(main, [str(a) for a in args], env=env, input=input)
    finally:
        os.chdir(here)


def ok(result):
    assert result.exit_code == 0, result.output
    return result


CLUB = ("Ana", "Bo", "Cy")


class Club:
    """Players who each have a folder (their copy of the game is ``club.yaml`` there) and a
    key folder of their own (``keys`` in it), and mail each other through ``server``."""

    def __init__(self, tmp_path, server, names=CLUB):
        self.server = server
        self.folders = {}
        for name in names:
            folder = tmp_path / name.lower()
            (folder / "keys").mkdir(parents=True, exist_ok=True)
            self.folders[name] = folder
        self.address = {f"{name.lower()}@example.org": name for name in names}
        self.received = []

    def game(self, name):
        return self.folders[name] / "club.yaml"

    def keys(self, name):
        return self.folders[name] / "keys"

    def attempt(self, name, *args, input=None):
        """``uptown ARGS`` run by ``name`` in their folder with their keys: click's result."""
        env = dict(self.server.env, UPTOWN_KEYS=str(self.keys(name)), UPTOWN_GAME=None)
        return run(args, env=env, input=input, cwd=self.folders[name])

    def uptown(self, name, *args, input=None):
        """``attempt``, which must succeed."""
        return ok(self.attempt(name, *args, input=input))

    def deliver(self, strict=True):
        """Each captured message, received by each of its recipients in their folder (with
        --into the first time, when they have no copy yet); returns the (name, result) of each
        ``receive``. ``strict``: each must succeed."""
        done = []
        for recipients, data in self.server.capture.take():
            parsed = email.message_from_bytes(data, policy=email.policy.default)
            assert parsed["Subject"].startswith("[uptown] club.yaml: ")
            for address in recipients:
                name = self.address[address]
                into = [] if self.game(name).exists() else ["--into", "club.yaml"]
                result = self.attempt(name, "receive", "-", *into, input=data)
                if strict:
                    ok(result)
                self.received.append((name, result.output))
                done.append((name, result))
        return done

    def show(self, name):
        """What ``show --json`` says of ``name``'s copy."""
        return json.loads(self.uptown(name, "show", "club.yaml", "--json").output)

    def options(self):
        """``-p "NAME <address>"`` for every player."""
        return [arg for address, name in self.address.items()
                for arg in ("-p", f"{name} <{address}>")]
# -- a game and its messages ---------------------------------------------------------------


PLAYERS = ["-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>", "-p", "Cy <cy@example.org>"]


@pytest.fixture
def game(tmp_path):
    """The sender's folder with a game of two moves, and the receiver's folder with the first."""
    sender, receiver = tmp_path / "ana", tmp_path / "bo"
    sender.mkdir()
    receiver.mkdir()
    ok(run(["new", "club.yaml", *PLAYERS, "--seed", "7"], cwd=sender))
    ok(run(["move", "club.yaml", "--bot", "random"], cwd=sender))
    (receiver / "club.yaml").write_bytes((sender / "club.yaml").read_bytes())
    ok(run(["move", "club.yaml", "--bot", "random"], cwd=sender))
    return sender, receiver


def message_of(folder, name="club.yaml", date=None, sender=None):
    """The message ``send`` would write for the game in ``folder``, from ``sender`` (default:
    the player who made its newest move; Ana before any) to Bo (in a game under a club judge: to the judge); made even of a record that does not validate,
    which ``send`` refuses (an attacker writes such messages by hand)."""
    from uptown_cli.club.mail import GameFile, game_messages
    from uptown_cli.fairplay.replay import replay
    from uptown_cli.records.schema import load_record_text

    data = (folder / name).read_bytes()
    record = load_record_text(data, name)
    game = GameFile(str(folder / name), data, record, replay(record).game)
    moves = game.record.moves
    sender = sender or next((p.name for p in game.record.players
                             if moves and moves[-1].color in p.colors), "Ana")
    judged = record.joins is not None and record.joins.judge is not None
    [outgoing] = game_messages(game, sender, None if judged else "Bo")  # to the judge, if any
    message = outgoing.message
    if date is not None:
        del message["Date"]
        message["Date"] = date
    return message


def receive(folder, data, *args):
    return run(["receive", "-", *args], input=data, cwd=folder)


def snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}




class ScriptedServer:
    """A small SMTP server on 127.0.0.1 for one connection, answering each command as
    ``answers`` says: a command's first word (EHLO, AUTH, MAIL, RCPT, DATA, QUIT; ``.`` for the
    end of the message) to a reply, or to a function of the command's line giving one; None
    hangs up. What it was told is in ``lines``, the messages it took in ``messages``. Every wait
    is bounded (``SERVER_WAIT``), so that no test hangs on it."""

    DEFAULTS = {"EHLO": "250-test\r\n250 AUTH PLAIN", "HELO": "250 test", "AUTH": "235 ok",
                "MAIL": "250 ok", "RCPT": "250 ok", "DATA": "354 go on", ".": "250 queued",
                "RSET": "250 ok", "NOOP": "250 ok", "QUIT": "221 bye"}

    def __init__(self, **answers):
        import threading

        self.answers = {**self.DEFAULTS, **{k.replace("END", "."): v for k, v in answers.items()}}
        self.lines, self.messages = [], []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(SERVER_WAIT)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"smtp://127.0.0.1:{self.port}"

    def _reply(self, connection, word, line):
        """Send the answer to ``line`` and return it (None: hang up)."""
        answer = self.answers.get(word, "500 unknown")
        answer = answer(line) if callable(answer) else answer
        if answer is not None:
            connection.sendall(answer.encode() + b"\r\n")
        return answer

    def _serve(self):
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        with connection, connection.makefile("rb") as stream:
            connection.settimeout(SERVER_WAIT)
            connection.sendall(b"220 test ESMTP\r\n")
            try:
                while line := stream.readline().decode("utf-8", "replace"):
                    self.lines.append(line.rstrip("\r\n"))
                    word = line.split()[0].upper() if line.split() else ""
                    answer = self._reply(connection, word, line)
                    if answer is None:
                        return
                    if word == "DATA" and answer.startswith("354"):
                        data = []
                        while (part := stream.readline()) not in (b".\r\n", b""):
                            data.append(part)
                        self.messages.append(b"".join(data))
                        if self._reply(connection, ".", ".") is None:
                            return
            except OSError:
                return

    def stop(self):
        self.listener.close()
        self.thread.join(SERVER_WAIT)
