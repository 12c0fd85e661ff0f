"""Tournaments: who plays whom from which seat on which deal, results written as they come so
that a run killed and resumed ends with the table of a run never stopped, an SPRT that stops a
match early, and the command's refusals."""

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from uptown_cli.analysis import value
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
    (Settings((A, Entrant("A", bot="greedy"))), "same name, 'A': give each a name of its own"),
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


def test_an_sprt_stops_a_match_once_it_decides_on_whole_deal_pairs(tmp_path, uptown):
    result = uptown.run("tournament", "greedy", "random", "--sprt", "0,200", "--deals", "20",
                        "--seed", "sprt", "--out", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    table = json.loads(result.stdout)
    sprt = table["sprt"]
    assert sprt["decision"] == "H1" and sprt["llr"] > 2.94 and table["scheduled"] == 40
    # eight pairs won twice over are the fewest that decide [0, 200]; the match stops then
    assert 16 <= table["games"] < 40 and table["games"] % 2 == 0
    assert sum(sprt["deals"]) == table["games"] // 2 and sprt["deals"][4] >= 8
    assert len(list(tmp_path.glob("game-*.yaml"))) == table["games"]
    assert (tmp_path / "results.jsonl").read_bytes().count(b"\n") == table["games"]
    text = uptown.run("tournament", "--resume", "--out", tmp_path)
    assert "H1 accepted: greedy is the stronger by 200 Elo" in text.stdout
    assert f"SPRT: llr {sprt['llr']:.3g} (" in text.stdout and " - H1 was accepted\n" in text.stdout
    assert f"Ptnml(0-2): [{', '.join(map(str, sprt['deals']))}]" in text.stdout


def test_the_sprt_waits_for_the_second_game_of_a_pair(tmp_path):
    """After the first game of a deal the SPRT has not moved: it counts whole pairs."""
    from uptown_cli.analysis.sprt import Sprt

    tournament = Tournament.create(str(tmp_path), Settings((B, A), deals=3, seed="pair", sprt=Sprt(0, 400)))
    llrs = [tournament.llr() for _ in tournament.run()]
    assert llrs[0] == 0.0 and llrs[1] != 0.0 and llrs[2] == llrs[1] and llrs[3] != llrs[2]


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
    (["greedy", "random", "--option", "nobody.depth=3"], "not an entrant of this tournament"),
    (["greedy", "random", "--option", "greedy"], "give ENTRANT.OPTION=VALUE"),
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


def test_a_bot_enters_under_names_of_its_own_any_number_of_times(tmp_path, uptown):
    result = uptown.run("tournament", "r1=random", "r2=random", "random", "--deals", "1",
                        "--seed", "alias", "--out", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    assert [e["name"] for e in json.loads(result.stdout)["entrants"]] == ["r1", "r2", "random"]
    settings = json.loads((tmp_path / "tournament.json").read_text())
    assert settings["entrants"] == [{"name": "r1", "bot": "random"}, {"name": "r2", "bot": "random"},
                                    {"name": "random", "bot": "random"}]
    twice = uptown.run("tournament", "random", "random", "--out", tmp_path / "twice")
    assert twice.returncode == 2 and not (tmp_path / "twice").exists()  # a usage error
    assert twice.stderr.endswith("Error: Invalid value for ENTRANT: two entrants have the same "
                                 "name, 'random': give each a name of its own (NAME=BOT, "
                                 "NAME=COMMAND)\n")


def test_the_same_bot_with_other_options_under_other_names(tmp_path, uptown):
    result = uptown.run("tournament", "fast=mc", "slow=mc", "--option", "fast.playouts=1",
                        "--option", "slow.playouts=3", "--deals", "1", "--seed", "o", "--out", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    settings = json.loads((tmp_path / "tournament.json").read_text())
    assert settings["entrants"] == [{"name": "fast", "bot": "mc", "options": {"playouts": "1"}},
                                    {"name": "slow", "bot": "mc", "options": {"playouts": "3"}}]
    # the options are the bots': the games are those of mc at 1 and 3 playouts
    alone = Tournament.create(str(tmp_path / "lib"), Settings(
        (Entrant("fast", bot="mc", options=(("playouts", 1),)), Entrant("slow", bot="mc", options=(("playouts", 3),))),
        deals=1, seed="o"))
    list(alone.run())
    assert (tmp_path / "lib" / "results.jsonl").read_bytes() == (tmp_path / "results.jsonl").read_bytes()


@pytest.mark.parametrize("option,message", [
    ("fast.depth=3", "fast: it offers no option 'depth' (it offers playouts, seconds)"),
    ("fast.playouts=many", "fast: option 'playouts' takes an integer, not 'many'"),
    ("r.playouts=3", "r: it offers no option 'playouts' (it offers none)"),
])
def test_a_bot_option_it_does_not_take_is_one_line_before_any_game(tmp_path, uptown, option, message):
    result = uptown.run("tournament", "fast=mc", "r=random", "--option", option, "--out", tmp_path / "run")
    assert result.returncode == 1 and result.stderr == f"Error: {message}\n"
    assert not (tmp_path / "run").exists()


SHIPPED_WEIGHTS = json.loads(Path(value.WEIGHTS_FILE).read_text())


def test_two_weights_files_of_vista_play_each_other(tmp_path, uptown):
    zeros = {**SHIPPED_WEIGHTS, "weights": {players: [0.0] * len(row)
                                            for players, row in SHIPPED_WEIGHTS["weights"].items()}}
    (tmp_path / "zeros.json").write_text(json.dumps(zeros))
    match = ("tournament", "shipped=vista", "mine=vista", "--playouts", "2", "--deals", "1", "--seed", "w")
    given = uptown.run(*match, "--option", "mine.weights=zeros.json", "--out", "given", cwd=tmp_path)
    alike = uptown.run(*match, "--out", "alike", cwd=tmp_path)
    assert given.returncode == 0 and alike.returncode == 0, given.stderr + alike.stderr
    settings = json.loads((tmp_path / "given" / "tournament.json").read_text())
    # named by its full path, so that --resume from another folder reads the same file
    assert settings["entrants"][1] == {"name": "mine", "bot": "vista",
                                       "options": {"weights": str(tmp_path / "zeros.json")}}
    # the games are those of the weights given, not the shipped ones
    for game in ("game-0001.yaml", "game-0002.yaml"):
        assert (tmp_path / "given" / game).read_text() != (tmp_path / "alike" / game).read_text()


def test_a_bot_s_weights_file_is_kept_by_its_full_path_and_a_program_s_options_as_given(tmp_path, monkeypatch):
    from uptown_cli.cli.engines import _full_paths

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path / "..")
    assert _full_paths(Entrant("v", bot="vista"), {"weights": "~/w.json"}) == {"weights": str(tmp_path / "w.json")}
    assert _full_paths(Entrant("v", bot="vista"), {"weights": "w.json"}) == {
        "weights": str(tmp_path.parent / "w.json")}
    assert _full_paths(Entrant("p", command=("x",)), {"weights": "w.json"}) == {"weights": "w.json"}
    assert _full_paths(Entrant("m", bot="mc"), {"playouts": "3"}) == {"playouts": "3"}


@pytest.mark.parametrize("weights, seats, message", [
    ("missing.json", "2", "mine: {folder}/missing.json: No such file or directory"),
    ("two.json", "3", "mine: {folder}/two.json: the weights file has no weights for 3 players"),
])
def test_a_weights_file_vista_cannot_play_with_is_one_line_before_any_game(tmp_path, uptown, weights,
                                                                         seats, message):
    (tmp_path / "two.json").write_text(json.dumps({**SHIPPED_WEIGHTS, "weights": {"2": SHIPPED_WEIGHTS["weights"]["2"]}}))
    result = uptown.run("tournament", "vista", "mine=vista", "--option", f"mine.weights={weights}",
                        "--seats", seats, "--out", "run", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"Error: {message.format(folder=tmp_path)}\n"
    assert not (tmp_path / "run").exists()


def test_a_weights_file_gone_during_a_run_is_one_line_naming_the_entrant(tmp_path):
    from uptown_cli.analysis.match import GameTask, Limits, play_game

    gone = tmp_path / "gone.json"
    task = GameTask(1, 0, "g", (Entrant("shipped", bot="vista"),
                                Entrant("mine", bot="vista", options=(("weights", str(gone)),))),
                    "standard", Limits(bot_options=(("playouts", 1),)))
    with pytest.raises(SetupError, match=f"^mine: {re.escape(str(gone))}: No such file or directory$"):
        play_game(task)


def test_the_text_output_has_cutechess_pairing_lines_and_interim_standings(tmp_path, uptown):
    result = uptown.run("tournament", "greedy", "random", "mc", "--playouts", "2", "--deals", "1",
                        "--seed", "lines", "--rating-interval", "2", "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(uptown.run("tournament", "--resume", "--out", tmp_path, "--json").stdout)
    for pairing in data["pairings"]:
        line = (f"Score of {pairing['first']} vs {pairing['second']}: {pairing['wins']} - "
                f"{pairing['losses']} - {pairing['draws']}  [{pairing['score']:.3f}] 2")
        assert line in result.stdout
        assert f"{line}\nElo difference: " in result.stderr  # every 2 games, the standings so far
    assert [(p["first"], p["second"]) for p in data["pairings"]] == [
        ("greedy", "random"), ("greedy", "mc"), ("random", "mc")]
    assert result.stderr.count("Standings after") == 3 and "Standings after 6 games:" in result.stderr


def test_an_sprt_at_three_seats_tests_the_seat_against_seat_score_of_whole_deals(tmp_path, uptown):
    """Two entrants fill three seats (greedy twice, random once, every rotation): each deal is
    three games of two seat pairs each, scored 0 to 12 half points, and the match stops on a
    whole deal."""
    result = uptown.run("tournament", "greedy", "random", "--seats", "3", "--sprt", "0,200",
                        "--deals", "20", "--seed", "three", "--out", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    table = json.loads(result.stdout)
    deals = table["sprt"]["deals"]
    assert table["sprt"]["decision"] == "H1" and len(deals) == 13
    assert table["games"] == 3 * sum(deals) < table["scheduled"] == 60
    text = uptown.run("tournament", "--resume", "--out", tmp_path)
    assert f"Deal scores (0-6): [{', '.join(map(str, deals))}]" in text.stdout
