"""Moments and spans of time as records write them (docs/DEADLINES.md): times in UTC, ISO
8601, durations of whole minutes, now (``UPTOWN_NOW`` for tests), and the check that times never
go back nor come from the reader's future. Kept apart from ``engine.clock`` (the clocks
themselves), which only a game with a clock loads."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone

from ..errors import SetupError
from ..i18n import _, duration, moment

__all__ = ["NOW_ENV", "TOLERANCE", "LONGEST", "parse_duration", "write_duration", "describe",
           "parse_time", "write_time", "show_time", "current_time", "check_times"]

NOW_ENV = "UPTOWN_NOW"
"""For tests only: the time every command takes as now (``2026-12-01T15:36:00Z``)."""
TOLERANCE = timedelta(minutes=5)
"""How far an entry's time may be ahead of the clock of the computer that reads it."""
LONGEST = timedelta(days=366)
"""The longest duration a clock, a grace, a window or a vacation may have."""

_DURATION = re.compile(r"(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?")
_TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(Z|[+-]\d\d:\d\d)")


def parse_duration(text: str) -> timedelta:
    """``72h``, ``3d``, ``1d12h``, ``90m``: a positive number of whole minutes; SetupError else."""
    match = _DURATION.fullmatch(text.strip().lower())
    if not text.strip() or match is None:
        raise SetupError(_("{text!r} is not a duration: write it as 72h, 3d, 1d12h or 90m")
                         .format(text=text))
    days, hours, minutes = (int(part or 0) for part in match.groups())
    span = timedelta(days=days, hours=hours, minutes=minutes)
    if not timedelta(0) < span <= LONGEST:
        raise SetupError(_("{text!r}: a duration is more than 0 and at most {days} days")
                         .format(text=text, days=LONGEST.days))
    return span


def write_duration(span: timedelta) -> str:
    """The canonical form, in hours and minutes: ``72h``, ``1h30m``, ``45m``."""
    hours, minutes = divmod(int(span.total_seconds()) // 60, 60)
    return (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes or not hours else "")


def describe(span: timedelta) -> str:
    """A duration for people, to the minute: ``3d 4h``, ``5h 20m``, ``12m`` (its size: no sign;
    the language's units, ``3 d 4 h`` in Spanish)."""
    minutes = abs(int(span.total_seconds())) // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return duration(days, hours, 0 if days else minutes)


_LAST_YEAR = 9000
"""Times later than this year are refused: the deadlines computed from a time (a bank, a grace,
a year of vacation) must stay within the last day Python's datetime holds."""


def parse_time(text: str) -> datetime:
    """An ISO 8601 time with its offset (``2026-12-01T15:36:00Z``, ``...+01:00``), in UTC, in
    the year ``_LAST_YEAR`` at the latest."""
    match = _TIME.fullmatch(text.strip())
    if match is None:
        raise SetupError(_("{text!r} is not a time: write it as 2026-12-01T15:36:00Z (UTC)")
                         .format(text=text))
    try:
        moment = datetime.fromisoformat(match.group(0).replace("Z", "+00:00")).astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise SetupError(_("{text!r} is not a time: no such day or hour").format(text=text)) from None
    if moment.year > _LAST_YEAR:
        raise SetupError(_("{text!r} is not a time: a year after {year} is too far ahead")
                         .format(text=text, year=_LAST_YEAR))
    return moment


def write_time(moment: datetime) -> str:
    """``2026-12-01T15:36:00Z``: UTC, to the second, as records hold times."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def show_time(when: datetime) -> str:
    """``2026-12-01 15:36 UTC``: a time as messages show it (``1 de diciembre de 2026, 15:36
    UTC`` in Spanish)."""
    return moment(when)


def current_time(environ: Mapping[str, str]) -> datetime:
    """Now: ``environ[NOW_ENV]`` when set (for tests), else the system clock, to the second."""
    fixed = environ.get(NOW_ENV)
    if fixed:
        return parse_time(fixed)
    return datetime.now(timezone.utc).replace(microsecond=0)


def check_times(times: Sequence[tuple[str, datetime]], start: datetime, now: datetime) -> tuple[int, str] | None:
    """The first entry (index, one line) whose time is before the previous one's (or the
    game's start), or more than TOLERANCE after ``now``; None when all hold. ``times`` are
    ``(label, time)`` in record order: ``("move 12", ...)``."""
    previous = (_("the game's start"), start)
    for index, (label, at) in enumerate(times):
        if at < previous[1]:
            return index, _("{label} is dated {time}, before {previous} ({previous_time})").format(
                label=label, time=write_time(at), previous=previous[0],
                previous_time=write_time(previous[1]))
        if at > now + TOLERANCE:
            return index, _("{label} is dated {time}, {ahead} after this computer's clock "
                            "({now})").format(label=label, time=write_time(at),
                                              ahead=describe(at - now), now=write_time(now))
        previous = (label, at)
    return None
