"""A game file played at this terminal, whatever draws it (the full-screen board of ``app``,
the lines of ``plain``): who plays by hand and which bots answer, each turn played and written
through ``turns`` exactly as ``uptown move`` writes it, a hint, a takeback. No Textual here.

A game is played by hand at every seat no bot plays (``turns.bot_games``), or with ``--as
NAME`` at NAME's seat alone; a game with hidden racks or sent by email is only watched
without ``--as``.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import NamedTuple

from ..engine.game import Game
from ..engine.players import Player
from ..engine.moments import current_time
from ..engine.notation import Move, parse_move
from ..engine.scoring import Standing, standings
from ..pictures.tile_names import canonical_move, rack_named
from ..turns.acts import Played, Seat, play_move, seat_to_move
from ..turns.bot_games import (DEFAULT_LEVEL, LEVELS, BotSeat, TakenBack, bot_seats, people,
                               take_back)
from ..turns.game_files import open_game
from ..turns.own_turn import bot_move

__all__ = ["HAND", "BOT", "WAIT", "OVER", "Hint", "Session", "typed_move", "now"]

HAND, BOT, WAIT, OVER = "hand", "bot", "wait", "over"
"""Whose turn it is at this terminal: a player's here, a bot's, someone else's (watched), or
nobody's (the game is over)."""


def now() -> datetime:
    """Now, as ``uptown move`` takes it (``UPTOWN_NOW`` in tests)."""
    return current_time(os.environ)


def typed_move(text: str) -> tuple[str | None, Move]:
    """(the rack named, or None; the Move) of a move typed as ``uptown move`` takes it, in
    the language in use: ``7 B7``, ``red 7 B7``, ``rojo saxofón E8``, ``pass``. A
    ``NotationError`` says what is wrong."""
    rack, words = rack_named(text.split())
    return rack, parse_move(canonical_move(" ".join(words)))


class Hint(NamedTuple):
    """A bot's suggestion for the player to move: its ``bot``, the ``rack`` and the ``move``."""

    bot: str
    rack: str
    move: Move


class Session:
    """The game in the file at ``path``, as the player ``as_name`` (None: anyone who sits here)
    plays it: ``opened`` (``turns.game_files.OpenGame``) read again after every change, the
    seats bots play (``bots``), the players who play by hand here (``hands``), and whether the
    game is only ``watched`` (hidden racks or by email, opened without ``--as``)."""

    __slots__ = ("path", "as_name", "keys", "opened", "bots", "hands", "watched", "_seat",
                 "_legal")

    def __init__(self, path: str, as_name: str | None = None, keys: str | None = None) -> None:
        self.path, self.as_name, self.keys = path, as_name, keys
        self.reload()

    def reload(self) -> None:
        """Read the file again (as every turn leaves it)."""
        self.opened = open_game(self.path, self.as_name, self.keys, writes=False, now=now())
        record = self.opened.record
        self.bots = bot_seats(record)
        self.watched = self.as_name is None and (
            record.hidden is not None or any(p.email for p in record.players))
        self.hands = [] if self.watched else people(record, self.opened.as_name)
        self._seat: Seat | None = None
        self._legal: list[tuple[str, Move]] | None = None

    @property
    def game(self) -> Game:
        """The game as the file holds it (every rack known in an open game)."""
        return self.opened.game

    @property
    def mover(self) -> Player | None:
        """The player to move (None: the game is over)."""
        return self.game.to_move

    def turn(self) -> str:
        """``HAND``, ``BOT``, ``WAIT`` or ``OVER``: who plays next."""
        mover = self.mover
        if mover is None:
            return OVER
        if mover.name in self.bots and self.as_name is None:
            return BOT
        return HAND if mover.name in self.hands else WAIT

    def seat(self) -> Seat:
        """The player to move, as they see the game (their own racks in a hidden game)."""
        if self._seat is None:
            self._seat = seat_to_move(self.opened)
        return self._seat

    def legal(self) -> list[tuple[str, Move]]:
        """The legal moves of the player to move here (none unless it is ``HAND``)."""
        if self.turn() != HAND:
            return []
        if self._legal is None:
            game = self.seat().game
            self._legal = game.legal_moves() if game.knows_racks else []
        return self._legal

    def racks(self) -> dict[str, list[int]]:
        """The racks shown here: the player's to move by hand, or in an open game those of the
        one player who plays here while bots think; none in a watched game."""
        if self.turn() == HAND:
            seen = self.seat().game
            mover = self.mover
            assert mover is not None and seen.racks is not None  # their own racks are known
            return {c: seen.racks[c] for c in mover.colors}
        racks = self.game.racks
        if racks is None or len(self.hands) != 1:
            return {}
        own = next(p for p in self.game.players if p.name == self.hands[0])
        return {c: racks[c] for c in own.colors}

    def standings(self) -> list[Standing]:
        """The standings as they are, by the record's variant."""
        return standings(self.game, self.opened.record.variant)

    def play(self, rack: str | None, move: Move) -> Played:
        """The player to move plays ``move`` (from ``rack``), written as ``uptown move`` writes
        it; a refusal (not their turn, an illegal move) is a one-line library error and the
        file is left as it was."""
        played = play_move(self.opened, self.seat(), move, rack, now=now())
        self.reload()
        return played

    def bot_seat(self) -> BotSeat:
        """The bot that plays the seat to move."""
        mover = self.mover
        assert mover is not None and mover.name in self.bots  # asked at a bot's turn
        return self.bots[mover.name]

    def bot_turn(self) -> Played:
        """The bot at the seat to move plays its move, as ``uptown move --bot`` would."""
        seat_bot = self.bot_seat()
        seat = seat_to_move(self.opened, None, seat_bot.bot)
        rack, move = bot_move(seat_bot.bot, seat.game, self.opened.record, seat_bot.playouts,
                              seat.own)
        played = play_move(self.opened, seat, move, rack, now=now())
        self.reload()
        return played

    def hint(self) -> Hint:
        """What the strongest bot (``turns.bot_games.LEVELS``) plays for the player to move,
        seeing only what they may know; nothing is written."""
        seat = self.seat()
        best = LEVELS[DEFAULT_LEVEL]
        rack, move = bot_move(best.bot, seat.game, self.opened.record, best.playouts, seat.own)
        return Hint(best.bot, rack, move)

    def take_back(self) -> TakenBack:
        """Take back the last move played here and the bots' answers to it."""
        taken = take_back(self.opened)
        self.reload()
        return taken
