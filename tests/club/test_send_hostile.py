"""``send`` against hostile records, file names, settings and servers: the headers it writes are
always the same set whatever a name, an event or an address holds (on every supported Python,
whatever its ``email`` package does with encoded words), and every failure is one line, exit 1,
nothing written, nothing sent twice."""

import email
import email.policy
import json
import os
import shlex
from email.utils import getaddresses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.club import PASSWORD, USER, ScriptedServer, ok, run, smtp_server  # noqa: F401

from uptown_cli.club.headers import checked_address, plain_file_name
from uptown_cli.club.mail import GameFile, game_messages
from uptown_cli.engine.game import COLORS
from uptown_cli.engine.game import same_name
from uptown_cli.errors import MailError
from uptown_cli.records.entries import PlayerEntry
from uptown_cli.records.schema import Record

HEADERS = ["Content-Type", "MIME-Version", "From", "To", "Subject", "Date", "Message-ID"]
"""Every header ``send`` writes, in order: no value may add one or end them early."""


def record_text(event="Club night", names=("Ana", "Bo", "Cy"),
                emails=("ana@example.org", "bo@example.org", "cy@example.org")):
    players = "".join(f"  - name: {json.dumps(name)}\n    email: {json.dumps(address)}\n"
                      for name, address in zip(names, emails))
    return (f"uptown: 1\nevent: {json.dumps(event)}\nplayers:\n{players}seed: \"7\"\nmoves:\n")


def headers_and_game(data):
    """(the header names, the To addresses, the attached game's bytes) of a message."""
    message = email.message_from_bytes(data)
    modern = email.message_from_bytes(data, policy=email.policy.default)
    games = [p.get_payload(decode=True) for p in message.walk() if p.get_filename()]
    to = [address for _, address in getaddresses(message.get_all("To", []))]
    assert [a.addr_spec for a in modern["To"].addresses] == to
    for name in HEADERS[2:]:  # what a mail program shows is one line of text
        assert "\n" not in str(modern[name]) and "\r" not in str(modern[name])
    return message.keys(), to, games


def one_line_error(result):
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert "\x1b" not in result.output and "Traceback" not in result.output
    return lines[0]


# -- hostile records -----------------------------------------------------------------------


INJECTED_NAME = "=?utf-8?q?Bo=0D=0A=0D=0Ahijacked?="
INJECTED_EVENT = "=?utf-8?q?Club=0D=0AReply-To:_evil@example.net?="


@pytest.mark.parametrize("event, names", [
    ("Club night", ("Ana", INJECTED_NAME, "Cy")),
    (INJECTED_EVENT, ("Ana", "Bo", "Cy")),
    ("Club night", ("Ana", INJECTED_EVENT, "Cy")),
    ("Club night", ("Ana", "=?utf-8?b?=0D=0A ;", "@?=@")),
    ("Club\fnight", ("Ana", "Bo", "Cy")),
    ("Club\r\nReply-To: evil@example.net", ("Ana", "Bo", "Cy")),
    ("Club\u2028night\u2029\x85", ("Ana", "Bo", "Cy")),
    ("Club \x1b]52;c;ZXZpbA==\x07 \x1b[31mred", ("Ana", "Bo", "Cy")),
    ("Soirée " + "é" * 60, ("Ana", "Zoë" * 30, "张伟" * 20)),
], ids=["name-encoded-word", "event-encoded-word", "name-reply-to", "names-odd-words",
        "event-form-feed", "event-crlf", "event-separators", "event-terminal-escapes",
        "long-non-ascii"])
def test_a_hostile_name_or_event_never_changes_the_headers(tmp_path, event, names):
    """Either the record is refused in one line (nothing written), or the message has exactly
    the headers send writes, the game attached byte for byte, and the right addresses."""
    game = tmp_path / "club.yaml"
    game.write_text(record_text(event, names))
    result = run(["send", "club.yaml", "--as", "Ana", "--to", "all", "-o", "m.eml"], cwd=tmp_path)
    if result.exit_code != 0:  # the record itself refused (validate refuses control characters)
        one_line_error(result)
        assert not (tmp_path / "m.eml").exists()
        return
    keys, to, games = headers_and_game((tmp_path / "m.eml").read_bytes())
    assert keys == HEADERS
    assert to == ["bo@example.org", "cy@example.org"]
    assert games == [game.read_bytes()]


@pytest.mark.parametrize("address, said", [
    ("jürgen@example.org", "letters beyond ASCII before the @"),
    ("bo@exa mple.org", "is not an email address"),
])
def test_an_address_send_cannot_take_is_one_line_and_nothing_written(tmp_path, address, said):
    (tmp_path / "club.yaml").write_text(record_text(emails=("ana@example.org", address,
                                                              "cy@example.org")))
    result = run(["send", "club.yaml", "--as", "Ana", "--to", "all", "-o", "m.eml"], cwd=tmp_path)
    line = one_line_error(result)
    assert said in line or "is not an address uptown sends to" in line, line
    assert not (tmp_path / "m.eml").exists()


def test_a_non_ascii_domain_is_sent_in_its_idna_form(tmp_path):
    (tmp_path / "club.yaml").write_text(record_text(emails=("ana@example.org", "bo@bücher.example",
                                                              "cy@example.net")))
    ok(run(["send", "club.yaml", "--as", "Ana", "--to", "all", "-o", "m.eml"], cwd=tmp_path))
    _, to, _ = headers_and_game((tmp_path / "m.eml").read_bytes())
    assert to == ["bo@xn--bcher-kva.example", "cy@example.net"]


@pytest.mark.parametrize("address, sent", [("ana@localhost", "ana@localhost"),
                                           ("Ana.B+club@Example.ORG", "Ana.B+club@Example.ORG")])
def test_an_address_is_any_local_at_domain_a_mail_system_takes(address, sent):
    assert checked_address(address, "Ana's email") == sent


@pytest.mark.parametrize("address", ["ana", "ana@", "@example.org", "a b@example.org", "ana@ex_ample.org",
                                     "=?utf-8?q?a?=@example.org", "ana@example..org", "ana@-x.org",
                                     "ana@example.org\r\nBcc: evil@example.net", "ana@exa\u2028mple.org"])
def test_an_address_send_cannot_take_is_refused(address):
    with pytest.raises(MailError, match="Ana's email") as refused:
        checked_address(address, "Ana's email")
    assert str(refused.value).isprintable()


@pytest.mark.parametrize("name", ["club\n.yaml", "club\x1b[31m.yaml", os.fsdecode(b"club\xff.yaml"),
                                  "=?utf-8?q?a=0D=0A?=.yaml", "my game (2).yaml"])
def test_an_odd_file_name_is_attached_under_a_plain_name(tmp_path, smtp_server, name):
    (tmp_path / name).write_text(record_text())
    result = ok(run(["send", name, "--as", "Ana"], cwd=tmp_path, env=smtp_server.env))
    assert "\x1b" not in result.output and len(result.output.splitlines()) == 1
    [(_, data)] = smtp_server.capture.take()
    message = email.message_from_bytes(data)
    [part] = [p for p in message.walk() if p.get_filename()]
    assert part.get_filename() == plain_file_name(name)
    assert part.get_filename().isprintable() and "/" not in part.get_filename()
    body = message.get_payload()[0].get_payload(decode=True).decode()
    assert f"uptown move {shlex.quote(part.get_filename())} TILE SQUARE" in body
    assert "\x1b" not in body and all(line.isprintable() for line in body.splitlines())


def test_the_sent_line_escapes_terminal_codes_from_the_event(tmp_path, smtp_server):
    (tmp_path / "club.yaml").write_text(record_text("Club \x1b]52;c;ZXZpbA==\x07 \x1b[31mred"))
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=tmp_path, env=smtp_server.env)
    if result.exit_code:  # refused by the record's own check
        one_line_error(result)
        return
    assert result.output.startswith("Sent club.yaml to Ana <ana@example.org> (SMTP): [uptown] Club "
                                    "\\x1b]52;c;ZXZpbA==\\x07 \\x1b[31mred: move 1")
    assert "\x1b" not in result.output and "\x07" not in result.output


# -- every name, event and address of Unicode ------------------------------------------------


FRAGMENTS = ["=?", "?=", "=?utf-8?q?", "=?utf-8?b?", "=0D=0A", "=?utf-8?q?a=0D=0AReply-To:_x@y.z?=", "\r\n", "\n", "\r", "\u2028", "\u2029",
             "\x85", "\x1b[31m", "\ud800", "\udcff", '"', "\\", "<", ">", ",", ";", ":", "@", "(", ")",
             " ", "\t", "Reply-To: evil@example.net", "é", "\x00", "[", "]", "张伟" * 12, "ë" * 40]
_any_character = st.characters(blacklist_categories=())  # surrogates and controls too
HOSTILE_TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), _any_character,
                                  st.text(_any_character, max_size=6)), max_size=12).map("".join)


def hostile_game(path, names, event, emails):
    """A game of three players whose names, event, addresses and file name are any text at
    all, as send would find them in a record that skipped every check of its own."""
    players = [PlayerEntry(name, (color,), 3 + index, address)
               for index, (name, color, address) in enumerate(zip(names, COLORS, emails))]
    record = Record(path, "", 1, "standard", players, "7", [], {"event": event})
    return GameFile(path, b"uptown: 1\n", record, record.new_game())


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(HOSTILE_TEXT, min_size=3, max_size=3), HOSTILE_TEXT,
       st.lists(st.one_of(HOSTILE_TEXT, st.just("bo@example.org")), min_size=3, max_size=3),
       HOSTILE_TEXT.filter(lambda name: "/" not in name and "\x00" not in name))
def test_no_name_event_or_address_changes_the_headers_send_writes(names, event, emails, file_name):
    game = hostile_game(f"games/{file_name}", names, event, ["ana@example.org", *emails[1:]])
    try:
        [outgoing] = game_messages(game, names[0], "all")
    except MailError as refused:  # an address send will not take, said in one line
        assert str(refused).isprintable()
        return
    data = outgoing.message.as_bytes()
    keys, to, games = headers_and_game(data)
    assert keys == HEADERS
    assert to == outgoing.addresses == [checked_address(p.email, "") for p in game.record.players
                                        if not same_name(p.name, names[0])]
    assert games == [b"uptown: 1\n"]
    assert max(len(line) for line in data.split(b"\n")) < 998
    assert (outgoing.named() + game.subject()).isprintable()


# -- settings --------------------------------------------------------------------------------


@pytest.fixture
def club(tmp_path):
    (tmp_path / "club.yaml").write_text(record_text())
    return tmp_path


def test_a_password_send_cannot_use_is_one_line_without_it(club, smtp_server):
    env = {**smtp_server.env, "UPTOWN_SMTP_PASSWORD": "pässwörd"}
    line = one_line_error(run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env))
    assert "not printable ASCII" in line and "ä" not in line
    assert smtp_server.capture.take() == []


def test_a_netrc_that_is_not_text_is_one_line(club, smtp_server, tmp_path):
    netrc = tmp_path / "server" / ".netrc"
    netrc.write_bytes(b"machine 127.0.0.1 login club password \xff\xfe\n")
    netrc.chmod(0o600)
    env = {**smtp_server.env, "UPTOWN_SMTP_PASSWORD": None}
    line = one_line_error(run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env))
    assert "~/.netrc cannot be read (it is not UTF-8 text)" in line


@pytest.mark.parametrize("url", ["smtp://jürgen@127.0.0.1:25", "smtp://" + "ü" * 70 + ".org",
                                 "smtp://127.0.0.1:99999"])
def test_settings_send_cannot_use_are_one_line(club, url):
    line = one_line_error(run(["send", "club.yaml", "--as", "Ana"], cwd=club,
                              env={"UPTOWN_SMTP": url}))
    assert "$UPTOWN_SMTP" in line


# -- servers ---------------------------------------------------------------------------------


@pytest.fixture
def scripted():
    servers = []

    def start(**answers):
        servers.append(ScriptedServer(**answers))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def send_all(club, server, *more, env=None):
    return run(["send", "club.yaml", "--as", "Ana", "--to", "all", *more], cwd=club,
               env={"UPTOWN_SMTP": server.url, **(env or {})})


def test_each_recipient_the_server_refuses_is_named_and_the_status_says_so(club, scripted):
    server = scripted(RCPT=lambda line: "550 5.1.1 no such user" if "cy@" in line else "250 ok")
    line = one_line_error(send_all(club, server))
    assert line == ("Error: Sent club.yaml to Bo <bo@example.org> (SMTP): [uptown] Club night: move 1, "
                    "Ana to move; but the server refused Cy <cy@example.org> (550: 5.1.1 no such "
                    "user): not sent to them (send it with uptown send club.yaml --to NAME --as Ana)")
    assert len(server.messages) == 1


def test_a_server_refusing_every_recipient_sends_nothing(club, scripted):
    server = scripted(RCPT="550 5.1.1 no such user")
    line = one_line_error(send_all(club, server))
    assert "refused every recipient: bo@example.org (550: 5.1.1 no such user); cy@example.org" in line
    assert line.endswith("nothing was sent") and server.messages == []


@pytest.mark.parametrize("quit", ["500 5.5.1 not now", None], ids=["500", "hangs-up"])
def test_a_message_the_server_took_is_sent_whatever_quit_says(club, scripted, quit):
    server = scripted(QUIT=quit)
    result = ok(send_all(club, server))
    assert result.output.startswith("Sent club.yaml to Bo <bo@example.org>, Cy <cy@example.org> (SMTP)")
    assert len(server.messages) == 1


def test_a_server_that_hangs_up_before_taking_the_message_may_have_it(club, scripted):
    server = scripted(END=None)
    line = one_line_error(send_all(club, server))
    assert "stopped answering while the message went out: it may or may not have been delivered" in line


def test_a_server_refusing_the_message_after_data_sends_nothing(club, scripted):
    server = scripted(END="554 5.7.1 spam")
    line = one_line_error(send_all(club, server))
    assert line.endswith("refused the message (554: 5.7.1 spam); nothing was sent")


@pytest.mark.parametrize("auth", ["535 5.7.8 x is not it, unexpectedly", None], ids=["reply", "hangs-up"])
def test_password_masking_shows_no_part_of_the_message(club, scripted, auth):
    """With the password ``x``, masking each ``x`` would show ``une***pectedly``, and so the
    password: a reply that holds it is left out whole."""
    server = scripted(AUTH=auth)
    url = f"smtp://{USER}@127.0.0.1:{server.port}"
    line = one_line_error(run(["send", "club.yaml", "--as", "Ana"], cwd=club,
                              env={"UPTOWN_SMTP": url, "UPTOWN_SMTP_PASSWORD": "x"}))
    if auth is None:
        assert line == f"Error: cannot send through 127.0.0.1:{server.port}: the server hung up; nothing was sent"
    else:
        assert line == (f"Error: 127.0.0.1:{server.port} refused the login of club (535: its reply "
                        "is not shown); nothing was sent")
    assert "***" not in line


def test_move_send_refused_for_one_recipient_keeps_the_move_and_names_them(club, scripted):
    server = scripted(RCPT=lambda line: "550 5.1.1 gone" if "bo@" in line else "250 ok")
    (club / "club.yaml").write_text(record_text(emails=("ana@example.org", "bo@example.org",
                                                          "cy@example.org")))
    result = run(["move", "club.yaml", "--bot", "random", "--as", "Ana", "--send"], cwd=club,
                 env={"UPTOWN_SMTP": server.url})
    assert result.exit_code == 1
    assert "moves:\n  - red: " in (club / "club.yaml").read_text()
    assert "refused every recipient: bo@example.org (550: 5.1.1 gone); nothing was sent (the move "\
        "is saved: send it with uptown send club.yaml --as Ana)" in result.output
