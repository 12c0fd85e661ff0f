"""Train the learned evaluation of ``vista`` (``uptown_cli/analysis/value.py``) from a seed.

Plays self-play games of 2 to 5 players (``--bot``, a fixed number of playouts a move, so that
the games depend on the seed alone), records the figures of every colour at every position
(``features.position_features``, on the game's real racks and bags) and the groups each colour
had at the end, and fits one linear model per number of players by least squares
(``value.fit``) on nine games in ten; the tenth is held out to measure it. Writes the weights
file (``--out``, the package's by default) and a report (``--report``, Markdown): the error on
the held-out games against reading the groups as they are, the weights, and, with
``--strength N``, horizon and then vista after each generation against mc over N two-player
games at ``--seconds`` a move, drawn as an SVG plot beside the report.

    python scripts/train_value.py --seed 1 --games 120 --jobs 2

makes the weights that ``scripts/tune_value.py`` then tunes by games, one number of players
at a time, into those shipped (about 2.5 minutes of CPU);
``--generations 2`` plays a second generation of games with vista on the first's weights and
fits again.
"""

import argparse
import math
import os
import random
import sys
import time
from multiprocessing import Pool

from option_checks import refuse_bad_options

from uptown_cli.analysis import value
from uptown_cli.analysis.bots import BOT_NAMES, choose_move
from uptown_cli.analysis.features import FEATURES, position_features
from uptown_cli.analysis.selfplay import play_games, summarize
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game
from uptown_cli.engine.playout import Playout
from uptown_cli.records.safe_file import write_file

PLAYERS = (2, 3, 4, 5)


def game_rows(task):
    """``(players, [(figures, final groups)])`` of every colour at every position of one
    self-play game of ``task`` ``(players, seed, bot, playouts, weights path or None)``."""
    players, seed, bot, playouts, weights = task
    game = Game.new([f"P{i + 1}" for i in range(players)], seed=seed)
    bags = seeded_bags(seed, list(game.colors))
    rows = []
    while not game.finished:
        rows.append(position_features(Playout(game, bags)))
        color, move = choose_move(bot, game, seed=f"{seed}/{game.ply}", playouts=playouts,
                                  weights=weights)
        game.play(move, color)
    final = [game.groups(c) for c in game.colors]
    return players, [(row, final[c]) for position in rows for c, row in enumerate(position)]


def rmse(weights, samples, column=None):
    """The root mean square error of foreseeing each sample's final groups with ``weights``
    (or, with ``column``, by reading that figure as it is)."""
    if not samples:
        return math.nan
    total = 0.0
    for row, final in samples:
        guess = row[column] if column is not None else value.foresee(weights, row)
        total += (guess - final) ** 2
    return math.sqrt(total / len(samples))


def generation(args, pool, weights_path, number):
    """Play one generation's games and fit its weights: ``(weights, report lines)``."""
    bot = args.bot if weights_path is None else "vista"
    tasks = [(players, f"{args.seed}/gen{number}/{players}p/{n}", bot, args.playouts, weights_path)
             for players in PLAYERS for n in range(args.games)]
    started = time.time()
    by_players = {players: ([], []) for players in PLAYERS}
    for index, (players, rows) in enumerate(pool.imap(game_rows, tasks, chunksize=2)):
        train, held = by_players[players]
        (held if index % 10 == 9 else train).extend(rows)
    lines = [f"Generation {number}: {len(tasks)} games of {bot} ({args.playouts} playouts a "
             f"move), {time.time() - started:.0f} s on the wall.", "",
             "| players | positions x colours (fit / held out) | error, groups as they are | "
             "error, foreseen |", "|---|---|---|---|"]
    weights = {}
    for players, (train, held) in by_players.items():
        fitted = value.fit([row for row, _ in train], [final for _, final in train], args.ridge)
        weights[players] = fitted
        lines.append(f"| {players} | {len(train):,} / {len(held):,} | {rmse(None, held, 1):.3f} "
                     f"| {rmse(fitted, held):.3f} |")
    return weights, lines


def strength(args, bot="vista", weights_path=None):
    """``bot``'s share of first places against mc in ``args.strength`` two-player games (vista
    with the weights at ``weights_path``)."""
    options = {"seconds": args.seconds, "weights": weights_path}  # mc ignores the weights
    played = list(play_games([bot, "mc"], 2, args.strength, f"{args.seed}/strength", jobs=args.jobs,
                             options=options))
    mine = summarize(played, [bot, "mc"])[0]
    return mine.win_rate, mine.interval


def svg_plot(points):
    """A small SVG plot of vista's share of first places against mc, generation by generation."""
    width, height, pad = 360, 200, 40
    xs = [pad + i * (width - 2 * pad) / max(1, len(points) - 1) for i in range(len(points))]
    ys = [height - pad - rate * (height - 2 * pad) for rate, _ in points]
    line = " ".join(f"{x:.0f},{y:.0f}" for x, y in zip(xs, ys))
    bars = "".join(
        f'<line x1="{x:.0f}" x2="{x:.0f}" y1="{height - pad - hi * (height - 2 * pad):.0f}" '
        f'y2="{height - pad - lo * (height - 2 * pad):.0f}" stroke="grey"/>'
        for x, (_, (lo, hi)) in zip(xs, points))
    half = height - pad - 0.5 * (height - 2 * pad)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            f'<rect width="100%" height="100%" fill="white"/>'
            f'<line x1="{pad}" x2="{width - pad}" y1="{half:.0f}" y2="{half:.0f}" '
            f'stroke="#ccc" stroke-dasharray="4"/>{bars}'
            f'<polyline points="{line}" fill="none" stroke="#0072B2" stroke-width="2"/>'
            f'<text x="{pad}" y="20" font-size="12">first places against mc: horizon, then vista '
            f'after each generation</text></svg>\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="1")
    parser.add_argument("--games", type=int, default=120, help="games per number of players")
    parser.add_argument("--bot", default="horizon", choices=BOT_NAMES,
                        help="the bot of the first generation's games")
    parser.add_argument("--playouts", type=int, default=4)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--generations", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--strength", type=int, default=0, help="two-player games against mc")
    parser.add_argument("--seconds", type=float, default=0.02)
    parser.add_argument("--out", default=value.WEIGHTS_FILE)
    parser.add_argument("--report", default=None)
    args = parser.parse_args()
    refuse_bad_options(parser, args, counts=("games", "playouts", "generations", "jobs"),
                       positive=("seconds",), not_negative=("strength", "ridge"),
                       paths=("out", "report"))
    random.seed(args.seed)
    report = [f"# Training of vista's evaluation, seed {args.seed}", "",
              f"`python scripts/train_value.py {' '.join(sys.argv[1:])}`", ""]
    points = []
    weights_path = None
    if args.strength:
        rate, (low, high) = strength(args, "horizon")
        points.append((rate, (low, high)))
        report += [f"horizon (no learned evaluation) against mc, {args.strength} two-player games "
                   f"at {args.seconds:g} s a move: first in {rate:.1%} (95%: {low:.1%}-{high:.1%}).", ""]
    with Pool(args.jobs) as pool:
        for number in range(args.generations):
            weights, lines = generation(args, pool, weights_path, number)
            report += lines + [""]
            value.save_weights(args.out, weights, args.seed)
            weights_path = args.out
            if args.strength:
                rate, (low, high) = strength(args, "vista", weights_path)
                points.append((rate, (low, high)))
                report += [f"vista with these weights against mc, {args.strength} two-player "
                           f"games at {args.seconds:g} s a move: first in {rate:.1%} "
                           f"(95%: {low:.1%}-{high:.1%}).", ""]
            print("\n".join(lines), flush=True)
    report += ["Weights (" + ", ".join(FEATURES) + "):", ""]
    report += [f"- {players} players: " + ", ".join(f"{w:.3f}" for w in row)
               for players, row in value.load_weights(args.out).items()]
    if args.report:
        write_file(args.report, "\n".join(report) + "\n")
        if points:
            write_file(os.path.splitext(args.report)[0] + ".svg", svg_plot(points))
    print("\n".join(report))


if __name__ == "__main__":
    main()
