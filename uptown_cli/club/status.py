"""A folder of games at a glance: for each, whose turn and since when, the winner, or the
first problem (``uptown status``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone

from ..records.replay import replay, validate_file
from ..engine.scoring import standings
from ..engine.game import same_name
from ..i18n import _

__all__ = ["game_status", "order"]

TO_MOVE = "to-move"
TO_JOIN = "to-join"
FINISHED = "finished"
INVALID = "invalid"


def file_time(seconds: float, utc: bool = False) -> datetime | None:
    """A file's time as a date (local, or UTC), or None when it is none ``datetime`` can hold
    (a file may claim the year 10000: tmpfs allows it)."""
    try:
        return datetime.fromtimestamp(seconds, timezone.utc if utc else None)
    except (ValueError, OverflowError, OSError):
        return None


@dataclass(frozen=True)
class GameStatus:
    """Where one game stands: ``state`` (one of the names above), the player it waits for
    (to move or to join), the winners of a finished game, its first problem when invalid, the
    moves played, and the file's modification time (when the game last changed hands)."""

    path: str
    state: str
    moves: int
    since: float
    waiting_for: str | None = None
    winners: tuple[str, ...] = ()
    problem: str | None = None

    def waits_for(self, name: str | None) -> bool:
        return (name is not None and self.waiting_for is not None
                and same_name(self.waiting_for, name))

    def since_text(self) -> str:
        """``2026-12-01 15:36`` (local time), or ``after year 9999`` for a time past it."""
        when = file_time(self.since)
        return when.strftime("%Y-%m-%d %H:%M") if when is not None else _("after year 9999")

    def text(self) -> str:
        """``Bo to move``, ``won by Ana``, ``invalid: ...``."""
        if self.state == TO_MOVE:
            return _("{name} to move").format(name=self.waiting_for)
        if self.state == TO_JOIN:
            return _("{name} to join").format(name=self.waiting_for)
        if self.state == FINISHED:
            return _("won by {names}").format(names=_(" and ").join(self.winners))
        return _("invalid: {problem}").format(problem=self.problem)

    def to_json(self) -> dict[str, object]:
        when = file_time(self.since, utc=True)
        return {"path": self.path, "state": self.state, "moves": self.moves,
                "since": when.isoformat() if when is not None else None,
                "waiting_for": self.waiting_for, "winners": list(self.winners),
                "problem": self.problem}


def game_status(path: str, shown: str | None = None) -> GameStatus:
    """The status of the game at ``path`` (``shown`` names it)."""
    shown = path if shown is None else shown
    checked = validate_file(path, shown=shown)
    try:
        since = os.stat(path).st_mtime
    except OSError:
        since = 0.0
    record = checked.record
    if checked.errors or record is None:  # unrevealed keys of a finished game: still finished
        error = checked.errors[0]
        where = _("line {line}: ").format(line=error.line) if error.line is not None else ""
        return GameStatus(shown, INVALID, checked.moves, since, problem=where + error.message)
    hidden = record.hidden
    if hidden is not None and len(hidden.commitments) < len(record.players):
        joining = record.players[len(hidden.commitments)].name
        return GameStatus(shown, TO_JOIN, 0, since, waiting_for=joining)
    game = replay(record).game
    if game.to_move is not None:
        return GameStatus(shown, TO_MOVE, len(record.moves), since, waiting_for=game.to_move.name)
    winners = tuple(s.name for s in standings(game, record.variant) if s.rank == 1)
    return GameStatus(shown, FINISHED, len(record.moves), since, winners=winners)


def order(statuses: list[GameStatus], as_name: str | None = None) -> list[GameStatus]:
    """``as_name``'s turns first, then the other games in play, then finished and invalid
    ones; the longest waiting first within each."""
    def key(status: GameStatus) -> tuple[int, float, str]:
        rank = (0 if status.waits_for(as_name)
                else 1 if status.state in (TO_MOVE, TO_JOIN) else 2)
        return rank, status.since, status.path

    return sorted(statuses, key=key)
