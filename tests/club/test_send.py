"""``uptown send`` and ``move --send``: addresses, the message, and its transports (a real SMTP
server with STARTTLS or TLS and AUTH, a stub sendmail, ``-o`` to a file)."""

import email
import email.policy
import os
import re
import stat

import pytest
from support.club import PASSWORD, USER, _folder, ok, run, smtp_server, start_server  # noqa: F401

from uptown_cli.club.mail import GameFile, game_messages
from uptown_cli.club.transport import SmtpServer
from uptown_cli.errors import MailError
from uptown_cli.records.reading import load_record

PLAYERS = ["-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>", "-p", "Cy"]


@pytest.fixture
def club(tmp_path):
    ok(run(["new", "club.yaml", *PLAYERS, "--seed", "7"], cwd=tmp_path))
    return tmp_path


def parse(data):
    return email.message_from_bytes(data, policy=email.policy.default)


def attachment(message):
    (part,) = [p for p in message.iter_attachments()]
    return part.get_filename(), part.get_content_type(), part.get_payload(decode=True)


# -- addresses -----------------------------------------------------------------------------


def test_new_writes_player_emails_under_the_player(club):
    text = (club / "club.yaml").read_text()
    assert "  - name: Ana\n    colors: [red]\n    email: ana@example.org\n" in text
    record = load_record(club / "club.yaml")
    assert [p.email for p in record.players] == ["ana@example.org", "bo@example.org", None]


@pytest.mark.parametrize("bad", ["Ana <ana@>", "Ana <ana @example.org>", "Ana <@example.org>",
                                 "Ana <ana>", "Cy <the second>"])
def test_new_refuses_a_player_email_that_is_not_an_address(tmp_path, bad):
    """'Ana <ana>' looks like NAME <ADDRESS> but is not one: refused, not taken as a name
    (issue 27; the rule: records/README.md, "Players")."""
    result = run(["new", "g.yaml", "-p", bad, "-p", "Bo"], cwd=tmp_path)
    assert result.exit_code == 2 and "is not an email address" in result.output
    assert not (tmp_path / "g.yaml").exists()


def test_a_record_with_a_bad_email_is_invalid_with_its_line(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("uptown: 1\nplayers:\n  - name: Ana\n    email: not-an-address\n"
                    "  - name: Bo\n")
    result = run(["validate", str(path)])
    assert result.exit_code == 1
    assert "g.yaml:4: 'not-an-address' is not an email address" in result.output


# -- the message ---------------------------------------------------------------------------


def test_send_o_writes_a_message_the_standard_library_parses_with_the_game_attached(club):
    ok(run(["send", "club.yaml", "--as", "Ana", "--to", "Bo", "-o", "move.eml"], cwd=club))
    message = parse((club / "move.eml").read_bytes())
    assert message["From"] == "Ana <ana@example.org>" and message["To"] == "Bo <bo@example.org>"
    assert message["Subject"] == "[uptown] club.yaml: move 1, Ana to move"
    name, kind, data = attachment(message)
    assert (name, kind) == ("club.yaml", "application/yaml")
    assert data == (club / "club.yaml").read_bytes()
    body = message.get_body(("plain",)).get_content()
    assert "uptown move club.yaml TILE SQUARE --as Ana --send" in body
    assert " A |" in body and max(len(line) for line in body.splitlines()) <= 80
    assert "Standings:" not in body  # no table of zero scores before the first move


def test_the_mail_of_an_open_game_shows_the_recipient_their_rack(club):
    ok(run(["move", "club.yaml", "--bot", "random"], cwd=club))  # Bo to move
    rack = ok(run(["show", "club.yaml"], cwd=club)).output.split("Bo to move, rack: ")[1].split("\n")[0]
    ok(run(["send", "club.yaml", "--as", "Ana", "-o", "m.eml"], cwd=club))
    body = parse((club / "m.eml").read_bytes()).get_body(("plain",)).get_content()
    assert f"\nYour rack: {rack}\n" in body
    assert "Standings:" in body


RECORDS = os.path.join(os.path.dirname(__file__), "..", "..", "records")


@pytest.mark.parametrize("record, subject", [
    ("3p-blockers.yaml", "[uptown] Club night, round 1: game over"),
    ("in-progress.yaml", "[uptown] Play by email: move {n}, {name} to move"),
])
def test_send_subject_names_the_event_the_move_and_the_player_to_move(record, subject):
    game = GameFile.read(os.path.join(RECORDS, record), record)
    if game.game.to_move is not None:
        subject = subject.format(n=len(game.record.moves) + 1, name=game.game.to_move.name)
    assert game.subject() == subject


@pytest.mark.parametrize("output", [["-o", "m.eml"], []])
def test_send_refuses_a_record_that_does_not_validate_in_one_line(club, smtp_server, output):
    """Each player's receive would refuse it: nothing is sent, no message file is written."""
    path = club / "club.yaml"
    path.write_text(path.read_text() + "  - red: 7 A1\n")
    before = sorted(os.listdir(club))
    result = run(["send", "club.yaml", "--as", "Ana", *output], cwd=club, env=smtp_server.env)
    assert result.exit_code == 1
    line = result.output.strip()
    assert "\n" not in line and line.startswith("Error: club.yaml:")
    assert line.endswith("; nothing was sent: the record is invalid (see uptown validate "
                         "club.yaml)")
    assert sorted(os.listdir(club)) == before and smtp_server.capture.take() == []


def test_send_refuses_a_recipient_without_an_email(club):
    result = run(["send", "club.yaml", "--as", "Ana", "--to", "Cy", "-o", "m.eml"], cwd=club)
    assert result.exit_code == 1
    assert "Cy has no email address in club.yaml" in result.output
    assert not (club / "m.eml").exists()


def test_send_refuses_when_nobody_says_who_sends(club):
    result = run(["send", "club.yaml", "--to", "Bo", "-o", "m.eml"], cwd=club,
                 env={"UPTOWN_FROM": None})
    assert result.exit_code == 1 and "who sends this?" in result.output


def test_send_from_uptown_from(club):
    ok(run(["send", "club.yaml", "--to", "Bo", "-o", "m.eml"], cwd=club,
           env={"UPTOWN_FROM": "Club secretary <sec@example.org>"}))
    assert parse((club / "m.eml").read_bytes())["From"] == "Club secretary <sec@example.org>"


def test_send_to_all_leaves_out_the_sender(club):
    (club / "club.yaml").write_text((club / "club.yaml").read_text().replace(
        "  - name: Cy\n", "  - name: Cy\n    email: cy@example.org\n"))
    ok(run(["send", "club.yaml", "--as", "Bo", "--to", "all", "-o", "m.eml"], cwd=club))
    assert parse((club / "m.eml").read_bytes())["To"] == "Ana <ana@example.org>, Cy <cy@example.org>"


def test_send_o_never_writes_over_a_record(club):
    result = run(["send", "club.yaml", "--as", "Ana", "-o", "other.yaml"], cwd=club)
    assert result.exit_code == 1 and "would write over a record" in result.output


def test_send_without_a_transport_is_a_usage_error(club):
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env={"UPTOWN_SMTP": None})
    assert result.exit_code == 2 and "UPTOWN_SMTP" in result.output


# -- sendmail ------------------------------------------------------------------------------


def stub_sendmail(folder):
    """A sendmail program that stores its arguments and standard input in ``folder``."""
    program = folder / "bin" / "sendmail"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n"
                       f"printf '%s\\n' \"$@\" > '{folder}/sendmail.args'\n"
                       f"cat > '{folder}/sendmail.stdin'\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{program.parent}{os.pathsep}{os.environ['PATH']}"}


def test_send_sendmail_hands_the_message_to_the_sendmail_on_path(club):
    env = stub_sendmail(club)
    result = ok(run(["send", "club.yaml", "--as", "Ana", "--to", "Bo", "--sendmail"], cwd=club,
                    env=env))
    assert "Sent club.yaml to Bo <bo@example.org> (sendmail)" in result.output
    assert (club / "sendmail.args").read_text().split() == ["-oi", "--", "bo@example.org"]
    message = parse((club / "sendmail.stdin").read_bytes())
    assert attachment(message)[2] == (club / "club.yaml").read_bytes()


def test_move_send_sendmail_plays_then_sends_to_the_next_player(club):
    env = stub_sendmail(club)
    result = ok(run(["move", "club.yaml", "--bot", "random", "--as", "Ana", "--send",
                     "--sendmail"], cwd=club, env=env))
    assert "Sent club.yaml to Bo <bo@example.org> (sendmail): [uptown] club.yaml: move 2, Bo to move" \
        in result.output
    message = parse((club / "sendmail.stdin").read_bytes())
    assert attachment(message)[2] == (club / "club.yaml").read_bytes()


def test_a_failing_sendmail_is_one_line(club, tmp_path):
    program = tmp_path / "fail" / "sendmail"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\necho 'sendmail: queue is full' >&2\nexit 75\n")
    program.chmod(0o755)
    result = run(["send", "club.yaml", "--as", "Ana", "--sendmail"], cwd=club,
                 env={"PATH": f"{program.parent}{os.pathsep}{os.environ['PATH']}"})
    assert result.exit_code == 1
    assert result.output.strip() == "Error: sendmail failed (exit status 75): sendmail: queue is full"


# -- SMTP ----------------------------------------------------------------------------------


def test_send_through_smtp_with_starttls_and_auth(club, smtp_server):
    result = ok(run(["send", "club.yaml", "--as", "Ana", "--to", "Bo"], cwd=club,
                    env=smtp_server.env))
    assert "(SMTP)" in result.output and PASSWORD not in result.output
    [(recipients, data)] = smtp_server.capture.take()
    assert recipients == ["bo@example.org"]
    assert attachment(parse(data))[2] == (club / "club.yaml").read_bytes()


def test_send_through_smtps(club, tmp_path):
    controller, server = start_server(_folder(tmp_path, "tls-server"), implicit=True)
    try:
        ok(run(["send", "club.yaml", "--as", "Ana", "--to", "Bo"], cwd=club, env=server.env))
        assert len(server.capture.take()) == 1
    finally:
        controller.stop()


def test_smtp_password_from_netrc(club, smtp_server, tmp_path):
    netrc = tmp_path / "server" / ".netrc"
    netrc.write_text(f"machine 127.0.0.1 login {USER} password {PASSWORD}\n")
    netrc.chmod(0o600)
    env = {**smtp_server.env, "UPTOWN_SMTP_PASSWORD": None}
    ok(run(["send", "club.yaml", "--as", "Ana", "--to", "Bo"], cwd=club, env=env))
    assert len(smtp_server.capture.take()) == 1


def test_smtp_without_a_password_says_where_to_put_it(club, smtp_server):
    env = {**smtp_server.env, "UPTOWN_SMTP_PASSWORD": None}
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env)
    assert result.exit_code == 1 and "no password for club@127.0.0.1" in result.output


def test_a_wrong_password_is_one_line_without_the_password(club, smtp_server):
    wrong = "wrong-Pa55word-42"
    env = {**smtp_server.env, "UPTOWN_SMTP_PASSWORD": wrong}
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env)
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1
    assert "refused the login of club (535" in result.output
    assert wrong not in result.output and PASSWORD not in result.output
    assert smtp_server.capture.take() == []


@pytest.fixture
def plain_server(tmp_path):
    """An SMTP server on 127.0.0.1 that offers no STARTTLS (AUTH without TLS allowed)."""
    controller, server = start_server(_folder(tmp_path, "plain-server"), tls=False)
    try:
        yield server
    finally:
        controller.stop()


def test_a_server_on_this_computer_is_used_without_tls(club, plain_server):
    env = {**plain_server.env, "UPTOWN_SMTP": f"smtp://127.0.0.1:{plain_server.port}",
           "UPTOWN_SMTP_CAFILE": None}
    result = ok(run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env))
    assert result.output.startswith("Sent club.yaml to Ana <ana@example.org> (SMTP)")
    [(recipients, _)] = plain_server.capture.take()
    assert recipients == ["ana@example.org"]
    localhost = {**env, "UPTOWN_SMTP": f"smtp://{USER}@localhost:{plain_server.port}"}
    ok(run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=localhost))
    assert len(plain_server.capture.take()) == 1


def test_a_server_elsewhere_without_starttls_is_refused_unless_asked(club, plain_server,
                                                                     monkeypatch):
    """Another computer's server (here 127.0.0.1 taken for one) without STARTTLS: refused in
    one line, nothing sent; with ?tls=no it is used, but never with a password."""
    monkeypatch.setattr(SmtpServer, "local", property(lambda self: False))
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=plain_server.env)
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: 127.0.0.1:{plain_server.port} does not offer STARTTLS; nothing was sent (uptown "
        "sends without TLS only to this computer, or with ?tls=no in $UPTOWN_SMTP)")
    url = f"smtp://{USER}@127.0.0.1:{plain_server.port}?tls=no"
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club,
                 env={**plain_server.env, "UPTOWN_SMTP": url})
    assert result.exit_code == 1 and "sends no password without TLS" in result.output
    assert PASSWORD not in result.output and plain_server.capture.take() == []
    url = f"smtp://127.0.0.1:{plain_server.port}?tls=no"
    ok(run(["send", "club.yaml", "--as", "Ana"], cwd=club,
           env={**plain_server.env, "UPTOWN_SMTP": url}))
    assert len(plain_server.capture.take()) == 1


def test_an_untrusted_certificate_is_refused_saying_how_to_trust_it(club, smtp_server):
    """A club's own server on this computer, its certificate of its own CA: refused in one
    line that names $UPTOWN_SMTP_CAFILE and the URL that sends without TLS; each works."""
    env = {**smtp_server.env, "UPTOWN_SMTP_CAFILE": None, "SSL_CERT_FILE": None}
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env)
    assert result.exit_code == 1 and smtp_server.capture.take() == []
    [line] = result.output.splitlines()
    assert line.startswith(f"Error: 127.0.0.1:{smtp_server.port}: the server's certificate is "
                           "not trusted (")
    assert line.endswith("): trust it with $UPTOWN_SMTP_CAFILE=FILE, FILE its certificate or "
                         "its CA's in PEM, or send to this computer without TLS with "
                         f"smtp://club@127.0.0.1:{smtp_server.port}?tls=no; nothing was sent")
    ok(run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=smtp_server.env))  # the CA file
    assert len(smtp_server.capture.take()) == 1


def test_an_untrusted_certificate_elsewhere_is_not_told_to_go_without_tls(club, smtp_server,
                                                                           monkeypatch):
    monkeypatch.setattr(SmtpServer, "local", property(lambda self: False))
    env = {**smtp_server.env, "UPTOWN_SMTP_CAFILE": None, "SSL_CERT_FILE": None}
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env)
    assert result.exit_code == 1 and "tls=no" not in result.output
    assert result.output.rstrip().endswith("trust it with $UPTOWN_SMTP_CAFILE=FILE, FILE its "
                                           "certificate or its CA's in PEM; nothing was sent")


@pytest.mark.parametrize("content", [None, "not a certificate\n"])
def test_a_missing_or_bad_ca_file_is_one_line(club, smtp_server, content):
    cafile = club / "ca.pem"
    if content is not None:
        cafile.write_text(content)
    env = {**smtp_server.env, "UPTOWN_SMTP_CAFILE": str(cafile)}
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env)
    assert result.exit_code == 1, result.output
    assert "$UPTOWN_SMTP_CAFILE" in result.output and "cannot read certificates" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_closed_port_is_one_line(club, smtp_server):
    from support.club import free_port

    env = {**smtp_server.env, "UPTOWN_SMTP": f"smtp://{USER}@127.0.0.1:{free_port()}"}
    result = run(["send", "club.yaml", "--as", "Ana"], cwd=club, env=env)
    assert result.exit_code == 1 and "cannot send through 127.0.0.1:" in result.output


@pytest.mark.parametrize("url, said", [
    ("http://example.org", "must be smtp://"),
    (f"smtp://{USER}:{PASSWORD}@example.org", "must not hold the password"),
    ("smtp://example.org:99999", "its port or host name is not one"),
    ("smtp://" + "é" * 70 + ".example.org", "its port or host name is not one"),
    ("smtp://jürgen@example.org", "the user name must be printable ASCII"),
    ("smtp://example.org?tls=maybe", "the one setting after ? is tls=no"),
    ("smtps://example.org?tls=no", "smtps:// is TLS"),
])
def test_smtp_settings_are_checked(url, said):
    with pytest.raises(MailError, match=re.escape(said)) as caught:
        SmtpServer.parse(url)
    assert PASSWORD not in str(caught.value)


def test_the_message_is_built_in_python(club):
    game = GameFile.read(str(club / "club.yaml"), "club.yaml")
    [outgoing] = game_messages(game, "Ana", "Bo")
    assert outgoing.message["To"] == "Bo <bo@example.org>"
    assert outgoing.message.get_content_type() == "multipart/mixed"
    assert (outgoing.sender, outgoing.addresses) == ("ana@example.org", ["bo@example.org"])


def test_move_send_without_a_transport_is_refused_before_the_move(club):
    before = (club / "club.yaml").read_bytes()
    result = run(["move", "club.yaml", "--bot", "random", "--send"], cwd=club,
                 env={"UPTOWN_SMTP": None})
    assert result.exit_code == 2 and "UPTOWN_SMTP" in result.output
    assert (club / "club.yaml").read_bytes() == before


@pytest.mark.parametrize("url, said", [
    ("http://example.org", "must be smtp://"),
    ("smtp://example.org:99999", "its port or host name is not one"),
    ("smtp://example.org:port", "its port or host name is not one"),
    ("smtp://jürgen@example.org", "the user name must be printable ASCII"),
    ("smtp://j%C3%BCrgen@example.org", "the user name must be printable ASCII"),
    ("smtp://club@example.org", "no password for club@example.org"),
    (f"smtp://{USER}:{PASSWORD}@example.org", "must not hold the password"),
])
def test_move_send_with_bad_smtp_settings_is_refused_before_the_move(club, tmp_path, url, said):
    """The settings are read before the move is written: the file stays byte-identical."""
    before = (club / "club.yaml").read_bytes()
    result = run(["move", "club.yaml", "--bot", "random", "--as", "Ana", "--send"], cwd=club,
                 env={"UPTOWN_SMTP": url, "UPTOWN_SMTP_PASSWORD": None, "HOME": str(tmp_path)})
    assert result.exit_code == 1, result.output
    line = result.output.strip()
    assert "\n" not in line and said in line and PASSWORD not in line
    assert line.endswith("; nothing was written (the move is not played)")
    assert (club / "club.yaml").read_bytes() == before


def test_move_send_sendmail_without_a_sendmail_is_refused_before_the_move(club, monkeypatch):
    from uptown_cli.club import transport

    monkeypatch.setattr(transport.shutil, "which", lambda *args, **kwargs: None)
    before = (club / "club.yaml").read_bytes()
    result = run(["move", "club.yaml", "--bot", "random", "--as", "Ana", "--send", "--sendmail"],
                 cwd=club)
    assert result.exit_code == 1 and "no sendmail program found" in result.output
    assert (club / "club.yaml").read_bytes() == before


def test_move_send_that_fails_says_the_move_is_saved(club, smtp_server):
    ok(run(["move", "club.yaml", "--bot", "random"], cwd=club))  # Bo to move, then Cy (no email)
    result = run(["move", "club.yaml", "--bot", "random", "--as", "Bo", "--send"], cwd=club,
                 env=smtp_server.env)
    assert result.exit_code == 1
    assert "Cy has no email address" in result.output
    assert "(the move is saved: send it with uptown send club.yaml --as Bo)" in result.output
    assert len(load_record(club / "club.yaml").moves) == 2


def test_the_password_is_written_nowhere(club, smtp_server, tmp_path):
    ok(run(["move", "club.yaml", "--bot", "random", "--as", "Ana", "--send"], cwd=club,
           env=smtp_server.env))
    ok(run(["send", "club.yaml", "--as", "Ana", "--to", "Bo", "-o", "m.eml"], cwd=club,
           env=smtp_server.env))
    [(_, data)] = smtp_server.capture.take()
    assert PASSWORD.encode() not in data
    for folder, _, names in os.walk(club):
        for name in names:
            path = os.path.join(folder, name)
            if "server" not in path:
                assert PASSWORD.encode() not in open(path, "rb").read(), path


def test_the_mail_of_a_finished_game_names_the_winner():
    game = GameFile.read(os.path.join(RECORDS, "3p-blockers.yaml"), "3p-blockers.yaml")
    body = game.body(game.record.players[:1])
    assert "\nThe game is over: Ana wins, with a score of 3.\n" in body
