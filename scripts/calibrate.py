"""Calibrate the review's chances to win (``uptown_cli/analysis/calibration.py``) from a seed.

Plays self-play games of 2 to 5 players (``--bot``, a fixed number of playouts a move, so that
they depend on the seed alone), evaluates the move played at ``--per-game`` positions of each,
drawn at random, as ``uptown analyze`` measures a move (the mover's chance to win over
``--deals`` playouts to the end, ``review.EVALUATORS``) and records whether the mover came
first (a share when shared). The positions of one game share its result, so a test needs many
games rather than many positions of each: a first try with 24 positions from each of 240 games
made a calibration that was worse on the other games than none.
The games of even number fit the calibration (a logistic line for each number of players),
those of odd number test it; with ``--test-seed`` every game of ``--seed`` fits it and the games
of the test seeds test it (``--test-data`` keeps their positions): the reliability table of the
raw and the calibrated chances on the test positions, in tenths, with the Brier score and its
skill against always forecasting the base rate of the number of players. ``--seed`` may name
several seeds (``37,38``): the games of each are played.

    python scripts/calibrate.py --seed 37,38 --test-seed 39,40 --jobs 2 \
        --out uptown_cli/analysis/calibration.json


``--data FILE`` keeps the evaluated positions (JSON lines) and reads them back on the next run
instead of playing again.
"""

import argparse
import json
import os
import random
import sys
from multiprocessing import Pool

from uptown_cli.analysis.bots import choose_move
from uptown_cli.analysis.calibration import brier, fit_calibration, reliability
from uptown_cli.analysis.review import DEFAULT_EVALUATOR, EVALUATORS, move_seed
from uptown_cli.engine.game import Game
from uptown_cli.engine.scoring import standings, win_shares

PLAYERS = (2, 3, 4, 5)


def game_positions(task):
    """One self-play game of ``task`` ``(players, number, seed, bot, playouts, per_game,
    deals)``: ``[{"seed", "players", "game", "ply", "raw", "won"}]`` for ``per_game`` of its
    moves drawn at random (those with a choice)."""
    players, number, seed, bot, playouts, per_game, deals = task
    game_seed = f"{seed}/{players}p/{number}"
    game = Game.new([f"P{i + 1}" for i in range(players)], seed=game_seed)
    length = 24 * len(game.colors)
    chosen = set(random.Random(game_seed).sample(range(length), per_game))
    evaluator = EVALUATORS[DEFAULT_EVALUATOR]  # its measure: the chances the review shows
    rows = []
    while not game.finished:
        colored = choose_move(bot, game, seed=f"{game_seed}/{game.ply}", playouts=playouts)
        if game.ply in chosen and len(game.legal_moves()) > 1:
            rng = random.Random(move_seed(game_seed, game.ply + 1))
            raw = evaluator.evaluate(game, [colored], rng, game.variant, deals, None)[0].win
            rows.append({"seed": seed, "players": players, "game": number, "ply": game.ply,
                         "seat": game.players.index(game.to_move), "raw": raw})
        game.play(colored[1], colored[0])
    shares = win_shares(standings(game))
    for row in rows:
        row["won"] = shares[row.pop("seat")]
    return rows


def positions(args, seeds, data):
    """Every evaluated position of the games of ``seeds`` (comma-separated): read from the file
    ``data`` when it exists, else played (and written there when asked)."""
    if data and os.path.exists(data):
        with open(data, encoding="utf-8") as f:
            kept = [json.loads(line) for line in f]
        found = {str(row["seed"]) for row in kept}
        if found != set(seeds.split(",")):
            sys.exit(f"{data} holds the games of seeds {','.join(sorted(found))}, not {seeds}")
        return kept
    tasks = [(players, n, seed, args.bot, args.playouts, args.per_game, args.deals)
             for seed in seeds.split(",") for n in range(args.games) for players in PLAYERS]
    with Pool(args.jobs) as pool:
        rows = [row for game in pool.imap(game_positions, tasks, chunksize=8) for row in game]
    if data:
        with open(data, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(row) + "\n" for row in rows)
    return rows


def table(forecasts, outcomes):
    lines = ["| forecast | positions | mean forecast | observed | difference |", "|---|---|---|---|---|"]
    for row in reliability(forecasts, outcomes):
        lines.append(f"| {row.low:.1f}-{row.high:.1f} | {row.positions:,} | {row.forecast:.1%} | "
                     f"{row.observed:.1%} | {100 * (row.observed - row.forecast):+.1f} |")
    return lines


def games(rows):
    """How many games ``rows`` come from."""
    return len({(r["seed"], r["players"], r["game"]) for r in rows})


def skill(forecasts, outcomes, players):
    """The Brier skill of ``forecasts`` against the base rate, 1 / players."""
    reference = brier([1 / p for p in players], outcomes)
    return 1 - brier(forecasts, outcomes) / reference


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="37")
    parser.add_argument("--games", type=int, default=500, help="games per number of players")
    parser.add_argument("--bot", default="horizon")
    parser.add_argument("--playouts", type=int, default=2)
    parser.add_argument("--per-game", type=int, default=2, help="positions evaluated per game")
    parser.add_argument("--deals", type=int, default=256)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data", default=None)
    parser.add_argument("--test-seed", default=None, help="test on these seeds' games instead")
    parser.add_argument("--test-data", default=None)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.test_data and not args.test_seed:
        parser.error("--test-data goes with --test-seed")
    if args.test_seed and set(args.test_seed.split(",")) & set(args.seed.split(",")):
        parser.error("--test-seed must name seeds not fitted on (--seed)")
    rows = positions(args, args.seed, args.data)
    if args.test_seed:
        fitting, testing = rows, positions(args, args.test_seed, args.test_data)
    else:
        fitting = [r for r in rows if r["game"] % 2 == 0]
        testing = [r for r in rows if r["game"] % 2 == 1]
    calibration = fit_calibration([r["players"] for r in fitting], [r["raw"] for r in fitting],
                                  [r["won"] for r in fitting])
    raw = [r["raw"] for r in testing]
    players = [r["players"] for r in testing]
    calibrated = [calibration(x, p) for x, p in zip(raw, players)]
    won = [r["won"] for r in testing]
    worst = max(abs(row.observed - row.forecast) for row in reliability(calibrated, won))
    report = [f"Fitted on {len(fitting):,} positions of {games(fitting)} games, "
              f"tested on {len(testing):,} of {games(testing)} others.", "",
              "Raw chances (the playouts' share of wins), test positions:", ""] + table(raw, won) + [
              "", f"Brier {brier(raw, won):.4f}, skill {skill(raw, won, players):.3f}.", "",
              "Calibrated, test positions:", ""] + table(calibrated, won) + [
              "", f"Brier {brier(calibrated, won):.4f}, skill {skill(calibrated, won, players):.3f}; "
              f"the largest difference in a tenth {100 * worst:.1f} points.", ""]
    for count in PLAYERS:
        mine = [i for i, p in enumerate(players) if p == count]
        if mine:
            rows_here = reliability([calibrated[i] for i in mine], [won[i] for i in mine])
            gap = max(abs(row.observed - row.forecast) for row in rows_here)
            report.append(f"- {count} players: {len(mine):,} test positions, Brier skill "
                          f"{skill([calibrated[i] for i in mine], [won[i] for i in mine], [count] * len(mine)):.3f}, "
                          f"largest difference in a tenth {100 * gap:.1f} points")
    print("\n".join(report))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(calibration.to_json(), f)
            f.write("\n")


if __name__ == "__main__":
    main()
