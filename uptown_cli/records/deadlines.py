"""Deadlines in a record's moves and after its end (docs/DEADLINES.md): whether a forfeit or
an entry written for another player may stand (the clock and the late policy), and the reveal
deadlines that settle a finished game whose keys were not all revealed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ..engine.geometry import shown_color
from ..engine.moments import parse_time
from ..i18n import _
from .times import timeline

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..errors import RecordError
    from .schema import Record

__all__ = ["stand_in_error", "stand_in_seed", "reveal_deadlines", "settle", "pause_errors"]


def stand_in_seed(record: Record, number: int) -> str:
    """What seeds the bot of a stand-in's move ``number`` (docs/DEADLINES.md): the record's
    seed and the move's number, so that ``validate`` plays the same bot again."""
    return f"stand-in {record.seed} {number}"


def stand_in_error(record: Record, game: Game, index: int, hidden: bool) -> str | None:
    """Why entry ``index`` of ``record`` (a forfeit, or an entry another player wrote: ``by``)
    may not follow ``game`` (the game before it); None when it may. A player resigns at their
    turn; another writes for them only once they are out of time, as the late policy allows."""
    entry = record.moves[index]
    player = game.to_move
    if player is None:
        return _("the game is over")
    if entry.color not in player.colors:
        return _("it is {name}'s turn ({colors}), not {color}'s").format(
            name=player.name, colors=", ".join(map(shown_color, player.colors)),
            color=shown_color(entry.color))
    if hidden and entry.by is not None and entry.text not in ("forfeit", "pass"):
        return _("only a pass or a forfeit may be written for another player in a hidden game")
    if entry.by is None:
        return None
    from ..engine.game import name_key
    from ..engine.late import BOT, FORFEIT, PASS, stand_in_problem

    names = {name_key(p.name): p.name for p in record.players}
    out = {name_key(name) for name, _ in game.forfeited}
    writer = name_key(entry.by)
    if writer not in names or writer in out:
        return _("{by}, who wrote move {number}, is not a player still in play").format(
            by=entry.by, number=index + 1)
    if writer == name_key(player.name):
        return _("{by} wrote move {number} for themselves: leave out 'by'").format(
            by=entry.by, number=index + 1)
    timing = record.timing
    if timing is None or entry.at is None:
        return _("nobody may play for {name} in a game without a clock").format(name=player.name)
    action = FORFEIT if entry.text == FORFEIT else PASS if entry.text == PASS else BOT
    if action == BOT and entry.bot is None:
        return _("move {number} was written by {by} for {name}, but not by a bot").format(
            number=index + 1, by=entry.by, name=player.name)
    if action == BOT and entry.bot != timing.late.bot:
        return _("move {number}'s bot is {bot}, not this game's ({policy})").format(
            number=index + 1, bot=entry.bot, policy=timing.late.bot or "none")
    line = timeline(timing, record.moves[:index], record.owners,
                    pauses=[p for p in record.pauses if p.after <= index])
    return stand_in_problem(timing.clock, timing.late, line, player.name, parse_time(entry.at),
                            action)


def reveal_deadlines(record: Record, names: Sequence[str]) -> dict[str, datetime]:
    """When each of ``names`` (players of a finished game who have not revealed) forfeits:
    the reveal window and the grace, from the last move (``Clock.window``); none without a
    clock or when a move has no time."""
    timing = record.timing
    if timing is None or timing.clock is None or any(m.at is None for m in record.moves):
        return {}
    line = timeline(timing, record.moves, record.owners, pauses=record.pauses)
    return {name: timing.clock.window(line, name).out_at for name in names}


def settle(record: Record | None, unrevealed: Sequence[str], now: datetime) -> dict[str, str]:
    """Those of ``unrevealed`` (who have not revealed their keys in a finished game) whose
    reveal deadline has passed at ``now``, with it: they forfeit, and the game counts for the
    others (``replay.Validation.settled``)."""
    from ..engine.moments import write_time

    if record is None or not unrevealed:
        return {}
    return {name: write_time(deadline)
            for name, deadline in reveal_deadlines(record, unrevealed).items() if now >= deadline}



def pause_errors(record: Record, game: Game) -> list[RecordError]:
    """A RecordError for each pause of ``record`` that the game's clock and vacation do not
    allow where it stands (``engine.late.pause_problem``); ``game`` is the record replayed."""
    from ..engine.clock import Pause
    from ..engine.late import pause_problem
    from ..errors import RecordError

    timing, errors, owners = record.timing, [], record.owners
    for index, pause in enumerate(record.pauses):
        if timing is None or pause.at is None:
            errors.append(RecordError(_("a pause needs a clock and a time"), path=record.path,
                                      line=pause.line))
            continue
        line = timeline(timing, record.moves[:pause.after], owners, pauses=record.pauses[:index])
        after = record.moves[pause.after].color if pause.after < len(record.moves) else None
        to_move = owners.get(after) if after else (game.to_move.name if game.to_move else None)
        wanted = Pause(owners.get(pause.color, pause.color), parse_time(pause.at), pause.days,
                       parse_time(pause.start) if pause.start else None)
        problem = pause_problem(timing.vacation, timing.clock, line, wanted, to_move)
        if problem is not None:
            errors.append(RecordError(_("the pause after move {number}: {problem}").format(
                number=pause.after, problem=problem), path=record.path, line=pause.line))
    return errors
