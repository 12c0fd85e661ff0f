"""Write the sample games in records/: finished games for 2 to 5 players in both variants,
one game in progress and one annotated by hand-style comments.

Each game is seeded and played by the engine's bots (greedy against greedy, or greedy against
random), so the records are real games that `uptown validate` replays move by move. Run from
the project root: ``python scripts/make_records.py``. Writing is deterministic: running it
again gives the same files.
"""

import os
import random
import sys

from uptown_cli.analysis.bots import greedy_choices
from uptown_cli.analysis.deals import sample_bags
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.game import seat_colors
from uptown_cli.engine.geometry import tile_name
from uptown_cli.records.editing import render_record

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli")

GAMES = [
    # file name, players, variant, seed, bots by seat, moves to play (None: to the end), fields
    ("2p-standard.yaml", 2, "standard", "2a61f0c3", ("greedy", "greedy"), None,
     {"event": "Sample game", "date": "2026-11-02"}),
    ("3p-blockers.yaml", 3, "blockers", "b10c3e57", ("greedy", "random", "greedy"), None,
     {"event": "Club night, round 1", "date": "2026-11-10"}),
    ("4p-standard.yaml", 4, "standard", "04d4e5f6", ("greedy",) * 4, None,
     {"event": "Club night, round 2", "date": "2026-11-17"}),
    ("5p-blockers.yaml", 5, "blockers", "5eedfa11", ("greedy", "random") * 2 + ("greedy",), None,
     {"event": "Club night, final", "date": "2026-11-24"}),
    ("in-progress.yaml", 3, "standard", "0123", ("greedy",) * 3, 17,
     {"event": "Play by email", "notes": "Ana, Bo and Cy play a move a day"}),
]

ANNOTATED = "annotated.yaml"
SEED_ANNOTATED = "a770a7ed"


def players_for(count):
    return [Player(NAMES[i], colors) for i, colors in enumerate(seat_colors(count))]


def play_game(players, seed, bots, length, variant):
    """The game the bots play, as the engine's Game after its last move."""
    game = Game(players, seeded_bags(seed, [c for p in players for c in p.colors]))
    while not game.finished and (length is None or game.ply < length):
        seat = game.players.index(game.to_move)
        color, move = bot_move(bots[seat], game, f"{seed}/{game.ply}", variant)
        game.play(move, color)
    return game


def bot_move(bot, game, seed, variant):
    """The move bot ``random`` or ``greedy`` plays, its random numbers drawn as they were when
    these records were made: a view of the hidden tiles first, then the choice. (The bots no
    longer draw the view, which their choice never depended on; drawing it here keeps the
    records as they are.)"""
    rng = random.Random(seed)
    sample_bags(game, rng)
    return rng.choice(game.legal_moves() if bot == "random" else greedy_choices(game, variant))


def moves_of(game):
    return [(turn.color, str(turn.move)) for turn in game.history]


def annotate(text, game):
    """Comment the moves a record keeper would (each player's first capture, and the
    moves that join two groups into one), and head the file with a comment."""
    lines = text.splitlines()
    first = lines.index("moves:") + 1
    replay = Game(game.players, seeded_bags(SEED_ANNOTATED, game.colors))
    has_captured = set()
    for turn in game.history:
        before = replay.groups(turn.color)
        replay.play(turn.move, turn.color)
        comment = None
        if turn.captured and turn.player.name not in has_captured:
            has_captured.add(turn.player.name)
            victim, tile = turn.captured
            comment = f"{turn.player.name}'s first capture: {victim}'s {tile_name(tile)}"
        elif replay.groups(turn.color) < before:
            comment = f"joins two of {turn.color}'s groups"
        if comment:
            lines[first + turn.number - 1] += f"   # {comment}"
    header = ["# Annotated after the game by the club's record keeper."]
    return "\n".join(header + lines) + "\n"


def main(folder="records"):
    for name, count, variant, seed, bots, length, fields in GAMES:
        players = players_for(count)
        game = play_game(players, seed, bots, length, variant)
        text = render_record(players, variant=variant, seed=seed, fields=fields, moves=moves_of(game))
        write(os.path.join(folder, name), text)
    players = players_for(3)
    game = play_game(players, SEED_ANNOTATED, ("greedy",) * 3, None, "standard")
    text = render_record(players, seed=SEED_ANNOTATED, fields={"event": "Annotated club game"},
                         moves=moves_of(game))
    write(os.path.join(folder, ANNOTATED), annotate(text, game))


def write(path, text):
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    print(path, file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:])
