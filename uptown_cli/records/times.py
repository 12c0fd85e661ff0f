"""Times and deadlines in a record (docs/DEADLINES.md): the keys ``clock``, ``late``,
``vacation`` and ``started`` at the top, ``at`` (and ``by``, ``bot``) under each move, read and
checked at their lines; what the game waits for at a given time; whether a forfeit, an entry
written for another player or a pause may stand where it is (the clock and the late policy);
and the reveal deadlines that settle a finished game whose keys were not all revealed.

The schema reads the top keys (``read_timing``) and the stamps under the moves; the order of
the times (never back) is a problem of the record; a time too far in the reader's future is
one only for the reader (``future_problem``, given now). Nothing here reads the clock or the
environment: the commands pass now (``engine.moments.current_time``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..engine.game import name_key
from ..engine.geometry import shown_color
from ..engine.moments import check_times, parse_time, write_time
from ..engine.notation import FORFEIT, PASS
from ..errors import RecordError, SetupError
from ..i18n import _, pgettext
from .entries import JUDGE, TIMING_KEYS, MoveEntry, PauseEntry, PlayerEntry
from .nodes import Mapping, Node, Scalar, describe

if TYPE_CHECKING:
    from ..engine.clock import Clock, Deadline, Pause, TimedTurn, Timeline
    from ..engine.late import LatePolicy, Vacation
    from ..engine.game import Game

__all__ = ["Timing", "clock_json", "clock_line", "split_pauses", "read_times", "read_timing", "move_times",
           "future_problem", "order_problem", "timeline", "waiting_deadline", "stand_in_actions",
           "stand_in_seed", "stand_in_error", "reveal_deadlines", "settle", "pause_errors",
           "entry_time", "judged_start", "read_judged", "time_problem"]

_FAR = datetime(9999, 1, 1, tzinfo=timezone.utc)

# The clock and the late policy (engine.clock, engine.late) are imported by the functions that
# need them, for a game with times only: a record without them does not pay their 4.1 ms of
# CPU (python -X importtime, median of 9, 2026-12-06).


class Judged(Protocol):
    """What the deadlines read of a record's fair-play fields: its club judge's card, None
    when the game has no judge."""

    @property
    def judge(self) -> object | None:
        """The judge's card."""


class Record(Protocol):
    """What the deadlines read of a record (``records.schema.Record``, which reads its times
    here)."""

    path: str
    seed: str | None
    players: list[PlayerEntry]
    moves: list[MoveEntry]
    pauses: list[PauseEntry]
    timing: Timing | None
    @property
    def joins(self) -> Judged | None:
        """The fair-play fields (``records.hidden_fields.HiddenFields``), None in an open
        game."""

    @property
    def owners(self) -> dict[str, str]:
        """Each colour's player, by name."""


class Timing(NamedTuple):
    """A record's time control: the clock (None: no clock), the late policy, the vacation
    allowed (None: none), when the game was made; ``written`` holds the four keys as the
    record writes them (what each player's memory keeps), ``lines`` their lines."""

    clock: Clock | None
    late: LatePolicy
    vacation: Vacation | None
    started: datetime | None
    written: dict[str, str]
    lines: dict[str, int]

    def describe(self) -> str | None:
        """``Clock: move 72h grace 168h; late players: wait; vacation none``, or None for a
        game without a clock."""
        if self.clock is None:
            return None
        return clock_line(str(self.clock), str(self.late),
                          None if self.vacation is None else str(self.vacation))


def judged_start(timing: Timing, stamps: Sequence[str | None], players: int) -> Timing:
    """The time control of a game under a club judge: its clocks start when the judge received
    the last join (docs/JUDGE.md), not when the game was made, once every one of the
    ``players`` has joined and the judge has stamped (``stamps``: when it received each join,
    as written) every join."""
    if len(stamps) < players or None in stamps:
        return timing
    return timing._replace(started=max(parse_time(stamp) for stamp in stamps if stamp))


def clock_json(written: dict[str, str]) -> dict[str, str | None]:
    """The clock's keys as the JSON of ``new``, ``show`` and ``status`` give them, from the
    keys as a record writes them (``Timing.written``): ``clock``, ``late_policy``,
    ``vacation``, ``started`` (None for those absent)."""
    return {"clock": written.get("clock"), "late_policy": written.get("late"),
            "vacation": written.get("vacation"), "started": written.get("started")}


def clock_line(clock: str, late: str, vacation: str | None) -> str:
    """``Clock: move 72h grace 168h; late players: wait; vacation none``: the words in the
    players' language, the clock, late policy and vacation as the record writes them."""
    return _("Clock: {clock}; late players: {late}; vacation {vacation}").format(
        clock=clock, late=late, vacation=pgettext("vacation", "none") if vacation is None
        else vacation)


def read_times(root: Mapping, moves: Sequence[MoveEntry], hidden: bool,
               problem: Callable[[str, Node | int | None], None],
               pauses: Sequence[PauseEntry] = ()) -> Timing | None:
    """The time control of the record ``root`` (``read_timing``), and a problem at the first
    entry whose time goes back (``order_problem``)."""
    timing = read_timing(root, hidden, problem)
    found = order_problem(timing, moves, pauses)
    if found is not None:
        problem(found[1], found[0])
    return timing


_PAUSE = re.compile(r"pause ([0-9]{1,3})d")
_PAUSE_KEYS = ("at", "from", "sig", "judged", "stamp")
"""What a pause may carry under it."""


def split_pauses(items: Sequence[Node], problem: Callable[..., None]
                 ) -> tuple[list[Node], list[PauseEntry]]:
    """The items of ``moves`` that are not pauses, and the pauses (``- blue: pause 7d``, with
    ``at`` and optionally ``from`` under them, and in a signed game its ``sig``)."""
    kept: list[Node] = []
    pauses: list[PauseEntry] = []
    for item in items:
        first = item.pairs[0] if isinstance(item, Mapping) and item.pairs else None
        value = first[1] if first is not None else None
        found = (_PAUSE.fullmatch(value.value) if isinstance(value, Scalar) else None)
        if first is None or found is None:
            kept.append(item)
            continue
        assert isinstance(item, Mapping)
        for key, _node in item.pairs[1:]:
            if key.value not in _PAUSE_KEYS:
                problem(_("a pause carries only 'at', 'from', 'sig', 'judged' and 'stamp' under "
                          "it, not '{key}'").format(key=key.value), key)
        noted = lambda message, node, _number: problem(message, node)  # noqa: E731
        at, start, sig = _texts(
            item, ("at", "from", "sig"), noted, None,
            lambda key, node: _("the pause's {key} must be text, not {node}").format(
                key=key, node=describe(node)),
            lambda key, text: None if key == "sig" or (why := time_problem(text)) is None
            else _("the pause's {key}: {problem}").format(key=key, problem=why))
        days = int(found.group(1))
        if not 0 < days <= 366:
            problem(_("a pause is 1 to 366 days, not {days}").format(days=days), value)
        judged = read_judged(_("a pause"), item, noted)
        pauses.append(PauseEntry(len(kept), first[0].value, days, at, start, item.line, sig,
                                 *judged))
    return kept, pauses


def read_timing(root: Mapping, hidden: bool,
                problem: Callable[[str, Node | int | None], None]) -> Timing | None:
    """The time control of the record ``root`` (None when it has none of the keys); each
    value that is wrong is a ``problem`` at its line."""
    if all(root.get(key) is None for key in TIMING_KEYS):
        return None
    from ..engine.clock import Clock
    from ..engine.late import LatePolicy, Vacation

    written: dict[str, str] = {}
    lines: dict[str, int] = {}
    values: dict[str, object] = {}
    for key in TIMING_KEYS:
        pair = root.get(key)
        if pair is None:
            continue
        node = pair[1]
        lines[key] = pair[0].line
        if not isinstance(node, Scalar) or node.empty:
            problem(_("'{key}' must be text, not {value}").format(key=key, value=describe(node)),
                    node)
            continue
        written[key] = node.value
        try:
            values[key] = _parse(key, node.value, hidden)
        except SetupError as exc:
            problem(str(exc), node)
    clock = values.get("clock")
    if written.get("clock") is not None and clock is not None and "started" not in written:
        problem(_("a game with a clock says when it started ('started: 2026-12-01T15:36:00Z')"),
                lines["clock"])
    if clock is None:
        for key in ("late", "vacation"):
            if key in written and "clock" not in values:
                problem(_("'{key}' needs a clock ('clock: move 72h grace 168h')").format(key=key),
                        lines[key])
    late, vacation, started = values.get("late"), values.get("vacation"), values.get("started")
    return Timing(clock if isinstance(clock, Clock) else None,
                  late if isinstance(late, LatePolicy) else LatePolicy(),
                  vacation if isinstance(vacation, Vacation) else None,
                  started if isinstance(started, datetime) else None, written, lines)


def _parse(key: str, text: str, hidden: bool) -> object:
    from ..engine.clock import Clock
    from ..engine.late import LatePolicy, Vacation

    if key == "clock":
        return Clock.parse(text)
    if key == "late":
        policy = LatePolicy.parse(text)
        policy.check(hidden)
        return policy
    if key == "vacation":
        return Vacation.parse(text)
    return parse_time(text)


def _texts(item: Mapping, keys: tuple[str, ...],
           problem: Callable[[str, Node | int | None, int | None], None], number: int | None,
           not_text: Callable[[str, Node], str],
           unread: Callable[[str, str], str | None]) -> list[str | None]:
    """The values of ``keys`` under the entry ``item``, each as written: None for one that is
    absent (or is the entry's own first key) or is a problem, noted with ``problem`` (at
    ``number``): ``not_text(key, node)`` for a value that is not text, ``unread(key, value)``
    for one that does not read (None: it reads)."""
    found: list[str | None] = []
    for key in keys:
        pair = item.get(key)
        node = pair[1] if pair is not None and pair is not item.pairs[0] else None
        if node is None:
            found.append(None)
            continue
        text = node.value if isinstance(node, Scalar) and not node.empty else None
        said = not_text(key, node) if text is None else unread(key, text)
        if said is not None:
            problem(said, node, number)
        found.append(None if said is not None else text)
    return found


def time_problem(text: str) -> str | None:
    """Why ``text`` is not a time as records write them, or None."""
    try:
        parse_time(text)
    except SetupError as exc:
        return str(exc)
    return None


def read_judged(what: str, item: Mapping,
                problem: Callable[[str, Node | int | None, int | None], None],
                number: int | None = None) -> tuple[str | None, str | None]:
    """``(judged, stamp)`` under the entry ``item`` (``what`` names it: ``move 3``) of a game
    under a club judge: when the judge received it (a time) and the judge's signature (128 hex
    digits), as written; ``(None, None)`` when either is absent or is a problem (noted)."""
    def unread(key: str, value: str) -> str | None:
        if key == "judged":
            why = time_problem(value)
            return None if why is None else _("the time {what} was judged: {problem}").format(
                what=what, problem=why)
        return None if re.fullmatch("[0-9a-f]{128}", value) else _(
            "the judge's stamp under {what} must be 128 hex digits (0-9, a-f)").format(what=what)

    judged, stamp = _texts(item, ("judged", "stamp"), problem, number,
                           lambda key, node: _("the {key} under {what} must be text, not {node}")
                           .format(key=key, what=what, node=describe(node)), unread)
    if (judged is None) != (stamp is None) and item.get("judged" if judged is None
                                                        else "stamp") is None:
        problem(_("{what} carries the judge's time and stamp together ('judged' and 'stamp'), "
                  "not one of them").format(what=what), item, number)
    return (judged, stamp) if judged is not None and stamp is not None else (None, None)


def read_stamp(number: int, item: Mapping,
               problem: Callable[[str, Node | int | None, int | None], None]
               ) -> tuple[str | None, str | None, str | None]:
    """``(at, by, bot)`` under move ``number``'s entry ``item``, each as written (None when
    absent); a value that is not text, or an ``at`` that is not a time, is a problem."""
    def unread(key: str, value: str) -> str | None:
        why = time_problem(value) if key == "at" else None
        return None if why is None else _("move {number}'s time: {problem}").format(
            number=number, problem=why)

    at, by, bot = _texts(item, ("at", "by", "bot"), problem, number,
                         lambda key, node: _("move {number}'s {key} must be text, not {node}")
                         .format(number=number, key=key, node=describe(node)), unread)
    if bot is not None and by is None:
        problem(_("move {number} names a bot but not who wrote it ('by: NAME')").format(
            number=number), item, number)
    return at, by, bot


def entry_time(entry: MoveEntry | PauseEntry) -> str | None:
    """When an entry counts as written, as the record writes it: when the club judge received
    it (``judged``), in a game under a judge once the judge has stamped it; else its ``at``
    (its writer's word)."""
    return entry.judged or entry.at


def move_times(moves: Sequence[MoveEntry], pauses: Sequence[PauseEntry] = ()
               ) -> list[tuple[str, datetime, int]]:
    """``(label, time, line)`` of each move (and pause) that has a time (``entry_time``)."""
    return [(_("move {number}").format(number=index + 1), parse_time(at), move.line)
            for index, move in enumerate(moves) if (at := entry_time(move)) is not None] + [
        (_("the pause after move {number}").format(number=pause.after), parse_time(at),
         pause.line)
        for pause in pauses if (at := entry_time(pause)) is not None]


def order_problem(timing: Timing | None, moves: Sequence[MoveEntry],
                  pauses: Sequence[PauseEntry] = ()) -> tuple[int, str] | None:
    """``(line, message)`` for the first entry dated before the one before it (or before
    the game's start), or missing its time in a game with a clock; None else."""
    if timing is not None and timing.clock is not None:
        for index, move in enumerate(moves):
            if move.at is None:
                return move.line, _("move {number} has no time ('at: 2026-12-01T15:36:00Z' under "
                                    "it): a game with a clock dates every entry").format(
                                        number=index + 1)
        for pause in pauses:
            if pause.at is None:
                return pause.line, _("a pause has no time ('at: ...' under it)")
    times = sorted(move_times(moves, pauses), key=lambda t: t[2])
    start = (timing.started if timing is not None and timing.started is not None
             else datetime(1, 1, 1, tzinfo=timezone.utc))
    found = check_times([(label, at) for label, at, _ in times], start, _FAR)
    if found is None:
        return None
    return times[found[0]][2], found[1]


def future_problem(record_path: str, moves: Sequence[MoveEntry], now: datetime,
                   timing: Timing | None = None,
                   pauses: Sequence[PauseEntry] = ()) -> RecordError | None:
    """A RecordError at the line of the first move dated more than ``TOLERANCE`` after
    ``now`` (the reader's clock), or None; the game's ``started`` too."""
    if timing is not None and timing.started is not None:
        found = check_times([(_("the game's start"), timing.started)], timing.started, now)
        if found is not None:
            return RecordError(found[1], path=record_path, line=timing.lines.get("started"))
    times = move_times(moves, pauses)
    start = datetime(1, 1, 1, tzinfo=timezone.utc)
    ordered = sorted(times, key=lambda t: t[1])  # the order is the schema's to check
    found = check_times([(label, at) for label, at, _ in ordered], start, now)
    if found is None:
        return None
    return RecordError(found[1], path=record_path, line=ordered[found[0]][2])


def timeline(timing: Timing, moves: Sequence[MoveEntry], owners: dict[str, str],
             start: datetime | None = None, pauses: Sequence[PauseEntry] = ()) -> Timeline:
    """The game's ``Timeline``: from ``start`` (default: ``started``), each move a turn of
    the player of its colour (``owners``), at its time, and the pauses among them (those
    after the last of ``moves`` too)."""
    from ..engine.clock import Timeline

    first = start or timing.started or datetime(1, 1, 1, tzinfo=timezone.utc)
    return Timeline(first, tuple(entry for entry, _source in _entries(moves, owners, pauses)))


def _entries(moves: Sequence[MoveEntry], owners: dict[str, str], pauses: Sequence[PauseEntry]
             ) -> Iterator[tuple[TimedTurn | Pause, MoveEntry | PauseEntry]]:
    """The timeline's entries in record order, each with the entry of the record it is: the
    moves and pauses that have a time (each read once)."""
    from ..engine.clock import Pause, TimedTurn

    after: dict[int, list[tuple[PauseEntry, str]]] = {}
    for pause in pauses:
        if (at := entry_time(pause)) is not None:
            after.setdefault(pause.after, []).append((pause, at))
    for index in range(len(moves) + 1):
        for p, at in after.get(index, ()):
            yield (Pause(owners.get(p.color, p.color), parse_time(at), p.days,
                         parse_time(p.start) if p.start else None), p)
        move = moves[index] if index < len(moves) else None
        if move is not None and (at := entry_time(move)) is not None:
            yield TimedTurn(owners.get(move.color, move.color), parse_time(at),
                            move.by is not None), move


def stand_in_actions(timing: Timing | None, moves: Sequence[MoveEntry], owners: dict[str, str],
                     player: str, pauses: Sequence[PauseEntry] = ()) -> tuple[str, ...]:
    """What others may write for ``player``, to move after ``moves``, once they are out of time
    (``engine.late.LatePolicy.actions``: ``pass``, ``bot``, ``forfeit``, counting the turns
    others already wrote for them in a row, so that ``pass, forfeit after N`` offers the
    forfeit once it is allowed); nothing without a clock."""
    if timing is None or timing.clock is None:
        return ()
    return timing.late.actions(timeline(timing, moves, owners, pauses=pauses).stood_in(player))


def waiting_deadline(timing: Timing | None, moves: Sequence[MoveEntry], owners: dict[str, str],
                     player: str, start: datetime | None = None,
                     pauses: Sequence[PauseEntry] = ()) -> Deadline | None:
    """The deadline of ``player``, to move after ``moves``, under the game's clock (None
    without one)."""
    if timing is None or timing.clock is None:
        return None
    return timing.clock.turn(timeline(timing, moves, owners, start, pauses), player)


def stand_in_seed(record: Record, number: int) -> str:
    """What seeds the bot of a stand-in's move ``number`` (docs/DEADLINES.md): the record's
    seed and the move's number, so that ``validate`` plays the same bot again."""
    return f"stand-in {record.seed} {number}"


def stand_in_error(record: Record, game: Game, index: int, hidden: bool) -> str | None:
    """Why entry ``index`` of ``record`` (a forfeit, or an entry another player wrote: ``by``)
    may not follow ``game`` (the game before it); None when it may. A player resigns at their
    turn; another writes for them only once they are out of time, as the late policy allows."""
    from ..engine.late import LateAction, stand_in_problem

    entry = record.moves[index]
    player = game.to_move
    if player is None:
        return _("the game is over")
    if entry.color not in player.colors:
        return _("it is {name}'s turn ({colors}), not {color}'s").format(
            name=player.name, colors=", ".join(map(shown_color, player.colors)),
            color=shown_color(entry.color))
    if hidden and entry.by is not None and entry.text not in (FORFEIT, str(PASS)):
        return _("only a pass or a forfeit may be written for another player in a hidden game")
    if entry.by is None:
        return None
    judged = record.joins is not None and record.joins.judge is not None
    if judged != (entry.by == JUDGE):
        return (_("in a game under a club judge only the judge writes for a player out of time, "
                  "not {by}").format(by=entry.by) if judged else
                _("move {number} is written by the judge, but this game is under none").format(
                    number=index + 1))
    names = {name_key(p.name): p.name for p in record.players}
    names[name_key(JUDGE)] = JUDGE
    out = {name_key(name) for name, _ in game.forfeited}
    writer = name_key(entry.by)
    if writer not in names or writer in out:
        return _("{by}, who wrote move {number}, is not a player still in play").format(
            by=entry.by, number=index + 1)
    if writer == name_key(player.name):
        return _("{by} wrote move {number} for themselves: leave out 'by'").format(
            by=entry.by, number=index + 1)
    timing = record.timing
    written = entry_time(entry)
    if timing is None or written is None:
        return _("nobody may play for {name} in a game without a clock").format(name=player.name)
    action = LateAction(entry.text) if entry.text in (FORFEIT, str(PASS)) else LateAction.BOT
    if action == LateAction.BOT and entry.bot is None:
        return _("move {number} was written by {by} for {name}, but not by a bot").format(
            number=index + 1, by=entry.by, name=player.name)
    if action == LateAction.BOT and entry.bot != timing.late.bot:
        return _("move {number}'s bot is {bot}, not this game's ({policy})").format(
            number=index + 1, bot=entry.bot, policy=timing.late.bot or "none")
    line = timeline(timing, record.moves[:index], record.owners,
                    pauses=[p for p in record.pauses if p.after <= index])
    return stand_in_problem(timing.clock, timing.late, line, player.name, parse_time(written),
                            action, names[writer])


def reveal_deadlines(record: Record, names: Sequence[str]) -> dict[str, datetime]:
    """When each of ``names`` (players of a finished game who have not revealed) forfeits:
    the reveal window and the grace, from the last move (``Clock.window``); none without a
    clock or when a move has no time."""
    timing = record.timing
    if timing is None or timing.clock is None or any(entry_time(m) is None for m in record.moves):
        return {}
    line = timeline(timing, record.moves, record.owners, pauses=record.pauses)
    return {name: timing.clock.window(line, name).out_at for name in names}


def settle(record: Record | None, unrevealed: Sequence[str], now: datetime) -> dict[str, str]:
    """Those of ``unrevealed`` (who have not revealed their keys in a finished game) whose
    reveal deadline has passed at ``now``, with it: they forfeit, and the game counts for the
    others (``replay.Validation.settled``)."""
    if record is None or not unrevealed:
        return {}
    return {name: write_time(deadline)
            for name, deadline in reveal_deadlines(record, unrevealed).items() if now >= deadline}



def pause_errors(record: Record, game: Game) -> list[RecordError]:
    """A RecordError for each pause of ``record`` that the game's clock and vacation do not
    allow where it stands, each checked against the entries before it and the pauses that
    stand (``engine.late.VacationBook``: the whole record in n log n); ``game`` is the record
    replayed."""
    from ..engine.clock import Pause
    from ..engine.late import VacationBook

    timing, owners = record.timing, record.owners
    errors = [RecordError(_("a pause needs a clock and a time"), path=record.path, line=pause.line)
              for pause in record.pauses if timing is None or entry_time(pause) is None]
    if timing is None:
        return errors
    book = VacationBook(timing.vacation, timing.clock,
                        timing.started or datetime(1, 1, 1, tzinfo=timezone.utc))
    moves = record.moves
    for entry, source in _entries(moves, owners, record.pauses):
        if not isinstance(entry, Pause):
            book.turn(entry)
            continue
        assert isinstance(source, PauseEntry)  # a pause's entry
        after = moves[source.after].color if source.after < len(moves) else None
        to_move = owners.get(after) if after else (game.to_move.name if game.to_move else None)
        problem = book.problem(entry, to_move)
        if problem is None:
            book.enter(entry)
        else:
            errors.append(RecordError(_("the pause after move {number}: {problem}").format(
                number=source.after, problem=problem), path=record.path, line=source.line))
    return sorted(errors, key=lambda error: error.line or 0)
