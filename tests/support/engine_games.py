"""Random legal games through the engine, and two games compared in everything the engine
shows of them, now and after every move that follows."""

import random

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player, seat_colors


def table_of(players):
    """``players`` players, P1, P2, ..., with the colours dealt round the table."""
    return [Player(f"P{seat + 1}", colors) for seat, colors in enumerate(seat_colors(players))]


def seeded_game(players, seed):
    """``(game, bags)``: a new game of ``players`` players dealt the bags of ``seed``."""
    table = table_of(players)
    bags = seeded_bags(str(seed), game_colors(table))
    return Game(table, bags), bags


def random_game(players, seed, plies):
    """A seeded game of ``players`` players after ``plies`` random legal moves (fewer when it
    ends first)."""
    game = seeded_game(players, seed)[0]
    rng = random.Random(seed)
    while game.ply < plies and not game.finished:
        color, move = rng.choice(game.legal_moves())
        game.play(move, color)
    return game


def game_colors(players):
    return [color for player in players for color in player.colors]


def replayed(game, bags):
    """``game``'s moves played again, one by one, in a new game dealt ``bags``."""
    again = Game(game.players, bags)
    for turn in game.history:
        again.play(turn.move, turn.color)
    return again


def shown(game):
    """Everything ``game`` shows: position, racks, history, turn and legal moves."""
    colors = game.colors
    return {
        "board": game.board, "racks": game.racks, "bag_sizes": game.bag_sizes,
        "history": list(game.history), "passes": game.passes, "finished": game.finished,
        "to_move": game.to_move,
        "colors": {color: (game.mask(color), game.played_count(color), game.playable(color),
                           game.unplayed_tiles(color), game.groups(color),
                           game.cut_points(color), [game.captured(color, v) for v in colors])
                   for color in colors},
        "legal": game.legal_moves() if game.knows_racks else None,
    }


def assert_same_games(one, other, rng):
    """``one`` and ``other`` show the same now, after each of the same random legal moves to
    the end of the game (when their racks are known), and after each of those moves and the
    ones before is taken back."""
    assert shown(one) == shown(other)
    while one.knows_racks and not one.finished:
        color, move = rng.choice(one.legal_moves())
        assert one.play(move, color) == other.play(move, color)
        assert shown(one) == shown(other)
    while one.ply:
        assert one.pop() == other.pop()
        assert shown(one) == shown(other)


def recorded_playout_moves(monkeypatch):
    """A list that records ``(colour index, tile, square)`` of every move a ``Playout`` is
    made to play from here on: a bot's candidate, then the playout's own moves; as a playout
    of a candidate starts, the last entry is that candidate."""
    from uptown_cli.engine.playout import Playout

    played = []
    real_play = Playout.play

    def recording_play(self, color, tile, sq):
        played.append((color, tile, sq))
        real_play(self, color, tile, sq)

    monkeypatch.setattr(Playout, "play", recording_play)
    return played
