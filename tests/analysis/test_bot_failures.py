"""What happens when an engine fails (docs/ENGINE_PROTOCOL.md): an illegal move, garbage, a
refusal or a timeout lose the game at once; a crash or a stall has the game played again once,
then loses; an engine that ignores quit has its whole process group ended. The engines are
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
    ("silent", "time", "no move within 2 s and a margin of 0.5 s"),
    ("old", "refused", "uptown-engine-0"),
])
def test_an_engine_that_fails_loses_the_game_at_once(mode, reason, words):
    outcome = against_random(faulty(mode))
    loser = lost(outcome)
    assert loser.forfeit == reason and words in loser.detail
    assert not outcome.replayed
    assert outcome.seats[1].first == 1


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


def test_a_tournament_counts_forfeits_and_writes_games_that_validate(tmp_path, uptown):
    out = tmp_path / "run"
    result = uptown.run("tournament", f"bad={sys.executable} {FAULTY} illegal", "random",
                        "--deals", "2", "--seed", "f", "--out", out, "--json")
    assert result.returncode == 0, result.stderr
    table = {e["name"]: e for e in json.loads(result.stdout)["entrants"]}
    assert table["bad"]["forfeits"] == 4 and table["bad"]["losses"] == 4
    assert table["random"]["wins"] == 4
    records = sorted(out.glob("game-*.yaml"))
    assert len(records) == 4
    assert uptown.run("validate", *records).returncode == 0
    assert "bad lost by forfeit after move" in records[0].read_text()


def test_an_engine_that_cannot_start_is_one_line_before_any_game(tmp_path, uptown):
    result = uptown.run("tournament", "ghost=/nonexistent/engine", "random", "--out", tmp_path / "run")
    assert result.returncode == 1
    assert result.stderr.strip() == ("Error: engine ghost: cannot start /nonexistent/engine: "
                                     "No such file or directory")


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
        while not pids.exists() or not pids.read_text().strip():
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


def test_an_engine_option_it_does_not_offer_is_one_line_before_any_game(tmp_path, uptown):
    engine = f"mine={sys.executable} -m uptown_cli engine --bot mc"
    result = uptown.run("tournament", engine, "random", "--option", "mine.depth=3", "--out", tmp_path / "run")
    assert result.returncode == 1
    assert result.stderr.startswith("Error: engine mine: answered an error: no option 'depth' takes 3")
    taken = uptown.run("tournament", engine, "random", "--option", "mine.playouts=2", "--deals", "1",
                       "--seed", "o", "--out", tmp_path / "taken", "--json")
    assert taken.returncode == 0, taken.stderr
    settings = json.loads((tmp_path / "taken" / "tournament.json").read_text())
    assert settings["entrants"][0]["options"] == {"playouts": 2}
