"""One game of a tournament: entrants (uptown's bots in this process, or bot programs over
the protocol, "engines" in the commands' words) in their seats, the clock, and what happens
when a program fails.

A program that plays an illegal move, answers too late, writes garbage or refuses loses the
game at once (and is told why, in an ``error`` message): the game stops there, that seat is
last, and the others are ranked by their standings at that point. A program that crashes or
stalls, or cannot start, has the game played again once from the start, every program started
afresh; if it fails again it loses the same way. Every reason names the entrant. Every
program's process (its whole process group) is ended before the game's result is returned.
"""

from __future__ import annotations

import tempfile
import time
from typing import IO, Any, NamedTuple, cast

from ..engine.bags import seeded_bags
from ..engine.game import Game
from ..engine.players import Player
from ..engine.notation import Move
from ..engine.scoring import standings
from ..engine.game import seat_colors
from ..errors import EngineError, IllegalMove, SetupError
from ..i18n import _, language
from .bots import choose_move
from .bot_programs import BotProgram, program_signals
from .bot_protocol import Clock, answered_move, move_request, move_seed, typed_option
from .bot_server import served_options
from .selfplay import player_names

__all__ = ["Entrant", "Limits", "GameTask", "play_move"]

LOG_TAIL = 65536
"""The most of a program's standard error kept for each game (its end: 64 KiB)."""

PLAYED_AGAIN = "--- the game played again ---\n"
"""The line between a game's two tries in a program's log."""


class Entrant(NamedTuple):
    """A player of a tournament: uptown's ``bot`` by name, or a bot program (``command``);
    ``options`` as given (text from the command line), typed when they are set: a program's
    as its handshake declares them, a bot's as ``uptown engine`` would."""

    name: str
    bot: str | None = None
    command: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The entrant as the tournament's file keeps it."""
        if self.bot is not None:
            return {"name": self.name, "bot": self.bot} | (
                {"options": dict(self.options)} if self.options else {})
        return {"name": self.name, "command": list(self.command), "options": dict(self.options)}

    def bot_options(self, limits: Limits) -> dict[str, Any]:
        """The options of uptown's bot ``bot``: the tournament's (``limits.bot_options``), then
        the entrant's own (EngineError ``refused`` for one it does not take)."""
        offered = served_options(cast(str, self.bot))
        own = {name: typed_option(name, value, offered) for name, value in self.options}
        return dict(limits.bot_options) | own

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entrant:
        """An entrant read back from ``to_json``'s form."""
        return cls(data["name"], data.get("bot"), tuple(data.get("command", ())),
                   tuple(sorted(data.get("options", {}).items())))


class Limits(NamedTuple):
    """The time control: ``move`` seconds a move, or ``game`` seconds a game with
    ``increment`` added after each move; ``margin`` more before an engine loses on time;
    ``start`` seconds for an engine to answer its handshake and ping. ``bot_options`` go to
    uptown's bots played in this process (``playouts``, ``seconds``)."""

    move: float | None = 10.0
    game: float | None = None
    increment: float = 0.0
    margin: float = 1.0
    start: float = 10.0
    bot_options: tuple[tuple[str, Any], ...] = ()


class GameTask(NamedTuple):
    """What a worker needs to play game ``number``: its entrants in seat order, the ``seed``
    that deals it (the task's, never the worker's), the variant and the limits."""

    number: int
    deal: int
    seed: str
    lineup: tuple[Entrant, ...]
    variant: str
    limits: Limits


class SeatResult(NamedTuple):
    """How a seat did: its entrant and player name, colours, score, captures, rank (1 is best),
    its share of first place, and why it lost if it forfeited (``forfeit`` a reason of
    ``EngineError``, ``detail`` one line)."""

    entrant: str
    player: str
    colors: tuple[str, ...]
    score: int
    captures: int
    rank: int
    first: float
    forfeit: str | None = None
    detail: str | None = None


class GameOutcome(NamedTuple):
    """A game played: its number, deal and seed, the moves (``(colour, text)``), each seat's
    result, whether it was ``finished`` (not stopped by a forfeit), whether it was played
    again after a crash or stall (``replayed``), and the end of each engine's standard error
    by player name (``logs``, kept apart from the results: ``to_json`` leaves them out)."""

    number: int
    deal: int
    seed: str
    moves: tuple[tuple[str, str], ...]
    seats: tuple[SeatResult, ...]
    finished: bool
    replayed: bool
    logs: dict[str, str]

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(Player(s.player, s.colors) for s in self.seats)

    def to_json(self) -> dict[str, Any]:
        """The game's line in the results (no times, no logs: the same wherever it is played)."""
        return {"game": self.number, "deal": self.deal, "seed": self.seed,
                "moves": len(self.moves), "finished": self.finished, "replayed": self.replayed,
                "seats": [{"entrant": s.entrant, "player": s.player, "colors": list(s.colors),
                           "score": s.score, "captures": s.captures, "rank": s.rank,
                           "first": s.first, "forfeit": s.forfeit, "detail": s.detail}
                          for s in self.seats]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOutcome:
        """A line of the results read back (its moves are in the record, not here)."""
        seats = tuple(SeatResult(s["entrant"], s["player"], tuple(s["colors"]), s["score"],
                                 s["captures"], s["rank"], s["first"], s["forfeit"], s["detail"])
                      for s in data["seats"])
        return cls(data["game"], data["deal"], data["seed"], (), seats, data["finished"],
                   data["replayed"], {})


class _PlayAgain(Exception):
    """A program crashed or stalled on the first try: the game is played again (``logs``: what
    the programs wrote on the first try)."""

    def __init__(self) -> None:
        super().__init__()
        self.logs: dict[str, str] = {}


def play_game(task: GameTask) -> GameOutcome:
    """Play ``task``'s game (again once if a program crashes or stalls; the logs of both tries
    are kept, ``PLAYED_AGAIN`` between them). Its reasons are in English whatever the players'
    language: the results and records are the same wherever and by whom they are played."""
    with program_signals(), language("en"):
        try:
            return _play(task, last_try=False)
        except _PlayAgain as again:
            first = again.logs
            outcome = _play(task, last_try=True)
    logs = {name: f"{text}{PLAYED_AGAIN}{outcome.logs.get(name, '')}"
            for name, text in first.items()}
    return outcome._replace(logs={**outcome.logs, **logs})


def _play(task: GameTask, last_try: bool) -> GameOutcome:
    names = player_names([e.name for e in task.lineup])
    players = [Player(name, colors) for name, colors in zip(names, seat_colors(len(names)))]
    bags = seeded_bags(task.seed, [c for p in players for c in p.colors])
    game = Game(players, bags)
    clocks = [task.limits.game for _ in players]
    moves: list[list[str]] = []
    forfeit: tuple[int, EngineError] | None = None
    logs: dict[int, IO[bytes]] = {}
    engines: dict[int, BotProgram] = {}
    try:
        for seat, entrant in enumerate(task.lineup):
            if entrant.bot is None:
                logs[seat] = tempfile.TemporaryFile()
                try:
                    engines[seat] = _started(entrant, logs[seat], task.limits)
                except EngineError as exc:
                    forfeit = _failed(seat, entrant, exc, last_try)
                    break
        while forfeit is None and not game.finished:
            seat = game.players.index(cast(Player, game.to_move))
            try:
                play_move(game, bags, seat, task, engines.get(seat), clocks, moves)
            except EngineError as exc:
                forfeit = _failed(seat, task.lineup[seat], exc, last_try)
                if seat in engines:
                    _end(engines.pop(seat), forfeit[1])
        for engine in engines.values():
            engine.end()
        tails = {names[s]: _tail(f) for s, f in logs.items()}
    except _PlayAgain as again:
        for engine in engines.values():
            engine.end(grace=0)
        again.logs = {names[s]: _tail(f) for s, f in logs.items()}
        raise
    finally:
        for engine in engines.values():
            engine.end()
        for log in logs.values():
            log.close()
    return _outcome(task, game, players, forfeit, last_try, tails)


def _failed(seat: int, entrant: Entrant, error: EngineError,
            last_try: bool) -> tuple[int, EngineError]:
    """``(seat, error)``: the seat that forfeits, and why, naming ``entrant``; _PlayAgain
    instead for a first crash or stall."""
    if error.reason in ("crash", "stall") and not last_try:
        raise _PlayAgain() from None
    return seat, EngineError(error.reason, f"{entrant.name}: {error}")


def _end(program: BotProgram, error: EngineError) -> None:
    """End ``program``, which loses: at once when it went silent or crashed; told why first,
    and given its time to quit, when its answer was at fault."""
    if error.reason in ("garbage", "illegal", "refused"):
        program.tell(str(error))
        program.end()
    else:
        program.end(grace=0)


def _started(entrant: Entrant, log: IO[bytes], limits: Limits) -> BotProgram:
    """The entrant's program, started and past its handshake (told why and ended again if it
    fails)."""
    program = BotProgram(entrant.command, log)
    try:
        program.handshake(limits.start, dict(entrant.options))
    except EngineError as exc:
        _end(program, exc)
        raise
    except BaseException:
        program.end(grace=0)
        raise
    return program


def play_move(game: Game, bags: dict[str, list[int]], seat: int, task: GameTask,
               engine: BotProgram | None, clocks: list[float | None], moves: list[list[str]]) -> None:
    """The move of the player to move (seat ``seat``), chosen, played and added to ``moves``
    (``[colour, text]``); EngineError when its program fails or plays an illegal move,
    SetupError naming the entrant when uptown's bot cannot play (its weights file gone)."""
    seed = move_seed(task.seed, game.ply)
    limits = task.limits
    if engine is None:
        entrant = task.lineup[seat]
        try:
            color, move = choose_move(cast(str, entrant.bot), game, seed=seed, variant=task.variant,
                                      **entrant.bot_options(limits))
        except SetupError as exc:  # a weights file gone since the run was tried, say
            raise SetupError(f"{entrant.name}: {exc}") from None
        turn = game.play(move, color)
        moves.append([turn.color, str(turn.move)])
        return
    left = clocks[seat]
    clock = Clock(move=limits.move) if left is None else Clock(left=left, increment=limits.increment)
    allowed = (limits.move if left is None else left) or 0.0
    request = move_request(game, bags, clock, seed, task.variant, game.ply + 1, moves)
    started = time.monotonic()
    answer = engine.ask(request, allowed, limits.margin)
    spent = time.monotonic() - started
    played: tuple[str | None, Move] = answered_move(answer, game.ply + 1)
    try:
        turn = game.play(played[1], played[0])
    except IllegalMove as exc:
        raise EngineError("illegal", _("played {move}: {reason}").format(
            move=played[1], reason=exc)) from None
    moves.append([turn.color, str(turn.move)])
    if left is not None:
        clocks[seat] = max(0.0, left - spent) + limits.increment


def _outcome(task: GameTask, game: Game, players: list[Player],
             forfeit: tuple[int, EngineError] | None, replayed: bool,
             logs: dict[str, str]) -> GameOutcome:
    """The result of each seat: a forfeiting seat last, the others by their standings."""
    table = standings(game, task.variant)
    lost = None if forfeit is None else forfeit[0]
    keys = [(s.score, s.captures) for i, s in enumerate(table) if i != lost]
    seats = []
    for i, (entrant, standing) in enumerate(zip(task.lineup, table)):
        mine = (standing.score, standing.captures)
        if i == lost:
            rank, first, reason, detail = len(table), 0.0, forfeit[1].reason, str(forfeit[1])  # type: ignore[index]
        else:
            rank = 1 + sum(key < mine for key in keys)
            first = 0.0 if rank > 1 else 1.0 / sum(key == mine for key in keys)
            reason = detail = None
        seats.append(SeatResult(entrant.name, players[i].name, players[i].colors, standing.score,
                                standing.captures, rank, first, reason, detail))
    moves = tuple((turn.color, str(turn.move)) for turn in game.history)
    return GameOutcome(task.number, task.deal, task.seed, moves, tuple(seats), forfeit is None,
                       replayed, logs)


def _tail(log: IO[bytes]) -> str:
    """The end of a log file (at most ``LOG_TAIL`` bytes), as text."""
    size = log.seek(0, 2)
    log.seek(max(0, size - LOG_TAIL))
    return log.read().decode("utf-8", "replace")


def record_text(outcome: GameOutcome, variant: str, event: str) -> str:
    """The record of a tournament game (format 1); a forfeit is told in ``notes``."""
    from ..records.editing import render_record

    fields = {"event": event}
    lost = next((s for s in outcome.seats if s.forfeit is not None), None)
    if lost is not None:
        fields["notes"] = (f"{lost.player} lost by forfeit after move {len(outcome.moves)} "
                           f"({lost.forfeit}): {lost.detail}")
    return render_record(outcome.players, variant=variant, seed=outcome.seed, fields=fields,
                         moves=outcome.moves)
