"""The SPRT's error rates, by simulation: ``uptown tournament --sprt``'s rule (analysis.sprt:
fishtest's GSPRT on deal pairs, decided after each pair) run many times on pairs drawn from a
known distribution, at each bound of the test. At ELO0 the share of runs that accept H1 is the
false-positive rate, at most alpha; at ELO1 the share that accept H0 is the false-negative
rate, at most beta. docs/TOURNAMENTS.md gives the figures of

    python scripts/sprt_simulation.py --runs 10000 --jobs 2

(the default: 10,000 runs at each bound of [0, 5], [0, 20] and [0, 50], two models of pairs),
with each rate's 95% interval. A run is deterministic for its seed and its number, whatever
``--jobs``; ``--at elo0`` or ``--at elo1`` runs one bound alone, with the same figures as the
whole. A run ends where, and as, the LLR worked out after every pair would end it; it is worked
out only where it may leave the test's bounds (``run``), which makes the 10,000 runs of [0, 5]
(10,000 to 16,000 pairs each) ten times faster.

The models of a deal pair (the pentanomial: the first entrant's score over the two games of a
deal, 0 to 2, with the seats swapped), each made to have the expected score of the Elo tested:
- ``independent``: the two games independent, each drawn (a shared first place) with
  probability DRAWS, won or lost otherwise;
- ``deal-split``: the deal favours a seat, so that most pairs split 1-1; its shape is
  SPLIT_SHAPE, tilted to the expected score (p_i proportional to q_i e^(t i)).
"""

import argparse
import itertools
import math
import random
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from uptown_cli.analysis.pool import in_pool  # noqa: E402
from uptown_cli.analysis.sprt import (  # noqa: E402
    REGULARIZED, Sprt, expected_score, nearest_distribution, sprt_llr)

DRAWS = 0.017
"""The share of two-player games with a shared first place: 10 of 600 games of mc at one
playout against mc at two (``uptown tournament a=mc b=mc --option a.playouts=1 --option
b.playouts=2 --deals 300 --seed shape``), whose pairs split as often as independent games
would (47% of the deals)."""

SPLIT_SHAPE = (0.08, 0.05, 0.74, 0.05, 0.08)
"""The pentanomial shape of the ``deal-split`` model, a harder case than Uptown's: three pairs
in four split, so that a pair tells less and the test decides on fewer pairs."""

CHUNK = 100
"""Runs per task handed to a worker."""


def independent(elo: float, draws: float = DRAWS) -> list[float]:
    """The pentanomial of two independent games, each drawn with probability ``draws`` and
    scoring ``expected_score(elo)`` on average."""
    s = expected_score(elo)
    win, loss = s - draws / 2, 1 - s - draws / 2
    return [loss * loss, 2 * loss * draws, 2 * win * loss + draws * draws, 2 * win * draws,
            win * win]


def deal_split(elo: float) -> list[float]:
    """``SPLIT_SHAPE`` tilted to score ``expected_score(elo)`` a game on average."""
    target = 4 * expected_score(elo)  # in quarter points: 0 to 4
    low, high = -50.0, 50.0
    for _ in range(200):
        t = (low + high) / 2
        weights = [q * math.exp(t * i) for i, q in enumerate(SPLIT_SHAPE)]
        if sum(i * w for i, w in enumerate(weights)) / sum(weights) < target:
            low = t
        else:
            high = t
    total = sum(weights)
    return [w / total for w in weights]


MODELS = {"independent": independent, "deal-split": deal_split}


class Task(NamedTuple):
    """``runs`` runs of ``test`` on pairs drawn from ``pairs``, seeded by ``seed`` and ``first``."""

    test: Sprt
    pairs: tuple[float, ...]
    first: int
    runs: int
    seed: int


MARGIN = 1e-6
"""How near a bound of the test the LLR's bounds (``run``) may come before it is worked out."""


def run_tests(task: Task) -> tuple[int, int]:
    """``(runs that accepted H1, pairs played in all)`` of ``task`` (the others accepted H0)."""
    h1 = played = 0
    chances = list(itertools.accumulate(task.pairs))
    for number in range(task.first, task.first + task.runs):
        decision, pairs = run(task.test, random.Random(f"{task.seed}-{number}"), chances)
        h1 += decision == "H1"
        played += pairs
    return h1, played


def run(test: Sprt, rng: random.Random, chances: list[float]) -> tuple[str, int]:
    """One run of ``test``: pairs drawn (their scores 0 to 4 by ``chances``, cumulative) and
    the test decided after each, until it decides: ``(decision, pairs)``, as ``sprt_llr``
    after each pair gives them. That LLR is worked out only where it may have left the test's
    bounds; between, two bounds on it tell that it has not, in a few operations a pair. With
    q0 and q1 the nearest distributions of H0 and H1 (``nearest_distribution``) and p the
    counts' own, all three as they were at the last LLR worked out, and the counts n now (N
    in all, a count of 0 taken as REGULARIZED), the most likely distribution of Hi gives the
    counts a log-likelihood between sum n log qi (qi is one of Hi's) and sum n log(n/N) - sum
    n log(p/qi) (Jensen's inequality: sum n log(r (p/qi) N/n) <= N log sum r p/qi = 0 for
    any r of Hi's mean, since p/qi = 1 + t (a - mean)); the LLR is H1's less H0's."""
    counts, weights = [0] * 5, [REGULARIZED] * 5
    low, high = test.bounds()
    scores = range(5)
    # refreshed with each LLR worked out: for each score, log q0, log q1, log(p/q0), log(p/q1)
    logs: list[tuple[float, float, float, float]] = []
    sums = [0.0] * 4  # sum n times each of those logs
    entropy = total = 0.0  # sum n log n, N
    while True:
        score = rng.choices(scores, cum_weights=chances)[0]
        counts[score] += 1
        if logs:
            added = counts[score] - weights[score]
            sums = [s + added * x for s, x in zip(sums, logs[score])]
            entropy += counts[score] * math.log(counts[score]) - weights[score] * math.log(weights[score])
            total += added
            weights[score] = counts[score]
            most = entropy - total * math.log(total)
            below = sums[1] - (most - sums[2])  # H1's least less H0's most
            above = (most - sums[3]) - sums[0]
            if low + MARGIN < below and above < high - MARGIN:
                continue
        weights[score] = counts[score]
        decision = test.decision(sprt_llr(counts, test.elo0, test.elo1))
        if decision is not None:
            return decision, sum(counts)
        total = sum(weights)
        near0, near1 = (nearest_distribution(counts, elo) for elo in (test.elo0, test.elo1))
        logs = [(math.log(q0), math.log(q1), math.log(w / total / q0), math.log(w / total / q1))
                for w, q0, q1 in zip(weights, near0, near1)]
        sums = [sum(w * x[i] for w, x in zip(weights, logs)) for i in range(4)]
        entropy = sum(w * math.log(w) for w in weights)


def simulate(test: Sprt, pairs: list[float], runs: int, seed: int, jobs: int = 1) -> tuple[float, float]:
    """``(share of runs that accepted H1, mean pairs a run)`` of ``runs`` runs of ``test``."""
    tasks = [Task(test, tuple(pairs), first, min(CHUNK, runs - first), seed)
             for first in range(0, runs, CHUNK)]
    h1 = played = 0
    for accepted, pairs_played in in_pool(run_tests, tasks, jobs):
        h1 += accepted
        played += pairs_played
    return h1 / runs, played / runs


def interval(rate: float, runs: int) -> str:
    """``rate`` with its 95% interval (Wilson's), as percentages."""
    z = 1.959964
    centre = (rate + z * z / (2 * runs)) / (1 + z * z / runs)
    half = z * math.sqrt(rate * (1 - rate) / runs + z * z / (4 * runs * runs)) / (1 + z * z / runs)
    return f"{100 * rate:.2f}% ({100 * (centre - half):.2f}-{100 * (centre + half):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10000, help="runs at each bound (10000)")
    parser.add_argument("--bounds", nargs="+", default=["0,5", "0,20", "0,50"], metavar="ELO0,ELO1")
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--at", choices=["elo0", "elo1"], help="run at one bound alone")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=35)
    options = parser.parse_args()
    print(f"{options.runs} runs at each bound, alpha {options.alpha}, beta {options.beta}, "
          f"seed {options.seed}\n")
    print("| bounds | model | false positives at ELO0 (alpha) | pairs | "
          "false negatives at ELO1 (beta) | pairs |")
    print("|---|---|---|---|---|---|")
    for bounds in options.bounds:
        elo0, elo1 = map(float, bounds.split(","))
        test = Sprt(elo0, elo1, options.alpha, options.beta)
        for model in options.models:
            row = f"| [{elo0:g}, {elo1:g}] | {model} |"
            for at, elo, seed in (("elo0", elo0, options.seed), ("elo1", elo1, options.seed + 1)):
                if options.at in (None, at):
                    accepted, length = simulate(test, MODELS[model](elo), options.runs, seed, options.jobs)
                    wrong = accepted if at == "elo0" else 1 - accepted
                    row += f" {interval(wrong, options.runs)} | {length:.0f} |"
                else:
                    row += " | |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
