"""Time controls for games by email (docs/DEADLINES.md): the clock notation, the deadline of
the player to move, banks, the reveal (and join) deadline (``late`` holds what a game allows a
late player and the others). The times themselves, now and the checks on a record's times are
``engine.moments``'s, and are imported here too.

Times are aware ``datetime`` values in UTC, written ``2026-12-01T15:36:00Z``; durations are
whole minutes. A game is seen as a ``Timeline``: when its first turn began, then its turns and
its players' pauses in record order. Nothing here reads a file, YAML or the system clock: times
are read and written by ``engine.moments``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import accumulate
from typing import NamedTuple

from ..errors import SetupError
from .game import name_key
from .moments import parse_duration, write_duration, write_time
from .words import Word
from ..i18n import _

__all__ = [
    "ClockKind", "TimeState", "tokens", "Clock", "PRESETS",
    "TimedTurn", "Pause", "Timeline", "Deadline", "after_working",
]

class ClockKind(Word):
    """The kinds of clock (``Clock.kind``)."""

    MOVE = "move"
    """A limit per move (and a grace after it)."""
    BANK = "bank"
    """A bank of time, refilled by an increment after each move up to its base."""


class TimeState(Word):
    """How a player stands with their clock (``Deadline.state``)."""

    ON_TIME = "on time"
    """Their time is not spent."""
    LATE = "late"
    """Their time is spent: they are in the grace."""
    OUT_OF_TIME = "out of time"
    """Their time and grace are spent: others may act for them (the late policy)."""
    PAUSED = "paused"
    """They are on vacation: their clock is stopped."""


def tokens(text: str) -> list[str]:
    """The words of a clock, a late policy or a vacation, in lower case, ``+`` and ``,`` apart."""
    return text.replace("+", " + ").replace(",", " , ").lower().split()


def _clock_error(text: str) -> SetupError:
    return SetupError(_("the clock {text!r} is not one of: none, move 72h [grace 168h], "
                        "bank 36h +12h [grace 24h], each with [reveal 48h] if wanted; or "
                        "{presets}").format(text=text, presets=", ".join(PRESETS)))


class Clock(NamedTuple):
    """A game's time control: ``move`` (each turn has ``time``, then ``grace``) or ``bank``
    (``time`` is the bank and its cap; each turn of the player adds ``increment``). ``reveal``
    is the window for a join or a reveal (default: ``time``), followed by the grace too."""

    kind: ClockKind
    time: timedelta
    increment: timedelta = timedelta(0)
    grace: timedelta = timedelta(0)
    reveal: timedelta | None = None

    @classmethod
    def parse(cls, text: str) -> Clock | None:
        """The clock ``text`` writes (``none`` is None: no clock); SetupError else."""
        words = tokens(text)
        if words in (["none"], []):
            return None
        if len(words) == 1 and words[0] in PRESETS:
            return PRESETS[words[0]]
        if len(words) < 2 or words[0] not in (ClockKind.MOVE, ClockKind.BANK):
            raise _clock_error(text)
        kind, time, rest = ClockKind(words[0]), parse_duration(words[1]), words[2:]
        increment = timedelta(0)
        if kind == ClockKind.BANK and rest[:1] == ["+"] and len(rest) > 1:
            increment, rest = parse_duration(rest[1]), rest[2:]
        names = rest[::2]
        if len(rest) % 2 or len(set(names)) < len(names) or not set(names) <= {"grace", "reveal"}:
            raise _clock_error(text)
        options = {name: parse_duration(value) for name, value in zip(names, rest[1::2])}
        if increment > time:
            raise SetupError(_("the clock {text!r} adds more than its bank holds: the increment is at "
                               "most the bank").format(text=text))
        return cls(kind, time, increment, options.get("grace", timedelta(0)), options.get("reveal"))

    def __str__(self) -> str:
        """The canonical notation: ``move 72h grace 168h``, ``bank 36h +12h``."""
        words = [self.kind, write_duration(self.time)]
        if self.kind == ClockKind.BANK and self.increment:
            words.append("+" + write_duration(self.increment))
        if self.grace:
            words += ["grace", write_duration(self.grace)]
        if self.reveal is not None:
            words += ["reveal", write_duration(self.reveal)]
        return " ".join(words)

    def turn(self, timeline: Timeline, player: str) -> Deadline:
        """The wait for ``player``'s turn, which began with the timeline's last turn."""
        budget = self.bank(timeline, player) if self.kind == ClockKind.BANK else self.time
        return _deadline(player, timeline.turn_began(), budget, self.grace, timeline)

    def window(self, timeline: Timeline, player: str, since: datetime | None = None) -> Deadline:
        """The wait for ``player``'s join or reveal, from ``since`` (default: the timeline's
        last turn, the end of the game): the reveal window, then the grace."""
        since = timeline.turn_began() if since is None else since
        return _deadline(player, since, self.reveal or self.time, self.grace, timeline)

    def bank(self, timeline: Timeline, player: str) -> timedelta:
        """What ``player``'s bank holds for their next turn: the base at first; after each of
        their turns what was left of it (none when late) plus the increment, at most the base."""
        bank, began, paused = self.time, timeline.start, _PausedTime(timeline.pauses_of(player))
        key = name_key(player)
        for entry in timeline.entries:
            if isinstance(entry, TimedTurn):
                if name_key(entry.player) == key:
                    used = entry.at - began - (paused.before(entry.at) - paused.before(began))
                    bank = min(self.time, max(timedelta(0), bank - used) + self.increment)
                began = entry.at
        return bank


PRESETS = {
    "judges": Clock(ClockKind.MOVE, timedelta(hours=72), grace=timedelta(hours=168)),
    "bga": Clock(ClockKind.BANK, timedelta(hours=36), timedelta(hours=12)),
    "little-golem": Clock(ClockKind.BANK, timedelta(hours=240), timedelta(hours=36)),
}
"""Names ``--clock`` takes for the clocks of the services people know; the record holds the
notation they stand for."""


class TimedTurn(NamedTuple):
    """A turn of the timeline: whose it was, when it was written, and whether another player
    wrote it for them (a bot move, a pass or a forfeit for a player out of time)."""

    player: str
    at: datetime
    stand_in: bool = False


class Pause(NamedTuple):
    """A vacation: ``player`` stops their clock for ``days`` days from ``start`` (booked
    ahead), or from ``at``, when it was written."""

    player: str
    at: datetime
    days: int
    start: datetime | None = None

    @property
    def begins(self) -> datetime:
        """When the pause starts: its ``start``, else when it was written."""
        return self.at if self.start is None else self.start

    @property
    def end(self) -> datetime:
        """When the pause is over."""
        return self.begins + timedelta(days=self.days)


class Timeline(NamedTuple):
    """A game's times: ``start`` (when its first turn began: the game made, or the last
    join), then its turns and pauses in record order."""

    start: datetime
    entries: tuple[TimedTurn | Pause, ...] = ()

    def before(self, index: int) -> Timeline:
        """The timeline as it was before entry ``index``."""
        return Timeline(self.start, self.entries[:index])

    def last_time(self) -> datetime:
        """The time of the newest entry (the game's start before any)."""
        return self.entries[-1].at if self.entries else self.start

    def turn_began(self) -> datetime:
        """When the turn after the last began: the last turn's time (pauses start none)."""
        turns = [entry.at for entry in self.entries if isinstance(entry, TimedTurn)]
        return turns[-1] if turns else self.start

    def pauses_of(self, player: str) -> list[tuple[datetime, datetime]]:
        """``player``'s pauses as ``(from, to)`` spans, joined where they overlap, in order."""
        spans = sorted((entry.begins, entry.end) for entry in self.entries
                       if isinstance(entry, Pause) and name_key(entry.player) == name_key(player))
        joined: list[tuple[datetime, datetime]] = []
        for begin, end in spans:
            if joined and begin <= joined[-1][1]:
                joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
            else:
                joined.append((begin, end))
        return joined

    def stood_in(self, player: str) -> int:
        """How many of ``player``'s last turns in a row others wrote for them."""
        count = 0
        for entry in reversed(self.entries):
            if isinstance(entry, TimedTurn) and name_key(entry.player) == name_key(player):
                if not entry.stand_in:
                    break
                count += 1
        return count


class _PausedTime:
    """How much of the time before a moment joined spans in order (``Timeline.pauses_of``)
    hold, found by bisection: a clock that asks it once a turn reads its pauses once."""

    __slots__ = ("spans", "starts", "sums")

    def __init__(self, spans: Sequence[tuple[datetime, datetime]]) -> None:
        self.spans = spans
        self.starts = [start for start, _stop in spans]
        self.sums = list(accumulate((stop - start for start, stop in spans), initial=timedelta(0)))

    def before(self, moment: datetime) -> timedelta:
        """The paused time before ``moment``."""
        index = bisect_right(self.starts, moment)
        if index == 0:
            return timedelta(0)
        start, stop = self.spans[index - 1]
        return self.sums[index - 1] + min(moment, stop) - start


def _working(begin: datetime, end: datetime, pauses: Sequence[tuple[datetime, datetime]]) -> timedelta:
    """The time from ``begin`` to ``end`` outside ``pauses`` (joined spans); negative when
    ``end`` is before ``begin``."""
    if end < begin:
        return -_working(end, begin, pauses)
    paused = sum((min(end, stop) - max(begin, start) for start, stop in pauses
                  if start < end and stop > begin), timedelta(0))
    return end - begin - paused


def after_working(begin: datetime, budget: timedelta,
                  pauses: Sequence[tuple[datetime, datetime]]) -> datetime:
    """When ``budget`` of working time from ``begin`` is spent, the clock stopped in ``pauses``
    (joined spans in order)."""
    moment = begin
    for start, stop in pauses:
        if stop <= moment:
            continue
        if moment + budget <= start:
            break
        budget -= max(start - moment, timedelta(0))
        moment = stop
    return moment + budget


def _deadline(player: str, since: datetime, budget: timedelta, grace: timedelta,
              timeline: Timeline) -> Deadline:
    pauses = tuple(timeline.pauses_of(player))
    late = after_working(since, budget, pauses)
    return Deadline(player, since, late, after_working(late, grace, pauses), pauses)


class Deadline(NamedTuple):
    """The wait for one player: since when, when they are late (the time allowed is spent) and
    out of time (the grace is spent too, and others may act for them), and their pauses."""

    player: str
    since: datetime
    late_at: datetime
    out_at: datetime
    pauses: tuple[tuple[datetime, datetime], ...] = ()

    def paused_until(self, now: datetime) -> datetime | None:
        """The end of the pause ``now`` falls in, if any."""
        return next((stop for start, stop in self.pauses if start <= now < stop), None)

    def state(self, now: datetime) -> TimeState:
        """``on time``, ``late`` (in the grace), ``out of time``, or ``paused`` (on vacation
        and not out of time)."""
        if now >= self.out_at:
            return TimeState.OUT_OF_TIME
        if self.paused_until(now) is not None:
            return TimeState.PAUSED
        return TimeState.LATE if now >= self.late_at else TimeState.ON_TIME

    def time_left(self, now: datetime) -> timedelta:
        """The working time until ``late_at`` (it stands still during a pause); negative once
        late, by the working time since."""
        return _working(now, self.late_at, self.pauses)

    def to_json(self, now: datetime) -> dict[str, object]:
        """``{"player", "since", "late_at", "out_of_time_at", "time_left" (seconds), "state",
        "paused_until"}``, times as records write them."""
        paused = self.paused_until(now)
        return {"player": self.player, "since": write_time(self.since),
                "late_at": write_time(self.late_at), "out_of_time_at": write_time(self.out_at),
                "time_left": int(self.time_left(now).total_seconds()), "state": self.state(now),
                "paused_until": None if paused is None else write_time(paused)}
