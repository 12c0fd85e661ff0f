"""Helpers shared by the club-play tests (``from support.club import ...``): a test certificate
authority, a real SMTP server (aiosmtpd) with STARTTLS and AUTH that keeps what it is sent,
and players who each keep their copy of a game (and their keys) in their own folder
(``Club``)."""

import datetime
import email
import email.policy
import ipaddress
import json
import os
import socket
import ssl
from dataclasses import dataclass, field

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
    """An aiosmtpd handler that keeps every message as (recipients, bytes)."""

    def __init__(self):
        self.messages = []

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


@dataclass
class MailServer:
    """A running SMTP server on 127.0.0.1: its port, what it captured, and the environment a
    client needs (with the test CA trusted)."""

    port: int
    capture: Capture
    env: dict = field(default_factory=dict)


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
