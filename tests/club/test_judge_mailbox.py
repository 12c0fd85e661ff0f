"""Where the judge's messages come from (``club.judge_mailbox``): a pipe, a Maildir and a real
IMAP server (Dovecot, started by the ``imap_server`` fixture). Each message arrives when the
club's side received it, never at its Date header, and is acknowledged only by ``done``."""

import datetime
import io
import mailbox
import os

import pytest
from support.dovecot import PASSWORD, USER, imap_server  # noqa: F401  (a fixture)
from support.echo_judge import message

from uptown_cli.club import judge_mailbox
from uptown_cli.club.judge_mailbox import ImapAccount, from_imap, from_maildir, from_pipe, message_key
from uptown_cli.errors import MailError

UTC = datetime.timezone.utc
NOW = datetime.datetime(2024, 12, 5, 9, 30, tzinfo=UTC)


# -- a pipe -----------------------------------------------------------------------------------


def test_a_pipe_gives_its_one_message_received_now():
    [mail] = from_pipe(io.BytesIO(message(1)), NOW)
    assert (mail.data, mail.arrived, mail.message_id, mail.problem) == (message(1), NOW, "<m1@example.org>", None)
    assert mail.key == message_key(message(1))[0]


def test_a_pipe_over_the_limit_is_read_to_its_end_and_not_kept(monkeypatch):
    monkeypatch.setattr(judge_mailbox, "MAX_MESSAGE_BYTES", 1000)
    stream = io.BytesIO(message(1, size=5000))
    [mail] = from_pipe(stream, NOW)
    assert mail.problem == "the message is over 0 MiB" and mail.data == b""
    assert stream.read() == b""


def test_an_empty_pipe_is_one_line():
    with pytest.raises(MailError, match="standard input holds no message"):
        list(from_pipe(io.BytesIO(b""), NOW))


# -- a Maildir --------------------------------------------------------------------------------


@pytest.fixture
def maildir(tmp_path):
    return mailbox.Maildir(str(tmp_path / "Maildir"), create=True)


def put(box, subdir, name, data):
    path = os.path.join(box._path, subdir, name)
    with open(path, "wb") as out:
        out.write(data)
    return path


def test_a_maildir_message_arrives_at_the_time_of_its_delivery(maildir):
    put(maildir, "new", "1733150000.M250000P7.club.example.org", message(1))
    path = put(maildir, "new", "no-time-in-this-name", message(2))
    os.utime(path, (1733160000, 1733160000))
    first, second = from_maildir(maildir._path)
    assert first.arrived == datetime.datetime(2024, 12, 2, 14, 33, 20, 250000, tzinfo=UTC)
    assert second.arrived == datetime.datetime(2024, 12, 2, 17, 20, tzinfo=UTC)
    assert (first.message_id, second.message_id) == ("<m1@example.org>", "<m2@example.org>")


def test_done_moves_a_maildir_message_to_cur_with_the_seen_flag(maildir):
    maildir.add(message(1))
    put(maildir, "cur", "1733150000.M1P1.host:2,F", message(2))   # moved by a mail program, unread
    put(maildir, "cur", "1733150000.M2P1.host:2,RS", message(3))  # read: handled already
    found = list(from_maildir(maildir._path))
    assert [mail.message_id for mail in found] == ["<m2@example.org>", "<m1@example.org>"]
    for mail in found:
        mail.done()
        mail.done()  # twice (another judge did it first): no failure
    assert os.listdir(os.path.join(maildir._path, "new")) == []
    names = sorted(os.listdir(os.path.join(maildir._path, "cur")))
    assert names[0] == "1733150000.M1P1.host:2,FS" and names[1] == "1733150000.M2P1.host:2,RS"
    assert names[2].endswith(":2,S")
    assert list(from_maildir(maildir._path)) == []


def test_a_maildir_gives_at_most_its_limit_in_the_order_of_delivery(maildir):
    for number in range(5):
        put(maildir, "new", f"17331500{9 - number:02d}.M0P1.host", message(number))
    found = list(from_maildir(maildir._path, limit=3))
    assert [mail.message_id for mail in found] == ["<m4@example.org>", "<m3@example.org>", "<m2@example.org>"]


def test_a_maildir_file_that_is_no_message_comes_with_its_problem(maildir, monkeypatch):
    os.mkfifo(os.path.join(maildir._path, "new", "1733150000.M0P1.fifo"))
    put(maildir, "new", "1733150001.M0P1.big", message(1, size=5000))
    monkeypatch.setattr("uptown_cli.club.boxes.MAX_MESSAGE_BYTES", 1000)
    fifo, big = from_maildir(maildir._path)
    assert fifo.problem.endswith("1733150000.M0P1.fifo: it is a FIFO, not a message file")
    assert fifo.key == "unread maildir 1733150000.M0P1.fifo"
    assert big.problem.endswith("it is over 0 MiB")


def test_a_folder_that_is_no_maildir_is_one_line(tmp_path):
    with pytest.raises(MailError, match="no such Maildir folder"):
        list(from_maildir(str(tmp_path)))


# -- IMAP -------------------------------------------------------------------------------------


def test_an_imap_url_names_the_account():
    assert ImapAccount.parse("imaps://judge@mail.example.org/Club") == ImapAccount(
        True, "judge", "mail.example.org", 993, "Club")
    assert ImapAccount.parse("imap://judge%40club@mail.example.org:1143") == ImapAccount(
        False, "judge@club", "mail.example.org", 1143, "INBOX")
    for wrong, said in [("imaps://mail.example.org/INBOX", "must be imaps://"),
                        ("imaps://judge:pw@mail.example.org/", "must not hold the password"),
                        ("pop3://judge@mail.example.org", "must be imaps://"),
                        ("imaps://judge@mail.example.org/Caf%C3%A9", "printable ASCII")]:
        with pytest.raises(MailError, match=said):
            ImapAccount.parse(wrong)


@pytest.fixture
def imap_env(imap_server, monkeypatch):
    for name, value in imap_server.env.items():
        monkeypatch.setenv(name, value)
    return imap_server


def test_imap_gives_the_unseen_messages_at_their_internaldate(imap_env):
    received = datetime.datetime(2024, 12, 2, 14, 33, 20, tzinfo=UTC)
    imap_env.deliver(message(1), received)
    imap_env.deliver(message(2), received + datetime.timedelta(minutes=5))
    with from_imap(imap_env.url()) as messages:
        found = list(messages)
    assert [(mail.message_id, mail.arrived) for mail in found] == [
        ("<m1@example.org>", received), ("<m2@example.org>", received + datetime.timedelta(minutes=5))]
    assert found[0].key == message_key(message(1))[0]  # CR LF on the wire: one key with the file's
    assert imap_env.flags() == {1: "", 2: ""}  # read without marking them


def test_imap_done_flags_a_message_seen_and_a_crash_before_it_reads_it_again(imap_env):
    imap_env.deliver(message(1), NOW)
    imap_env.deliver(message(2), NOW)
    with from_imap(imap_env.url()) as messages:
        first, second = messages
        first.done()  # the judge dies before the second's done
    assert imap_env.flags() == {1: "\\Seen", 2: ""}
    with from_imap(imap_env.url()) as messages:
        [again] = messages
    assert again.key == second.key


def test_imap_with_starttls(imap_env):
    imap_env.deliver(message(1), NOW)
    with from_imap(imap_env.url(starttls=True)) as messages:
        assert [mail.message_id for mail in messages] == ["<m1@example.org>"]


def test_imap_over_the_limit_comes_with_its_problem(imap_env, monkeypatch):
    monkeypatch.setattr(judge_mailbox, "MAX_MESSAGE_BYTES", 1000)
    imap_env.deliver(message(1, size=5000), NOW)
    with from_imap(imap_env.url()) as messages:
        [mail] = messages
        assert mail.problem == "the message is over 0 MiB" and mail.key.startswith("unread imap ")
        mail.done()
    assert imap_env.flags() == {1: "\\Seen"}


def test_imap_refuses_a_certificate_it_cannot_trust_and_says_how(imap_env, monkeypatch):
    monkeypatch.delenv("UPTOWN_IMAP_CAFILE")
    with pytest.raises(MailError) as caught:
        with from_imap(imap_env.url()):
            pass
    line = str(caught.value)
    assert "certificate is not trusted" in line and "$UPTOWN_IMAP_CAFILE=FILE.pem" in line
    assert "\n" not in line


def test_imap_refuses_a_wrong_password_in_one_line(imap_env, monkeypatch):
    monkeypatch.setenv("UPTOWN_IMAP_PASSWORD", "wrong")
    with pytest.raises(MailError, match=f"refused the login of {USER}"):
        with from_imap(imap_env.url()):
            pass


def test_imap_takes_the_password_from_netrc(imap_env, monkeypatch, tmp_path):
    monkeypatch.delenv("UPTOWN_IMAP_PASSWORD")
    monkeypatch.setenv("HOME", str(tmp_path))
    netrc = tmp_path / ".netrc"
    netrc.write_text(f"machine 127.0.0.1 login {USER} password {PASSWORD}\n")
    netrc.chmod(0o600)
    imap_env.deliver(message(1), NOW)
    with from_imap(imap_env.url()) as messages:
        assert len(list(messages)) == 1


def test_imap_names_a_mailbox_it_cannot_open(imap_env):
    with pytest.raises(MailError, match="cannot open the mailbox Nowhere"):
        with from_imap(imap_env.url(mailbox="Nowhere")):
            pass


def test_imap_that_nothing_listens_on_is_one_line(imap_env):
    from support.club import free_port

    with pytest.raises(MailError, match="cannot reach 127.0.0.1:"):
        with from_imap(f"imaps://{USER}@127.0.0.1:{free_port()}/INBOX"):
            pass
