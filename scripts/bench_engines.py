"""Benchmarks of engines and tournaments, each figure beside its target, as ``bench.py``
measures (``python scripts/bench.py --only engines``, or this script alone; ``--quick``:
fewer runs; ``--json``). Times on the wall (three processes take part), each run of a measure
right after the run it is compared with, the median of several runs with the smallest and
largest beside it:

- the protocol's cost per move: whole games between two ``uptown engine --bot random``
  processes (started and past their handshake before the clock starts) against the same
  games in this process (target: at most 2 ms a move more), on the wall and in the CPU time
  of the three processes (which a busy machine disturbs less), and what starting the two
  engines and their handshake costs a game;
- a tournament's throughput (games of uptown's bots in the tournament's own processes): with
  ``--jobs 2`` against ``--jobs 1`` (target 1.8x), and on a Dask ``LocalCluster`` of two
  worker processes, started before the clock starts, against ``--jobs 1`` (target 1.6x).
"""

import argparse
import json
import os
import sys
import tempfile
import time

from bench_figures import summary, table

from uptown_cli.analysis.bot_programs import BotProgram, program_signals
from uptown_cli.analysis.match import Entrant, GameTask, Limits, play_move
from uptown_cli.analysis.tournament import Settings, Tournament
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.game import seat_colors

ENGINE = (sys.executable, "-m", "uptown_cli", "engine", "--bot", "random")


GAMES_PER_RUN = 4
"""Games a run plays through the same two engine processes (they keep no state)."""


def one_game(seed, engines):
    """Moves of a random-against-random game of ``seed``, its moves chosen by ``engines``
    (one per seat) or, with None, in this process."""
    lineup = tuple(Entrant(f"p{i}", bot="random") for i in range(2))
    task = GameTask(1, 0, seed, lineup, "standard", Limits(move=30.0))
    players = [Player(e.name, c) for e, c in zip(lineup, seat_colors(2))]
    bags = seeded_bags(seed, [c for p in players for c in p.colors])
    game, clocks, moves = Game(players, bags), [None, None], []
    while not game.finished:
        seat = game.players.index(game.to_move)
        play_move(game, bags, seat, task, None if engines is None else engines[seat], clocks, moves)
    return game.ply


def process_seconds(pids):
    """The CPU time (user + system) the processes ``pids`` have used so far."""
    ticks = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as status:
            ticks += sum(map(int, status.read().rsplit(")", 1)[1].split()[11:13]))
    return ticks / os.sysconf("SC_CLK_TCK")


def games_timed(run, engines):
    """(wall seconds, CPU seconds of this process and the engines, moves) of
    ``GAMES_PER_RUN`` games."""
    pids = [engine.process.pid for engine in engines or ()]
    wall, cpu, engines_cpu = time.perf_counter(), time.process_time(), process_seconds(pids)
    moves = sum(one_game(f"bench-protocol-{run}-{n}", engines) for n in range(GAMES_PER_RUN))
    return (time.perf_counter() - wall,
            time.process_time() - cpu + process_seconds(pids) - engines_cpu, moves)


def bench_protocol(runs):
    """Milliseconds a move more through two engine processes than in this process (on the
    wall, and in CPU time of all three processes), and the start-up of the two engines."""
    wall, cpu, startups = [], [], []
    with program_signals():
        for run in range(runs):
            started = time.perf_counter()
            engines = [BotProgram(ENGINE) for _ in range(2)]
            try:
                for engine in engines:
                    engine.handshake(30)
                startups.append((time.perf_counter() - started) * 1000)
                through = games_timed(run, engines)
            finally:
                for engine in engines:
                    engine.end()
            inside = games_timed(run, None)
            assert inside[2] == through[2]
            wall.append((through[0] - inside[0]) / through[2] * 1000)
            cpu.append((through[1] - inside[1]) / through[2] * 1000)
    return {
        "protocol: a move through 2 uptown engine processes, more than in one process (wall)":
            summary(wall, "ms", 2.0),
        "protocol: the same in CPU time of the 3 processes": summary(cpu, "ms", 2.0),
        "protocol: starting 2 engines and their handshake, a game": summary(startups, "ms"),
    }


def tournament_seconds(folder, seed, jobs=1, cluster=None):
    """Wall seconds of a small tournament of uptown's bots (16 games)."""
    entrants = (Entrant("mc", bot="mc"), Entrant("greedy", bot="greedy"))
    settings = Settings(entrants, deals=8, seed=seed, limits=Limits(bot_options=(("playouts", 4),)))
    run = Tournament.create(os.path.join(folder, f"{seed}-{jobs}-{cluster is not None}"), settings)
    started = time.perf_counter()
    for _ in run.run(jobs, cluster):
        pass
    return time.perf_counter() - started


def bench_throughput(runs):
    """``--jobs 2`` and a 2-worker LocalCluster against ``--jobs 1``, run by run."""
    results = {}
    jobs, dask = [], []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(runs):
            one = tournament_seconds(folder, f"jobs-{run}")
            jobs.append(one / tournament_seconds(folder, f"jobs-{run}", jobs=2))
        results["tournament: games a second, --jobs 2 / --jobs 1"] = summary(jobs, "x faster", 1.8)
        try:
            from distributed import LocalCluster
        except ImportError:
            results["tournament: 2-worker LocalCluster / --jobs 1"] = {
                "error": "distributed is not installed (pip install 'uptown[cluster]')", "target": 1.6}
            return results
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            tournament_seconds(folder, "warm", cluster=cluster.scheduler_address)
            for run in range(runs):
                one = tournament_seconds(folder, f"dask-{run}")
                dask.append(one / tournament_seconds(folder, f"dask-{run}", cluster=cluster.scheduler_address))
        results["tournament: games a second, 2-worker LocalCluster / --jobs 1"] = summary(dask, "x faster", 1.6)
    return results


def bench_engines(runs):
    return {**bench_protocol(runs * 2), **bench_throughput(runs)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    args = parser.parse_args()
    results = bench_engines(2 if args.quick else 5)
    print(json.dumps(results, indent=1) if args.json else table(results))


if __name__ == "__main__":
    main()
