"""Each player's language (issue 36): ``lang: es`` under a player in the record, written by
``new -p 'Flo <flo@example.org> es'``; every mail to that player is in their language, whatever
the sender's, and a mail to players of several languages goes as one message per language."""

import email
import email.policy
import re
from datetime import datetime, timezone

from uptown_cli.club.reminders import Kind, awaited_games, due, read_games
from uptown_cli.records.reading import load_record

PLAYERS = ["-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org> es",
           "-p", "Cy <cy@example.org> en"]


def messages(path):
    """The messages of a file ``send -o`` wrote, one after another."""
    parts = re.split(r"(?m)^(?=Content-Type: multipart/mixed)", path.read_text(encoding="utf-8"))
    return [email.message_from_string(part, policy=email.policy.default) for part in parts if part]


def test_new_writes_each_players_language_under_them(uptown, tmp_path):
    result = uptown.invoke("new", tmp_path / "g.yaml", *PLAYERS, "--seed", "7")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "g.yaml").read_text()
    assert "  - name: Bo\n    colors: [blue]\n    email: bo@example.org\n    lang: es\n" in text
    assert [p.lang for p in load_record(tmp_path / "g.yaml").players] == [None, "es", "en"]


def test_a_language_that_is_no_code_makes_the_record_invalid(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("uptown: 1\nplayers:\n  - name: Ana\n    lang: Spanish\n  - name: Bo\n")
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1 and "'lang' must be a language code like es or pt_BR" in result.output


def test_a_mail_to_players_of_two_languages_is_one_message_for_each(uptown, tmp_path):
    uptown.invoke("new", tmp_path / "g.yaml", *PLAYERS, "--seed", "7")
    result = uptown.invoke("--lang", "en", "send", tmp_path / "g.yaml", "--to", "all", "--as", "Ana",
                           "-o", tmp_path / "m.eml")
    assert result.exit_code == 0, result.output
    spanish, english = messages(tmp_path / "m.eml")
    assert spanish["To"] == "Bo <bo@example.org>" and "le toca a Ana" in spanish["Subject"]
    assert english["To"] == "Cy <cy@example.org>" and "Ana to move" in english["Subject"]
    assert "Tu estante" in spanish.get_body().get_content()


def test_a_spanish_secretary_reminds_an_english_player_in_english(uptown, tmp_path):
    uptown.invoke("new", tmp_path / "g.yaml", "-p", "Ana <ana@example.org> en", "-p",
                  "Bo <bo@example.org> es", "--seed", "7", "--clock", "move 24h")
    games = read_games([str(tmp_path / "g.yaml")])
    late = datetime(2026, 12, 30, tzinfo=timezone.utc)
    reminders = {r.to.name: r for r in due(awaited_games(games.values()), [], late)}
    assert reminders["Ana"].kind == Kind.REMINDER and "is late" in reminders["Ana"].subject
    assert "va con retraso" in reminders["Bo"].subject


def test_a_player_sets_their_language_when_they_join(uptown, tmp_path):
    """Bo joins with --lang es: it is written under his name with his join, and the mail Ana
    sends him then is in Spanish; a code that is none is refused before anything is written."""
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "--hidden", "-p", "Ana <ana@example.org>", "-p",
                  "Bo <bo@example.org>")
    keys = {name: {"UPTOWN_KEYS": str(tmp_path / f"keys-{name}")} for name in ("Ana", "Bo")}
    assert uptown.invoke("join", path, "--as", "Ana", env=keys["Ana"]).exit_code == 0
    refused = uptown.invoke("join", path, "--as", "Bo", "--lang", "Spanish", env=keys["Bo"])
    assert refused.exit_code == 2 and "'Spanish' is not a language code" in refused.output
    assert uptown.invoke("join", path, "--as", "Bo", "--lang", "es", env=keys["Bo"]).exit_code == 0
    assert [p.lang for p in load_record(path).players] == [None, "es"]
    result = uptown.invoke("--lang", "en", "send", path, "--to", "Bo", "--as", "Ana", "-o",
                           tmp_path / "m.eml")
    assert result.exit_code == 0, result.output
    [spanish] = messages(tmp_path / "m.eml")
    assert "le toca a Ana" in spanish["Subject"]


def test_join_undo_takes_no_language(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo").exit_code == 0
    result = uptown.invoke("join", path, "--as", "Ana", "--undo", "--lang", "es",
                           env={"UPTOWN_KEYS": str(tmp_path / "keys")})
    assert result.exit_code == 2 and "--lang goes with a join, not with --undo" in result.output


def test_a_message_that_fails_after_another_went_names_who_got_the_game(uptown, tmp_path):
    """The game goes to Bo (Spanish) and Cy (English) in two messages; the second fails: the
    line says that Bo got it, not that nothing was sent."""
    import os

    program = tmp_path / "bin" / "sendmail"
    program.parent.mkdir()
    program.write_text(f"#!/bin/sh\nif [ -e '{tmp_path}/once' ]; then echo 'queue is full' >&2;"
                       f" exit 75; fi\ntouch '{tmp_path}/once'\ncat > /dev/null\n")
    program.chmod(0o755)
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, *PLAYERS, "--seed", "1").exit_code == 0
    result = uptown.invoke("send", path, "--as", "Ana", "--to", "all", "--sendmail",
                           env={"PATH": f"{program.parent}{os.pathsep}{os.environ['PATH']}"})
    assert result.exit_code == 1 and "nothing was sent" not in result.output
    assert "Sent" in result.output and "but the server refused" in result.output
