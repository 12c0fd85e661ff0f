"""Reminders to late players (docs/DEADLINES.md): which are due, what they say, and the log
that makes each go out once per period whatever the times cron runs ``remind`` at, and however
many runs at once."""

import json
import os
import threading
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uptown_cli.club.reminders import LOG_NAME, PERIOD, Awaited, LogEntry, Person, ReminderLog, due, read_log, send_due, Kind
from uptown_cli.engine.clock import Deadline
from uptown_cli.errors import MailError, RecipientRefused

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
ANA, BO, CY = Person("Ana", "ana@example.org"), Person("Bo", "bo@example.org"), Person("Cy", "cy@example.org")
BOARD = "   1 2 3\n A . . .\n"


def waiting(late_at=T0 + 72 * H, out_at=T0 + 240 * H, pauses=(), stand_in="uptown move club.yaml pass --for Bo --send",
            action="move 18", game="open-1234"):
    return Awaited(game, "club.yaml", "Club night", action, BO, (ANA, CY),
                   Deadline("Bo", T0, late_at, out_at, pauses), "uptown move club.yaml MOVE --as Bo --send",
                   (stand_in,) if stand_in else (), BOARD)


def kinds(reminders):
    return sorted((r.to.name, r.kind) for r in reminders)


def test_nothing_is_due_before_the_deadline():
    assert due([waiting()], [], T0 + 71 * H) == []


def test_at_the_deadline_the_late_player_is_reminded_and_the_others_told():
    reminders = due([waiting()], [], T0 + 72 * H)
    assert kinds(reminders) == [("Ana", Kind.NOTICE), ("Bo", Kind.REMINDER), ("Cy", Kind.NOTICE)]
    assert {r.period for r in reminders} == {T0 + 72 * H}


def test_nothing_is_due_while_the_late_player_is_on_vacation():
    pauses = ((T0 + 80 * H, T0 + 128 * H),)
    assert due([waiting(pauses=pauses)], [], T0 + 100 * H) == []
    assert len(due([waiting(pauses=pauses)], [], T0 + 129 * H)) == 3


def test_the_reminder_has_the_board_the_command_and_the_deadline():
    reminder = next(r for r in due([waiting()], [], T0 + 77 * H) if r.kind == Kind.REMINDER)
    assert reminder.subject == "[uptown] Club night: Bo, your move 18 is late"
    assert " ".join(reminder.body.split("\n\n")[0].split()) == (
        "Bo, club.yaml has waited for your move 18 since 2026-12-01 12:00 UTC (due 2026-12-04 12:00 UTC, "
        "late by 5h; the grace ends 2026-12-11 12:00 UTC). From 2026-12-11 12:00 UTC the other players "
        "may act for you (this game's late policy).")
    assert BOARD in reminder.body and "  uptown move club.yaml MOVE --as Bo --send\n" in reminder.body
    reminder = next(r for r in due([waiting()], [], T0 + 241 * H) if r.kind == Kind.REMINDER)
    assert "You are out of time: the other players may now act for you" in " ".join(reminder.body.split())
    reminder = next(r for r in due([waiting(stand_in=None)], [], T0 + 241 * H) if r.kind == Kind.REMINDER)
    assert "act for you" not in reminder.body


def test_a_notice_names_the_late_player_and_once_out_of_time_the_command_to_act_for_them():
    notice = next(r for r in due([waiting()], [], T0 + 77 * H) if r.to == CY)
    assert notice.subject == "[uptown] Club night: Bo is late (move 18)"
    assert "Once Bo is out of time (2026-12-11 12:00 UTC), you may act for them" in " ".join(notice.body.split())
    notice = next(r for r in due([waiting()], [], T0 + 241 * H) if r.to == CY)
    assert "out of time since 2026-12-11 12:00 UTC" in " ".join(notice.body.split())
    assert "  uptown move club.yaml pass --for Bo --send --as Cy\n" in notice.body
    assert BOARD not in notice.body


def test_the_prose_of_a_message_fits_in_80_columns():
    for reminder in due([waiting()], [], T0 + 77 * H) + due([waiting()], [], T0 + 241 * H):
        assert max(len(line) for line in reminder.body.splitlines()) <= 80, reminder.body


def test_under_the_wait_policy_nobody_is_told_they_may_act():
    notice = next(r for r in due([waiting(stand_in=None)], [], T0 + 241 * H) if r.to == CY)
    assert "act for them" not in notice.body


def test_a_message_in_the_log_for_this_period_is_not_due_again():
    first = due([waiting()], [], T0 + 72 * H)
    log = [r.log_entry(T0 + 72 * H) for r in first]
    assert due([waiting()], log, T0 + 95 * H) == []
    assert kinds(due([waiting()], log, T0 + 96 * H)) == kinds(first)


def test_a_message_that_was_not_sent_is_due_at_the_next_run():
    first = due([waiting()], [], T0 + 72 * H)
    log = [r.log_entry(T0 + 72 * H) for r in first if r.to != CY]
    assert kinds(due([waiting()], log, T0 + 73 * H)) == [("Cy", Kind.NOTICE)]


def test_the_next_wait_of_the_game_is_reminded_at_once():
    log = [r.log_entry(T0 + 72 * H) for r in due([waiting()], [], T0 + 72 * H)]
    assert len(due([waiting(action="move 19")], log, T0 + 73 * H)) == 3


def test_a_log_line_is_read_as_it_was_written():
    entry = due([waiting()], [], T0 + 72 * H)[0].log_entry(T0 + 72 * H + timedelta(minutes=3))
    assert LogEntry.from_line(entry.line()) == entry
    assert json.loads(entry.line())["sent"] == "2026-12-04T12:03:00Z"


@pytest.mark.parametrize("line", [b"", b"[]", b"not json", b"\xff", b'{"sent": 1}', b"[" * 100_000])
def test_a_line_that_holds_no_entry_is_none(line):
    assert LogEntry.from_line(line) is None


def test_a_log_line_with_a_bad_time_or_another_key_is_no_entry():
    good = json.loads(due([waiting()], [], T0 + 72 * H)[0].log_entry(T0 + 72 * H).line())
    assert LogEntry.from_line(json.dumps(good).encode()) is not None
    assert LogEntry.from_line(json.dumps({**good, "sent": "today"}).encode()) is None
    assert LogEntry.from_line(json.dumps({**good, "extra": "x"}).encode()) is None


def sender(sent):
    return lambda reminder: sent.append((reminder.to.name, reminder.kind, reminder.period))


def test_48_hourly_runs_send_each_message_once_a_day(tmp_path):
    sent = []
    for hour in range(48):
        now = T0 + 72 * H + hour * H + timedelta(seconds=hour % 7)
        assert send_due(str(tmp_path), [waiting()], now, sender(sent)) is not None
    assert len(sent) == 6 and len(set(sent)) == 6
    assert len(read_log(str(tmp_path))) == 6


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 96 * 60), min_size=1, max_size=60))
def test_each_message_goes_out_once_in_every_period_a_run_falls_in(tmp_path_factory, minutes):
    folder = str(tmp_path_factory.mktemp("runs"))
    runs = sorted(T0 + 60 * H + m * timedelta(minutes=1) for m in minutes)
    sent = []
    for now in runs:
        send_due(folder, [waiting()], now, sender(sent))
    periods = {(now - (T0 + 72 * H)) // PERIOD for now in runs if now >= T0 + 72 * H}
    assert len(sent) == 3 * len(periods) and len(set(sent)) == len(sent)


def test_two_runs_at_once_send_each_message_once(tmp_path):
    sent, barrier, results = [], threading.Barrier(2), []

    def slow_send(reminder):
        sent.append(reminder.to.name)

    def run():
        barrier.wait()
        results.append(send_due(str(tmp_path), [waiting()], T0 + 80 * H, slow_send))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(sent) == ["Ana", "Bo", "Cy"]
    assert sorted(len(r) if r is not None else -1 for r in results) in ([-1, 3], [0, 3])


def test_a_run_finds_the_log_locked_by_another_and_sends_nothing(tmp_path):
    with ReminderLog.locked(str(tmp_path)) as held:
        assert held is not None
        assert send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender([])) is None


def test_a_refused_address_is_passed_by_and_the_other_messages_sent(tmp_path):
    """Bo's address passed the record check, but the server refuses it: Ana and Cy are told
    all the same, and Bo's reminder, not logged, is due again at the next run."""
    sent = []

    def send(reminder):
        if reminder.to == BO:
            raise RecipientRefused("the server refused bo@example.org: 550 no such user")
        sent.append(reminder.to.name)

    run = send_due(str(tmp_path), [waiting()], T0 + 80 * H, send)
    assert sorted(sent) == ["Ana", "Cy"] and [r.to.name for r in run.sent] == sent
    assert [(r.to.name, why) for r, why in run.failed] == [
        ("Bo", "the server refused bo@example.org: 550 no such user")]
    assert run.untried == []
    assert sorted(entry.to for entry in read_log(str(tmp_path))) == ["Ana", "Cy"]
    again = []
    send_due(str(tmp_path), [waiting()], T0 + 81 * H, sender(again))
    assert [name for name, _, _ in again] == ["Bo"]


def test_a_mail_server_that_fails_leaves_the_other_messages_for_the_next_run(tmp_path):
    sent = []

    def send(reminder):
        if reminder.to == CY:
            raise MailError("cannot send through 127.0.0.1:25: Connection refused")
        sent.append(reminder.to.name)

    run = send_due(str(tmp_path), [waiting(), waiting(game="open-5678")], T0 + 80 * H, send)
    assert len(run.failed) == 1 and len(run.sent) + len(run.untried) == 5
    assert sorted(entry.to for entry in read_log(str(tmp_path))) == sorted(sent)
    again = []
    send_due(str(tmp_path), [waiting(), waiting(game="open-5678")], T0 + 81 * H, sender(again))
    assert len(again) == 6 - len(sent)


def test_the_log_is_private_and_beside_the_games(tmp_path):
    send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender([]))
    assert (os.stat(tmp_path / LOG_NAME).st_mode & 0o777) == 0o600


def test_a_torn_last_line_is_left_out_and_cut_off_by_the_next_run(tmp_path):
    send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender([]))
    log = tmp_path / LOG_NAME
    whole = log.read_bytes()
    log.write_bytes(whole[:-20])                 # the last message's line cut short
    assert len(read_log(str(tmp_path))) == 2
    sent = []
    send_due(str(tmp_path), [waiting()], T0 + 81 * H, sender(sent))
    assert len(sent) == 1
    assert len(read_log(str(tmp_path))) == 3
    assert log.read_bytes().count(b"\n") == 3 and log.read_bytes().endswith(b"}\n")


def test_a_last_entry_that_lost_only_its_line_end_is_kept_and_not_sent_again(tmp_path):
    send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender([]))
    log = tmp_path / LOG_NAME
    log.write_bytes(log.read_bytes()[:-1])
    assert len(read_log(str(tmp_path))) == 3
    sent = []
    send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender(sent))
    assert sent == []
    assert log.read_bytes().count(b"\n") == 3 and log.read_bytes().endswith(b"}\n")


def test_a_log_that_is_no_regular_file_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / LOG_NAME)
    with pytest.raises(MailError, match="not a regular file"):
        read_log(str(tmp_path))
    with pytest.raises(MailError, match="not a regular file"):
        send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender([]))


def test_a_damaged_log_line_is_named_and_nothing_is_sent(tmp_path):
    (tmp_path / LOG_NAME).write_text("not json\n{}\n")
    sent = []
    with pytest.raises(MailError, match=r"\.uptown-reminders\.jsonl:1: not a line of the reminder log"):
        send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender(sent))
    assert sent == []
    with pytest.raises(MailError, match=":1: "):
        read_log(str(tmp_path))


def test_a_log_that_is_a_link_is_refused(tmp_path):
    (tmp_path / "elsewhere").write_text("")
    (tmp_path / LOG_NAME).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(MailError, match="symbolic link"):
        send_due(str(tmp_path), [waiting()], T0 + 80 * H, sender([]))
    with pytest.raises(MailError, match="symbolic link"):
        read_log(str(tmp_path))


def test_a_dry_run_reads_no_log_where_there_is_none(tmp_path):
    assert read_log(str(tmp_path)) == []
    assert not (tmp_path / LOG_NAME).exists()


def test_each_line_is_synced_to_disk_before_the_next_message_goes(tmp_path, monkeypatch):
    events = []
    monkeypatch.setattr("uptown_cli.club.reminders.os.fsync", lambda fd: events.append("synced"))
    send_due(str(tmp_path), [waiting()], T0 + 80 * H, lambda reminder: events.append("sent"))
    assert events == ["sent", "synced"] * 3
