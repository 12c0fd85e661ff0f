"""Tournaments: who plays whom from which seat on which deal, results written as they come so
that a run killed and resumed ends with the table of a run never stopped, an SPRT that stops a
match early, and the command's refusals."""

import json
import signal
import subprocess
import sys
import time

import pytest

from uptown_cli.analysis.match import Entrant
from uptown_cli.analysis.tournament import Settings, Tournament, schedule, tables
from uptown_cli.errors import SetupError

A, B, C, D = (Entrant(name, bot=bot) for name, bot in
              (("a", "random"), ("b", "greedy"), ("c", "random"), ("d", "greedy")))


@pytest.mark.parametrize("entrants,seats,mode,count", [
    ((A, B, C), 2, "round-robin", 3), ((A, B, C, D), 3, "round-robin", 4),
    ((A, B), 4, "round-robin", 1), ((A, B, C), 4, "gauntlet", 2), ((A, B), 2, "gauntlet", 1),
])
def test_every_entrant_plays_every_deal_from_every_seat(entrants, seats, mode, count):
    settings = Settings(entrants, mode, seats, deals=3, seed="x")
    games = schedule(settings)
    assert len(tables(settings)) == count and len(games) == 3 * count * seats
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    for table in tables(settings):
        names = sorted(e.name for e in table)
        for deal in range(3):
            lineups = [[e.name for e in g.lineup] for g in games
                       if g.deal == deal and sorted(e.name for e in g.lineup) == names]
            assert len(lineups) == seats
            for name in set(names):
                assert {i for lineup in lineups for i, n in enumerate(lineup) if n == name} == set(range(seats))
    assert len({g.seed for g in games if g.deal == 0}) == 1
    assert len({g.seed for g in games}) == 3


def test_a_gauntlet_seats_the_first_entrant_against_each_other_filling_the_table():
    settings = Settings((A, B, C), "gauntlet", 4, deals=1)
    assert [[e.name for e in t] for t in tables(settings)] == [["a", "b", "b", "b"], ["a", "c", "c", "c"]]


@pytest.mark.parametrize("settings,message", [
    (Settings((A,)), "two or more"),
    (Settings((A, Entrant("A", bot="greedy"))), "same name"),
    (Settings((A, B, C), sprt=object()), "match of two"),
    (Settings((A, B), seats=6), "2 to 5 seats"),
])
def test_settings_that_make_no_tournament_are_refused(settings, message):
    with pytest.raises(SetupError, match=message):
        settings.check()


def test_a_folder_with_a_tournament_is_not_overwritten(tmp_path):
    Tournament.create(str(tmp_path), Settings((A, B), deals=1))
    with pytest.raises(SetupError, match="--resume continues it"):
        Tournament.create(str(tmp_path), Settings((A, B), deals=1))


def engine_command(bot):
    return f"{sys.executable} -m uptown_cli engine --bot {bot}"


def tournament_args(out):
    return ["tournament", "mc", "random", f"eng={engine_command('greedy')}", "--playouts", "2",
            "--deals", "3", "--seed", "resume", "--out", str(out), "--json"]


@pytest.mark.slow
def test_a_run_killed_and_resumed_ends_as_a_run_never_stopped(tmp_path, uptown):
    whole = uptown.run(*tournament_args(tmp_path / "whole"))
    assert whole.returncode == 0, whole.stderr
    stopped = tmp_path / "stopped"
    process = subprocess.Popen([str(uptown.path), *tournament_args(stopped)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        results = stopped / "results.jsonl"
        deadline = time.monotonic() + 120
        while not (results.exists() and results.read_bytes().count(b"\n") >= 5):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait(timeout=30)
    played = results.read_bytes().count(b"\n")
    assert 5 <= played < 18
    resumed = uptown.run("tournament", "--resume", "--out", stopped, "--json")
    assert resumed.returncode == 0, resumed.stderr
    first, second = json.loads(whole.stdout), json.loads(resumed.stdout)
    assert second["entrants"] == first["entrants"] and second["games"] == first["games"] == 18
    assert results.read_bytes() == (tmp_path / "whole" / "results.jsonl").read_bytes()
    for record in sorted((tmp_path / "whole").glob("game-*.yaml")):
        assert (stopped / record.name).read_text() == record.read_text()


def test_a_last_line_cut_short_is_dropped_and_its_game_played_again(tmp_path):
    tournament = Tournament.create(str(tmp_path), Settings((A, B), deals=2, seed="cut"))
    list(tournament.run())
    whole = (tmp_path / "results.jsonl").read_bytes()
    lines = whole.splitlines(keepends=True)
    (tmp_path / "results.jsonl").write_bytes(b"".join(lines[:2]) + lines[2][:30])
    again = Tournament.resume(str(tmp_path))
    assert [o.number for o in again.results] == [1, 2]
    assert [o.number for o in again.run()] == [3, 4]
    assert (tmp_path / "results.jsonl").read_bytes() == whole


def test_a_results_line_that_is_not_a_result_is_one_error_line(tmp_path):
    Tournament.create(str(tmp_path), Settings((A, B), deals=1))
    (tmp_path / "results.jsonl").write_text('{"game": 1}\n')
    with pytest.raises(SetupError, match=r"results.jsonl:1: not a game's result"):
        Tournament.resume(str(tmp_path))


def test_an_sprt_stops_a_match_once_it_decides(tmp_path, uptown):
    result = uptown.run("tournament", "greedy", "random", "--sprt", "0,50", "--deals", "10",
                        "--seed", "sprt", "--out", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    table = json.loads(result.stdout)
    assert table["games"] == 4 and table["scheduled"] == 20  # 4 wins: LLR 3.25 > 2.94
    assert table["sprt"]["decision"] == "H1" and table["sprt"]["llr"] > 2.94
    assert len(list(tmp_path.glob("game-*.yaml"))) == 4
    assert (tmp_path / "results.jsonl").read_bytes().count(b"\n") == 4
    text = uptown.run("tournament", "--resume", "--out", tmp_path)
    assert "H1 accepted: greedy is the stronger by 50 Elo" in text.stdout


def test_more_seats_print_openskill_ratings(tmp_path, uptown):
    result = uptown.run("tournament", "greedy", "random", "--seats", "3", "--deals", "1",
                        "--seed", "os", "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    header = result.stdout.splitlines()[1]
    assert "mu" in header and "sigma" in header and "Elo" not in header


@pytest.mark.parametrize("args,message", [
    (["greedy"], "name two or more entrants"),
    (["greedy", "deep"], "neither a bot"),
    (["greedy", "random", "--move-time", "1", "--game-time", "60"], "not both"),
    (["greedy", "random", "--sprt", "10,0"], "ELO0 < ELO1"),
    (["greedy", "random", "--game-time", "60+x"], "seconds+increment"),
    (["greedy", "random", "--option", "greedy.depth=3"], "not an engine"),
    (["greedy", "random", "--jobs", "2", "--cluster", "local:2"], "--jobs or --cluster, not both"),
    (["greedy", "random", "--cluster", "local:2", "--jobs", "1"], "--jobs or --cluster, not both"),
])
def test_usage_mistakes_are_one_line_and_exit_2(tmp_path, uptown, args, message):
    result = uptown.invoke("tournament", *args, "--out", tmp_path / "run")
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "run").exists()


def test_resume_takes_no_setup_options(tmp_path, uptown):
    result = uptown.invoke("tournament", "--resume", "--out", tmp_path, "--deals", "3")
    assert result.exit_code == 2 and "drop --deals" in result.output
    result = uptown.invoke("tournament", "--resume", "--out", tmp_path / "none")
    assert result.exit_code == 1 and "holds no tournament" in result.output
