"""A folder of games at a glance: for each, whose turn and since when, the winner, or the
first problem (``uptown status``); with a clock (docs/DEADLINES.md), the time left, and who is
late or out of time."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..engine.game import name_key, same_name
from ..engine.moments import describe, parse_time
from ..engine.scoring import standings
from ..engine.words import Word
from ..i18n import _, names_list
from ..records.disputes import open_disputes
from ..records.times import clock_json, entry_time, stand_in_actions, waiting_deadline
from ..turns.validation import Validation, validate_file

if TYPE_CHECKING:
    from ..engine.clock import Deadline
    from ..engine.late import LateAction
    from ..records.schema import Record

__all__ = ["game_status", "copies_once", "one_per_game", "order"]

_Item = TypeVar("_Item")


class State(Word):
    """What a game of a folder waits for (``GameStatus.state``)."""

    TO_MOVE = "to-move"
    TO_JOIN = "to-join"
    FINISHED = "finished"
    INVALID = "invalid"
    VOID = "void"



def file_time(seconds: float, utc: bool = False) -> datetime | None:
    """A file's time as a date (local, or UTC), or None when it is none ``datetime`` can hold
    (a file may claim the year 10000: tmpfs allows it)."""
    try:
        return datetime.fromtimestamp(seconds, timezone.utc if utc else None)
    except (ValueError, OverflowError, OSError):
        return None


class GameStatus(NamedTuple):
    """Where one game stands: ``state``, the player it waits for
    (to move or to join), the winners of a finished game, its first problem when invalid (why,
    when void), the
    moves played, and the file's modification time (when the game last changed hands)."""

    path: str
    state: State
    moves: int
    since: float
    waiting_for: str | None = None
    winners: tuple[str, ...] = ()
    problem: str | None = None
    clock: str | None = None
    """The game's clock in the record's notation (None: no clock), its late policy and
    vacation as written."""
    late_policy: str | None = None
    vacation: str | None = None
    started: str | None = None
    deadline: Deadline | None = None
    """The wait of ``waiting_for`` under the clock (a move; None without a clock)."""
    stand_in: LateAction | None = None
    """What others may write for a player out of time (``pass``, ``bot``, ``forfeit``: the
    first of ``stand_ins``), None when nothing."""
    stand_ins: tuple[LateAction, ...] = ()
    """Everything others may write for the player to move once out of time, as the late
    policy allows after the turns others already wrote for them (``records.times.
    stand_in_actions``): ``pass, forfeit after 2`` gives ``("pass", "forfeit")`` after two."""
    forfeited: tuple[tuple[str, int], ...] = ()
    """Who forfeited, and at which move (``Game.forfeited``)."""
    now: datetime | None = None
    """The time the status was taken at (``UPTOWN_NOW`` for tests), for the deadline."""
    game_id: str | None = None
    """The game's id (``Record.game_id``), None in a record without one."""
    copies: tuple[str, ...] = ()
    """The other files that hold the same game (``one_per_game``), as shown."""
    disputed: tuple[tuple[str, int], ...] = ()
    """Each open dispute (``records.disputes``): who disputes which move."""
    judge: str | None = None
    """The address of the game's club judge, which keeps its time (None: its times are its
    players' word)."""

    @property
    def clock_state(self) -> str | None:
        """``on time``, ``late``, ``out of time`` or ``paused`` (None without a deadline)."""
        if self.deadline is None or self.now is None:
            return None
        return self.deadline.state(self.now)

    @property
    def late(self) -> list[str]:
        """The players late or out of time (the one waited for, when they are)."""
        return ([self.waiting_for] if self.waiting_for is not None
                and self.clock_state in ("late", "out of time") else [])

    @property
    def out_of_time(self) -> list[str]:
        """The players out of time."""
        return [self.waiting_for] if self.waiting_for and self.clock_state == "out of time" else []

    def waits_for(self, name: str | None) -> bool:
        return (name is not None and self.waiting_for is not None
                and same_name(self.waiting_for, name))

    def since_text(self) -> str:
        """``2026-12-01 15:36`` (local time), or ``after year 9999`` for a time past it."""
        when = file_time(self.since)
        return when.strftime("%Y-%m-%d %H:%M") if when is not None else _("after year 9999")

    def text(self) -> str:
        """``Bo to move``, ``won by Ana``, ``invalid: ...``; then each open dispute."""
        said = self._state_text()
        for name, number in self.disputed:
            said = _("{status}; {name} disputes move {number}").format(
                status=said, name=name, number=number)
        return said

    def _state_text(self) -> str:
        if self.state == State.TO_MOVE:
            return self.to_move_text()
        if self.state == State.TO_JOIN:
            return _("{name} to join").format(name=self.waiting_for)
        if self.state == State.FINISHED:
            out = [name for name, _when in self.forfeited]
            return (_("won by {names} ({forfeited} forfeited)") if out else
                    _("won by {names}")).format(names=names_list(self.winners),
                                                forfeited=names_list(out))
        if self.state == State.VOID:
            return _("void: {reason}").format(reason=self.problem)
        return _("invalid: {problem}").format(problem=self.problem)

    def to_move_text(self) -> str:
        """Who is to move and what the clock says of the wait, short enough for one line:
        ``Bo to move, 1d 4h left``, ``..., late by 5h (out of time in 6d 19h)``, ``..., out of
        time for 2d: others may pass``, ``..., on vacation for 2d 23h more``."""
        state, deadline, now = self.clock_state, self.deadline, self.now
        text, fields = _("{name} to move"), {"name": self.waiting_for}
        if state is None or deadline is None or now is None:
            pass
        elif state == "on time":
            text, fields["time"] = (_("{name} to move, {time} left"),
                                    describe(deadline.time_left(now)))
        elif state == "late":
            text = _("{name} to move, late by {late} (out of time in {left})")
            fields.update(late=describe(deadline.time_left(now)),
                          left=describe(deadline.out_at - now))
        elif state == "paused":
            until = deadline.paused_until(now)
            if until is not None:
                text, fields["time"] = (_("{name} to move, on vacation for {time} more"),
                                        describe(until - now))
        else:
            may = {("pass",): _("{name} to move, out of time for {time}: others may pass"),
                   ("bot",): _("{name} to move, out of time for {time}: others may let a bot "
                               "move"),
                   ("forfeit",): _("{name} to move, out of time for {time}: others may forfeit"),
                   ("pass", "forfeit"): _("{name} to move, out of time for {time}: others may "
                                          "pass or forfeit"),
                   ("bot", "forfeit"): _("{name} to move, out of time for {time}: others may "
                                         "let a bot move or forfeit")}
            text = may.get(self.stand_ins, _("{name} to move, out of time for {time}"))
            fields["time"] = describe(now - deadline.out_at)
        return text.format(**fields)

    def to_json(self) -> dict[str, object]:
        """The status as ``status --json`` prints it (the clock's fields: null without one)."""
        when = file_time(self.since, utc=True)
        return {"path": self.path, "state": self.state, "moves": self.moves,
                "since": when.isoformat() if when is not None else None,
                "waiting_for": self.waiting_for, "winners": list(self.winners),
                "problem": self.problem, "clock": self.clock, "late_policy": self.late_policy,
                "vacation": self.vacation, "started": self.started,
                "deadline": (self.deadline.to_json(self.now) if self.deadline is not None
                             and self.now is not None else None),
                "late": self.late, "out_of_time": self.out_of_time, "stand_in": self.stand_in,
                "stand_ins": list(self.stand_ins),
                "forfeited": [{"name": name, "move": ply} for name, ply in self.forfeited],
                "game_id": self.game_id, "copies": list(self.copies),
                "disputed": [{"name": name, "move": number} for name, number in self.disputed],
                "judge": self.judge}


def game_status(path: str, shown: str | None = None, now: datetime | None = None,
                checked: Validation | None = None) -> GameStatus:
    """The status of the game at ``path`` (``shown`` names it), its clock read at ``now``
    (without it, the clock is left out), validated at ``now`` (``replay.validate_file``: a
    move from the future makes it invalid, a stalled reveal settles it) unless ``checked``
    is that validation, made already."""
    shown = path if shown is None else shown
    checked = validate_file(path, shown=shown, now=now) if checked is None else checked
    try:
        since = os.stat(path).st_mtime
    except OSError:
        since = 0.0
    record, game = checked.record, checked.game
    game_id = record.game_id if record is not None else None
    if checked.errors or record is None:  # unrevealed keys of a finished game: still finished
        error = checked.errors[0]
        problem = error.message if error.line is None else _("line {line}: {problem}").format(
            line=error.line, problem=error.message)
        return GameStatus(shown, State.INVALID, checked.moves, since, problem=problem,
                          game_id=game_id)
    void = checked.void_text()
    if void is not None:
        return GameStatus(shown, State.VOID, 0, since, problem=void, game_id=game_id)
    hidden = record.hidden
    if hidden is not None and len(hidden.commitments) < len(record.players):
        joining = record.players[len(hidden.commitments)].name
        return GameStatus(shown, State.TO_JOIN, 0, since, waiting_for=joining, game_id=game_id)
    assert game is not None  # replayed with the record
    since = _stamped_since(record, since)
    waiting = game.to_move.name if game.to_move is not None else None
    timed = _clock_fields(record, now, waiting)
    timed["disputed"] = tuple((d.name, d.number) for d in open_disputes(record.disputes))
    timed["judge"] = record.joins.judge.email if record.joins and record.joins.judge else None
    if game.to_move is not None:
        name = game.to_move.name
        deadline = _deadline(record, name) if now is not None else None
        return GameStatus(shown, State.TO_MOVE, len(record.moves), since, waiting_for=name,
                          deadline=deadline, forfeited=tuple(game.forfeited), game_id=game_id,
                          **timed)  # type: ignore[arg-type]
    settled = list(checked.settled)
    winners = tuple(s.name for s in standings(game, record.variant, settled) if s.rank == 1)
    out = tuple(game.forfeited)
    gone = {name_key(name) for name, _when in out}  # forfeited in the game, then not revealed
    out += tuple((name, len(game.history) + 1) for name in settled if name_key(name) not in gone)
    return GameStatus(shown, State.FINISHED, len(record.moves), since, winners=winners,
                      forfeited=out, game_id=game_id, **timed)  # type: ignore[arg-type]


def _stamped_since(record: Record, since: float) -> float:
    """When the game last changed hands: the last move's time (the club judge's, where it
    stamped it: ``records.times.entry_time``), else the game's start, when the record says;
    else ``since`` (the file's time)."""
    last = entry_time(record.moves[-1]) if record.moves else None
    if last is not None:
        return parse_time(last).timestamp()
    if not record.moves and record.timing is not None and record.timing.started is not None:
        return record.timing.started.timestamp()
    return since


def _clock_fields(record: Record, now: datetime | None,
                  waiting: str | None) -> dict[str, object]:
    """The status's fields of the clock, with what others may write for ``waiting`` (the
    player to move; for a finished game, what the policy allows at first)."""
    timing = record.timing
    if timing is None or timing.clock is None:
        return {"now": now}
    written = timing.written
    actions = (timing.late.actions(0) if waiting is None else
               stand_in_actions(timing, record.moves, record.owners, waiting, record.pauses))
    return {**clock_json(written), "now": now, "stand_in": next(iter(actions), None),
            "stand_ins": actions}


def _deadline(record: Record, name: str) -> Deadline | None:
    """The deadline of ``name``, to move (None without a clock)."""
    return waiting_deadline(record.timing, record.moves, record.owners, name,
                            pauses=record.pauses)


_FURTHER = (State.INVALID, State.TO_JOIN, State.VOID, State.TO_MOVE, State.FINISHED)
"""The states of copies of one game, the least advanced first (``one_per_game``)."""


def copies_once(items: Iterable[_Item], game_id: Callable[[_Item], str | None],
                further: Callable[[_Item], tuple[Any, ...]], path: Callable[[_Item], str]
                ) -> list[tuple[_Item, tuple[str, ...]]]:
    """Each game of ``items`` once, with the paths of its other copies: the items of one game
    id (whatever their file names) are one, the one that ``further`` ranks first (then the
    first path) kept; an item without a game id is a game of its own."""
    games: dict[str, list[_Item]] = {}
    kept: list[tuple[_Item, tuple[str, ...]]] = []
    for item in items:
        ident = game_id(item)
        if ident is None:
            kept.append((item, ()))
        else:
            games.setdefault(ident, []).append(item)
    for copies in games.values():
        first, *others = sorted(copies, key=lambda item: (further(item), path(item)))
        kept.append((first, tuple(sorted(path(item) for item in others))))
    return kept


def one_per_game(statuses: list[GameStatus]) -> list[GameStatus]:
    """``statuses`` with the copies of one game made one (``copies_once``): the copy that
    carries it furthest (finished, then in play, then waiting for joins, then invalid; the
    most moves; the latest change), the others named in its ``copies``."""
    return [status._replace(copies=others) for status, others in copies_once(
        statuses, lambda s: s.game_id, lambda s: (-_FURTHER.index(s.state), -s.moves, -s.since),
        lambda s: s.path)]


def order(statuses: list[GameStatus], as_name: str | None = None) -> list[GameStatus]:
    """``as_name``'s turns first, then the other games in play, then finished and invalid
    ones; the longest waiting first within each."""
    def key(status: GameStatus) -> tuple[int, float, str]:
        rank = (0 if status.waits_for(as_name)
                else 1 if status.state in (State.TO_MOVE, State.TO_JOIN) else 2)
        return rank, status.since, status.path

    return sorted(statuses, key=key)
