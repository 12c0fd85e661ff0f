"""A game file opened to look at it or to act on it, in the steps every command takes: the
record read (``open_record``), checked against what the player saw of it and this computer's
clock (``check_seen``), replayed (``replayed``), all three at once (``open_game``); a record
edited put in the file's place (``write``), and what the player saw kept (``remember_seen``).

Errors are the library's, each one line: ``RecordError`` (no such file, an invalid record, a
time from the future), ``ViewerError`` (the file changed since the player saw it) and
``KeyFileError``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

from ..engine.game import Game
from ..engine.moments import current_time
from ..errors import NOTHING_WRITTEN, RecordError, display_path
from ..fairplay.replay import replay
from ..i18n import N_, _
from ..records.reading import load_record, read_standard_input
from ..records.schema import Record, load_record_text
from ..records.times import future_problem

__all__ = ["NO_SUCH_FILE", "OpenGame", "open_record", "check_seen", "replayed", "open_game",
           "write", "remember_seen"]

VIEWER_COST = "12 modules, 2.4 ms of CPU"
"""What loading ``fairplay.viewer`` (a player's key, memory and own view, with the JSON and
the hashing they use) costs a command: imported only when a player names themselves
(``--as``), so that looking at an open game does not pay it (measured 2026-12-06 with
``python -X importtime``, medians of 9 runs on the project's machine)."""

NO_SUCH_FILE = N_("no such file (uptown new creates a game)")
"""The one wording of every command for a FILE that is not there."""


class OpenGame:
    """A game file opened by ``open_game``: its ``path``, the ``record`` read from it, the
    ``game`` its moves replay into, the player who opened it (``as_name``, as the record names
    them; None: anyone) with their key folder (``keys``), and what the replay warns of
    (``warnings``, each one line: a change the seals prove whose author is not named yet)."""

    __slots__ = ("path", "record", "game", "as_name", "keys", "warnings")

    def __init__(self, path: str, record: Record, game: Game, as_name: str | None,
                 keys: str | None, warnings: list[str]) -> None:
        self.path, self.record, self.game = path, record, game
        self.as_name, self.keys, self.warnings = as_name, keys, warnings


def open_record(path: str) -> Record:
    """The record at ``path`` ("-" for standard input), read and its schema checked."""
    if path == "-":
        return load_record_text(read_standard_input(), "<stdin>")
    if not os.path.lexists(path):
        raise RecordError(_(NO_SUCH_FILE), path=display_path(path))
    return load_record(path, display_path(path))


def check_seen(record: Record, as_name: str | None, keys: str | None, writes: bool = True,
               now: datetime | None = None) -> str | None:
    """With ``as_name``, refuse ``record`` unless it extends what that player last saw of it
    (``fairplay.viewer.check_seen``) and holds no time more than a few minutes after ``now``
    (default: this computer's clock); returns the player's name as the record writes it (None
    without ``as_name``). ``writes``: whether the command would write the file (the refusal
    says that nothing was)."""
    if as_name is None:
        return None
    from ..fairplay.viewer import check_seen as check_memory  # (see VIEWER_COST)

    name = check_memory(record, as_name, keys, writes)
    if record.timing is not None or any(m.at is not None for m in record.moves):
        moment = now if now is not None else current_time(os.environ)
        problem = future_problem(record.path, record.moves, moment, record.timing,
                                 record.pauses)
        if problem is not None:
            line = problem.report_line()
            raise RecordError(_(NOTHING_WRITTEN).format(reason=line) if writes else line)
    return name


def replayed(record: Record, upto: int | None = None,
             warnings: list[str] | None = None) -> Game:
    """The game after the record's moves (the first ``upto``), or a RecordError for the first
    illegal one; a change the seals prove whose author is not named yet is added to
    ``warnings`` (when given) as one line."""
    result = replay(record, upto=upto)
    if result.errors:
        raise RecordError(_("{report_line} (the record is invalid)")
                          .format(report_line=result.errors[0].report_line()))
    if warnings is not None:
        warnings += [_("Warning: {alert}").format(alert=alert.report_line())
                     for alert in result.alerts]
    return result.game


def open_game(path: str, as_name: str | None = None, keys: str | None = None, *,
              writes: bool = True, upto: int | None = None, now: datetime | None = None,
              alerts: bool | None = None) -> OpenGame:
    """The game file at ``path`` opened by ``as_name`` (None: anyone): read, checked against
    what they saw (``check_seen``), and replayed (its first ``upto`` moves). ``alerts``: whether
    the replay's warnings are kept (default: without ``as_name``; a player's own view says
    more)."""
    record = open_record(path)
    name = check_seen(record, as_name, keys, writes, now)
    warnings: list[str] = []
    keep = as_name is None if alerts is None else alerts
    game = replayed(record, upto, warnings if keep else None)
    return OpenGame(path, record, game, name, keys, warnings)


def write(opened: OpenGame, new: Record, on_wait: Callable[[], None] | None = None,
          writer: str | None = None) -> Record:
    """Put ``new`` (``opened.record`` edited: ``records.editing``) in the file's place, locked
    and atomic (``records.safe_file.replace_record``: refused when the file changed since it was
    read), and keep it as what the player who wrote it saw (``writer``, default the player who
    opened it); returns ``new``."""
    from ..records.safe_file import replace_record  # (writers only: 8.9 ms of a reader's start-up)

    replace_record(opened.path, new, opened.record, on_wait)
    remember_seen(new, writer if writer is not None else opened.as_name, opened.keys)
    return new


def remember_seen(record: Record, as_name: str | None, keys: str | None) -> None:
    """With ``as_name``, keep ``record`` as what that player has seen of the game (beside
    their keys: ``fairplay.memory``)."""
    if as_name is not None:
        from ..fairplay.viewer import remember  # (see VIEWER_COST)
        from ..records.names import player_named

        remember(record, player_named(record.players, as_name), keys)
