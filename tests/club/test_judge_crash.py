"""A judge killed at each step of handling a message, and started again, loses nothing and sends
nothing twice; judges started at once handle each message once. Each judge is a process
(``support/echo_judge.py``, the trivial ruling) reading a Maildir, a pipe or a Dovecot, and
sending through a real SMTP server (aiosmtpd); ``UPTOWN_JUDGE_CRASH`` kills it with
``os._exit`` at a named point."""

import email
import hashlib
import mailbox
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.club import smtp_server  # noqa: F401  (a fixture)
from support.dovecot import imap_server  # noqa: F401  (a fixture)
from support.echo_judge import message

from uptown_cli.club.judge_mailbox import message_key
from uptown_cli.club.judge_store import CRASH_POINTS, CRASH_STATUS, Store, create_judge

ECHO_JUDGE = Path(__file__).resolve().parents[1] / "support" / "echo_judge.py"
RUN_WAIT = 120
"""Seconds one judge process may take (it takes well under one)."""
MESSAGES = [message(1, "game-1", "ana@example.org"), message(2, "game-2", "bo@example.org"),
            message(3, "game-1", "cy@example.org")]


def start(folder, source, server, crash=None, env=None):
    environment = {**os.environ, **server.env, **(env or {})}
    environment.pop("UPTOWN_JUDGE_CRASH", None)
    if crash:
        environment["UPTOWN_JUDGE_CRASH"] = crash
    return subprocess.Popen([sys.executable, str(ECHO_JUDGE), str(folder), source,
                             server.env["UPTOWN_SMTP"]], env=environment, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def judge(folder, source, server, crash=None, data=b"", env=None):
    process = start(folder, source, server, crash, env)
    out, err = process.communicate(data, timeout=RUN_WAIT)
    return process.returncode, out.decode(), err.decode()


def expected_ids(messages):
    """The Message-ID of each echo: made from the key of the message it answers."""
    return {f"<{hashlib.sha256(f'{message_key(data)[0]}{chr(0)}0'.encode()).hexdigest()[:32]}"
            f".judge@example.org>" for data in messages}


def sent_ids(server):
    """The Message-ID of each message the SMTP server took, in order."""
    return [email.message_from_bytes(data)["Message-ID"] for _, data in server.capture.messages]


def check_nothing_lost(folder, messages):
    """Every message is one line of its game, in the database and in the file; every echo is
    sent; nothing waits."""
    with Store.open(str(folder)) as store:
        games = {game.path: game.text for game in store.games()}
        assert store.outbox(("queued", "sending", "failed")) == []
        assert len(store.outbox(("sent",))) == len(messages)
    lines = [line.split()[1] for text in games.values() for line in text.splitlines()]
    assert sorted(lines) == sorted(message_key(data)[1] for data in messages)
    assert {path: (folder / "games" / path).read_text() for path in games} == games


@pytest.fixture
def setup(tmp_path):
    folder = tmp_path / "judge"
    create_judge(str(folder), "judge@example.org")
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    for number, data in enumerate(MESSAGES):
        with open(os.path.join(box._path, "new", f"17331500{number:02d}.M0P1.host"), "wb") as out:
            out.write(data)
    return folder, box._path


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_a_judge_killed_at_each_step_loses_nothing_and_sends_nothing_twice(setup, smtp_server, point):
    folder, maildir = setup
    status, _, err = judge(folder, f"maildir:{maildir}", smtp_server, crash=f"{point}:2")
    assert status == CRASH_STATUS, err
    status, _, err = judge(folder, f"maildir:{maildir}", smtp_server)
    assert status == 0, err
    check_nothing_lost(folder, MESSAGES)
    ids = sent_ids(smtp_server)
    assert set(ids) == expected_ids(MESSAGES)
    twice = len(ids) - len(set(ids))
    assert twice == (1 if point == "after-send" else 0)  # sent, then killed before it was marked
    by_id = {}
    for _, data in smtp_server.capture.messages:  # a duplicate is the same message
        by_id.setdefault(email.message_from_bytes(data)["Message-ID"], set()).add(data)
    assert all(len(copies) == 1 for copies in by_id.values())
    assert os.listdir(os.path.join(maildir, "new")) == []
    assert all(name.endswith(":2,S") for name in os.listdir(os.path.join(maildir, "cur")))


def test_a_judge_killed_after_the_commit_writes_the_files_at_its_next_start(setup, smtp_server):
    folder, maildir = setup
    status, _, _ = judge(folder, f"maildir:{maildir}", smtp_server, crash="after-commit")
    assert status == CRASH_STATUS and list((folder / "games").iterdir()) == []
    status, out, _ = judge(folder, f"maildir:{maildir}", smtp_server)
    assert status == 0 and '"synced": ["game-1.yaml"]' in out
    check_nothing_lost(folder, MESSAGES)


@pytest.mark.parametrize("point", ["before-commit", "after-commit", "before-done", "after-send"])
def test_a_piped_judge_killed_and_the_message_delivered_again(tmp_path, smtp_server, point):
    """The MTA delivers again a message whose judge failed (a non-zero exit status)."""
    folder = tmp_path / "judge"
    create_judge(str(folder), "judge@example.org")
    status, _, _ = judge(folder, "-", smtp_server, crash=point, data=MESSAGES[0])
    assert status == CRASH_STATUS
    status, out, err = judge(folder, "-", smtp_server, data=MESSAGES[0])
    assert status == 0, err
    check_nothing_lost(folder, MESSAGES[:1])
    assert set(sent_ids(smtp_server)) == expected_ids(MESSAGES[:1])


def test_an_imap_judge_killed_before_done_reads_the_message_again_once(tmp_path, smtp_server,
                                                                       imap_server):
    import datetime

    folder = tmp_path / "judge"
    create_judge(str(folder), "judge@example.org")
    now = datetime.datetime.now(datetime.timezone.utc)
    for data in MESSAGES:
        imap_server.deliver(data, now)
    status, _, _ = judge(folder, imap_server.url(), smtp_server, crash="before-done:2",
                         env=imap_server.env)
    assert status == CRASH_STATUS and imap_server.flags() == {1: "\\Seen", 2: "", 3: ""}
    status, out, err = judge(folder, imap_server.url(), smtp_server, env=imap_server.env)
    assert status == 0, err
    assert '"repeated": 1' in out
    assert imap_server.flags() == {1: "\\Seen", 2: "\\Seen", 3: "\\Seen"}
    check_nothing_lost(folder, MESSAGES)
    assert sorted(sent_ids(smtp_server)) == sorted(expected_ids(MESSAGES))


# -- judges at once ---------------------------------------------------------------------------


def test_two_judges_started_at_once_handle_each_message_once(tmp_path, smtp_server):
    folder = tmp_path / "judge"
    create_judge(str(folder), "judge@example.org")
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    many = [message(number, f"game-{number % 4}", "ana@example.org") for number in range(30)]
    for data in many:
        box.add(data)
    processes = [start(folder, f"maildir:{box._path}", smtp_server) for _ in range(2)]
    results = [process.communicate(timeout=RUN_WAIT) for process in processes]
    assert [process.returncode for process in processes] == [0, 0], results
    check_nothing_lost(folder, many)
    ids = sent_ids(smtp_server)
    assert len(ids) == len(set(ids)) and set(ids) == expected_ids(many)


def test_deliveries_piped_at_once_each_reach_the_game(tmp_path, smtp_server):
    folder = tmp_path / "judge"
    create_judge(str(folder), "judge@example.org")
    many = [message(number, "game-1", "ana@example.org") for number in range(6)]
    processes = [start(folder, "-", smtp_server) for _ in many]
    for process, data in zip(processes, many):
        process.stdin.write(data)
        process.stdin.close()
    for process in processes:
        assert process.wait(RUN_WAIT) == 0, process.stderr.read()
        process.stdout.close()
        process.stderr.close()
    check_nothing_lost(folder, many)
    ids = sent_ids(smtp_server)
    assert len(ids) == len(set(ids)) == 6
