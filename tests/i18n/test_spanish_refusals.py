"""The refusals that records, clocks and bots compose speak the players' language: a file edited
since a player saw it, a lineup that cannot sit, a move written for another player, a pause or
a stand-in the clock refuses, an entry dated out of order, an unknown bot, a forged forfeit of
a hidden game and the sender of a message that is not the mover's; in English each reads as
before. A mail refusal says what was not done once, in the language in use."""

from datetime import datetime, timezone

import pytest

from uptown_cli.analysis.bots import choose_move
from uptown_cli.engine.clock import Clock, Pause, Timeline
from uptown_cli.engine.game import Game
from uptown_cli.engine.late import LatePolicy, Vacation, pause_problem, stand_in_problem
from uptown_cli.engine.moments import check_times
from uptown_cli.errors import NOTHING_SENT, NOTHING_WRITTEN, MailError, RecordError, SetupError
from uptown_cli.i18n import language
from uptown_cli.records.entries import PlayerEntry
from uptown_cli.records.lineup import lineup_problems
from uptown_cli.records.schema import load_record_text
from uptown_cli.fairplay.memory import first_change, snapshot

OPEN = """uptown: 1
variant: standard
seed: s
players:
  - name: Ana
    colors: [red, green]
  - name: Bo
    colors: [blue, yellow]
moves:
  - red: 7 B7
"""
T0 = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)


def record(text=OPEN):
    return load_record_text(text, "g.yaml")


def test_a_file_edited_since_it_was_seen_is_named_in_spanish():
    seen = snapshot(record())
    reseeded, replayed = record(OPEN.replace("seed: s", "seed: t")), record(OPEN.replace("7 B7", "8 B7"))
    with language("es"):
        assert first_change(seen, reseeded, "Ana") == (
            3, "la semilla cambió desde que Ana la vio (era 's', ahora 't'): el archivo se editó a mano")
        assert first_change(seen, replayed, "Ana")[1].startswith(
            "la jugada 1 (rojo de Ana) cambió desde que Ana la vio: era '7 B7', ahora '8 B7'")
    assert first_change(seen, reseeded, "Ana")[1] == (
        "the seed changed since Ana saw it (was 's', now 't'): the file was edited by hand")
    assert first_change(seen, replayed, "Ana")[1] == (
        "move 1 (Ana's red) changed since Ana saw it: was '7 B7', now '8 B7'")


def test_a_lineup_that_cannot_sit_is_refused_in_spanish():
    one_each = OPEN.replace("[red, green]", "[red]")
    with language("es"), pytest.raises(RecordError) as refused:
        record(one_each)
    assert "con 2 jugadores, cada jugador tiene dos colores; Ana tiene 1" in str(refused.value)
    twice = [PlayerEntry("Ana", ("red", "blue"), 0), PlayerEntry("Bo", ("blue", "green"), 0)]
    with language("es"):
        assert [m for _, m in lineup_problems(twice)] == ["azul está asignado dos veces (Ana y Bo)"]
    assert [m for _, m in lineup_problems(twice)] == ["blue is taken twice (Ana and Bo)"]


def test_a_move_written_for_another_player_without_a_clock_is_refused_in_spanish(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(OPEN.replace("7 B7", "1 A1") + "  - blue: pass\n    by: Ana\n")
    spanish = uptown.invoke("--lang", "es", "validate", path)
    assert spanish.exit_code == 1 and "nadie puede jugar por Bo en una partida sin reloj" in spanish.output
    english = uptown.invoke("validate", path)
    assert "nobody may play for Bo in a game without a clock" in english.output


def test_the_clocks_refusals_of_pauses_and_stand_ins_speak_spanish():
    clock = Clock.parse("move 72h grace 168h")
    line = Timeline(T0)
    with language("es"):
        assert pause_problem(None, clock, line, Pause("Bo", T0, 1), "Ana") == (
            "esta partida no permite vacaciones")
        assert stand_in_problem(None, LatePolicy(), line, "Bo", T0, "pass", "Cy") == (
            "esta partida no tiene reloj: nadie puede jugar por Bo")
        assert stand_in_problem(clock, LatePolicy(), line, "Bo", T0, "pass", "Cy") == (
            "la política de retraso de esta partida (wait) no deja a los demás hacer nada por un "
            "jugador con retraso")
        early = pause_problem(Vacation(14), clock, line, Pause("Bo", T0, 1, T0.replace(day=1, hour=0)), "Bo")
        assert early == "unas vacaciones no pueden empezar antes de escribirse (1 de diciembre de 2026, 12:00 UTC)"
    assert stand_in_problem(None, LatePolicy(), line, "Bo", T0, "pass", "Cy") == (
        "this game has no clock: nobody may play for Bo")


def test_an_entry_dated_before_the_games_start_is_named_in_spanish():
    before = T0.replace(hour=10)
    with language("es"):
        assert check_times([("jugada 1", before)], T0, T0) == (0, (
            "jugada 1 tiene fecha 2026-12-01T10:00:00Z, antes de el inicio de la partida "
            "(2026-12-01T12:00:00Z)"))
    assert check_times([("move 1", before)], T0, T0)[1] == (
        "move 1 is dated 2026-12-01T10:00:00Z, before the game's start (2026-12-01T12:00:00Z)")


def test_an_unknown_bot_is_refused_in_spanish():
    game = Game.new(["Ana", "Bo"], seed="s")
    with language("es"), pytest.raises(SetupError, match="^bot desconocido: 'nope' "):
        choose_move("nope", game)
    with pytest.raises(SetupError, match="^unknown bot 'nope' "):
        choose_move("nope", game)


def test_a_mail_error_adds_what_was_not_done_in_the_language_in_use():
    """A MailError keeps its reason apart from what was not done (``outcome``), which its
    message adds in the language in use: a caller that says it otherwise takes the reason."""
    with language("es"):
        refused = MailError("sin tiempo", NOTHING_WRITTEN)
        assert (str(refused), refused.reason) == ("sin tiempo; no se ha escrito nada", "sin tiempo")
    assert str(MailError("late", NOTHING_SENT)) == "late; nothing was sent"
    assert str(MailError("late")) == MailError("late").reason == "late"


@pytest.mark.parametrize("lang, said", [
    ("es", "Error: no se encontró el programa sendmail (ni en PATH ni en /usr/sbin); no se ha escrito "
           "nada (la jugada no se ha hecho)\n"),
    ("en", "Error: no sendmail program found (on PATH or in /usr/sbin); nothing was written (the "
           "move is not played)\n")])
def test_move_send_without_mail_says_once_that_nothing_was_written(uptown, game_file, monkeypatch,
                                                                   lang, said):
    """The refusal of the mail settings says that nothing was written in place of "nothing was
    sent", in Spanish as in English (the suffix was stripped as English text before)."""
    from uptown_cli.club import transport

    path = game_file()
    monkeypatch.setattr(transport.shutil, "which", lambda *args, **kwargs: None)
    result = uptown.invoke("--lang", lang, "move", path, "--bot", "random", "--as", "Ana", "--send",
                           "--sendmail")
    assert result.exit_code == 1 and result.output == said


@pytest.mark.parametrize("lang, said, unwritten", [
    ("es", "está comprimido: adjunta el archivo de la partida tal cual", "no se ha escrito nada"),
    ("en", "is compressed: attach the game file itself", "nothing was written")])
def test_a_skipped_message_is_named_without_what_was_not_written(lang, said, unwritten):
    """``receive`` lists the messages it skipped by their reason alone, in either language."""
    from email.message import EmailMessage

    from uptown_cli.club.boxes import Letter, best_copy

    message = EmailMessage()
    message["From"], message["Subject"] = "ana@example.org", "game"
    message.set_content("my move")
    message.add_attachment(b"\x1f\x8b", maintype="application", subtype="gzip",
                           filename="club.yaml.gz")
    skipped = []
    with language(lang), pytest.raises(MailError):
        best_copy([Letter("box message 1", message.as_bytes())], "/nowhere/club.yaml", skipped)
    assert skipped == [f"box message 1: 'club.yaml.gz' {said}"]
    assert unwritten not in skipped[0]


def test_a_record_with_a_yaml_anchor_is_refused_in_spanish():
    aliased = "uptown: 1\nvariant: &v standard\nseed: *v\n"
    with language("es"), pytest.raises(RecordError) as refused:
        record(aliased)
    assert str(refused.value) == "g.yaml:2: las anclas (&v) no se permiten en un registro"
    with pytest.raises(RecordError, match=r"^g.yaml:2: anchors \(&v\) are not allowed in a record$"):
        record(aliased)


def test_a_tab_in_a_record_and_unknown_racks_are_refused_in_spanish():
    from uptown_cli.errors import RacksUnknown

    tabbed = "uptown: 1\nvariant:\tstandard\n"
    with language("es"):
        with pytest.raises(RecordError, match="^g.yaml:2: YAML no válido: un tabulador donde YAML "
                                              "necesita un espacio "):
            record(tabbed)
        with pytest.raises(RacksUnknown, match=r"^los estantes son desconocidos \(una partida sin "
                                               r"semilla\)$"):
            Game.new(["Ana", "Bo"]).legal_moves()
    with pytest.raises(RecordError, match="^g.yaml:2: invalid YAML: a tab where YAML needs a space "):
        record(tabbed)


def test_the_engine_protocol_answers_in_english_whatever_the_language(uptown):
    """``uptown engine`` speaks JSON to programs: its error messages stay English with --lang es,
    as JSON's words do."""
    import json

    request = {"type": "move", "id": 1, "you": "Bo", "moves": [], "racks": {}, "drawn": {},
               "players": [{"name": "Ana", "colors": ["red", "green"]},
                           {"name": "Bo", "colors": ["blue", "yellow"]}]}
    lines = [{"type": "hello", "protocol": "uptown-engine-1"}, request, {"type": "quit"}]
    result = uptown.invoke("--lang", "es", "engine", "--bot", "random",
                           input="".join(json.dumps(line) + "\n" for line in lines))
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers[-1]["message"] == "a move request that is not sound: it is not Bo's turn"
