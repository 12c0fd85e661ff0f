"""Games against the computer: which seats bots play, written in the record under ``x-bots``
(``bot_seats``: each seat's ``BotSeat``), a new game of a person against bots
(``new_game_against``), a hand move refused at a bot's seat (``check_hand_move``), and a
takeback (``take_back``: the last move of a person and the bots' answers to it, out of the
file).

``x-bots`` is an ``x-`` key (kept untouched by every command): a mapping of the players
bots play to ``BOT`` or ``BOT PLAYOUTS``, as ``uptown move --bot BOT --playouts PLAYOUTS``
would play them::

    x-bots:
      vista: vista 512
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..engine.game import Game
from ..engine.players import Player
from ..errors import RecordError, SetupError, ViewerError
from ..i18n import _
from ..records.editing import record_without_last_moves, render_record
from ..records.entries import PlayerEntry
from ..records.lineup import deal_colors, lineup_problems
from ..records.safe_file import create_record
from ..records.schema import Record, load_record_text
from .game_files import OpenGame, replayed, write

__all__ = ["BOTS_KEY", "LEVELS", "DEFAULT_LEVEL", "BotSeat", "bot_seats", "level_seat",
           "new_game_against", "game_from", "check_hand_move", "people", "TakenBack", "take_back"]

BOTS_KEY = "x-bots"
"""The record's key that names the seats bots play."""


class BotSeat(NamedTuple):
    """A seat a bot plays: the ``bot``'s name and its ``playouts`` (None: the bot's own)."""

    bot: str
    playouts: int | None = None

    def written(self) -> str:
        """As ``x-bots`` holds it: ``horizon 512``, or ``greedy``."""
        return self.bot if self.playouts is None else f"{self.bot} {self.playouts}"

    def command(self) -> str:
        """The options of ``uptown move`` that play this seat's move."""
        playouts = "" if self.playouts is None else f" --playouts {self.playouts}"
        return f"--bot {self.bot}{playouts}"


LEVELS = {1: BotSeat("random"), 2: BotSeat("greedy"), 3: BotSeat("mc", 16),
          4: BotSeat("horizon", 64), 5: BotSeat("vista", 512)}
"""``uptown play --level``: from a bot that plays any legal move to the strongest. Level 5
answers within a second (vista, 512 deals: about a quarter of a second of CPU time a move on
the project's shared machine, docs/PLAY.md)."""

DEFAULT_LEVEL = 5
"""The level of a new game's bots unless ``--level`` says: the strongest."""


def level_seat(bot: str, level: int) -> BotSeat:
    """The seat of ``bot`` at ``level``: the level's playouts for a bot that plays out, the
    bot alone for one that does not (random, greedy)."""
    from ..analysis.bots import BOT_NAMES, PLAYOUT_BOTS

    if bot not in BOT_NAMES:
        raise SetupError(_("unknown bot {name!r} (the bots are {bots})").format(
            name=bot, bots=", ".join(BOT_NAMES)))
    playouts = LEVELS[level].playouts
    return BotSeat(bot, playouts if bot in PLAYOUT_BOTS and playouts else None)


def bot_seats(record: Record) -> dict[str, BotSeat]:
    """The players bots play in ``record`` (``x-bots``), by name; empty without the key. A key
    that does not read as bots of the record's players is a RecordError at its line."""
    value = record.extras.get(BOTS_KEY)
    if value is None:
        return {}
    from ..analysis.bots import BOT_NAMES  # a record without bots does without them

    names = {p.name for p in record.players}
    seats = {}
    for name, written in value.items() if isinstance(value, dict) else [(None, None)]:
        words = written.split() if isinstance(written, str) else []
        if (name not in names or not 1 <= len(words) <= 2 or words[0] not in BOT_NAMES
                or (len(words) == 2 and not (words[1].isdigit() and int(words[1]) >= 1))):
            pair = record.parsed().get(BOTS_KEY)
            raise RecordError(_("{key} names the players bots play, each with its bot (and "
                                "playouts): '{name}: horizon 512'").format(
                key=BOTS_KEY, name=record.players[-1].name),
                path=record.path, line=pair[0].line if pair is not None else 1)
        seats[name] = BotSeat(words[0], int(words[1]) if len(words) == 2 else None)
    return seats


def people(record: Record, as_name: str | None = None) -> list[str]:
    """The players of ``record`` who play by hand: ``as_name`` alone when given, else every
    player no bot plays."""
    if as_name is not None:
        return [as_name]
    seats = bot_seats(record)
    return [p.name for p in record.players if p.name not in seats]


def new_game_against(path: str, name: str, bots: Sequence[BotSeat], *, seed: str,
                     variant: str = "standard") -> Record:
    """A new game at ``path`` (never over a file) of ``name`` against ``bots`` (one a seat,
    after ``name``'s; each named by its bot, numbered when two play the same): its record."""
    names: list[str] = []
    for seat in bots:
        count = sum(n.split()[0] == seat.bot for n in names)
        names.append(seat.bot if count == 0 else f"{seat.bot} {count + 1}")
    entries = [PlayerEntry(player, (), 0) for player in [name, *names]]
    problems = lineup_problems(entries)
    if problems:
        raise SetupError(problems[0][1])
    deal_colors(entries)
    text = render_record(entries, variant=variant, seed=seed,
                         extras={BOTS_KEY: {n: s.written() for n, s in zip(names, bots)}})
    create_record(path, text)
    return load_record_text(text, path)


def game_from(record: Record, upto: int, path: str, bot: BotSeat) -> Record:
    """A new game at ``path`` (never over a file) that goes on from ``record``'s position after
    its first ``upto`` moves: the same players, seed and moves, the player to move there
    playing by hand and ``bot`` at every other seat ("play from here", as lichess says)."""
    if record.seed is None:
        raise SetupError(_("{path} has no seed: its racks are unknown, so it cannot be played "
                           "on").format(path=record.path))
    game = replayed(record, upto)
    if game.to_move is None:
        raise SetupError(_("the game is over after move {number}: there is nothing to play "
                           "from there").format(number=upto))
    bots = {p.name: bot.written() for p in record.players if p.name != game.to_move.name}
    text = render_record(record.game_players(), variant=record.variant, seed=record.seed,
                         moves=[(m.color, m.text) for m in record.moves[:upto]],
                         extras={BOTS_KEY: bots})
    create_record(path, text)
    return load_record_text(text, path)


def check_hand_move(opened: OpenGame, player: Player, bot: str | None) -> None:
    """Refuse a move typed by hand (``bot`` None) for ``player`` when a bot plays their seat
    and nobody named themselves (``--as``): the bot's turn is not played by mistake."""
    if bot is not None or opened.as_name is not None:
        return
    seat = bot_seats(opened.record).get(player.name)
    if seat is not None:
        raise ViewerError(_("it is {name}'s turn, and {bot} plays {name} in {path} ({key}): "
                            "let it play (uptown move {command}, or uptown play), or name "
                            "yourself (--as {name}); nothing was written").format(
            name=player.name, bot=seat.bot, path=opened.record.path, key=BOTS_KEY,
            command=seat.command()))


class TakenBack(NamedTuple):
    """A takeback: how many moves were taken back (``taken``), the ``record`` written and the
    ``game`` after it."""

    taken: int
    record: Record
    game: Game


def take_back(opened: OpenGame, on_wait: Callable[[], None] | None = None) -> TakenBack:
    """Take back the last move played by hand in ``opened``, a game against bots (by the
    player ``opened`` names, when it names one) and every bot's move after it: the file
    written without them (``records.editing.record_without_last_moves``, locked and atomic)."""
    record = opened.record
    seats = bot_seats(record)
    if not seats or record.hidden is not None:
        raise ViewerError(_("only a game against bots can be taken back ({path} names no seat "
                            "a bot plays: {key}); nothing was written").format(
            path=record.path, key=BOTS_KEY))
    hands = set(people(record, opened.as_name))
    owners = record.owners
    last = next((i for i in range(len(record.moves) - 1, -1, -1)
                 if owners.get(record.moves[i].color) in hands), None)
    if last is None:
        raise ViewerError(_("there is no move of yours to take back; nothing was written"))
    count = len(record.moves) - last
    new = write(opened, record_without_last_moves(record, count), on_wait)
    return TakenBack(count, new, replayed(new))
