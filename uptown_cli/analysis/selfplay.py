"""Self-play: bots play one another over many games, seats rotated, and the results per bot.

Game ``n`` (from 1) seats the bots in the order given, cycled to fill the table and turned
``n - 1`` places, so over a multiple of the number of players every bot sits in every seat
equally. Each game's seed (which fixes its bags and the bots' choices) is derived from the
run's seed and the game's number alone, so a run gives the same games however many processes
play it.
"""

import math
from collections.abc import Iterator
from typing import NamedTuple

from ..engine.bags import seeded_bags
from .bots import BOT_NAMES, choose_move
from ..engine.game import PLAYER_COUNTS, Game
from ..engine.players import Player
from ..engine.scoring import standings, win_shares
from ..engine.game import seat_colors
from ..engine.sha256 import sha256
from ..errors import SetupError
from ..i18n import _
from .pool import in_pool

__all__ = ["GameResult", "check_bots", "play_games", "summarize", "record_text"]


class Seat(NamedTuple):
    """How one bot did in one game."""

    bot: str
    score: int
    captures: int
    win: float
    """1 for an outright win, 1/k for a win shared by k players, else 0."""


class GameResult(NamedTuple):
    """One game of a run: its number, seed, players, moves as written, and its seats."""

    number: int
    seed: str
    players: tuple[Player, ...]
    moves: tuple[tuple[str, str], ...]
    """``(colour, move text)`` in the order played."""
    seats: tuple[Seat, ...]


class BotResult(NamedTuple):
    """A bot's results over a run (a bot that fills several seats of a game counts per seat)."""

    name: str
    games: int
    wins: float
    win_rate: float
    interval: tuple[float, float]
    """The 95% (Wilson) interval of the win rate."""
    mean_score: float
    mean_captures: float


def lineup(bots: list[str], players: int, number: int) -> list[str]:
    """The bot in each seat of game ``number`` (from 1)."""
    seats = [bots[i % len(bots)] for i in range(players)]
    turn = (number - 1) % players
    return seats[turn:] + seats[:turn]


def game_seed(seed: str, number: int) -> str:
    """The seed of game ``number`` of a run with seed ``seed``."""
    return sha256(f"uptown-selfplay\n{seed}\n{number}".encode("utf-8")).hexdigest()[:12]


def check_bots(bots: list[str]) -> None:
    """Raise ValueError unless ``bots`` names one or more known bots."""
    if not bots:
        raise SetupError(_("name one or more bots, e.g. mc,greedy"))
    for bot in bots:
        if bot not in BOT_NAMES:
            raise SetupError(_("unknown bot {name!r} (the bots are {bots})").format(
                name=bot, bots=", ".join(BOT_NAMES)))


def play_game(bots: list[str], number: int, seed: str, variant: str = "standard",
              options: dict[str, object] | None = None) -> GameResult:
    """Game ``number`` of a run: ``bots`` are the bots in seat order."""
    names = player_names(bots)
    players = [Player(name, colors) for name, colors in zip(names, seat_colors(len(bots)))]
    own_seed = game_seed(seed, number)
    game = Game(players, seeded_bags(own_seed, [c for p in players for c in p.colors]))
    moves: list[tuple[str, str]] = []
    while game.to_move is not None:  # until the game is over
        bot = bots[game.players.index(game.to_move)]
        color, move = choose_move(bot, game, seed=f"{own_seed}:{game.ply}", variant=variant,
                                  **(options or {}))
        turn = game.play(move, color)
        moves.append((turn.color, str(turn.move)))
    table = standings(game, variant)
    seats = tuple(Seat(bot, s.score, s.captures, share)
                  for bot, s, share in zip(bots, table, win_shares(table)))
    return GameResult(number, own_seed, tuple(players), tuple(moves), seats)


def player_names(bots: list[str]) -> list[str]:
    """Each seat's player name: the bot's name, numbered when it sits more than once."""
    return [bot if bots.count(bot) == 1 else f"{bot}-{bots[:i + 1].count(bot)}"
            for i, bot in enumerate(bots)]


def _play_task(task: tuple[list[str], int, str, str, dict[str, object] | None]) -> GameResult:
    return play_game(*task)


def play_games(bots: list[str], players: int, games: int, seed: str, variant: str = "standard",
               jobs: int = 1, options: dict[str, object] | None = None,
               cluster: str | None = None) -> Iterator[GameResult]:
    """Play a run; yields each GameResult in game order (the same for any ``jobs``, or on the
    Dask scheduler at ``cluster``)."""
    check_bots(bots)
    if players not in PLAYER_COUNTS:
        raise SetupError(_("a game has 2 to 5 players, not {count}").format(count=players))
    tasks = [(lineup(bots, players, n), n, seed, variant, options) for n in range(1, games + 1)]
    yield from in_pool(_play_task, tasks, jobs, cluster)


def summarize(results: list[GameResult], bots: list[str]) -> list[BotResult]:
    """Each bot's results over ``results``, bots in the order given (each named once)."""
    summary = []
    for bot in dict.fromkeys(bots):
        seats = [seat for result in results for seat in result.seats if seat.bot == bot]
        games = len(seats)
        wins = sum(seat.win for seat in seats)
        summary.append(
            BotResult(
                name=bot,
                games=games,
                wins=wins,
                win_rate=wins / games if games else 0.0,
                interval=wilson_interval(wins, games),
                mean_score=sum(seat.score for seat in seats) / games if games else 0.0,
                mean_captures=sum(seat.captures for seat in seats) / games if games else 0.0,
            )
        )
    return summary


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); ``(0, 1)`` with no games."""
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    middle = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return (max(0.0, middle - half), min(1.0, middle + half))


def record_text(result: GameResult, variant: str) -> str:
    """The record of a self-play game (format 1)."""
    from ..records.editing import render_record

    bots = " vs ".join(seat.bot for seat in result.seats)
    return render_record(
        result.players,
        variant=variant,
        seed=result.seed,
        fields={"event": f"uptown selfplay, game {result.number}: {bots}"},
        moves=result.moves,
    )
