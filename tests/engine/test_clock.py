"""Time controls (docs/DEADLINES.md): the clock notation, deadlines, banks, the reveal window,
vacations, the late policy and the checks on times, each rule by name, and the properties
that hold whatever the times (a bank never over its base, time left never growing)."""

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uptown_cli.engine.clock import (
    TimeState,
    PRESETS,
    Clock,
    Pause,
    TimedTurn,
    Timeline,
)
from uptown_cli.engine.moments import (
    NOW_ENV,
    TOLERANCE,
    check_times,
    current_time,
    describe,
    parse_duration,
    parse_time,
    write_duration,
    write_time,
)
from uptown_cli.engine.late import LatePolicy, Vacation, pause_problem, stand_in_problem
from uptown_cli.errors import SetupError

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
D = timedelta(days=1)
JUDGES = Clock.parse("move 72h grace 168h")
BGA = Clock.parse("bank 36h +12h")


def turns(*steps, start=T0):
    """A timeline of turns round Ana, Bo and Cy, each ``steps[i]`` hours after the one before;
    a ``Pause`` in ``steps`` is put in as it is."""
    names, entries, at, seat = ("Ana", "Bo", "Cy"), [], start, 0
    for step in steps:
        if isinstance(step, Pause):
            entries.append(step)
            continue
        at += step * H
        entries.append(TimedTurn(names[seat % 3], at))
        seat += 1
    return Timeline(start, tuple(entries))


# The notation


@pytest.mark.parametrize("text, written", [
    ("move 72h grace 168h", "move 72h grace 168h"),
    ("move 3d grace 7d", "move 72h grace 168h"),
    ("MOVE 72H", "move 72h"),
    ("bank 36h +12h", "bank 36h +12h"),
    ("bank 36h+12h", "bank 36h +12h"),
    ("bank 240h +36h grace 1d reveal 48h", "bank 240h +36h grace 24h reveal 48h"),
    ("bank 90m", "bank 1h30m"),
    ("move 24h reveal 12h grace 2d", "move 24h grace 48h reveal 12h"),
])
def test_the_clock_notation_is_read_and_written_in_its_canonical_form(text, written):
    assert str(Clock.parse(text)) == written


def test_the_presets_are_the_judges_bga_and_little_golem_clocks():
    assert {name: str(clock) for name, clock in PRESETS.items()} == {
        "judges": "move 72h grace 168h", "bga": "bank 36h +12h", "little-golem": "bank 240h +36h"}
    assert Clock.parse("judges") == JUDGES


def test_no_clock_is_none():
    assert Clock.parse("none") is None and Clock.parse("") is None


@pytest.mark.parametrize("text", [
    "move", "fast", "move 72h grace", "move 72h +12h", "bank 36h 12h", "move 72h grace 1h grace 2h",
    "move 72h late 1h", "bank 36h +", "move 0h", "move 400d", "move 72", "move -3h", "move 1.5h",
])
def test_a_clock_that_is_not_in_the_notation_is_one_line(text):
    with pytest.raises(SetupError) as error:
        Clock.parse(text)
    message = str(error.value)
    assert "\n" not in message and repr(text.split()[-1]) in message or repr(text) in message


def test_a_bank_increment_larger_than_the_bank_is_refused():
    with pytest.raises(SetupError, match="increment is at most the bank"):
        Clock.parse("bank 12h +36h")


@given(st.integers(1, 366 * 24 * 60))
def test_every_duration_is_written_as_it_is_read(minutes):
    span = timedelta(minutes=minutes)
    assert parse_duration(write_duration(span)) == span


@given(st.sampled_from(["move", "bank"]), st.integers(1, 9000), st.integers(0, 9000),
       st.integers(0, 9000), st.one_of(st.none(), st.integers(1, 9000)))
def test_every_clock_is_written_as_it_is_read(kind, time, increment, grace, reveal):
    minutes = timedelta(minutes=1)
    clock = Clock(kind, time * minutes, min(increment, time) * minutes if kind == "bank" else timedelta(0),
                  grace * minutes, None if reveal is None else reveal * minutes)
    assert Clock.parse(str(clock)) == clock


def test_times_are_utc_iso_8601_to_the_second():
    assert write_time(parse_time("2026-12-01T13:36:00+01:00")) == "2026-12-01T12:36:00Z"
    assert parse_time("2026-12-01T12:36Z") == datetime(2026, 12, 1, 12, 36, tzinfo=timezone.utc)
    for bad in ("2026-12-01 12:36", "2026-12-01T12:36:00", "2026-02-30T12:00:00Z", "yesterday"):
        with pytest.raises(SetupError):
            parse_time(bad)


def test_a_time_past_the_year_9000_is_refused_so_no_deadline_overflows():
    assert parse_time("9000-12-31T23:59:59Z").year == 9000
    for far in ("9001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "9999-12-31T23:30:00-01:00"):
        with pytest.raises(SetupError, match="too far ahead|no such day"):
            parse_time(far)


def test_describe_says_days_hours_and_minutes():
    assert [describe(span) for span in (3 * D + 4 * H, 5 * H + 20 * timedelta(minutes=1),
                                        timedelta(minutes=12), -2 * D)] == ["3d 4h", "5h 20m", "12m", "2d"]


def test_uptown_now_fixes_the_time_for_tests():
    assert current_time({NOW_ENV: "2026-12-01T12:00:00Z"}) == T0
    assert current_time({}).tzinfo is not None


# Deadlines


def test_the_judges_clock_gives_72_hours_then_168_hours_of_grace():
    deadline = JUDGES.turn(turns(10), "Bo")
    assert deadline.since == T0 + 10 * H
    assert deadline.late_at == T0 + 82 * H and deadline.out_at == T0 + 250 * H
    assert [deadline.state(T0 + h * H) for h in (81, 82, 249, 250)] == [TimeState.ON_TIME, TimeState.LATE, TimeState.LATE, TimeState.OUT_OF_TIME]


def test_a_per_move_clock_gives_every_turn_the_same_time_however_slow_the_last():
    assert JUDGES.turn(turns(200, 1), "Cy").late_at == T0 + 273 * H


def test_time_left_counts_down_to_the_deadline_and_below_zero_once_late():
    deadline = JUDGES.turn(turns(), "Ana")
    assert deadline.time_left(T0 + 70 * H) == 2 * H
    assert deadline.time_left(T0 + 75 * H) == -3 * H


def test_a_bank_starts_full_and_pays_for_the_time_used():
    assert BGA.bank(turns(), "Bo") == 36 * H
    assert BGA.bank(turns(30), "Ana") == 18 * H          # 36 - 30 + 12


def test_a_bank_grows_by_its_increment_but_never_over_its_base():
    assert BGA.bank(turns(1), "Ana") == 36 * H           # 36 - 1 + 12, capped at 36


def test_a_late_move_empties_the_bank_and_the_next_turn_has_the_increment_alone():
    assert BGA.bank(turns(50), "Ana") == 12 * H
    assert BGA.turn(turns(50, 1, 1), "Ana").late_at == T0 + 64 * H


def test_a_bank_is_each_players_own():
    timeline = turns(30, 2)
    assert BGA.bank(timeline, "Ana") == 18 * H and BGA.bank(timeline, "Bo") == 36 * H


def test_a_players_bank_is_found_whatever_the_case_of_their_name():
    assert BGA.bank(turns(30), "ana") == 18 * H


# Vacations


def test_a_pause_stops_the_clock_of_the_player_to_move():
    timeline = turns(10, Pause("Bo", T0 + 20 * H, 2))
    deadline = JUDGES.turn(timeline, "Bo")
    assert deadline.late_at == T0 + (82 + 48) * H and deadline.out_at == T0 + (250 + 48) * H
    assert deadline.state(T0 + 30 * H) == TimeState.PAUSED
    assert deadline.time_left(T0 + 20 * H) == deadline.time_left(T0 + 60 * H) == 62 * H


def test_a_pause_before_the_turn_delays_its_clock_until_it_ends():
    timeline = turns(Pause("Bo", T0, 3), 1)
    assert JUDGES.turn(timeline, "Bo").late_at == T0 + (72 + 72) * H


def test_a_pause_of_another_player_does_not_stop_the_clock():
    assert JUDGES.turn(turns(10, Pause("Cy", T0 + 20 * H, 2)), "Bo").late_at == T0 + 82 * H


def test_a_pause_does_not_count_against_a_bank():
    assert BGA.bank(turns(Pause("Ana", T0, 1), 40), "Ana") == 32 * H   # 36 - (40 - 24) + 12
    assert BGA.bank(turns(40), "Ana") == 12 * H


def test_overlapping_pauses_stop_the_clock_once():
    timeline = turns(Pause("Bo", T0, 2), Pause("Bo", T0 + D, 2))
    assert timeline.pauses_of("Bo") == [(T0, T0 + 3 * D)]


def test_pauses_end_to_end_are_one_pause():
    timeline = turns(Pause("Bo", T0, 1), Pause("Bo", T0 + D, 1))
    assert timeline.pauses_of("Bo") == [(T0, T0 + 2 * D)]


def test_a_pause_in_an_earlier_turn_is_not_charged_again_to_a_later_one():
    timeline = turns(Pause("Ana", T0, 1), 30, 1, 1, 20)
    assert BGA.bank(timeline, "Ana") == 28 * H   # 36 - (30 - 24) + 12, at most 36; then 36 - 20 + 12


def test_a_pause_that_begins_within_a_turn_is_not_charged_to_a_bank():
    clock = Clock.parse("bank 36h")
    assert clock.bank(turns(Pause("Ana", T0 + 2 * H, 1), 30), "Ana") == 30 * H   # 36 - (30 - 24)


def test_two_pauses_within_a_turn_are_both_left_out_of_a_bank():
    clock = Clock.parse("bank 36h")
    timeline = turns(Pause("Ana", T0 + 2 * H, 1), Pause("Ana", T0 + 30 * H, 2), 80)
    assert clock.bank(timeline, "Ana") == 28 * H   # 36 - (80 - 24 - 48)


def test_a_pause_that_begins_the_second_the_time_runs_out_does_not_put_off_being_late():
    timeline = turns(10, Pause("Bo", T0 + 20 * H, 2, start=T0 + 82 * H))
    assert JUDGES.turn(timeline, "Bo").late_at == T0 + 82 * H


def test_a_pause_holds_from_its_first_second_until_its_end():
    deadline = JUDGES.turn(turns(10, Pause("Bo", T0 + 20 * H, 2)), "Bo")
    assert deadline.state(T0 + 20 * H) == TimeState.PAUSED
    assert deadline.state(T0 + 68 * H) == TimeState.ON_TIME


def test_time_left_after_a_pause_counts_down_again_and_is_zero_at_the_deadline():
    deadline = JUDGES.turn(turns(10, Pause("Bo", T0 + 20 * H, 2)), "Bo")
    assert deadline.late_at == T0 + 130 * H
    assert deadline.time_left(T0 + 100 * H) == 30 * H
    assert deadline.time_left(deadline.late_at) == timedelta(0)


def test_a_deadline_in_json_says_until_when_the_player_is_paused():
    deadline = JUDGES.turn(turns(10, Pause("Bo", T0 + 20 * H, 2)), "Bo")
    assert deadline.to_json(T0 + 30 * H)["paused_until"] == write_time(T0 + 68 * H)
    assert deadline.to_json(T0 + 70 * H)["paused_until"] is None


def test_the_last_time_is_the_newest_entrys_or_the_start():
    assert turns(1, 2).last_time() == T0 + 3 * H and Timeline(T0).last_time() == T0


def test_no_vacation_when_the_game_forbids_it():
    assert Vacation.parse("none") is None
    assert pause_problem(None, JUDGES, turns(), Pause("Bo", T0, 1), "Ana") == "this game allows no vacation"


def test_no_vacation_without_a_clock():
    assert "no clock" in pause_problem(Vacation(14), None, turns(), Pause("Bo", T0, 1), "Ana")


def test_vacation_days_in_a_game_are_counted_over_the_game():
    vacation = Vacation.parse("10d")
    timeline = turns(Pause("Bo", T0, 7), 1)
    assert vacation.left(timeline, "Bo", T0 + 400 * D) == 3
    assert pause_problem(vacation, JUDGES, timeline, Pause("Bo", T0 + 8 * D, 3), "Bo") is None
    assert "1 to 3 more days" in pause_problem(vacation, JUDGES, timeline, Pause("Bo", T0 + 8 * D, 4), "Bo")


def test_vacation_per_year_renews_on_1_january():
    vacation = Vacation.parse("10d per year")
    new_year = datetime(2027, 1, 1, tzinfo=timezone.utc)
    timeline = turns(Pause("Bo", T0, 10), 1)
    assert vacation.left(timeline, "Bo", T0 + 20 * D) == 0
    assert vacation.left(timeline, "Bo", new_year) == 10
    assert "no vacation left" in pause_problem(vacation, JUDGES, timeline, Pause("Bo", T0 + 15 * D, 1), "Bo")
    booked = Pause("Bo", T0 + 15 * D, 3, start=new_year)
    assert pause_problem(vacation, JUDGES, timeline, booked, "Bo") is None
    with_booked = Timeline(T0, timeline.entries + (booked,))
    assert vacation.left(with_booked, "Bo", new_year) == 7     # it counts in the year it begins


def test_a_vacation_cannot_overlap_another():
    timeline = turns(Pause("Bo", T0, 3))
    assert "on vacation from" in pause_problem(Vacation(14), JUDGES, timeline, Pause("Bo", T0 + D, 1), "Bo")
    ahead = turns(Pause("Bo", T0, 2, start=T0 + 5 * D))
    assert "until 2026-12-08 12:00 UTC already" in pause_problem(
        Vacation(14), JUDGES, ahead, Pause("Bo", T0 + D, 5), "Bo")
    assert pause_problem(Vacation(14), JUDGES, ahead, Pause("Bo", T0 + D, 4), "Bo") is None


def test_a_vacation_may_be_booked_ahead_but_not_back():
    booked = turns(1, Pause("Bo", T0 + 2 * H, 2, start=T0 + 10 * H))
    assert JUDGES.turn(booked, "Bo").late_at == T0 + (73 + 48) * H
    back = Pause("Bo", T0 + 2 * H, 2, start=T0 + H)
    assert "cannot begin before it is written" in pause_problem(Vacation(14), JUDGES, turns(1), back, "Bo")


def test_only_whoever_holds_the_file_writes_a_vacation():
    timeline = turns(1, 1)                                 # Ana, then Bo played: Cy to move
    assert pause_problem(Vacation(14), JUDGES, timeline, Pause("Cy", T0 + 3 * H, 1), "Cy") is None
    assert pause_problem(Vacation(14), JUDGES, timeline, Pause("Bo", T0 + 3 * H, 1), "Cy") is None
    assert "only at their turn" in pause_problem(Vacation(14), JUDGES, timeline, Pause("Ana", T0 + 3 * H, 1), "Cy")
    assert pause_problem(Vacation(14), JUDGES, timeline, Pause("Ana", T0 + 3 * H, 1), None) is None


def test_a_vacation_cannot_start_once_out_of_time():
    timeline = turns(1)
    late = Pause("Bo", T0 + 200 * H, 2)
    assert pause_problem(Vacation(14), JUDGES, timeline, late, "Bo") is None
    out = Pause("Bo", T0 + 241 * H, 2)
    assert "out of time" in pause_problem(Vacation(14), JUDGES, timeline, out, "Bo")
    assert pause_problem(Vacation(14), JUDGES, turns(1, 1), out, "Cy") is None


def test_a_pause_after_the_grace_ran_out_does_not_bring_back_the_time():
    timeline = turns(1, Pause("Bo", T0 + 300 * H, 5))
    assert JUDGES.turn(timeline, "Bo").state(T0 + 301 * H) == TimeState.OUT_OF_TIME


@pytest.mark.parametrize("text", ["0d", "14", "14d per month", "400d", "two weeks"])
def test_a_vacation_that_is_not_in_the_notation_is_one_line(text):
    with pytest.raises(SetupError, match="is not one of"):
        Vacation.parse(text)


def test_vacation_is_written_as_it_is_read():
    assert [str(Vacation.parse(text)) for text in ("14d", "14d per game", "30d per year")] == [
        "14d", "14d", "30d per year"]


# The reveal (and join) window


def test_the_reveal_deadline_is_the_clocks_time_then_its_grace_after_the_game_ends():
    timeline = turns(5, 5)
    deadline = JUDGES.window(timeline, "Cy")
    assert (deadline.since, deadline.late_at, deadline.out_at) == (T0 + 10 * H, T0 + 82 * H, T0 + 250 * H)


def test_the_reveal_window_may_be_set_apart_from_the_turns():
    clock = Clock.parse("bank 240h +36h grace 24h reveal 48h")
    deadline = clock.window(turns(5), "Ana")
    assert (deadline.late_at, deadline.out_at) == (T0 + 53 * H, T0 + 77 * H)


def test_a_join_window_runs_from_the_join_before():
    deadline = JUDGES.window(Timeline(T0), "Cy", since=T0 + 5 * H)
    assert deadline.late_at == T0 + 77 * H


def test_a_pause_after_the_end_delays_the_players_reveal_deadline():
    timeline = turns(5, Pause("Ana", T0 + 6 * H, 2))
    assert JUDGES.window(timeline, "Ana").late_at == T0 + (77 + 48) * H
    assert JUDGES.window(timeline, "Bo").late_at == T0 + 77 * H


# The late policy


def test_the_late_policy_is_written_as_it_is_read():
    assert [str(LatePolicy.parse(text)) for text in (
        "wait", "forfeit", "pass", "bot", "bot mc", "pass, forfeit after 2", "BOT horizon,forfeit after 3")] == [
        "wait", "forfeit", "pass", "bot greedy", "bot mc", "pass, forfeit after 2", "bot horizon, forfeit after 3"]
    assert LatePolicy() == LatePolicy.parse("wait")


def test_forfeit_after_n_counts_1_to_99_turns():
    assert LatePolicy.parse("pass, forfeit after 99").forfeit_after == 99
    for text in ("pass, forfeit after 100", "pass, forfeit after 0"):
        with pytest.raises(SetupError):
            LatePolicy.parse(text)


def test_a_vacation_counts_over_the_game_unless_it_says_per_year():
    assert Vacation.parse("14d") == Vacation(14) and not Vacation(14).per_year


def test_a_vacation_is_1_to_366_days():
    assert Vacation.parse("1d") == Vacation(1)
    assert Vacation.parse("366d per year") == Vacation(366, per_year=True)
    for text in ("0d", "367d per year"):
        with pytest.raises(SetupError):
            Vacation.parse(text)


@pytest.mark.parametrize("text", ["", "skip", "wait, forfeit after 2", "forfeit, forfeit after 1",
                                  "pass, forfeit after 0", "bot 1x", "bot greedy mc"])
def test_a_late_policy_that_is_not_in_the_notation_is_one_line(text):
    with pytest.raises(SetupError, match="is not one of"):
        LatePolicy.parse(text)


def test_a_bot_policy_is_refused_in_a_hidden_game():
    LatePolicy.parse("bot").check(hidden=False)
    LatePolicy.parse("pass").check(hidden=True)
    with pytest.raises(SetupError, match="hidden racks"):
        LatePolicy.parse("bot").check(hidden=True)


def test_wait_lets_nobody_play_for_a_late_player():
    problem = stand_in_problem(JUDGES, LatePolicy(), turns(1), "Bo", T0 + 999 * H, "pass", "Cy")
    assert problem == "this game's late policy (wait) lets others do nothing for a late player"


def test_nobody_plays_for_a_player_in_a_game_without_a_clock():
    assert "no clock" in stand_in_problem(None, LatePolicy.parse("pass"), turns(1), "Bo", T0 + 999 * H, "pass", "Cy")


def test_a_stand_in_before_the_grace_is_over_is_refused():
    policy = LatePolicy.parse("pass")
    assert stand_in_problem(JUDGES, policy, turns(1), "Bo", T0 + 241 * H, "pass", "Cy") is None
    problem = stand_in_problem(JUDGES, policy, turns(1), "Bo", T0 + 241 * H - timedelta(seconds=1), "pass", "Cy")
    assert problem == "Bo is out of time only from 2026-12-11 13:00 UTC, and Cy wrote this at 2026-12-11 12:59 UTC"


def test_a_stand_in_may_do_only_what_the_policy_says():
    assert "only pass" in stand_in_problem(JUDGES, LatePolicy.parse("pass"), turns(1), "Bo", T0 + 999 * H, "bot", "Cy")
    assert "only forfeit" in stand_in_problem(JUDGES, LatePolicy.parse("forfeit"), turns(1), "Bo", T0 + 999 * H, "pass", "Cy")
    assert stand_in_problem(JUDGES, LatePolicy.parse("forfeit"), turns(1), "Bo", T0 + 999 * H, "forfeit", "Cy") is None


def test_a_stand_in_refused_in_spanish_names_what_others_may_do_in_spanish():
    from uptown_cli.i18n import language

    with language("es"):
        problem = stand_in_problem(JUDGES, LatePolicy.parse("pass, forfeit after 1"), turns(1),
                                   "Bo", T0 + 999 * H, "bot", "Cy")
    assert problem == ("la política de retraso de esta partida (pass, forfeit after 1) solo deja "
                       "a los demás pasar por un jugador sin tiempo")

def test_forfeit_after_n_turns_in_a_row_written_for_the_player():
    policy = LatePolicy.parse("bot, forfeit after 2")
    stood = TimedTurn("Bo", T0 + 300 * H, stand_in=True)
    own = TimedTurn("Bo", T0 + 300 * H)
    others = (TimedTurn("Cy", T0 + 301 * H), TimedTurn("Ana", T0 + 302 * H))
    twice = Timeline(T0, (stood, *others, stood, *others))
    assert twice.stood_in("Bo") == 2 and policy.actions(2) == ("bot", "forfeit")
    assert stand_in_problem(JUDGES, policy, twice, "Bo", T0 + 999 * H, "forfeit", "Cy") is None
    once_again = Timeline(T0, (stood, *others, own, *others, stood, *others))
    assert once_again.stood_in("Bo") == 1 and policy.actions(1) == ("bot",)
    assert "only bot" in stand_in_problem(JUDGES, policy, once_again, "Bo", T0 + 999 * H, "forfeit", "Cy")


# The checks on times


def labelled(*hours):
    return [(f"move {n}", T0 + hours_ * H) for n, hours_ in enumerate(hours, 1)]


def test_times_in_order_and_not_ahead_of_the_clock_pass():
    assert check_times(labelled(1, 1, 5), T0, T0 + 5 * H) is None


def test_a_move_time_earlier_than_the_previous_moves_is_refused_naming_the_move():
    assert check_times(labelled(1, 3, 2), T0, T0 + 5 * H) == (
        2, "move 3 is dated 2026-12-01T14:00:00Z, before move 2 (2026-12-01T15:00:00Z)")


def test_a_move_time_one_second_before_the_previous_is_refused():
    times = [("move 1", T0 + H), ("move 2", T0 + H - timedelta(seconds=1))]
    assert check_times(times, T0, T0 + 5 * H)[0] == 1


def test_a_first_move_before_the_games_start_is_refused():
    assert check_times(labelled(-1), T0, T0)[0] == 0


def test_a_move_time_in_the_future_is_refused_beyond_a_few_minutes():
    now = T0 + 5 * H
    assert check_times([("move 1", now + TOLERANCE)], T0, now) is None
    assert check_times([("move 1", now + TOLERANCE + timedelta(seconds=1))], T0, now) == (
        0, "move 1 is dated 2026-12-01T17:05:01Z, 5m after this computer's clock (2026-12-01T17:00:00Z)")


# Properties


steps = st.lists(st.one_of(st.integers(0, 80), st.tuples(st.sampled_from(["Ana", "Bo", "Cy"]),
                                                           st.integers(1, 5))), max_size=30)


def timeline_of(steps_):
    """A timeline from hypothesis' steps: hours to the next turn, or a (player, days) pause."""
    return turns(*[Pause(step[0], T0, step[1]) if isinstance(step, tuple) else step for step in steps_])


def monotone(steps_):
    """The same, with each pause dated at the time of the entry before it."""
    timeline = timeline_of(steps_)
    entries, at = [], T0
    for entry in timeline.entries:
        if isinstance(entry, Pause):
            entry = Pause(entry.player, at, entry.days)
        at = entry.at
        entries.append(entry)
    return Timeline(T0, tuple(entries))


@given(steps, st.sampled_from([BGA, PRESETS["little-golem"], Clock.parse("bank 10h +10h grace 2h")]))
def test_a_bank_never_exceeds_its_base_nor_falls_below_zero(steps_, clock):
    timeline = monotone(steps_)
    for player in ("Ana", "Bo", "Cy"):
        assert timedelta(0) <= clock.bank(timeline, player) <= clock.time


@given(steps, st.sampled_from([JUDGES, BGA]), st.lists(st.integers(0, 2000), min_size=2, max_size=10))
def test_time_left_never_grows_and_the_state_only_gets_worse(steps_, clock, hours):
    deadline = clock.turn(monotone(steps_), "Bo")
    order = [TimeState.ON_TIME, TimeState.LATE, TimeState.OUT_OF_TIME]
    moments = sorted(T0 + h * H for h in hours)
    lefts = [deadline.time_left(now) for now in moments]
    assert lefts == sorted(lefts, reverse=True)
    states = [deadline.state(now) for now in moments if deadline.state(now) != TimeState.PAUSED]
    assert [order.index(s) for s in states] == sorted(order.index(s) for s in states)
    assert deadline.since <= deadline.late_at <= deadline.out_at


@given(st.lists(st.integers(-3, 10), min_size=1, max_size=12))
def test_check_times_finds_the_first_time_that_goes_back(gaps):
    hours, at = [], 0
    for gap in gaps:
        at += gap
        hours.append(at)
    problem = check_times(labelled(*hours), T0 - 100 * H, T0 + 1000 * H)
    first_back = next((i for i, gap in enumerate(gaps) if gap < 0 and i > 0), None)
    if first_back is None:
        assert problem is None
    else:
        assert problem is not None and problem[0] == first_back and "before move" in problem[1]
