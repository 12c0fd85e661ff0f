"""Tune vista's weights for one number of players by the games they win (SPSA), reproducibly
from a seed.

The weights of ``scripts/train_value.py`` are fitted to foresee a colour's final groups; what
the search needs is the right order between the positions its candidates lead to, and a better
fit was measured to play worse (docs/ANALYSIS.md). So this script moves the weights of
``--players`` (two by default) by simultaneous perturbation stochastic approximation (Spall,
1992), as chess engines tune theirs: at step ``k`` every weight tuned is moved by its own step
size up or down at random, and one deal is played twice, a fixed number of playouts a move (so
the games depend on the seed alone): first the even seats (the first, third, fifth) play with
the weights moved up (``+``) and the odd seats with them moved down (``-``), then the other way
round. Every weight moves towards the side that won, by a gain that shrinks with ``k``. The
constant is not tuned: it adds the same to every seat's score. The weights written are the mean
of the last half of the steps' weights (Polyak averaging: the noise of single games averages
out).

    python scripts/tune_value.py --seed 1 --steps 360 --jobs 2 --report tuning.md
    python scripts/tune_value.py --players 4 --seed 4p-1 --steps 720 --playouts 64

run after ``scripts/train_value.py --seed 1``, starts from the weights it wrote in the package's
file (``--weights`` starts from another) and writes the tuned file to ``--out`` (the row of
``--players`` tuned, the others as they were; its seed names the seeds of the file it started
from, then this one, unless they are the same), the report (every ``--every`` steps, the weights
and the share of the ``+`` side's wins so far) and an SVG plot of the weights beside the report.
With two players each step is two games of 96 moves at ``--playouts`` (128: vista's wider,
deeper search, as at 0.1 s of CPU a move), about 8 s on the wall with two jobs; with four at 64
playouts (about vista's 0.03 s a move there), about 3 s.
"""

import argparse
import os
import random
import tempfile
import time
from multiprocessing import Pool

from option_checks import refuse_bad_options

from uptown_cli.analysis import value
from uptown_cli.analysis.bots import choose_move
from uptown_cli.analysis.features import FEATURES
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import PLAYER_COUNTS, Game, Player, seat_colors
from uptown_cli.engine.scoring import standings, win_shares
from uptown_cli.errors import SetupError
from uptown_cli.records.safe_file import write_file

COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
"""How the weights file and the report name the number of players tuned."""
TUNED = tuple(range(1, len(FEATURES)))
"""The indices of the weights tuned: all but the constant's."""


def play_deal(task):
    """The share of first place of the even seats (the first, third, fifth) in one game of
    ``task`` ``(deal seed, weights file of the even seats, of the odd seats, playouts,
    players)``."""
    seed, even, odd, playouts, count = task
    players = [Player(f"P{i + 1}", colors) for i, colors in enumerate(seat_colors(count))]
    game = Game(players, seeded_bags(seed, [c for p in players for c in p.colors]))
    files = (even, odd)
    while game.to_move is not None:
        color, move = choose_move("vista", game, seed=f"{seed}:{game.ply}", playouts=playouts,
                                  weights=files[game.players.index(game.to_move) % 2])
        game.play(move, color)
    return sum(win_shares(standings(game))[::2])


def step_sizes(weights, relative, floor):
    """Each tuned weight's perturbation: ``relative`` of its size, at least ``relative`` of
    ``floor``."""
    return [relative * max(abs(weights[i]), floor) for i in TUNED]


def gain(args, k):
    """The gain of step ``k`` (from 0): Spall's ``a / (A + k + 1) ** 0.602``, ``A`` a tenth of
    the steps."""
    return args.gain / (args.steps / 10 + k + 1) ** 0.602


def tune(args, pool, start, folder):
    """Run the steps: ``(mean weights of the last half, report rows, trace of the weights)``."""
    sizes = step_sizes(start, args.relative, args.floor)
    units = [0.0] * len(TUNED)  # each tuned weight's distance from the start, in its step size
    signs_rng = random.Random(f"{args.seed}/signs")
    trace, rows = [], []
    plus_wins = 0.0
    started = time.time()

    def weights_at(shifts):
        row = list(start)
        for index, size, shift in zip(TUNED, sizes, shifts):
            row[index] = start[index] + size * shift
        return row

    for k in range(args.steps):
        signs = [signs_rng.choice((-1, 1)) for _ in TUNED]
        files = []
        for side in (1, -1):
            path = os.path.join(folder, f"{k}{'+-'[side < 0]}.json")
            value.save_weights(path, {args.players: weights_at([u + side * s for u, s in
                                                           zip(units, signs)])}, args.seed)
            files.append(path)
        deal = f"{args.seed}/tune/{k}"
        first, second = pool.map(play_deal, [(deal, *files, args.playouts, args.players),
                                             (deal, *files[::-1], args.playouts, args.players)])
        result = first - second  # the even seats' share with + less their share with -:
        # from -1 (the - side won both) to 1
        plus_wins += (1 + result) / 2
        units = [u + gain(args, k) * result * s for u, s in zip(units, signs)]
        trace.append(units)
        if (k + 1) % args.every == 0 or k + 1 == args.steps:
            rows.append(f"| {k + 1} | {time.time() - started:.0f} | {plus_wins / (k + 1):.1%} | "
                        + " | ".join(f"{w:.3f}" for w in weights_at(units)[1:]) + " |")
            print(rows[-1], flush=True)
    kept = [weights_at(units) for units in trace[args.steps // 2:]]
    mean = [sum(column) / len(kept) for column in zip(*kept)]
    return mean, rows, trace


def svg_plot(trace):
    """Each tuned weight's distance from its start, in its step size, along the steps."""
    width, height, pad = 480, 240, 30
    top = max(2.0, *(abs(u) for units in trace for u in units))
    colours = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442",
               "#000000", "#999999")

    def xy(k, u):
        return (pad + k * (width - 2 * pad) / max(1, len(trace) - 1),
                height / 2 - u * (height / 2 - pad) / top)

    lines = "".join(
        '<polyline fill="none" stroke-width="1.5" stroke="{}" points="{}"/>'.format(
            colours[j % len(colours)],
            " ".join("{:.0f},{:.0f}".format(*xy(k, units[j])) for k, units in enumerate(trace)))
        for j in range(len(TUNED)))
    legend = "".join(f'<text x="{width - pad + 4}" y="{pad + 12 * j}" font-size="9" '
                     f'fill="{colours[j % len(colours)]}">{FEATURES[i]}</text>'
                     for j, i in enumerate(TUNED))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 90}" height="{height}">'
            f'<rect width="100%" height="100%" fill="white"/>'
            f'<line x1="{pad}" x2="{width - pad}" y1="{height / 2:.0f}" y2="{height / 2:.0f}" '
            f'stroke="#ccc" stroke-dasharray="4"/>{lines}{legend}'
            f'<text x="{pad}" y="16" font-size="12">each weight from its start, in its step '
            f'size (±{top:.1f} at the edges), step by step</text></svg>\n')


def settings(args):
    """The command that tunes the same weights again: every option that decides them (where
    the weights are written, and how many jobs play, do not)."""
    start = "" if args.weights == value.WEIGHTS_FILE else f" --weights {os.path.basename(args.weights)}"
    players = "" if args.players == 2 else f"--players {args.players} "
    return (f"python scripts/tune_value.py {players}--seed {args.seed} --steps {args.steps} "
            f"--playouts {args.playouts} --relative {args.relative:g} --floor {args.floor:g} "
            f"--gain {args.gain:g}{start}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=PLAYER_COUNTS,
                        help="the number of players whose weights are tuned")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--steps", type=int, default=360)
    parser.add_argument("--playouts", type=int, default=128)
    parser.add_argument("--relative", type=float, default=0.25,
                        help="each weight's step: this share of its size")
    parser.add_argument("--floor", type=float, default=0.4,
                        help="the size below which a weight's step stays the same")
    parser.add_argument("--gain", type=float, default=2.0,
                        help="Spall's a, in step sizes: what a weight moves by, over a deal one "
                             "side won twice, is the gain of the step times its step size")
    parser.add_argument("--weights", default=value.WEIGHTS_FILE, help="the weights to start from")
    parser.add_argument("--out", default=value.WEIGHTS_FILE)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report", default=None)
    args = parser.parse_args()
    refuse_bad_options(parser, args, counts=("steps", "playouts", "every", "jobs"),
                       positive=("relative", "floor", "gain"), paths=("out", "report"))
    try:
        weights = dict(value.load_weights(args.weights))
        start = value.weights_for(args.players, args.weights)
        made_from = value.weights_seed(args.weights)
    except SetupError as exc:  # its text begins with the file's path, if it has one
        parser.error(f"--weights {exc}" if args.weights else f"--weights: {exc}")
    with tempfile.TemporaryDirectory() as folder, Pool(args.jobs) as pool:
        tuned, rows, trace = tune(args, pool, start, folder)
    weights[args.players] = tuned
    count = COUNT_WORDS[args.players]
    tuned_by = f"{args.seed} ({count} players tuned by games)"
    # The file names the seeds that made it: the fitted weights' seed, then each tuning's,
    # in order (a tuning from the seed its start file names alone adds nothing new).
    value.save_weights(args.out, weights, tuned_by if made_from in (None, args.seed)
                       else f"{made_from}; {tuned_by}")
    report = [f"# Tuning of vista's {count}-player weights by games, seed {args.seed}", "",
              f"`{settings(args)}`", "",
              "| step | seconds | + side's share of wins | "
              + " | ".join(FEATURES[i] for i in TUNED) + " |",
              "|---" * (3 + len(TUNED)) + "|", *rows, "",
              "Start: " + ", ".join(f"{w:.3f}" for w in start), "",
              "Tuned (the mean of the last half of the steps): "
              + ", ".join(f"{w:.3f}" for w in tuned)]
    if args.report:
        write_file(args.report, "\n".join(report) + "\n")
        write_file(os.path.splitext(args.report)[0] + ".svg", svg_plot(trace))
    print("\n".join(report))


if __name__ == "__main__":
    main()
