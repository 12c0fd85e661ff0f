"""Time in the commands (docs/DEADLINES.md): now (``UPTOWN_NOW``, for tests only) and the
check that refuses a record holding times from this computer's future. Imports no other
module of the command line, so that any may use it."""

import os
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from datetime import datetime

    from ..records.schema import Record

__all__: list[str] = []


def now() -> "datetime":
    """Now, as every command takes it: ``$UPTOWN_NOW`` when set (for tests only), else the
    system clock (``engine.moments.current_time``); a bad ``UPTOWN_NOW`` is a usage error."""
    from ..engine.moments import current_time
    from .exits import converted

    with converted("UPTOWN_NOW: {error}", usage=True):
        return current_time(os.environ)


def check_future(record: "Record", writes: bool = False) -> None:
    """Refuse ``record`` (one line naming the move) when a move is dated more than
    ``engine.moments.TOLERANCE`` after this computer's clock."""
    if record.timing is None and all(m.at is None for m in record.moves):
        return
    from ..records.times import future_problem  # (a record with times: it is light)

    problem = future_problem(record.path, record.moves, now(), record.timing, record.pauses)
    if problem is not None:
        from ..errors import NOTHING_WRITTEN
        from ..i18n import _

        line = problem.report_line()
        raise click.ClickException(_(NOTHING_WRITTEN).format(reason=line) if writes else line)
