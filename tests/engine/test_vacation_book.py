"""Vacations checked in record order (``engine.late.VacationBook``, docs/DEADLINES.md
"Vacations"): each pause as the rules check it alone, booked at most a year ahead, and a game
of n entries checked in n log n comparisons of times, however many pauses it holds (thousands
of one-day vacations took minutes when each was checked against all before it)."""

import math
from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from uptown_cli.engine.clock import Clock, Pause, TimedTurn, Timeline
from uptown_cli.engine.game import name_key
from uptown_cli.engine.late import HORIZON, Vacation, VacationBook, pause_problem

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
D = timedelta(days=1)
JUDGES = Clock.parse("move 72h grace 168h")
CLOCKS = [JUDGES, Clock.parse("bank 36h +12h"), Clock.parse("bank 10h +10h grace 2h"),
          Clock.parse("move 24h")]
VACATIONS = [Vacation(14), Vacation(3, per_year=True), Vacation(366, per_year=True)]
NAMES = ("Ana", "Bo", "Cy")


def test_a_vacation_is_booked_at_most_a_year_ahead():
    timeline = Timeline(T0, (TimedTurn("Ana", T0),))
    ahead = Pause("Bo", T0 + H, 2, start=T0 + H + HORIZON)
    assert pause_problem(Vacation(30), JUDGES, timeline, ahead, "Bo") is None
    too_far = Pause("Bo", T0 + H, 2, start=T0 + H + HORIZON + timedelta(minutes=1))
    assert pause_problem(Vacation(30), JUDGES, timeline, too_far, "Bo") == (
        "a vacation is booked at most a year ahead: Bo's would begin 2027-12-02 13:01 UTC, more "
        "than a year after 2026-12-01 13:00 UTC")


def checked_alone(vacation, clock, timeline, pause, to_move):
    """What the rules say of ``pause`` after ``timeline``, from the clock's own deadline, the
    player's joined spans and the days they took (each found over the whole timeline)."""
    who = pause.player
    if pause.begins < pause.at or pause.begins - pause.at > HORIZON:
        return "when"
    last = [entry.player for entry in timeline.entries if isinstance(entry, TimedTurn)][-1:]
    if to_move is not None and name_key(who) not in {name_key(n) for n in [to_move] + last}:
        return "holder"
    if any(a < pause.end and pause.begins < b for a, b in timeline.pauses_of(who)):
        return "overlap"
    if pause.days > vacation.left(timeline, who, pause.begins):
        return "days"
    if to_move is not None and name_key(to_move) == name_key(who) \
            and pause.at >= clock.turn(timeline, who).out_at:
        return "out of time"
    return None


def kind(problem):
    """The rule a refusal of ``VacationBook.problem`` names."""
    if problem is None:
        return None
    for words, rule in (("before it is written", "when"), ("a year ahead", "when"),
                        ("only at their turn", "holder"), ("already", "overlap"),
                        ("days of vacation", "days"), ("no vacation left", "days"),
                        ("out of time", "out of time")):
        if words in problem:
            return rule
    raise AssertionError(problem)


entries = st.lists(st.one_of(
    st.tuples(st.just("turn"), st.integers(0, 90)),
    st.tuples(st.just("pause"), st.integers(0, 2), st.integers(0, 30), st.integers(0, 400),
              st.integers(1, 4))), max_size=40)


@given(entries, st.sampled_from(CLOCKS), st.sampled_from(VACATIONS))
def test_each_vacation_is_judged_in_turn_as_the_rules_judge_it_alone(steps, clock, vacation):
    """Turns round Ana, Bo and Cy and pauses (written some hours after the entry before,
    booked some days ahead), each pause checked by the book against those that stood before
    it, and by the rules alone over the timeline of what stood: the same verdict."""
    book, at, seat = VacationBook(vacation, clock, T0), T0, 0
    standing = []
    for step in steps:
        if step[0] == "turn":
            at += step[1] * H
            turn = TimedTurn(NAMES[seat % 3], at)
            book.turn(turn)
            standing.append(turn)
            seat += 1
            continue
        _, who, hours, ahead, days = step
        at += hours * H
        pause = Pause(NAMES[(seat + who) % 3], at, days, start=at + ahead * D)
        to_move = NAMES[seat % 3]
        problem = book.problem(pause, to_move)
        assert kind(problem) == checked_alone(vacation, clock, Timeline(T0, tuple(standing)),
                                              pause, to_move)
        if problem is None:
            book.enter(pause)
            standing.append(pause)


def _counted(name):
    """``datetime``'s comparison ``name``, counted in ``COMPARED[0]``."""
    compare = getattr(datetime, name)

    def counted(self, other):
        COMPARED[0] += 1
        return compare(self, other)

    return counted


class CountedTime(datetime):
    """A time that counts how often it is compared (``COMPARED[0]``)."""

    __lt__, __le__, __gt__, __ge__, __eq__ = map(_counted, ("__lt__", "__le__", "__gt__",
                                                            "__ge__", "__eq__"))
    __hash__ = datetime.__hash__


COMPARED = [0]


def comparisons(count, overlapping):
    """How many comparisons of times the book makes for ``count`` one-day pauses of the player
    to move (each within a year of being written, a year's worth at a time, as a player on
    vacation for ever writes them; or all on one day, each refused as overlapping the first),
    with a turn every 100 pauses."""
    start = CountedTime(2000, 1, 1, tzinfo=timezone.utc)
    book = VacationBook(Vacation(366, per_year=True), JUDGES, start)
    COMPARED[0] = 0
    seat = 0
    for number in range(count):
        year, day = divmod(number, 365)
        at = start + year * 365 * D
        if number % 100 == 99:
            book.turn(TimedTurn(NAMES[seat % 2], at))
            seat += 1
        pause = Pause(NAMES[seat % 2], at, 1, start=at + (0 if overlapping else day) * D)
        if book.problem(pause, NAMES[seat % 2]) is None:
            book.enter(pause)
    return COMPARED[0]


def test_checking_n_vacations_takes_n_log_n_comparisons_of_times():
    """Twice the pauses take about twice the comparisons (n log n: 2.2 times; each pause
    checked against all before it: 4 times), and at most a few dozen a pause."""
    assert isinstance(CountedTime(2000, 1, 1) + D, CountedTime)  # sums stay counted
    for overlapping in (False, True):
        small, large = comparisons(1000, overlapping), comparisons(2000, overlapping)
        assert large / small < 2.6, (small, large)
        assert large < 20 * 2000 * math.log2(2000), large
