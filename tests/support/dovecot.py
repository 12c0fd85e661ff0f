"""A real IMAP server for the judge's tests: Dovecot (Debian's ``dovecot-imapd``; ``.ci/run``
installs it), started by the ``imap_server`` fixture with a minimal configuration of its own
in a temporary folder: a test certificate (``support.club.make_certificates``), one user in a
passwd file, a Maildir, TLS on one port and STARTTLS on another, both on 127.0.0.1. The tests
that use it skip, saying why, when Dovecot is not installed or cannot start."""

import contextlib
import imaplib
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from typing import NamedTuple

import pytest

from support.club import free_port, make_certificates

USER = "judge"
PASSWORD = "imap-Pa55word"
START_WAIT = 10
"""Seconds Dovecot may take to listen."""

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = yes
auth_mechanisms = plain login
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = 1
mail_location = maildir:{root}/home/%u/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {starttls_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""


class ImapServer(NamedTuple):
    """A running Dovecot: its ports (TLS from the start, STARTTLS), the CA file that trusts
    its certificate, its user's Maildir, and the environment a judge needs to log in."""

    tls_port: int
    starttls_port: int
    ca_file: str
    maildir: str
    env: dict

    def url(self, starttls=False, mailbox="INBOX"):
        if starttls:
            return f"imap://{USER}@127.0.0.1:{self.starttls_port}/{mailbox}"
        return f"imaps://{USER}@127.0.0.1:{self.tls_port}/{mailbox}"

    @contextlib.contextmanager
    def client(self):
        """An imaplib client logged in, INBOX selected: what a mail program does."""
        context = ssl.create_default_context(cafile=self.ca_file)
        client = imaplib.IMAP4_SSL("127.0.0.1", self.tls_port, ssl_context=context, timeout=START_WAIT)
        try:
            client.login(USER, PASSWORD)
            client.select("INBOX")
            yield client
        finally:
            client.logout()

    def deliver(self, data, when):
        """Put the message ``data`` in INBOX, received at ``when`` (an aware datetime): its
        INTERNALDATE."""
        with self.client() as client:
            kind, said = client.append("INBOX", None, imaplib.Time2Internaldate(when), data)
            assert kind == "OK", said

    def flags(self):
        """{UID: the message's flags} of INBOX."""
        with self.client() as client:
            _, lines = client.uid("FETCH", "1:*", "(UID FLAGS)")
        found = {}
        for line in lines:
            if isinstance(line, bytes) and b"UID" in line:
                uid = int(line.split(b"UID ")[1].split()[0].rstrip(b")"))
                found[uid] = line.split(b"FLAGS (")[1].split(b")")[0].decode()
        return found


def _accounts():
    """(the user Dovecot's own processes run as and its group, the user that logs clients in,
    and the uid and gid mail is kept under): Debian's ``dovecot`` and ``dovenull`` and
    ``nobody`` for root, who may not be any of them; the user running the tests otherwise."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        return me.pw_name, me.pw_name, me.pw_name, me.pw_uid, me.pw_gid
    try:
        pwd.getpwnam("dovecot")
        pwd.getpwnam("dovenull")
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("Dovecot's users (dovecot, dovenull) are missing: install dovecot-imapd")
    return "dovecot", "dovecot", "dovenull", nobody.pw_uid, nobody.pw_gid


def _listening(port):
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


@pytest.fixture
def imap_server():
    """Dovecot on 127.0.0.1 for one test, stopped after it; the test skips when it cannot run."""
    program = shutil.which("dovecot") or shutil.which("dovecot", path="/usr/sbin")
    if program is None:
        pytest.skip("Dovecot is not installed (Debian: apt-get install dovecot-imapd)")
    internal, group, login, uid, gid = _accounts()
    root = tempfile.mkdtemp(prefix="uptown-dovecot-")  # not under tmp_path: its login user must reach it
    os.chmod(root, 0o755)
    process = None
    try:
        ca_file, cert, key = make_certificates(root)
        with open(os.path.join(root, "passwd"), "w") as out:
            out.write(f"{USER}:{{PLAIN}}{PASSWORD}\n")
        home = os.path.join(root, "home", USER)
        os.makedirs(home)
        os.chown(home, uid, gid)
        tls_port, starttls_port = free_port(), free_port()
        config = os.path.join(root, "dovecot.conf")
        with open(config, "w") as out:
            out.write(CONFIG.format(root=root, cert=cert, key=key, internal=internal,
                                    internal_group=group, login=login, uid=uid, gid=gid,
                                    tls_port=tls_port, starttls_port=starttls_port))
        process = subprocess.Popen([program, "-F", "-c", config], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + START_WAIT
        while not (_listening(tls_port) and _listening(starttls_port)):
            if process.poll() is not None or time.monotonic() > deadline:
                said = process.stderr.read().decode(errors="replace").strip() if process.poll() is not None else ""
                log = os.path.join(root, "dovecot.log")
                if os.path.exists(log):
                    said = said or open(log, errors="replace").read().strip()
                pytest.skip(f"Dovecot could not start: {said.splitlines()[-1] if said else 'it did not listen'}")
            time.sleep(0.05)
        env = {"UPTOWN_IMAP_PASSWORD": PASSWORD, "UPTOWN_IMAP_CAFILE": ca_file}
        yield ImapServer(tls_port, starttls_port, ca_file, os.path.join(home, "Maildir"), env)
    finally:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(START_WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None:
            process.stderr.close()
        shutil.rmtree(root, ignore_errors=True)
