"""A Spanish-speaking club's clocks speak Spanish: the reminders and notices ``remind`` mails
(and shows with --dry-run), ``status``'s time left, lateness and time out, the clock ``new`` and
``show`` describe, and a pause taken; the same commands in English stay as they were."""

import re

from uptown_cli.club.reminders import Kind

T0 = "2026-12-01T12:00:00Z"
ENGLISH_WORDS = re.compile(r"\b(late|out of time|vacation|reminder|notice|Would send|left|due|since|"
                           r"waits|has waited|Clock|players|command|others may|to move|"
                           r"been reminded|day|days|until|no email)\b")
"""English words of the deadlines a Spanish player must never meet (the commands they run and
the clock's notation, ``move 24h``, ``judges``, are what they type: left as written)."""


def english_in(text):
    text = re.sub(r"uptown [^\n]*", "", text)  # a command to run, typed as written
    return {m.group(0) for m in ENGLISH_WORDS.finditer(text)}


def new_clocked(uptown, path, *options):
    players = ["-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>"]
    result = uptown.invoke("--lang", "es", "new", path, *players, "--seed", "s", *options,
                           env={"UPTOWN_NOW": T0})
    assert result.exit_code == 0, result.output
    return result


def test_a_spanish_remind_dry_run_meets_no_english_words(uptown, tmp_path):
    new_clocked(uptown, tmp_path / "g.yaml", "--clock", "move 24h grace 48h", "--late", "pass")
    (tmp_path / ".uptown-members").write_text("ana@example.org\nbo@example.org\n")
    for now in ("2026-12-02T20:00:00Z", "2026-12-04T19:00:00Z"):
        env = {"UPTOWN_NOW": now}
        shown = uptown.invoke("--lang", "es", "remind", tmp_path, "--dry-run", env=env)
        assert shown.exit_code == 0, shown.output
        lines = shown.output.splitlines()
        assert len(lines) == 2 and lines[0].startswith("Se enviaría un recordatorio a ")
        assert "va con retraso" in shown.output and english_in(shown.output) == set()
        result, data = uptown.json("--lang", "es", "remind", tmp_path, "--dry-run", "--json", env=env)
        assert [(d["to"], d["kind"]) for d in data] == [("Ana", Kind.REMINDER), ("Bo", "notice")]
        for message in data:
            assert english_in(message["subject"] + "\n" + message["body"]) == set(), message["body"]
            assert all(len(line) <= 80 for line in message["body"].splitlines())
        english = uptown.invoke("--lang", "en", "remind", tmp_path, "--dry-run", env=env)
        assert english.output.startswith("Would send reminder to Ana <ana@example.org>: [uptown] ")
    assert "uptown move g.yaml JUGADA --as Ana --send" in data[0]["body"]


def test_a_spanish_status_of_a_game_with_a_clock_meets_no_english_words(uptown, tmp_path,
                                                                       monkeypatch):
    new_clocked(uptown, tmp_path / "g.yaml", "--clock", "move 24h grace 48h", "--late", "pass")
    monkeypatch.chdir(tmp_path)  # a short path: the line fits 80 columns whole
    expected = [("2026-12-02T08:00:00Z", "le toca a Ana, tiempo restante: 4 h"),
                ("2026-12-02T20:00:00Z", "le toca a Ana, va 8 h tarde (sin tiempo en 1 d 16 h)"),
                ("2026-12-04T19:00:00Z", "le toca a Ana, 7 h sin tiempo: otros pueden pasar")]
    for now, text in expected:
        shown = uptown.invoke("--lang", "es", "status", ".", env={"UPTOWN_NOW": now})
        assert shown.exit_code == 0, shown.output
        assert text in shown.output and english_in(shown.output) == set(), shown.output
    english = uptown.invoke("--lang", "en", "status", ".", env={"UPTOWN_NOW": now})
    assert "out of time for 7h: others may pass" in english.output


def test_the_clock_new_and_show_describe_and_a_pause_speak_spanish(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    made = new_clocked(uptown, path, "--clock", "judges", "--vacation", "14d")
    shown = uptown.invoke("--lang", "es", "show", path, env={"UPTOWN_NOW": T0})
    for text in (made.output, shown.output):
        assert "Reloj: " in text and "vacaciones: 14d" in text and english_in(text) == set(), text
    paused = uptown.invoke("--lang", "es", "pause", path, "--as", "Ana", "--days", "3",
                           env={"UPTOWN_NOW": T0})
    assert paused.exit_code == 0, paused.output
    assert "Ana está de vacaciones desde el " in paused.output
    assert "le quedan 11 días de vacaciones" in paused.output
    again = uptown.invoke("--lang", "es", "pause", tmp_path / "g.yaml", "--as", "Bo", "--days", "1",
                          "--sendmail", env={"UPTOWN_NOW": T0})
    assert again.exit_code == 2 and english_in(again.output) == set(), again.output
