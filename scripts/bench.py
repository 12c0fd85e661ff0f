"""Benchmarks of uptown on this machine, each figure beside its target (met / not met).

Run as ``python scripts/bench.py`` in the project's environment; ``--json`` prints the figures
as JSON, ``--quick`` takes fewer runs, ``--only PART`` runs one part (``--only strength`` is
never run unless asked: it plays whole games between bots). Every figure is the median of
several runs with the smallest and largest beside it, so a noisy machine shows as a spread.

- Start-up: ``uptown --version``, ``--help``, and ``show``, ``moves``, ``score`` and ``move``
  on a 90-move game, against a bare ``python -c pass``, beside a process that only imports
  click and PyYAML (the floor under every command that reads a record); and ``move --as NAME`` in a hidden
  game of 90 moves against the same move in an open game of the same moves.
- Validation: ``uptown validate`` over a folder of finished random games of 2 to 5 players
  against a process that only parses the same files with PyYAML's C loader, and the peak
  memory of ``uptown validate`` (its resident set, in a fresh process) for a small and a large
  folder: it should not grow with the number of files.
- Engine: ``legal_moves()`` per position (in a game replayed from its moves, and along the
  games, as a bot sees it), ``legal_moves()`` and ``play`` per move along random 4-player
  games, and whole random 4-player games per second from the start; each run on deals of its
  own. The engine's tables of windows (``engine.move_lists``) are kept by the process and fill
  over its first few thousand games: with ``--only engine`` they are still filling (a young
  process, the first run slower than the last), after the validation part's games mostly full
  (the ``bots`` part times the first 40 games of a fresh process).
- Groups: ``count_groups`` + ``cut_points`` for every colour of a position, from scratch, on
  every position of random games and of greedy's games against itself (2 to 5 players),
  against the code of ``GROUPS_BASELINE`` run right after (target: 4x faster).
- Evaluation: vista's evaluation (``position_features``) per position at the ends of short
  playouts, against the code of ``EVALUATION_BASELINE`` run right after.
- Against a baseline (the code of git revision ``--baseline``, extracted into a temporary
  folder, each run right after this code's, so that a busy machine slows both alike): random
  4-player games per second and ``legal_moves()`` + ``play`` per move (``--warm GAMES``: in
  processes that have played that many games first, their tables of windows filled), and CPU
  seconds per game of ``mc`` (16 playouts) against ``greedy`` on the same seeds (target: 2x
  faster).
  Also the ``random`` and ``greedy`` bots' time per move.
- Strength (only with ``--only strength``): ``vista`` (or ``--bot``) against ``mc`` at equal
  CPU time per move, in two-player games and in four-player games against three ``mc``: how
  often it finished first, with its 95% (Wilson) interval.
- Analysis (only with ``--only analysis``): the CPU time of ``uptown analyze`` over a 72-move
  three-player game at the default budget, with one and two jobs (target: 60 s).
- Engines (only with ``--only engines``; ``scripts/bench_engines.py``): the engine protocol's
  cost per move against the same game in one process (target: 2 ms more at most), and a
  tournament's throughput with ``--jobs 2`` (target 1.8x) and on a two-worker Dask
  ``LocalCluster`` (target 1.6x) against ``--jobs 1``, on the wall.

The figures are of the engine the Python that runs this imports: in an editable install, the
sources; run by the Python of an install made with ``UPTOWN_COMPILE=1 pip install .``
(docs/PERFORMANCE.md, "A faster engine"), the compiled engine; the first line says which.

Processes are timed by their CPU time (user + system), and work in this process by its CPU
time, so that other work on a shared machine disturbs the figures less. A ratio is taken run by
run (each run of a command right after a run of its floor) and summarised like the times.
"""

import argparse
import compileall
import datetime
import importlib.machinery
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_figures import summary, table

import uptown_cli
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.analysis.bots import choose_move
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.game import seat_colors
from uptown_cli.records.editing import render_record
from uptown_cli.analysis.selfplay import play_games, summarize

PARSE_ONLY = """\
import os, sys, yaml
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    with open(os.path.join(folder, name), "rb") as f:
        yaml.load(f, Loader=yaml.CSafeLoader)
"""
"""The validation floor: parse every record of a folder with PyYAML's C loader, nothing else."""

PARSE_EVENTS = """\
import sys, yaml
with open(sys.argv[1], encoding="utf-8") as f:
    parser = yaml.CSafeLoader(f.read())
while parser.check_event():
    parser.get_event()
"""
"""The floor for a deep record: read every event of one file from PyYAML's C parser, nothing
else (building Python objects with ``yaml.load`` takes far longer on such a file)."""

PEAK_MEMORY = """\
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
"""Run a command and print its peak resident set in KiB (Linux); run in a fresh process, so
that no earlier child counts."""

LAYOUTS = """\
try:
    from uptown_cli.engine.bags import seeded_bags
    from uptown_cli.engine.game import COLORS, Game, Player
    from uptown_cli.engine.groups import count_groups, cut_points
except ImportError:  # a baseline from before the packages: one flat package
    from uptown_cli.bags import seeded_bags
    from uptown_cli.game import COLORS, Game, Player, count_groups, cut_points
"""
"""The imports the scripts run against a baseline share, from this code's layout or the flat
one of the baselines (``6cbfd7b``, ``07dad68``)."""

MC_GAMES = LAYOUTS + """\
import sys, time
try:
    from uptown_cli.analysis.bots import choose_move
except ImportError:
    from uptown_cli.bots import choose_move
for seed in sys.argv[1:]:
    players = [Player("A", ("red", "green")), Player("B", ("blue", "yellow"))]
    game = Game(players, seeded_bags(seed, ["red", "green", "blue", "yellow"]))
    start = time.process_time()
    while not game.finished:
        bot = "mc" if game.ply % 2 == 0 else "greedy"
        color, move = choose_move(bot, game, seed=f"{seed}:{game.ply}", playouts=16)
        game.play(move, color)
    print(time.process_time() - start)
"""
"""CPU seconds of whole two-player games of mc (16 playouts) against greedy, one per seed;
run with the code to time first on ``sys.path``."""


ENGINE_RUN = LAYOUTS + """\
import random, sys, time
players = [Player(f"P{i + 1}", (color,)) for i, color in enumerate(COLORS[:4])]
games, warm = int(sys.argv[1]), int(sys.argv[2])
def played_randomly(game_bags, rng):
    game = Game(players, game_bags)
    while True:
        moves = game.legal_moves()
        if not moves:
            return game
        color, move = rng.choice(moves)
        game.play(move, color)
warm_rng = random.Random("warm")  # of its own: the timed games are the same whatever the warm-up
for i in range(warm):
    played_randomly(seeded_bags(f"warm-{i}", COLORS[:4]), warm_rng)
rng = random.Random(17)
bags = [seeded_bags(f"engine-{i}", COLORS[:4]) for i in range(games)]
start = time.process_time()
runs = []
for game_bags in bags:
    game = played_randomly(game_bags, rng)
    runs.append([(turn.move, turn.color) for turn in game.history])
rate = games / (time.process_time() - start)
start = time.process_time()
for game_bags, moves in zip(bags, runs):
    game = Game(players, game_bags)
    for move, color in moves:
        game.legal_moves()
        game.play(move, color)
per_move = (time.process_time() - start) / sum(map(len, runs)) * 1e6
print(rate, per_move)
"""
"""Random 4-player games per CPU second, then CPU microseconds of ``legal_moves()`` + ``play``
per move replaying the same games; run like ``MC_GAMES``, after ``argv[2]`` random games
(untimed, on other deals: the tables of windows filled as in a process that has played on)."""


GROUPS_RUN = LAYOUTS + """\
import json, sys, time
with open(sys.argv[1], encoding="utf-8") as f:
    positions = json.load(f)
repeats = int(sys.argv[2])
start = time.process_time()
for _ in range(repeats):
    for masks in positions:
        for mask in masks:
            count_groups(mask)
            cut_points(mask)
print((time.process_time() - start) / repeats / len(positions) * 1e6)
"""
"""CPU microseconds of ``count_groups`` + ``cut_points`` for every colour of a position, from
scratch, over the positions in the JSON file ``argv[1]`` (lists of masks); run like
``MC_GAMES``."""

GROUPS_BASELINE = "6cbfd7b"
"""The revision the engine's groups and cut points are compared with (before issue 20)."""

EVALUATION_RUN = """\
import random, sys, time
from uptown_cli.engine.game import Game
from uptown_cli.engine.playout import QUICK, Playout
from uptown_cli.analysis.deals import sample_bags
from uptown_cli.analysis.features import position_features
playouts = []
for players in (2, 3, 4, 5):
    for k in range(6):
        game = Game.new([f"P{i + 1}" for i in range(players)], seed=f"evaluation-{players}-{k}")
        rng = random.Random(k)
        while game.ply < 12 * k and not game.finished:
            color, move = rng.choice(game.legal_moves())
            game.play(move, color)
        playout = Playout(game, sample_bags(game, rng))
        playout.advance(QUICK, rng, 8)
        playouts.append(playout)
start = time.process_time()
for _ in range(int(sys.argv[1])):
    for playout in playouts:
        position_features(playout)
print((time.process_time() - start) / int(sys.argv[1]) / len(playouts) * 1e6)
"""
"""CPU microseconds of vista's evaluation's figures (``position_features``) per position, over
the ends of short playouts of 24 positions of games of 2 to 5 players; run with the code to
time first on ``sys.path``."""

EVALUATION_BASELINE = "4b45bbd"
"""The revision vista's evaluation is compared with (before each colour's cut points were
worked out once per position)."""


def seats(count):
    """``count`` players named P1, P2, ... with colours dealt in the default order."""
    return [Player(f"P{i + 1}", colors) for i, colors in enumerate(seat_colors(count))]


def bags_for(players, seed):
    """The bags of every colour of ``players`` under ``seed``."""
    return seeded_bags(seed, [color for player in players for color in player.colors])


def engine_is_compiled():
    """Whether the engine imported is the one compiled by mypyc (docs/PERFORMANCE.md, "A
    faster engine")."""
    import uptown_cli.engine.game

    return uptown_cli.engine.game.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def play_randomly(game, rng, plies=None):
    """Play ``game`` to its end (or to ``plies`` moves), each move chosen by ``rng`` among the
    legal ones."""
    while plies is None or game.ply < plies:
        moves = game.legal_moves()
        if not moves:
            break
        color, move = rng.choice(moves)
        game.play(move, color)
    return game


def process_cpu(argv):
    """CPU seconds (user + system) of one whole run of ``argv``, and what went wrong when it
    did not exit 0 (or None)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode == 0:
        return cpu, None
    lines = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()
    return cpu, f"exit status {done.returncode}: {lines[-1]}"


def compare_processes(floor_name, floor_argv, commands, runs, floor_prepare=None):
    """Figures for a floor process and for each ``(name, argv, target, prepare)`` of
    ``commands``, all run in turn ``runs`` times (``prepare``, when not None, is called untimed
    before each run; ``floor_prepare`` before each run of the floor), and for each command's
    ratio to the floor of the same run."""
    floors = []
    times = {name: [] for name, *_ in commands}
    ratios = {name: [] for name, *_ in commands}
    errors = {}
    for _ in range(runs):
        if floor_prepare is not None:
            floor_prepare()
        floor, error = process_cpu(floor_argv)
        if error:
            return {floor_name: {"error": error, "target": None}}
        floors.append(floor * 1000)
        for name, argv, _, prepare in commands:
            if name in errors:
                continue
            if prepare is not None:
                prepare()
            took, error = process_cpu(argv)
            if error:
                errors[name] = error
                continue
            times[name].append(took * 1000)
            ratios[name].append(took / floor)
    results = {floor_name: summary(floors, "ms")}
    for name, _, target, _ in commands:
        if name in errors:
            results[name] = {"error": errors[name], "target": target}
            continue
        results[name] = summary(times[name], "ms")
        results[f"{name} / {floor_name}"] = summary(ratios[name], "x", target)
    return results


def uptown_command():
    """The ``uptown`` script of this Python's environment, or the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "uptown")
    return beside if os.path.exists(beside) else shutil.which("uptown")


def write_game(path, players, seed, plies, rng):
    """A record at ``path`` of a seeded game after ``plies`` random moves; the game."""
    game = play_randomly(Game(players, bags_for(players, seed)), rng, plies)
    moves = [(turn.color, str(turn.move)) for turn in game.history]
    with open(path, "w", encoding="utf-8") as f:
        f.write(render_record(game.players, seed=seed, moves=moves))
    return game


def bench_startup(uptown, runs):
    with tempfile.TemporaryDirectory(prefix="uptown-bench-") as folder:
        kept = os.path.join(folder, "kept.yaml")
        game = write_game(kept, seats(2), "bench-startup", 90, random.Random(90))
        color, move = game.legal_moves()[0]
        played = os.path.join(folder, "game.yaml")

        def fresh_copy():
            shutil.copyfile(kept, played)

        commands = [
            ("import click, yaml (what uptown imports first)", [sys.executable, "-c", "import click, yaml"],
             None, None),
            ("uptown --version", [uptown, "--version"], None, None),
            ("uptown --help", [uptown, "--help"], None, None),
            ("uptown show (90 moves)", [uptown, "show", kept], 3.0, None),
            ("uptown moves (90 moves)", [uptown, "moves", kept], 3.0, None),
            ("uptown score (90 moves)", [uptown, "score", kept], 3.0, None),
            ("uptown move (90 moves)", [uptown, "move", played, str(move), "--rack", color], 3.0, fresh_copy),
        ]
        results = compare_processes("python -c pass", [sys.executable, "-c", "pass"], commands, runs)
        results.update(bench_hidden_move(uptown, folder, runs))
        return results


def bench_hidden_move(uptown, folder, runs):
    """``uptown move --as NAME`` in a hidden two-player game of 90 moves (played by the random
    bot through the command line, in this process) against the same move in an open game of
    the same moves (no seed, no hidden racks), each on a fresh copy."""
    from click.testing import CliRunner

    from uptown_cli.cli import main
    from uptown_cli.records.reading import load_record

    hidden, kept, played, keys = (os.path.join(folder, name) for name in (
        "hidden.yaml", "hidden-kept.yaml", "open.yaml", "keys"))
    runner = CliRunner()

    def uptown_here(*args):
        done = runner.invoke(main, list(args), env={"UPTOWN_KEYS": keys, "UPTOWN_GAME": None})
        if done.exit_code != 0:
            raise RuntimeError(f"uptown {' '.join(args)}: {done.output.strip()}")
        return done.stdout

    uptown_here("new", kept, "--hidden", "-p", "Ana", "-p", "Bo")
    for name in ("Ana", "Bo"):
        uptown_here("join", kept, "--as", name)
    for _ in range(90):
        name = json.loads(uptown_here("show", kept, "--json"))["to_move"]
        uptown_here("move", kept, "--bot", "random", "--as", name)
    name = json.loads(uptown_here("show", kept, "--json"))["to_move"]
    move = json.loads(uptown_here("moves", kept, "--json", "--as", name))["moves"][0]
    record = load_record(kept)
    open_text = render_record(record.game_players(), moves=[(m.color, m.text) for m in record.moves])

    saved = keys + "-saved"
    shutil.copytree(keys, saved)

    def fresh_keys():  # what each player saw: the game before the move timed
        shutil.rmtree(keys)
        shutil.copytree(saved, keys)

    def fresh_open():
        fresh_keys()
        with open(played, "w", encoding="utf-8") as f:
            f.write(open_text)

    def fresh_hidden():
        fresh_keys()
        shutil.copyfile(kept, hidden)

    os.environ["UPTOWN_KEYS"] = keys
    try:
        command = ("uptown move, hidden (90 moves)", [uptown, "move", hidden, move, "--as", name],
                   1.2, fresh_hidden)
        return compare_processes("uptown move, open (90 moves)",
                                 [uptown, "move", played, move, "--as", name], [command], runs,
                                 fresh_open)
    finally:
        del os.environ["UPTOWN_KEYS"]


def make_corpus(folder, games):
    """``games`` finished random games of 2 to 5 players written as records (records/README.md)
    into ``folder``."""
    rng = random.Random(2026)
    for i in range(games):
        write_game(os.path.join(folder, f"game-{i:05d}.yaml"), seats(2 + i % 4), f"bench-{i}", None, rng)


def peak_memory(argv, runs):
    """Peak resident set (MiB) of ``argv`` in each of ``runs`` fresh processes."""
    peaks = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", PEAK_MEMORY, *argv], capture_output=True, text=True)
        peaks.append(int(done.stdout) / 1024)
    return peaks


def bench_validation(uptown, runs, small, large):
    results = {}
    with tempfile.TemporaryDirectory(prefix="uptown-bench-") as folder:
        for games in (small, large):
            corpus = os.path.join(folder, str(games))
            os.mkdir(corpus)
            make_corpus(corpus, games)
            validate = [uptown, "validate", corpus]
            memory = peak_memory(validate, max(1, runs // 2))
            results[f"uptown validate {games} records, peak memory"] = summary(memory, "MiB", 40.0)
            if games == large:
                floor = [sys.executable, "-c", PARSE_ONLY, corpus]
                command = (f"uptown validate {games} records", validate, 1.2, None)
                results.update(compare_processes(f"parse {games} records (C loader)", floor, [command], runs))
    return results


def bench_deep(uptown, runs):
    """validate, diff and move on a record just under 1 MiB whose x- key holds 5,376 lists
    nested 97 deep, against reading its parser events once."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "records",
                          "in-progress.yaml")
    with open(source, encoding="utf-8") as f:
        head = f.read()
    nested = "[" * 95 + "]" * 95
    text = head + "x-deep: [" + ",".join([nested] * 5376) + "]\n"
    with tempfile.TemporaryDirectory(prefix="uptown-bench-") as folder:
        kept, copy, played = (os.path.join(folder, name) for name in ("deep.yaml", "copy.yaml", "g.yaml"))
        for path in (kept, copy):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)

        def fresh_copy():
            shutil.copyfile(kept, played)

        commands = [
            ("uptown validate, deep x- record", [uptown, "validate", kept], 3.0, None),
            ("uptown diff, deep x- record", [uptown, "diff", kept, copy], 6.0, None),
            ("uptown move, deep x- record", [uptown, "move", played, "6", "G6"], 6.0, fresh_copy),
        ]
        floor = [sys.executable, "-c", PARSE_EVENTS, kept]
        return compare_processes("parser events of the deep record", floor, commands, runs)


def legal_move_times(games, run):
    """Microseconds of ``legal_moves()`` in random games of 2 to 5 players: on every other
    position replayed from its moves into a new game (as a command that loads a record sees it,
    but for the engine's tables the process keeps) and on every position along the games (as a
    bot sees it), on deals of their own for each ``run``."""
    rng = random.Random(7)
    clock = time.perf_counter_ns
    fresh, along = [], []
    for i in range(games):
        players = seats(2 + i % 4)
        bags = bags_for(players, f"positions-{run}-{i}")
        game = Game(players, bags)
        while True:
            start = clock()
            moves = game.legal_moves()
            along.append((clock() - start) / 1000)
            if not moves:
                break
            color, move = rng.choice(moves)
            game.play(move, color)
        for ply in range(0, game.ply, 2):
            replayed = Game(players, bags)
            for turn in game.history[:ply]:
                replayed.play(turn.move, turn.color)
            start = clock()
            replayed.legal_moves()
            fresh.append((clock() - start) / 1000)
    return fresh, along


def move_cost(games, run):
    """CPU microseconds per move of ``legal_moves()`` and ``play`` along random 4-player games
    (the moves are chosen beforehand, so only the engine is timed), on deals of their own for
    each ``run``."""
    rng = random.Random(13)
    players = seats(4)
    runs = []
    for i in range(games):
        bags = bags_for(players, f"moves-{run}-{i}")
        game = play_randomly(Game(players, bags), rng)
        runs.append((bags, [(turn.move, turn.color) for turn in game.history]))
    start = time.process_time()
    for bags, moves in runs:
        game = Game(players, bags)
        for move, color in moves:
            game.legal_moves()
            game.play(move, color)
    took = time.process_time() - start
    return took / sum(len(moves) for _, moves in runs) * 1e6


def playouts_per_second(games, run):
    """Whole random 4-player games per CPU second, from the start, on one core: deals of their
    own for each ``run``, so that no run replays the games of an earlier one."""
    rng = random.Random(11)
    players = seats(4)
    bags = [bags_for(players, f"playout-{run}-{i}") for i in range(games)]
    start = time.process_time()
    for game_bags in bags:
        play_randomly(Game(players, game_bags), rng)
    return games / (time.process_time() - start)


def bench_engine(runs, games, playouts):
    fresh, along = [], []
    for run in range(runs):
        fresh_times, along_times = legal_move_times(games, run)
        fresh.append(statistics.median(fresh_times))
        along.append(statistics.median(along_times))
    per_move = [move_cost(games // 2, run) for run in range(runs)]
    rates = [playouts_per_second(playouts, run) for run in range(runs)]
    return {
        f"legal_moves(), {len(fresh_times)} replayed positions": summary(fresh, "us", 50.0),
        f"legal_moves(), {len(along_times)} positions along games": summary(along, "us", 15.0),
        "legal_moves() + play, per move along 4-player games": summary(per_move, "us", 10.0),
        "random 4-player games": summary(rates, "games/s", 2000.0),
    }


def game_positions(games, choose):
    """Every colour's mask in every position along ``games`` games of 2 to 5 players, each
    move picked by ``choose(game, rng)``."""
    rng = random.Random(23)
    positions = []
    for i in range(games):
        players = seats(2 + i % 4)
        game = Game(players, bags_for(players, f"groups-{i}"))
        while not game.finished:
            positions.append([game.mask(color) for color in game.colors])
            color, move = choose(game, rng)
            game.play(move, color)
        positions.append([game.mask(color) for color in game.colors])
    return positions


def bench_groups(runs, games):
    """``count_groups`` + ``cut_points`` for every colour of a position, from scratch, on the
    positions of random games and of games of greedy against itself, against the code of
    ``GROUPS_BASELINE`` run right after (target: 4x faster)."""
    results = {}
    here = os.path.dirname(os.path.dirname(os.path.abspath(uptown_cli.__file__)))
    sets = {
        "random": lambda game, rng: rng.choice(game.legal_moves()),
        "greedy": lambda game, rng: choose_move("greedy", game, seed=rng.random()),
    }
    with tempfile.TemporaryDirectory(prefix="uptown-bench-") as folder:
        old = baseline_package(GROUPS_BASELINE, folder)
        probe = os.path.join(folder, "probe.json")
        with open(probe, "w", encoding="utf-8") as f:
            json.dump([[0]], f)
        if old is not None and baseline_run(old, GROUPS_BASELINE, GROUPS_RUN, probe, "1") is None:
            old = None
        for name, choose in sets.items():
            positions = game_positions(games, choose)
            data = os.path.join(folder, f"{name}.json")
            with open(data, "w", encoding="utf-8") as f:
                json.dump(positions, f)
            now, ratios = [], []
            for _ in range(runs):
                (took,) = run_with(here, GROUPS_RUN, data, "3")
                now.append(took)
                if old is not None:
                    (took_before,) = run_with(old, GROUPS_RUN, data, "3")
                    ratios.append(took_before / took)
            label = f"groups + cut points, {len(positions)} positions of {name} games"
            results[label] = summary(now, "us")
            if old is None:
                results[f"{label}, vs {GROUPS_BASELINE}"] = {"error": "baseline skipped", "target": 4.0}
            else:
                results[f"{label}, {GROUPS_BASELINE} / this code"] = summary(ratios, "x faster", 4.0)
    return results


def bench_evaluation(runs):
    """vista's evaluation per position (``EVALUATION_RUN``), against the code of
    ``EVALUATION_BASELINE`` run right after."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(uptown_cli.__file__)))
    with tempfile.TemporaryDirectory(prefix="uptown-bench-") as folder:
        old = baseline_package(EVALUATION_BASELINE, folder)
        if old is not None and baseline_run(old, EVALUATION_BASELINE, EVALUATION_RUN, "1") is None:
            old = None
        now, ratios = [], []
        for _ in range(runs):
            (took,) = run_with(here, EVALUATION_RUN, "500")
            now.append(took)
            if old is not None:
                (took_before,) = run_with(old, EVALUATION_RUN, "500")
                ratios.append(took / took_before)
    label = "vista's evaluation (position_features), per position"
    results = {label: summary(now, "us")}
    if old is None:
        results[f"{label}, vs {EVALUATION_BASELINE}"] = {"error": "baseline skipped", "target": None}
    else:
        results[f"{label}, this code / {EVALUATION_BASELINE}"] = summary(ratios, "x the CPU")
    return results


def baseline_package(revision, folder):
    """Extract ``uptown_cli`` as it was at git ``revision`` of the checkout this script is in
    (which a compiled install's package is not) into ``folder``; None, with one line on
    standard error, when this is not a git checkout or the revision is unknown."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        archive = subprocess.run(["git", "-C", root, "archive", revision, "uptown_cli"], capture_output=True)
    except OSError as exc:  # no git on this machine
        print(f"bench: skipping the baseline {revision}: cannot run git ({exc.strerror})", file=sys.stderr)
        return None
    if archive.returncode != 0:
        print(f"bench: skipping the baseline {revision}: not in this checkout's history "
              "(a shallow clone?)", file=sys.stderr)
        return None
    folder = os.path.join(folder, revision)
    os.makedirs(folder, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
    return folder


def baseline_run(path, revision, script, *args):
    """``run_with`` for the code of a baseline: None, with one line on standard error saying
    why, when that code cannot run the script (too old, or broken there)."""
    try:
        return run_with(path, script, *args)
    except RuntimeError as exc:
        print(f"bench: skipping the baseline {revision}: {exc}", file=sys.stderr)
        return None


def run_with(path, script, *args):
    """The numbers ``script`` prints when run with the package at ``path``: run from there
    (``-c`` puts the current folder first on the path) and with ``-S``, which keeps an
    installed uptown out (the engine and the bots need only the standard library)."""
    argv = [sys.executable, "-S", "-c", script, *args]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=path)
    if done.returncode != 0:
        raise RuntimeError((done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1])
    return [float(word) for word in done.stdout.split()]


def bot_move_seconds(bot, positions):
    """CPU microseconds per move of ``bot`` over ``positions``."""
    start = time.process_time()
    for game in positions:
        choose_move(bot, game, seed=1)
    return (time.process_time() - start) / len(positions) * 1e6


def bench_bots(runs, games, baseline, engine_games, warm):
    results = {}
    here = os.path.dirname(os.path.dirname(os.path.abspath(uptown_cli.__file__)))
    with tempfile.TemporaryDirectory(prefix="uptown-bench-") as folder:
        old = baseline_package(baseline, folder)
        if old is not None and baseline_run(old, baseline, ENGINE_RUN, "1", "0") is None:
            old = None
        if old is None:
            results[f"code at {baseline}"] = {"error": "baseline skipped", "target": 2.0}
        rates, rates_before, ratios, speed_ups = [], [], [], []
        for _ in range(runs if old else 0):
            rate, per_move = run_with(here, ENGINE_RUN, str(engine_games), str(warm))
            rate_before, per_move_before = run_with(old, ENGINE_RUN, str(engine_games), str(warm))
            rates.append(rate)
            rates_before.append(rate_before)
            ratios.append(rate / rate_before)
            speed_ups.append(per_move_before / per_move)
        if old:
            after = f" after {warm} others" if warm else ""
            results[f"random 4-player games{after}, a process of its own"] = summary(rates, "games/s", 2000.0)
            results[f"random 4-player games{after}, a process of its own, at {baseline}"] = summary(rates_before, "games/s")
            results[f"random 4-player games{after}, this code / {baseline}"] = summary(ratios, "x faster")
            results[f"legal_moves() + play per move, {baseline} / this code"] = summary(speed_ups, "x faster")
        seeds = [f"mc-{i}" for i in range(games)]
        now, before, ratios = [], [], []
        for _ in range(max(1, runs // 3)):
            took = run_with(here, MC_GAMES, *seeds)
            now += took
            if old is not None:
                took_before = run_with(old, MC_GAMES, *seeds)
                before += took_before
                ratios += [b / a for a, b in zip(took, took_before)]
        results["mc (16 playouts) vs greedy, per game"] = summary(now, "s")
        if old is not None:
            results[f"mc per game at {baseline}"] = summary(before, "s")
            results[f"mc speed-up over {baseline}"] = summary(ratios, "x faster", 2.0)
    rng = random.Random(5)
    positions = [play_randomly(Game(seats(4), bags_for(seats(4), f"bot-{i}")), rng, 8 * i) for i in range(10)]
    for bot in ("random", "greedy"):
        results[f"{bot} bot, per move"] = summary([bot_move_seconds(bot, positions) for _ in range(runs)], "us")
    return results


STRENGTH_TARGETS = {2: 0.65, 4: 0.35}
"""The win rate (first place; a shared first counts as a share) horizon should reach against
``mc`` with 1 or 3 ``mc`` at the table."""

VISTA_TARGETS = {2: 0.75, 4: 0.45}
"""The same for vista (issue 37)."""


def bench_strength(bot, games, seconds, jobs, tables, seed="bench-strength"):
    """``bot`` against ``mc`` at ``seconds`` of CPU time per move each, for each number of
    players in ``tables``: two-player games, four-player games against three ``mc``; first
    places with their 95% (Wilson) interval. The games are dealt from ``seed`` and the number
    of players."""
    results = {}
    for players in tables:
        target = (VISTA_TARGETS if bot == "vista" else STRENGTH_TARGETS)[players]
        lineup = [bot] + ["mc"] * (players - 1)
        played = list(play_games(lineup, players, games, f"{seed}-{players}", jobs=jobs,
                                 options={"seconds": seconds}))
        mine = summarize(played, [bot, "mc"])[0]
        low, high = mine.interval
        opponents = "mc" if players == 2 else f"{players - 1} mc"
        results[f"{bot} vs {opponents}, {games} games at {seconds:g} s/move, first"] = {
            "median": mine.win_rate, "min": low, "max": high, "runs": games,
            "unit": "share (95% interval)", "target": target, "higher": True,
        }
    return results


def bench_analysis(uptown, runs):
    """``uptown analyze`` of a 72-move three-player game at the default budget: CPU seconds of
    the whole process and its workers, with one and two jobs."""
    record = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "records", "3p-blockers.yaml")
    results = {}
    for jobs in (1, 2):
        times = []
        for _ in range(runs):
            cpu, error = process_cpu([uptown, "analyze", record, "--seed", "1", "--jobs", str(jobs)])
            if error:
                return {"analyze": {"error": error, "target": 60.0}}
            times.append(cpu)
        results[f"analyze, 72 moves, 3 players, --jobs {jobs}, CPU"] = summary(times, "s", 60.0)
    return results


def compile_bytecode():
    """Compile uptown's modules to bytecode, as a regular ``pip install`` does, so that the
    processes timed do not compile them on every start (they would where an editable
    install runs with PYTHONDONTWRITEBYTECODE set)."""
    compileall.compile_dir(os.path.dirname(uptown_cli.__file__), quiet=1)


PARTS = ("startup", "validation", "deep", "engine", "groups", "evaluation", "bots")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="fewer runs and games (a smoke test)")
    parser.add_argument("--only", choices=PARTS + ("strength", "analysis", "engines"), action="append",
                        help="run only this part")
    parser.add_argument("--baseline", default="07dad68",
                        help="git revision whose mc the bots part compares with (default: before issue 13)")
    parser.add_argument("--warm", type=int, default=0, metavar="GAMES",
                        help="bots: random games each process plays before the engines are timed against "
                             "the baseline (its tables of windows filled; then 300 games are timed)")
    parser.add_argument("--games", type=int, default=200, help="strength: games to play (default 200)")
    parser.add_argument("--seconds", type=float, default=0.05, help="strength: CPU seconds per move")
    parser.add_argument("--bot", default="vista", help="strength: the bot to play against mc")
    parser.add_argument("--seed", default="bench-strength",
                        help="strength: the seed the games are dealt from (with the players)")
    parser.add_argument("--players", type=int, choices=sorted(STRENGTH_TARGETS), action="append",
                        help="strength: only games of this many players (default: 2, then 4)")
    parser.add_argument("--jobs", type=int, default=1, help="strength: processes to play in")
    args = parser.parse_args()
    parts = args.only or PARTS
    args.players = args.players or sorted(STRENGTH_TARGETS)
    runs = 3 if args.quick else 7
    uptown = uptown_command()
    compile_bytecode()
    results = {}
    if uptown is None and {"startup", "validation"} & set(parts):
        results["uptown command"] = {"error": "not installed: start-up and validation not measured", "target": None}
    if uptown and "startup" in parts:
        results.update(bench_startup(uptown, runs * 3))
    if uptown and "validation" in parts:
        results.update(bench_validation(uptown, runs, 40 if args.quick else 400, 400 if args.quick else 4000))
    if uptown and "deep" in parts:
        results.update(bench_deep(uptown, runs))
    if "engine" in parts:
        results.update(bench_engine(runs, 8 if args.quick else 40, 10 if args.quick else 60))
    if "groups" in parts:
        results.update(bench_groups(runs, 8 if args.quick else 40))
    if "evaluation" in parts:
        results.update(bench_evaluation(runs))
    if "bots" in parts:
        engine_games = 10 if args.quick else 300 if args.warm else 40
        results.update(bench_bots(runs, 1 if args.quick else 3, args.baseline, engine_games, args.warm))
    if "strength" in parts:
        results.update(bench_strength(args.bot, args.games, args.seconds, args.jobs, args.players,
                                      args.seed))
    if uptown and "analysis" in parts:
        results.update(bench_analysis(uptown, 1 if args.quick else 3))
    if "engines" in parts:
        from bench_engines import bench_engines

        results.update(bench_engines(2 if args.quick else 5))
    machine = {
        "date": datetime.date.today().isoformat(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "engine": "compiled by mypyc" if engine_is_compiled() else "Python",
    }
    if args.json:
        print(json.dumps({"machine": machine, "results": results}, indent=1))
    else:
        print(f"{machine['date']}, {machine['cores']} cores, Python {machine['python']}, "
              f"{machine['platform']}, the engine {machine['engine']}")
        print(table(results))


if __name__ == "__main__":
    main()
