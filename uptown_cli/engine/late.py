"""What a game with a clock allows when a player is late (docs/DEADLINES.md): the late policy
(what the others may then write for them) and vacations (pauses that stop a player's clock).
No I/O."""

from __future__ import annotations

import re
from bisect import bisect_right
from datetime import datetime, timedelta
from heapq import heappop, heappush
from typing import NamedTuple

from ..errors import SetupError
from .clock import Clock, ClockKind, Pause, TimedTurn, Timeline, after_working, tokens
from .moments import LONGEST, show_time
from .game import name_key
from .notation import FORFEIT
from .words import Word
from ..i18n import _, names_list, pgettext

__all__ = ["LateAction", "DEFAULT_BOT", "LatePolicy", "stand_in_problem", "Vacation", "HORIZON",
           "VacationBook", "pause_problem"]

class LateAction(Word):
    """What others may do for a player out of time (a late policy's actions)."""

    WAIT = "wait"
    """Nobody acts for a late player: the game waits (the default)."""
    PASS = "pass"
    """Once a player is out of time, another may pass for them."""
    BOT = "bot"
    """Once a player is out of time, another may let a bot move for them (open games)."""
    FORFEIT = FORFEIT
    """Once a player is out of time, another may write their forfeit."""


#: The bot of the ``bot`` policy when it names none.
DEFAULT_BOT = "greedy"


class LatePolicy(NamedTuple):
    """What others may do for a player out of time: ``wait`` (nothing), ``pass``, ``bot``
    (a move by ``bot``, open games only) or ``forfeit``; after ``forfeit_after`` turns in a
    row written for them, a pass or bot policy lets others make them forfeit."""

    action: LateAction = LateAction.WAIT
    bot: str | None = None
    forfeit_after: int | None = None

    @classmethod
    def parse(cls, text: str) -> LatePolicy:
        """``wait``, ``forfeit``, ``pass[, forfeit after N]``, ``bot [NAME][, forfeit after N]``."""
        words = tokens(text)
        after: int | None = None
        if words[-4:-3] == [","] and words[-3:-1] == ["forfeit", "after"] and words[-1].isdigit():
            after, words = int(words[-1]), words[:-4]
        bot = (words[1] if words[:1] == [LateAction.BOT] and len(words) == 2 and words[1].isalpha()
               else None)
        known = len(words) == 1 and words[0] in tuple(LateAction) or bot is not None
        if not known or (after is not None and (words[0] not in (LateAction.PASS, LateAction.BOT)
                                                or not 0 < after < 100)):
            raise SetupError(_("the late policy {text!r} is not one of: wait, forfeit, pass[, forfeit "
                               "after N], bot [NAME][, forfeit after N]").format(text=text))
        action = LateAction(words[0])
        return cls(action, (bot or DEFAULT_BOT) if action == LateAction.BOT else None, after)

    def __str__(self) -> str:
        text = f"{LateAction.BOT} {self.bot}" if self.action == LateAction.BOT else self.action
        return text if self.forfeit_after is None else f"{text}, forfeit after {self.forfeit_after}"

    def check(self, hidden: bool) -> None:
        """SetupError for a bot policy in a game with hidden racks (nobody knows the rack)."""
        if hidden and self.action == LateAction.BOT:
            raise SetupError(_("a bot cannot play for a player whose rack nobody else knows: in a "
                               "game with hidden racks the late policy is wait, pass or forfeit"))

    def actions(self, stood_in: int) -> tuple[LateAction, ...]:
        """What others may write for a player out of time whose last ``stood_in`` turns in a
        row others wrote: ``pass``, ``bot``, ``forfeit``, or nothing."""
        if self.action == LateAction.WAIT:
            return ()
        forfeit = self.action == LateAction.FORFEIT or (self.forfeit_after is not None
                                                        and stood_in >= self.forfeit_after)
        return (((self.action,) if self.action != LateAction.FORFEIT else ())
                + ((LateAction.FORFEIT,) if forfeit else ()))


def stand_in_problem(clock: Clock | None, policy: LatePolicy, timeline: Timeline, player: str,
                     at: datetime, action: LateAction, writer: str) -> str | None:
    """Why ``writer`` may not write ``action`` (pass, bot, forfeit) for ``player`` at ``at``
    (by the writer's own clock, as written), after ``timeline``; None when they may."""
    if clock is None:
        return _("this game has no clock: nobody may play for {name}").format(name=player)
    allowed = policy.actions(timeline.stood_in(player))
    if action not in allowed:
        return (_("this game's late policy ({policy}) lets others only {allowed} for a player "
                  "out of time").format(policy=policy, allowed=names_list(
                      (_action_words(what) for what in allowed), "or"))
                if allowed else _("this game's late policy ({policy}) lets others do nothing "
                                  "for a late player").format(policy=policy))
    deadline = clock.turn(timeline, player)
    if at < deadline.out_at:
        return _("{name} is out of time only from {out}, and {writer} wrote this at {at}").format(
            name=player, out=show_time(deadline.out_at), writer=writer, at=show_time(at))
    return None


def _action_words(action: LateAction) -> str:
    """A late policy's action as the words of a sentence in the language in use (the policy
    itself is quoted as the record writes it)."""
    words = {LateAction.PASS: pgettext("late action", "pass"),
             LateAction.BOT: pgettext("late action", "bot"),
             LateAction.FORFEIT: pgettext("late action", "forfeit")}
    return words[action]


class Vacation(NamedTuple):
    """The vacation a game allows each player: ``days`` in the whole game, or in each
    calendar year (UTC) with ``per_year``."""

    days: int
    per_year: bool = False

    @classmethod
    def parse(cls, text: str) -> Vacation | None:
        """``14d`` (in the game), ``30d per year``, or ``none`` (None: no vacation)."""
        words = tokens(text)
        if words == ["none"]:
            return None
        match = re.fullmatch(r"(\d{1,3})d", words[0]) if words else None
        if match is None or words[1:] not in ([], ["per", "game"], ["per", "year"]) \
                or not 0 < int(match.group(1)) <= LONGEST.days:
            raise SetupError(_("the vacation {text!r} is not one of: none, 14d (in the game), 30d per "
                               "year (at most 366d)").format(text=text))
        return cls(int(match.group(1)), words[1:] == ["per", "year"])

    def __str__(self) -> str:
        return f"{self.days}d per year" if self.per_year else f"{self.days}d"

    def left(self, timeline: Timeline, player: str, at: datetime) -> int:
        """The days ``player`` may still take in a pause that begins at ``at``: pauses count in
        the year they begin."""
        taken = sum(entry.days for entry in timeline.entries
                    if isinstance(entry, Pause) and name_key(entry.player) == name_key(player)
                    and (not self.per_year or entry.begins.year == at.year))
        return self.days - taken


HORIZON = LONGEST
"""How far ahead a vacation may be booked: it begins at most this long after it is written."""


class _Away:
    """One player's vacations as a ``VacationBook`` goes: the spans they stand in, joined and
    in order; the days taken (by the year a pause begins, and in the game); their paused time
    up to ``swept`` (the newest time looked at), with the spans not yet passed in a heap; the
    paused time at the last turn; and their bank."""

    __slots__ = ("spans", "taken", "total", "waiting", "swept", "paused", "at_turn", "bank")

    def __init__(self, start: datetime, bank: timedelta) -> None:
        self.spans: list[tuple[datetime, datetime]] = []
        self.taken: dict[int, int] = {}
        self.total = 0
        self.waiting: list[tuple[datetime, datetime]] = []
        self.swept = start
        self.paused = timedelta(0)
        self.at_turn = timedelta(0)
        self.bank = bank

    def overlap(self, begins: datetime, end: datetime) -> tuple[datetime, datetime] | None:
        """The span from ``begins`` to ``end`` overlaps, if any (the spans are joined: only the
        two beside where it would go can)."""
        index = bisect_right(self.spans, (begins, end))
        for span in self.spans[max(0, index - 1):index + 1]:
            if span[0] < end and begins < span[1]:
                return span
        return None

    def add(self, pause: Pause) -> None:
        """Book ``pause``: joined with the spans it meets, its days counted, its time to come
        waiting for the sweep."""
        begins, end = pause.begins, pause.end
        index = bisect_right(self.spans, (begins, end))
        first = index - 1 if index and self.spans[index - 1][1] >= begins else index
        last = index
        while last < len(self.spans) and self.spans[last][0] <= end:
            last += 1
        joined = self.spans[first:last]
        self.spans[first:last] = [(min([begins] + [a for a, _b in joined]),
                                   max([end] + [b for _a, b in joined]))]
        self.taken[begins.year] = self.taken.get(begins.year, 0) + pause.days
        self.total += pause.days
        if end > self.swept:
            heappush(self.waiting, (max(begins, self.swept), end))

    def sweep(self, moment: datetime) -> None:
        """Count the paused time up to ``moment`` (the times looked at go forward; an earlier
        one changes nothing): the spans passed leave the heap, the part of one that goes on
        after ``moment`` is put back."""
        if moment <= self.swept:
            return
        covered, beyond = self.swept, None
        while self.waiting and self.waiting[0][0] < moment:
            start, stop = heappop(self.waiting)
            start = max(start, covered)
            if min(stop, moment) > start:
                self.paused += min(stop, moment) - start
                covered = min(stop, moment)
            if stop > moment:
                beyond = stop if beyond is None else max(beyond, stop)
        if beyond is not None:
            heappush(self.waiting, (moment, beyond))
        self.swept = moment


class VacationBook:
    """A game's turns and vacations entered in record order (``turn``, ``add``), so that
    each vacation is checked against those before it (``problem``) in logarithmic time: a
    game of n entries in n log n, however many pauses it holds. Each player's spans stay in
    order (an overlap is found by bisection), their days taken are counted by year, and
    their paused time is swept forward with the entries' times, which gives the working
    time of the turn in play and each player's bank."""

    def __init__(self, vacation: Vacation | None, clock: Clock | None, start: datetime) -> None:
        self.vacation = vacation
        self.clock = clock
        self.began = start
        """When the turn after the last began (the game's start before any)."""
        self.last: str | None = None
        """Whose the last turn was (``name_key``)."""
        self.away: dict[str, _Away] = {}
        self.out: dict[str, datetime] = {}
        """When the player to move is out of time, once found (this turn)."""

    def _of(self, name: str) -> _Away:
        key = name_key(name)
        if key not in self.away:
            bank = self.clock.time if self.clock is not None else timedelta(0)
            self.away[key] = _Away(self.began, bank)
        return self.away[key]

    def enter(self, entry: TimedTurn | Pause) -> None:
        """A turn or a pause of the timeline, taken as it is (``problem`` checks a pause)."""
        if isinstance(entry, Pause):
            self._of(entry.player).add(entry)
        else:
            self.turn(entry)

    def turn(self, entry: TimedTurn) -> None:
        """A turn: the next begins at its time, and its player's bank (a bank clock) keeps
        what they did not use of it, plus the increment, up to the base."""
        mover = self._of(entry.player)
        for away in self.away.values():
            away.sweep(entry.at)
        clock = self.clock
        if clock is not None and clock.kind == ClockKind.BANK:
            used = entry.at - self.began - (mover.paused - mover.at_turn)
            mover.bank = min(clock.time, max(timedelta(0), mover.bank - used) + clock.increment)
        for away in self.away.values():
            away.at_turn = away.paused
        self.began, self.last, self.out = entry.at, name_key(entry.player), {}

    def problem(self, pause: Pause, to_move: str | None) -> str | None:
        """Why ``pause`` may not follow what was entered (``to_move``: the player whose turn it
        is, None once the game is over); None when it may. Only whoever holds the file may
        write one: the player to move, or the player of the last turn (before sending it
        on)."""
        who, clock, vacation = pause.player, self.clock, self.vacation
        if clock is None:
            return _("this game has no clock: there is no time to stop")
        if vacation is None:
            return _("this game allows no vacation")
        if pause.begins < pause.at:
            return _("a vacation cannot begin before it is written ({at})").format(
                at=show_time(pause.at))
        if pause.begins - pause.at > HORIZON:
            return _("a vacation is booked at most a year ahead: {name}'s would begin {begins}, "
                     "more than a year after {at}").format(
                name=who, begins=show_time(pause.begins), at=show_time(pause.at))
        key = name_key(who)
        if to_move is not None and key not in (name_key(to_move), self.last):
            return _("{name} may write a vacation only at their turn, or right after it before "
                     "sending the game: the others may be playing on other copies").format(name=who)
        away = self._of(who)
        overlap = away.overlap(pause.begins, pause.end)
        if overlap is not None:
            return _("{name} is on vacation from {begins} until {end} already").format(
                name=who, begins=show_time(overlap[0]), end=show_time(overlap[1]))
        left = vacation.days - (away.taken.get(pause.begins.year, 0) if vacation.per_year
                                else away.total)
        if pause.days < 1 or pause.days > left:
            return (_("{name} may take 1 to {left} more days of vacation (this game allows "
                      "{vacation}), not {days}") if left > 0 else _(
                      "{name} has no vacation left (this game allows {vacation})")).format(
                name=who, left=left, vacation=vacation, days=pause.days)
        if to_move is not None and name_key(to_move) == key:
            out = self.out_of_time(key, pause.at)
            if out is not None:
                return _("{name} is out of time since {out}: too late for a vacation on this "
                         "turn").format(name=who, out=show_time(out))
        return None

    def out_of_time(self, key: str, at: datetime) -> datetime | None:
        """When the player to move (``key``: their ``name_key``) ran out of time (as
        ``Clock.turn`` finds it), if they have by ``at``: their working time since the turn
        began, swept, against their time and grace; the moment itself is found once a turn."""
        clock, away = self.clock, self.away[key]
        assert clock is not None  # asked only in a game with a clock
        budget = away.bank if clock.kind == ClockKind.BANK else clock.time
        away.sweep(at)
        if at - self.began - (away.paused - away.at_turn) < budget + clock.grace:
            return None
        if key not in self.out:
            late = after_working(self.began, budget, away.spans)
            self.out[key] = after_working(late, clock.grace, away.spans)
        return self.out[key]


def pause_problem(vacation: Vacation | None, clock: Clock | None, timeline: Timeline,
                  pause: Pause, to_move: str | None) -> str | None:
    """Why ``pause`` may not follow ``timeline`` (``VacationBook.problem``; ``to_move``: the
    player whose turn it is, None once the game is over); None when it may."""
    book = VacationBook(vacation, clock, timeline.start)
    for entry in timeline.entries:
        book.enter(entry)
    return book.problem(pause, to_move)
