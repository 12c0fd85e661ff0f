"""What a game with a clock allows when a player is late (docs/DEADLINES.md): the late policy
(what the others may then write for them) and vacations (pauses that stop a player's clock).
No I/O."""

from __future__ import annotations

import re
from datetime import datetime
from typing import NamedTuple

from ..errors import SetupError
from .clock import Clock, Pause, TimedTurn, Timeline, tokens
from .moments import LONGEST, show_time
from .game import name_key
from .notation import FORFEIT
from .words import Word
from ..i18n import _, names_list, pgettext

__all__ = ["LateAction", "DEFAULT_BOT", "LatePolicy", "stand_in_problem", "Vacation", "pause_problem"]

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


def pause_problem(vacation: Vacation | None, clock: Clock | None, timeline: Timeline,
                  pause: Pause, to_move: str | None) -> str | None:
    """Why ``pause`` may not follow ``timeline`` (``to_move``: the player whose turn it is, None
    once the game is over); None when it may. Only whoever holds the file may write one: the
    player to move, or the player of the last turn (before sending it on)."""
    who = pause.player
    if clock is None:
        return _("this game has no clock: there is no time to stop")
    if vacation is None:
        return _("this game allows no vacation")
    if pause.begins < pause.at:
        return _("a vacation cannot begin before it is written ({at})").format(
            at=show_time(pause.at))
    last = [entry.player for entry in timeline.entries if isinstance(entry, TimedTurn)][-1:]
    holders = {name_key(name) for name in [to_move or ""] + last}
    if to_move is not None and name_key(who) not in holders:
        return _("{name} may write a vacation only at their turn, or right after it before "
                 "sending the game: the others may be playing on other copies").format(name=who)
    overlap = [span for span in timeline.pauses_of(who) if span[0] < pause.end and pause.begins < span[1]]
    if overlap:
        return _("{name} is on vacation from {begins} until {end} already").format(
            name=who, begins=show_time(overlap[0][0]), end=show_time(overlap[0][1]))
    left = vacation.left(timeline, who, pause.begins)
    if pause.days < 1 or pause.days > left:
        return (_("{name} may take 1 to {left} more days of vacation (this game allows "
                  "{vacation}), not {days}") if left > 0 else _(
                  "{name} has no vacation left (this game allows {vacation})")).format(
            name=who, left=left, vacation=vacation, days=pause.days)
    if to_move is not None and name_key(to_move) == name_key(who):
        deadline = clock.turn(timeline, who)
        if pause.at >= deadline.out_at:
            return _("{name} is out of time since {out}: too late for a vacation on this "
                     "turn").format(name=who, out=show_time(deadline.out_at))
    return None
