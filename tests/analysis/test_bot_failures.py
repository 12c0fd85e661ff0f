"""What happens when a bot program (an engine) fails (docs/ENGINE_PROTOCOL.md): an illegal move,
garbage, a misspelt key, a refusal or a timeout lose the game at once, the program told why; a
crash, a stall or a start that fails has the game played again once, then loses, and the
tournament goes on; a banner before the hello is skipped; a program that ignores quit has its
whole process group ended, and nothing outlives a tournament killed outright. The programs are
tests/analysis/programs/faulty.py, run with this Python."""

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from support.processes import alive

from uptown_cli.analysis.match import Entrant, GameTask, Limits, play_game

FAULTY = Path(__file__).resolve().parent / "programs" / "faulty.py"
LIMITS = Limits(move=2.0, margin=0.5, start=20.0)
"""Time enough for a loaded machine: only the engines made to fail run out of it."""


def faulty(mode, *extra):
    return Entrant(f"faulty-{mode}", command=(sys.executable, str(FAULTY), mode, *map(str, extra)))


def against_random(entrant, seats=2, limits=LIMITS):
    task = GameTask(1, 0, "faults", (entrant,) + (Entrant("random", bot="random"),) * (seats - 1),
                    "standard", limits)
    return play_game(task)


def lost(outcome):
    loser = outcome.seats[0]
    assert not outcome.finished
    assert loser.rank == len(outcome.seats) and loser.first == 0
    assert sum(seat.first for seat in outcome.seats) == pytest.approx(1)
    return loser


@pytest.mark.parametrize("mode,reason,words", [
    ("illegal", "illegal", "played pass"),
    ("garbage", "garbage", "not a JSON line"),
    ("colour", "garbage", "the key 'colour', which the protocol does not have: did you mean 'color'?"),
    ("silent", "time", "no move within 2 s and a margin of 0.5 s"),
    ("old", "refused", "uptown-engine-0"),
])
def test_an_engine_that_fails_loses_the_game_at_once_named_in_the_reason(mode, reason, words):
    outcome = against_random(faulty(mode))
    loser = lost(outcome)
    assert loser.forfeit == reason and words in loser.detail
    assert loser.detail.startswith(f"faulty-{mode}: ")
    assert not outcome.replayed
    assert outcome.seats[1].first == 1


@pytest.mark.parametrize("mode", ["illegal", "colour", "garbage"])
def test_an_engine_whose_answer_loses_the_game_is_told_why(mode):
    outcome = against_random(faulty(mode))
    log = outcome.logs[f"faulty-{mode}"]
    assert f"told: {lost(outcome).detail}" in log


def test_an_engine_that_never_answers_loses_after_its_time_and_margin():
    started = time.monotonic()
    outcome = against_random(faulty("silent"))
    assert lost(outcome).forfeit == "time"
    assert time.monotonic() - started < 2.5 + 10  # its time and margin, then its group ended


def test_an_engine_that_crashes_has_the_game_played_again_then_loses():
    outcome = against_random(faulty("crash"))
    loser = lost(outcome)
    assert outcome.replayed
    assert loser.forfeit == "crash" and "exit status 3" in loser.detail


def test_a_game_played_again_after_a_crash_counts_when_the_engine_recovers(tmp_path):
    outcome = against_random(faulty("crash-once", tmp_path / "crashed"))
    assert outcome.replayed and outcome.finished
    assert all(seat.forfeit is None for seat in outcome.seats)
    log = outcome.logs["faulty-crash-once"]  # both tries kept
    assert log.index("failing at my move 2") < log.index("--- the game played again ---")


def test_an_engine_that_stalls_has_the_game_played_again_then_loses_before_moving():
    outcome = against_random(faulty("stall"), limits=Limits(start=1.0))
    loser = lost(outcome)
    assert outcome.replayed and outcome.moves == ()
    assert loser.forfeit == "stall" and "ping" in loser.detail


def test_with_more_seats_the_others_are_ranked_by_their_standings_when_one_forfeits():
    outcome = against_random(faulty("illegal"), seats=4)
    lost(outcome)
    ranks = [seat.rank for seat in outcome.seats[1:]]
    assert min(ranks) == 1 and max(ranks) <= 3


def test_an_engine_that_ignores_quit_and_sigterm_has_its_process_group_ended(tmp_path):
    pids = tmp_path / "pids"
    outcome = against_random(faulty("deaf", pids))
    assert outcome.finished
    engine, child = map(int, pids.read_text().split())
    assert not alive(engine)
    deadline = time.monotonic() + 10  # the child is killed with the group; it dies soon after
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


def test_an_engine_writes_its_standard_error_to_the_log_not_to_the_game(tmp_path, uptown):
    script = tmp_path / "chatty.py"
    script.write_text(FAULTY.read_text().replace("moves += 1", "moves += 1\n        print('thinking', file=sys.stderr, flush=True)"))
    out = tmp_path / "run"
    result = uptown.run("tournament", f"chatty={sys.executable} {script} none", "random", "--deals", "1",
                        "--seed", "log", "--out", out, "--move-time", "5")
    assert result.returncode == 0, result.stderr
    logs = sorted((out / "logs").iterdir())
    assert [p.name for p in logs] == ["game-0001-chatty.log", "game-0002-chatty.log"]
    assert logs[0].read_text().startswith("thinking\n")


def entrants_of(uptown, *args):
    """``uptown tournament ARGS --json`` as a process that succeeds: its result, and its
    entrants' figures by name."""
    result = uptown.run("tournament", *args, "--json")
    assert result.returncode == 0, result.stderr
    return result, {e["name"]: e for e in json.loads(result.stdout)["entrants"]}


def test_a_tournament_counts_forfeits_and_writes_games_that_validate(tmp_path, uptown):
    out = tmp_path / "run"
    _, table = entrants_of(uptown, f"bad={sys.executable} {FAULTY} illegal", "random",
                           "--deals", "2", "--seed", "f", "--out", out)
    assert table["bad"]["forfeits"] == 4 and table["bad"]["losses"] == 4
    assert table["random"]["wins"] == 4
    # every game lost: -inf, beside the score that gives it (JSON has no infinity)
    assert (table["bad"]["elo"], table["bad"]["score"]) == ("-inf", 0.0)
    assert (table["random"]["elo"], table["random"]["score"]) == ("+inf", 1.0)
    records = sorted(out.glob("game-*.yaml"))
    assert len(records) == 4
    assert uptown.run("validate", *records).returncode == 0
    assert "bad lost by forfeit after move" in records[0].read_text()


@pytest.mark.parametrize("command,words", [
    ("/nonexistent/engine", "cannot start /nonexistent/engine: No such file or directory"),
    (f"{sys.executable} {FAULTY}x", "(exit status 2)"),  # mistyped: the script is not there
    (f"{sys.executable} {FAULTY} nohello", "no hello"),  # a stall
])
def test_an_engine_that_cannot_start_loses_its_games_and_the_run_goes_on(tmp_path, uptown, command, words):
    out = tmp_path / "run"
    result, table = entrants_of(uptown, f"ghost={command}", "random", "greedy", "--deals", "1",
                                "--seed", "g", "--start-time", "1", "--out", out)
    assert result.stderr.startswith("Warning: engine ghost cannot play (") and words in result.stderr
    assert "Traceback" not in result.stderr
    assert table["ghost"]["games"] == table["ghost"]["forfeits"] == table["ghost"]["losses"] == 4
    assert table["random"]["games"] == table["greedy"]["games"] == 4
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    details = [s["detail"] for line in lines for s in line["seats"] if s["entrant"] == "ghost"]
    assert len(details) == 4 and all(d.startswith("ghost: ") and words in d for d in details)
    again = uptown.run("tournament", "--resume", "--out", out, "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["entrants"] == json.loads(result.stdout)["entrants"]


def test_a_banner_before_the_hello_is_skipped_and_logged(tmp_path, uptown):
    out = tmp_path / "run"
    _, table = entrants_of(uptown, f"banner={sys.executable} {FAULTY} banner", "random",
                           "--deals", "1", "--seed", "b", "--out", out)
    assert table["banner"]["forfeits"] == 0 and table["banner"]["games"] == 2
    log = (out / "logs" / "game-0001-banner.log").read_text()
    assert log.startswith("uptown: a line before hello, skipped: Faulty 1.0 by the tests, ready\n")


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tournament_stopped_by_a_signal_ends_its_engines(tmp_path, uptown, signum, jobs):
    """Ctrl-C or SIGTERM while engines that ignore quit and SIGTERM play: the tournament
    reports what it played and no engine, nor any child of one, is left."""
    import subprocess

    from support.processes import _default_signals

    pids = tmp_path / "pids"
    command = [str(uptown.path), "tournament", f"deaf={sys.executable} {FAULTY} deaf {pids}",
               "mc", "--playouts", "64", "--deals", "50", "--seed", "s", "--jobs", jobs,
               "--out", str(tmp_path / "run")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=_default_signals)
    try:
        deadline = time.monotonic() + 60
        while not playing(tmp_path / "run", pids):
            assert time.monotonic() < deadline and process.poll() is None, process.communicate()
            time.sleep(0.05)
        time.sleep(0.3)
        engine, child = map(int, pids.read_text().split())
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:  # the test failed: leave nothing running behind it
            end_all(process.pid, pids)
            process.wait(timeout=10)
    assert process.returncode == 128 + signum, err
    assert "Interrupted:" in err and "--resume" in err and "Traceback" not in err
    deadline = time.monotonic() + 10
    while running_with(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running_with(pids) and not alive(engine) and not alive(child)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tournament_killed_outright_leaves_no_process_behind(tmp_path, uptown, jobs):
    """SIGKILL of the tournament, which leaves it no way out, while engines that ignore quit
    and SIGTERM play: its workers end with it (their lifeline closes) and end their engines,
    the reaper ends what is left, so no process of its process group, no engine nor child of
    one is left, and nothing holds results.jsonl open."""
    import subprocess

    from support.processes import _default_signals

    pids, out = tmp_path / "pids", tmp_path / "run"
    command = [str(uptown.path), "tournament", f"deaf={sys.executable} {FAULTY} deaf {pids}",
               "mc", "--playouts", "16", "--deals", "50", "--seed", "k", "--jobs", jobs,
               "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True, preexec_fn=_default_signals)
    try:
        deadline = time.monotonic() + 120
        results = out / "results.jsonl"
        while not (results.exists() and results.read_bytes().count(b"\n") >= 1):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)  # the next games under way, their engines running
        process.kill()
        process.wait(timeout=10)
        deadline = time.monotonic() + 20
        while (in_group(process.pid) or running_with(pids)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not in_group(process.pid) and not running_with(pids)
        assert not holding(results)
    finally:
        end_all(process.pid, pids)


STARTER = """\
import sys
from uptown_cli.analysis.bot_programs import BotProgram
while True:
    BotProgram(sys.argv[1:]).end(grace=0)
"""
"""A host that does nothing but start an engine and end it again, over and over."""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_a_host_killed_while_it_starts_an_engine_leaves_it_to_the_reaper(tmp_path):
    """The engine's process tells the reaper of itself before its command runs, so a host
    killed outright between starting an engine and telling the reaper of it leaves no engine
    behind, though this engine ignores the end of its input and SIGTERM (before, one kill in
    six at a random time left one)."""
    import random
    import subprocess

    rng = random.Random(35)
    for number in range(15):
        pids = tmp_path / f"pids-{number}"
        host = subprocess.Popen([sys.executable, "-c", STARTER, sys.executable, str(FAULTY), "deaf", str(pids)],
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while not running_with(pids):  # its first engine started
                assert time.monotonic() < deadline and host.poll() is None
                time.sleep(0.01)
            time.sleep(rng.uniform(0.1, 0.6))
            host.kill()
            host.wait(timeout=10)
            deadline = time.monotonic() + 10  # the reaper's SIGTERM, half a second, its SIGKILL
            while running_with(pids) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not running_with(pids), f"kill {number + 1}"
        finally:
            for pid in running_with(pids):
                os.kill(pid, signal.SIGKILL)


def playing(folder, pids):
    """Whether the tournament in ``folder`` plays its games, a deaf engine started for one
    (after the engines were tried, which happens before the folder is made)."""
    results = folder / "results.jsonl"
    return (results.exists() and pids.exists() and pids.read_text().strip() != ""
            and pids.stat().st_mtime_ns >= results.stat().st_mtime_ns)


def in_group(group):
    """The processes still running in process group ``group``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def holding(path):
    """The processes that hold ``path`` open."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            if os.readlink(entry) == str(path):
                found.append(int(entry.parts[2]))
        except OSError:
            pass
    return found


def end_all(session, pids):
    """Kill the tournament's session (its workers) and each engine's own process group."""
    groups = [session]
    if pids.exists():
        groups += [int(pid) for pid in pids.read_text().split()[:1]]
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def running_with(word):
    """The processes still running whose command line names ``word`` (the deaf engines and
    their children, in every game)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(word).encode() in (entry / "cmdline").read_bytes() and alive(int(entry.name)):
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def test_an_engine_that_never_answers_loses_on_its_game_clock_too():
    outcome = against_random(faulty("silent"), limits=Limits(move=None, game=1.5, increment=0.1, margin=0.5))
    loser = lost(outcome)
    assert loser.forfeit == "time" and "a margin of 0.5 s" in loser.detail


@pytest.mark.parametrize("option,message", [
    ("mine.depth=3", "mine: it offers no option 'depth' (it offers playouts, seconds)"),
    ("mine.playouts=abc", "mine: option 'playouts' takes an integer, not 'abc'"),
    ("mine.playouts=0", "mine: option 'playouts' takes a value from 1 to inf, not '0'"),
    ("mine.seconds=fast", "mine: option 'seconds' takes a number, not 'fast'"),
])
def test_an_engine_option_it_does_not_take_is_one_line_before_any_game(tmp_path, uptown, option, message):
    engine = f"mine={sys.executable} -m uptown_cli engine --bot mc"
    result = uptown.run("tournament", engine, "random", "--option", option, "--out", tmp_path / "run")
    assert result.returncode == 1
    assert result.stderr == f"Error: {message}\n"
    assert not (tmp_path / "run").exists()  # nothing to resume: the same command runs once fixed


def test_an_engine_option_is_typed_as_its_handshake_declares_it(tmp_path, uptown):
    engine = f"mine={sys.executable} -m uptown_cli engine --bot mc"
    taken = uptown.run("tournament", engine, "random", "--option", "mine.playouts=2", "--deals", "1",
                       "--seed", "o", "--out", tmp_path / "taken", "--json")
    assert taken.returncode == 0, taken.stderr
    settings = json.loads((tmp_path / "taken" / "tournament.json").read_text())
    assert settings["entrants"][0]["options"] == {"playouts": "2"}  # as given: typed when set
    assert json.loads(taken.stdout)["entrants"][0]["forfeits"] == 0


def test_the_results_of_a_tournament_are_english_whatever_the_language(tmp_path, uptown):
    """The reasons in results.jsonl and the records are the same in every language (a worker of
    a cluster may speak another): the warning is the player's language, the files English."""
    out = tmp_path / "run"
    result = uptown.run("--lang", "es", "tournament", "ghost=/nonexistent/engine", "random",
                        "--deals", "1", "--seed", "es", "--out", out)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("Aviso: el motor ghost no puede jugar (no se puede iniciar")
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert line["seats"][0]["detail"].startswith("ghost: cannot start /nonexistent/engine: ")
