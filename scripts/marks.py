"""How many marks (?!, ?, ??) the review gives a bot's own play: per 100 moves with a choice.

Plays ``--games`` games of each ``--bots`` entry against itself (``--players``, a fixed number
of playouts a move so that the games depend on the seed alone) and reviews every move as
``uptown analyze`` does (at its default budget, or ``--deals``), with ``--jobs`` processes, by
each of ``--reviewers`` (``analyze --bot``) in turn, on the same games. A strong player's moves
should seldom be marked; a random player's often.

    python scripts/marks.py --bots vista,random --games 4 --players 2 --jobs 2
"""

import argparse

from uptown_cli.analysis.bots import choose_move
from uptown_cli.analysis.review import (DEFAULT_DEALS, DEFAULT_EVALUATOR, EVALUATORS,
                                        review_games, tasks)
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game


def self_play(bot, players, seed, playouts):
    """A game of ``bot`` against itself, and its bags."""
    game = Game.new([f"P{i + 1}" for i in range(players)], seed=seed)
    while not game.finished:
        color, move = choose_move(bot, game, seed=f"{seed}/{game.ply}", playouts=playouts)
        game.play(move, color)
    return game, seeded_bags(seed, list(game.colors))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="vista,random")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--playouts", type=int, default=16)
    parser.add_argument("--seed", default="marks")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reviewers", default=DEFAULT_EVALUATOR)
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    args = parser.parse_args()
    unknown = [name for name in args.reviewers.split(",") if name not in EVALUATORS]
    if unknown:
        parser.error(f"--reviewers: {unknown[0]} cannot review (those that can: "
                     f"{', '.join(EVALUATORS)})")
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    print("| bot | reviewer | games | moves with a choice | ?! | ? | ?? | marks per 100 moves |")
    print("|---|---|---|---|---|---|---|---|")
    for bot in args.bots.split(","):
        games = []
        for n in range(args.games):
            seed = f"{args.seed}/{bot}/{n}"
            games.append((seed, *self_play(bot, args.players, seed, args.playouts)))
        for reviewer in args.reviewers.split(","):
            work = [tasks(game, bags, game.variant, reviewer, seed, args.deals)
                    for seed, game, bags in games]
            reviews = [m for m in review_games(work, jobs=args.jobs) if not m.forced]
            counts = [sum(m.mark == sign for m in reviews) for sign in ("?!", "?", "??")]
            print(f"| {bot} | {reviewer} | {args.games} | {len(reviews)} | {counts[0]} | "
                  f"{counts[1]} | {counts[2]} | {100 * sum(counts) / max(1, len(reviews)):.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
