"""The judge's store (``club.judge_store``): each message handled once in one transaction,
the games kept in the database and projected to files, an outbox sent with Message-IDs made
from the message's key, an event log; everything undone when the work fails."""

import datetime
import hashlib
import json
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from aiosmtpd.controller import Controller
from support.club import SERVER_WAIT, Capture, free_port
from support.echo_judge import echo_rule, message

from uptown_cli.club.judge_mailbox import Incoming, message_key
from uptown_cli.club.judge_run import run_judge, smtp_sender
from uptown_cli.club.judge_store import SCHEMA, Store, create_judge
from uptown_cli.errors import JudgeError, MailError, RecipientRefused

ROOT = Path(__file__).resolve().parents[2]
ARRIVED = datetime.datetime(2024, 12, 2, 10, 0, 1, tzinfo=datetime.timezone.utc)


@pytest.fixture
def store(tmp_path):
    create_judge(str(tmp_path / "judge"), "judge@example.org")
    with Store.open(str(tmp_path / "judge")) as opened:
        yield opened


def incoming(number, subject="game-1", sender="ana@example.org"):
    data = message(number, subject, sender)
    key, message_id = message_key(data)
    return Incoming(key, message_id, data, ARRIVED, lambda: None, f"message {number}")


def handle(store, mail, rule=echo_rule):
    return store.handle(mail.key, mail.message_id, mail.arrived, lambda txn: rule(mail, txn))


def rows(store, sql):
    return store.db.execute(sql).fetchall()


def test_the_database_is_in_wal_mode_with_the_documented_schema(store):
    assert rows(store, "PRAGMA journal_mode") == [("wal",)]
    tables = {name for (name,) in rows(store, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"settings", "handled", "games", "outbox", "events"}
    assert dict(rows(store, "SELECT name, value FROM settings"))["schema_version"] == "1"
    documented = (ROOT / "docs" / "JUDGE.md").read_text()
    for statement in SCHEMA.split(";"):
        assert statement.strip() in documented


def test_a_database_of_another_version_is_refused(store, tmp_path):
    store.db.execute("UPDATE settings SET value = '99' WHERE name = 'schema_version'")
    with pytest.raises(JudgeError, match="its schema is 99, this uptown's is 1"):
        Store.open(str(tmp_path / "judge"))


def test_a_message_is_handled_once(store):
    mail = incoming(1)
    first = handle(store, mail)
    assert first.text == "echoed game-1" and first.games == ("game-1",) and first.queued == 1
    assert handle(store, mail, rule=lambda *_: pytest.fail("handled twice")) is None
    assert rows(store, "SELECT message_id, arrived, outcome FROM handled") == [
        ("<m1@example.org>", "2024-12-02T10:00:01.000000+00:00", "echoed game-1")]


def test_the_key_is_the_content_without_the_trace_headers_and_its_message_id():
    data = message(1)
    traced = b"Received: from mx.example.org by club.example.org;\n\tMon, 2 Dec 2024\n" + data
    assert message_key(traced) == message_key(data) == message_key(data.replace(b"\n", b"\r\n"))
    assert message_key(data)[1] == "<m1@example.org>"
    assert message_key(data.replace(b"Message 1", b"Message 2"))[0] != message_key(data)[0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Received", "Return-Path", "Delivered-To", "X-Original-To",
                                 "Status", "X-UID"]), max_size=4),
       st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=60),
       st.booleans())
def test_trace_headers_and_line_ends_leave_the_key_alone(fields, value, crlf):
    """What a delivery adds (trace fields, folded or not, anywhere in the header) and CR LF
    line ends on the wire change nothing of a message's key."""
    data = message(1)
    header, body = data.split(b"\n\n", 1)
    lines = header.split(b"\n")
    for place, name in enumerate(fields):
        lines.insert(place * 2 % (len(lines) + 1), f"{name}: {value}\n\t{value}".encode())
    delivered = b"\n".join(lines) + b"\n\n" + body
    if crlf:
        delivered = delivered.replace(b"\n", b"\r\n")
    assert message_key(delivered) == message_key(data)


def test_an_exception_in_the_work_rolls_everything_back(store, tmp_path):
    mail = incoming(1)

    def failing(mail, txn):
        echo_rule(mail, txn)
        raise OSError("the disk is gone")

    with pytest.raises(OSError):
        handle(store, mail, failing)
    for table in ("handled", "games", "outbox", "events"):
        assert rows(store, f"SELECT * FROM {table}") == []
    assert not (tmp_path / "judge" / "games" / "game-1.yaml").exists()
    assert handle(store, mail).text == "echoed game-1"  # tried again, it is handled


def test_a_refusal_is_an_outcome_the_work_returns(store):
    def refusing(mail, txn):
        try:
            raise MailError("the attached game is not a valid record")
        except MailError as exc:
            txn.log(None, "refused", str(exc))
            return f"refused: {exc}"

    assert handle(store, incoming(1), refusing).text == "refused: the attached game is not a valid record"
    assert rows(store, "SELECT event FROM events") == [("refused",)]


def test_a_game_file_is_the_database_text_written_after_the_commit(store, tmp_path):
    handle(store, incoming(1))
    handle(store, incoming(2))
    path = tmp_path / "judge" / "games" / "game-1.yaml"
    [(text,)] = rows(store, "SELECT text FROM games")
    assert path.read_text() == text and text.count("\n") == 2


def test_sync_files_writes_every_file_that_differs_from_the_database(store, tmp_path):
    handle(store, incoming(1, "game-1"))
    handle(store, incoming(2, "game-2"))
    games = tmp_path / "judge" / "games"
    (games / "game-1.yaml").unlink()
    (games / "game-2.yaml").write_text("changed by hand\n")
    assert sorted(store.sync_files()) == ["game-1.yaml", "game-2.yaml"]
    assert store.sync_files() == []
    assert {p.name: p.read_text() for p in games.iterdir()} == {
        game_id + ".yaml": text for game_id, text in rows(store, "SELECT game_id, text FROM games")}


def test_a_game_file_that_cannot_be_written_is_told_and_written_at_the_next_start(store, tmp_path):
    games = tmp_path / "judge" / "games"
    (games / "game-1.yaml").mkdir()  # in the way
    report = run_judge(store, [incoming(1)], echo_rule)
    assert report.handled == (("message 1", "echoed game-1"),)
    [line] = report.failures
    assert "game-1.yaml is a folder" in line and "the file is written at its next start" in line
    (games / "game-1.yaml").rmdir()
    assert store.sync_files() == ["game-1.yaml"]


def test_a_game_file_must_be_a_plain_name_of_its_own_game(store):
    def put(game_id, path):
        return lambda mail, txn: txn.put_game(game_id, path, "text") or "put"

    with pytest.raises(JudgeError, match="is not a plain file name"):
        handle(store, incoming(1), put("a", "../a.yaml"))
    handle(store, incoming(2), put("a", "a.yaml"))
    with pytest.raises(JudgeError, match="games/a.yaml is the file of another game"):
        handle(store, incoming(3), put("b", "a.yaml"))


def test_message_ids_are_made_from_the_key_and_the_place(tmp_path):
    """The same work for the same message queues the same Message-IDs, whoever runs it: a
    message queued again after a crash before the commit is the same message."""
    ids = []
    for name in ("one", "two"):
        create_judge(str(tmp_path / name), "judge@example.org")
        with Store.open(str(tmp_path / name)) as store:
            def twice(mail, txn):
                for _ in range(2):
                    reply = EmailMessage()
                    reply["Subject"] = "echo"
                    txn.send(["ana@example.org"], reply)
                return "two echoes"
            handle(store, incoming(1), twice)
            ids.append([row.message_id for row in store.outbox()])
    key = incoming(1).key
    digests = [hashlib.sha256(f"{key}\0{n}".encode()).hexdigest() for n in range(2)]
    expected = [f"<{digest[:32]}.judge@example.org>" for digest in digests]
    assert ids == [expected, expected]


def test_a_tick_is_one_transaction_without_a_message(store):
    outcome = store.tick("clock", lambda txn: txn.log(None, "tick", "nothing late") or "nobody late")
    assert outcome.text == "nobody late" and rows(store, "SELECT * FROM handled") == []
    [(cause,)] = rows(store, "SELECT cause FROM events")
    assert cause.startswith("tick clock ")


def test_a_dry_run_does_everything_and_keeps_nothing(tmp_path):
    create_judge(str(tmp_path / "judge"), "judge@example.org")
    with Store.open(str(tmp_path / "judge"), dry_run=True) as store:
        assert handle(store, incoming(1)).queued == 1
        assert store.send_pending(lambda queued: pytest.fail("sent")).sent == ()
        assert rows(store, "SELECT * FROM handled") == rows(store, "SELECT * FROM outbox") == []
    assert list((tmp_path / "judge" / "games").iterdir()) == []


# -- the outbox -------------------------------------------------------------------------------


class Refusing(Capture):
    """A server that refuses every address starting with ``bad``."""

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address.startswith("bad"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture
def refusing_server():
    capture = Refusing()
    controller = Controller(capture, hostname="127.0.0.1", port=free_port(),
                            ready_timeout=SERVER_WAIT)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{controller.port}", capture
    finally:
        controller.stop()


def queue(store, number, recipients):
    def work(mail, txn):
        reply = EmailMessage()
        reply["Subject"] = f"echo {number}"
        txn.send(recipients, reply)
        return "queued"
    handle(store, incoming(number), work)


def states(store):
    return rows(store, "SELECT state, refused, reason FROM outbox ORDER BY id")


def test_the_outbox_is_sent_each_message_once(store, refusing_server):
    url, capture = refusing_server
    queue(store, 1, ["ana@example.org", "bo@example.org"])
    queue(store, 2, ["cy@example.org"])
    sending = store.send_pending(smtp_sender(url))
    assert len(sending.sent) == 2 and sending.stopped is None
    assert [set(recipients) for recipients, _ in capture.messages] == [
        {"ana@example.org", "bo@example.org"}, {"cy@example.org"}]
    sent_ids = [re.search(rb"Message-ID: (\S+)", data).group(1).decode() for _, data in capture.messages]
    assert sent_ids == list(sending.sent)
    assert [state for state, *_ in states(store)] == ["sent", "sent"]
    assert store.send_pending(smtp_sender(url)).sent == ()


def test_a_refused_recipient_is_recorded_and_stops_no_one(store, refusing_server):
    """The unsendable address of issue 40: the others of its message and the messages after it
    go; the refusal is kept with the server's reply."""
    url, capture = refusing_server
    queue(store, 1, ["ana@example.org", "bad@example.org"])
    queue(store, 2, ["bad@example.org"])
    queue(store, 3, ["bo@example.org"])
    sending = store.send_pending(smtp_sender(url))
    assert len(sending.sent) == 2 and sending.stopped is None
    assert sending.refused == (("bad@example.org", "550: 5.1.1 no such user"),)
    assert len(sending.failed) == 1 and "refused every recipient" in sending.failed[0][1]
    assert [recipients for recipients, _ in capture.messages] == [["ana@example.org"], ["bo@example.org"]]
    got = states(store)
    assert [state for state, *_ in got] == ["sent", "failed", "sent"]
    assert json.loads(got[0][1]) == {"bad@example.org": "550: 5.1.1 no such user"}


def test_a_server_that_cannot_be_reached_leaves_the_rest_queued(store):
    queue(store, 1, ["ana@example.org"])
    queue(store, 2, ["bo@example.org"])
    sending = store.send_pending(smtp_sender(f"smtp://127.0.0.1:{free_port()}"))
    assert sending.sent == () and "cannot send through" in sending.stopped
    assert [(state, reason is not None) for state, _, reason in states(store)] == [
        ("queued", True), ("queued", False)]


def test_a_message_left_sending_goes_again_with_its_message_id(store, refusing_server):
    url, capture = refusing_server
    queue(store, 1, ["ana@example.org"])
    [queued] = store.outbox()
    store.db.execute("UPDATE outbox SET state = 'sending'")  # as a judge killed mid-send leaves it
    assert store.send_pending(smtp_sender(url)).sent == (queued.message_id,)
    [(_, data)] = capture.messages
    assert f"Message-ID: {queued.message_id}".encode() in data


def test_undeliverable_fails_that_message_alone(store):
    queue(store, 1, ["ana@example.org"])
    queue(store, 2, ["bo@example.org"])
    def send_one(queued):
        if "ana" in queued.recipients[0]:
            raise RecipientRefused("refused every recipient: ana@example.org (550: gone)")
        return {}
    sending = store.send_pending(send_one)
    assert len(sending.sent) == 1 and len(sending.failed) == 1


def test_a_run_handles_acknowledges_and_sends(store, refusing_server):
    url, capture = refusing_server
    acknowledged = []
    mails = [incoming(n)._replace(done=lambda n=n: acknowledged.append(n)) for n in (1, 2)]
    broken = incoming(3)._replace(done=lambda: acknowledged.append(3))
    report = run_judge(store, [*mails, mails[0], broken],
                       lambda mail, txn: (_ for _ in ()).throw(OSError("boom")) if mail is broken
                       else echo_rule(mail, txn), send_one=smtp_sender(url))
    assert [outcome for _, outcome in report.handled] == ["echoed game-1"] * 2
    assert report.repeated == 1 and acknowledged == [1, 2, 1]  # the broken one waits
    assert report.failures == ("message 3: not handled (OSError: boom); it is tried again at the "
                               "next run",)
    assert len(report.sending.sent) == 2 == len(capture.messages)


def test_a_message_that_cannot_be_read_is_handled_as_unread(store):
    unread = Incoming("unread maildir 1", "", b"", ARRIVED, lambda: None, "new/1", "it is a FIFO")
    report = run_judge(store, [unread, unread], echo_rule)
    assert report.handled == (("new/1", "not read: it is a FIFO"),) and report.repeated == 1
    assert rows(store, "SELECT event, detail FROM events") == [("unread", "new/1: it is a FIFO")]


def test_busy_database_is_one_line(store, tmp_path, monkeypatch):
    from uptown_cli.club import judge_store

    monkeypatch.setattr(judge_store, "BUSY_SECONDS", 0.1)
    with Store.open(str(tmp_path / "judge")) as other:
        other.db.execute("BEGIN IMMEDIATE")
        store.db.execute("PRAGMA busy_timeout = 100")
        with pytest.raises(JudgeError, match="another judge held it"):
            handle(store, incoming(1))
        other.db.execute("ROLLBACK")


def test_the_rulings_on_time_wait_while_a_message_is_not_handled(store):
    """A message left for the next run may be a move that came in time: no ruling on time is
    made before it is handled."""
    broken = incoming(1)
    ticked = []
    report = run_judge(store, [broken], lambda mail, txn: (_ for _ in ()).throw(OSError("boom")),
                       ticks=[("game-1", lambda txn: ticked.append(1) or "ruled")])
    assert ticked == [] and report.ticks == ()
    assert "the rulings on time wait for the next run" in report.failures[-1]
    report = run_judge(store, [], echo_rule, ticks=[("game-1", lambda txn: "ruled")])
    assert report.ticks == (("game-1", "ruled"),)
