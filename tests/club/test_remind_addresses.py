"""``uptown remind`` against what griefers try (issue 40): an address the record check takes
but the mail server refuses does not stop the other games' reminders, and a game mailed in by
a stranger is no source of addresses (docs/MAIL.md, "Reminders")."""

import email

from support.club import ok, run, smtp_server  # noqa: F401 (a fixture)

T0 = "2026-12-01T15:36:00Z"
LATE = "2026-12-05T00:00:00Z"


def late_game(folder, name, *players):
    """A game of ``players`` (NAME <name@example.org>) with a clock, its first player late at
    LATE."""
    options = [x for player in players for x in ("-p", f"{player} <{player.lower()}@example.org>")]
    ok(run(["new", name, *options, "--clock", "judges", "--seed", name], cwd=folder,
           env={"UPTOWN_NOW": T0}))


def members(folder, *names):
    (folder / ".uptown-members").write_text("".join(f"{n.lower()}@example.org\n" for n in names))


def remind(folder, server, *args):
    env = dict(server.env, UPTOWN_FROM="Club <club@example.org>", UPTOWN_NOW=LATE)
    return run(["remind", folder, *args], env=env)


def test_an_address_the_server_refuses_does_not_stop_the_other_games(tmp_path, smtp_server):
    """Bo's address passes the record check, but the server refuses it: every other message of
    both games goes out, the refusal is said with the server's reply, and only then does
    remind exit 1, never saying that nothing was sent. The next run tries Bo again alone."""
    late_game(tmp_path, "a.yaml", "Ana", "Bo")
    late_game(tmp_path, "b.yaml", "Cy", "Di")
    members(tmp_path, "Ana", "Bo", "Cy", "Di")
    smtp_server.capture.refused = {"bo@example.org"}
    result = remind(tmp_path, smtp_server)
    assert result.exit_code == 1
    mailed = sorted(r for recipients, _ in smtp_server.capture.take() for r in recipients)
    assert mailed == ["ana@example.org", "cy@example.org", "di@example.org"]
    assert sorted(line.split(":")[0] for line in result.stdout.splitlines()) == [
        "Sent notice to Di", "Sent reminder to Ana", "Sent reminder to Cy"]
    errors = result.stderr.splitlines()
    assert errors == [
        f"Not sent: the notice to Bo ({tmp_path / 'a.yaml'}): 127.0.0.1:{smtp_server.port} refused "
        "every recipient: bo@example.org (550: 5.1.1 no such user)",
        "Error: 1 message was not sent (see above); the other messages due were sent and logged"]
    assert "nothing was sent" not in result.output
    again = remind(tmp_path, smtp_server)
    assert again.exit_code == 1 and again.stdout == ""
    smtp_server.capture.refused = set()
    ok(remind(tmp_path, smtp_server))
    assert [recipients for recipients, _ in smtp_server.capture.take()] == [["bo@example.org"]]


def test_a_game_mailed_in_by_a_stranger_is_no_source_of_addresses(tmp_path, smtp_server):
    """An open game without joins is reminded only to the club's members: a game that names a
    victim who is none gets them no mail, and says so; without a members file, nobody."""
    late_game(tmp_path, "club.yaml", "Ana", "Bo")
    late_game(tmp_path, "spam.yaml", "Victim", "Eve")
    quiet = remind(tmp_path, smtp_server)
    assert quiet.exit_code == 0 and smtp_server.capture.take() == []
    assert sorted(quiet.stdout.splitlines())[0] == (
        f"Ana ({tmp_path / 'club.yaml'}): their address is not among the club's members "
        "(.uptown-members): not reminded")
    members(tmp_path, "Ana", "Bo")
    (tmp_path / ".uptown-reminders.jsonl").unlink()
    result = ok(remind(tmp_path, smtp_server))
    mailed = sorted(r for recipients, _ in smtp_server.capture.take() for r in recipients)
    assert mailed == ["ana@example.org", "bo@example.org"]
    assert sum("not among the club's members" in line for line in result.stdout.splitlines()) == 2


def test_remind_cuts_no_line_when_its_output_is_not_a_terminal(tmp_path, smtp_server):
    """cron mails what remind printed: every line whole, however long the game's event."""
    late_game(tmp_path, "club.yaml", "Ana", "Bo")
    event = "The autumn league of the club, " * 6 + "round 3"
    path = tmp_path / "club.yaml"
    path.write_text(path.read_text().replace("uptown: 1\n", f"uptown: 1\nevent: {event}\n"))
    members(tmp_path, "Ana", "Bo")
    result = ok(remind(tmp_path, smtp_server))
    assert f"Sent reminder to Ana: [uptown] {event}: Ana, your move 1 is late" in result.stdout
    [reminder] = [email.message_from_bytes(data) for recipients, data in smtp_server.capture.take()
                  if recipients == ["ana@example.org"]]
    assert " ".join(reminder["Subject"].split()) == f"[uptown] {event}: Ana, your move 1 is late"
