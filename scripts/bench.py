"""Benchmarks of uptown on this machine: start-up, validation against its floor, and the engine.

Run as ``python scripts/bench.py`` in the project's environment; ``--json`` prints the figures
as JSON, ``--quick`` takes fewer runs, ``--only PART`` runs one part. Every figure is the median
of several runs with the smallest and largest beside it, so a noisy machine shows as a spread.

- Start-up: ``uptown --version`` and ``uptown --help`` against a bare ``python -c pass``.
- Validation: ``uptown validate`` over a corpus of finished random games of 2 to 5 players
  against a process that only parses the same files with PyYAML's C loader.
- Engine: ``legal_moves()`` per position (in a game replayed from its moves, nothing cached, and
  along the games, as a bot sees it) and whole random 4-player games per second from the start.

Processes are timed by their CPU time (user + system), and the playouts by this process's CPU
time, so that other work on a shared machine disturbs the figures less. A ratio is taken run by
run (each run of a command right after a run of its floor) and summarised like the times.
"""

import argparse
import compileall
import datetime
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

from tabulate import tabulate

import uptown_cli
from uptown_cli.bags import seeded_bags
from uptown_cli.game import COLORS, Game, Player
from uptown_cli.record_writer import render_record

PARSE_ONLY = """\
import sys, yaml
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        yaml.load(f, Loader=yaml.CSafeLoader)
"""
"""The validation floor: parse every record with PyYAML's C loader and do nothing else."""


def seats(count):
    """``count`` players named P1, P2, ... with colours dealt in the default order."""
    dealt = (("red", "green"), ("blue", "yellow")) if count == 2 else [(c,) for c in COLORS[:count]]
    return [Player(f"P{i + 1}", colors) for i, colors in enumerate(dealt)]


def bags_for(players, seed):
    """The bags of every colour of ``players`` under ``seed``."""
    return seeded_bags(seed, [color for player in players for color in player.colors])


def play_randomly(game, rng):
    """Play ``game`` to its end, each move chosen by ``rng`` among the legal ones."""
    while True:
        moves = game.legal_moves()
        if not moves:
            return game
        color, move = rng.choice(moves)
        game.play(move, color)


def summary(values, unit, target=None):
    """Median, min and max of ``values``, with their unit and the target to meet."""
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "runs": len(values),
        "unit": unit,
        "target": target,
    }


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


def compare_processes(floor_name, floor_argv, commands, runs):
    """Figures for a floor process and for each ``(name, argv, target)`` of ``commands``, all
    run in turn ``runs`` times, and for each command's ratio to the floor of the same run."""
    floors = []
    times = {name: [] for name, _, _ in commands}
    ratios = {name: [] for name, _, _ in commands}
    for _ in range(runs):
        floor, _ = process_cpu(floor_argv)
        floors.append(floor * 1000)
        for name, argv, _ in commands:
            took, error = process_cpu(argv)
            if error:
                return {name: {"error": error}}
            times[name].append(took * 1000)
            ratios[name].append(took / floor)
    results = {floor_name: summary(floors, "ms")}
    for name, _, target in commands:
        results[name] = summary(times[name], "ms")
        results[f"{name} / {floor_name}"] = summary(ratios[name], "x", target)
    return results


def uptown_command():
    """The ``uptown`` script of this Python's environment, or the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "uptown")
    return beside if os.path.exists(beside) else shutil.which("uptown")


def bench_startup(uptown, runs):
    commands = [
        ("uptown --version", [uptown, "--version"], 4.0),
        ("uptown --help", [uptown, "--help"], None),
    ]
    return compare_processes("python -c pass", [sys.executable, "-c", "pass"], commands, runs)


def make_corpus(folder, games):
    """``games`` finished random games of 2 to 5 players written as records (SPEC section 3)
    into ``folder``; their paths."""
    rng = random.Random(2026)
    paths = []
    for i in range(games):
        seed = f"bench-{i}"
        players = seats(2 + i % 4)
        game = play_randomly(Game(players, bags_for(players, seed)), rng)
        moves = [(turn.color, str(turn.move)) for turn in game.history]
        path = os.path.join(folder, f"game-{i:04d}.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(render_record(game.players, seed=seed, moves=moves))
        paths.append(path)
    return paths


def bench_validation(uptown, runs, games):
    with tempfile.TemporaryDirectory(prefix="uptown-bench-") as folder:
        paths = make_corpus(folder, games)
        validate = (f"uptown validate {games} records", [uptown, "validate", *paths], 1.5)
        floor = [sys.executable, "-c", PARSE_ONLY, *paths]
        return compare_processes(f"parse {games} records (C loader)", floor, [validate], runs)


def legal_move_times(games):
    """Microseconds of ``legal_moves()`` in random games of 2 to 5 players: on every other
    position replayed from its moves into a new game (nothing cached yet, as a command that
    loads a record sees it) and on every position along the games (as a bot sees it)."""
    rng = random.Random(7)
    clock = time.perf_counter_ns
    fresh, along = [], []
    for i in range(games):
        players = seats(2 + i % 4)
        bags = bags_for(players, f"positions-{i}")
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


def playouts_per_second(games):
    """Whole random 4-player games per CPU second, from the start, on one core."""
    rng = random.Random(11)
    players = seats(4)
    bags = [bags_for(players, f"playout-{i}") for i in range(games)]
    start = time.process_time()
    for game_bags in bags:
        play_randomly(Game(players, game_bags), rng)
    return games / (time.process_time() - start)


def bench_engine(runs, games, playouts):
    fresh, along = [], []
    for _ in range(runs):
        fresh_times, along_times = legal_move_times(games)
        fresh.append(statistics.median(fresh_times))
        along.append(statistics.median(along_times))
    rates = [playouts_per_second(playouts) for _ in range(runs)]
    return {
        f"legal_moves(), {len(fresh_times)} replayed positions": summary(fresh, "us", 50.0),
        f"legal_moves(), {len(along_times)} positions along games": summary(along, "us"),
        "random 4-player games": summary(rates, "games/s", 300.0),
    }


def met(figure):
    """'yes' or 'no' for the figure's median against its target; '' without a target."""
    target = figure["target"]
    if target is None:
        return ""
    if figure["unit"].endswith("/s"):
        return "yes" if figure["median"] >= target else "no"
    return "yes" if figure["median"] <= target else "no"


def table(results):
    rows = []
    for name, figure in results.items():
        if "error" in figure:
            rows.append([name, "n/a", "", "", "", "", figure["error"]])
            continue
        target = figure["target"]
        bound = "" if target is None else f"{'>=' if figure['unit'].endswith('/s') else '<='} {target:g}"
        rows.append(
            [name]
            + [f"{figure[k]:.3g}" for k in ("median", "min", "max")]
            + [figure["unit"], bound, met(figure)]
        )
    return tabulate(rows, headers=["measure", "median", "min", "max", "unit", "target", "met"])


def compile_bytecode():
    """Compile uptown's modules to bytecode, as a regular ``pip install`` does, so that the
    processes timed do not compile them on every start (they would where an editable
    install runs with PYTHONDONTWRITEBYTECODE set)."""
    compileall.compile_dir(os.path.dirname(uptown_cli.__file__), quiet=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="fewer runs and games (a smoke test)")
    parser.add_argument(
        "--only", choices=("startup", "validation", "engine"), action="append", help="run only this part"
    )
    args = parser.parse_args()
    parts = args.only or ["startup", "validation", "engine"]
    runs = 3 if args.quick else 7
    uptown = uptown_command()
    compile_bytecode()
    results = {}
    if uptown is None and {"startup", "validation"} & set(parts):
        results["uptown command"] = {"error": "not installed: start-up and validation not measured"}
    if uptown and "startup" in parts:
        results.update(bench_startup(uptown, runs * 3))
    if uptown and "validation" in parts:
        results.update(bench_validation(uptown, runs, 40 if args.quick else 400))
    if "engine" in parts:
        results.update(bench_engine(runs, 8 if args.quick else 40, 10 if args.quick else 60))
    machine = {
        "date": datetime.date.today().isoformat(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    if args.json:
        print(json.dumps({"machine": machine, "results": results}, indent=1))
    else:
        print(f"{machine['date']}, {machine['cores']} cores, Python {machine['python']}, "
              f"{machine['platform']}")
        print(table(results))


if __name__ == "__main__":
    main()
