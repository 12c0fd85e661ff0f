"""How the commands find and read their records: FILE and its default (``game_path``), a record
read or a one-line error (``open_record``), replayed (``replay_valid``, ``read_game``), what a
player saw of it (``check_seen_as``, ``remember_seen``), and the records of folders
(``record_files``)."""

import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import click

from ..errors import display_path
from ..i18n import N_, _, ngettext
from .exits import converted

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..records.schema import Record

__all__: list[str] = []

GAME_ENV = "UPTOWN_GAME"


DEFAULT_GAME = "game.yaml"


PROGRESS_MIN_FILES = 20
"""Commands over many files show a progress bar (on a terminal) from this many files on."""


def game_path(file: str | None) -> str:
    """FILE as given, else ``$UPTOWN_GAME``, else ``game.yaml``."""
    return file or os.environ.get(GAME_ENV) or DEFAULT_GAME


NO_SUCH_FILE = N_("no such file (uptown new creates a game)")
"""The one wording of every command for a FILE that is not there."""


def open_record(path: str) -> "Record":
    """The record at ``path`` ("-" for standard input), or a one-line ClickException."""
    from ..records.reading import load_record, read_standard_input
    from ..records.schema import load_record_text

    if path != "-" and not os.path.lexists(path):
        raise click.ClickException(_("{path}: {NO_SUCH_FILE}")
                                   .format(path=display_path(path), NO_SUCH_FILE=_(NO_SUCH_FILE)))
    with converted():
        if path == "-":
            return load_record_text(read_standard_input(), "<stdin>")
        return load_record(path, display_path(path))


def replay_valid(record: "Record", upto: int | None = None, alerts: bool = True) -> "Game":
    """The game after the record's moves (the first ``upto``), or a ClickException for the
    first illegal move; with ``alerts``, a change the seals prove whose author is not named
    yet is a warning on standard error."""
    from ..fairplay.replay import replay

    result = replay(record, upto=upto)
    if result.errors:
        raise click.ClickException(_("{report_line} (the record is invalid)")
                                   .format(report_line=result.errors[0].report_line()))
    for alert in result.alerts if alerts else ():
        click.echo(_("Warning: {alert}").format(alert=alert.report_line()), err=True)
    return result.game


def check_seen_as(record: "Record", as_name: str | None, keys: str | None,
                  writes: bool = True) -> None:
    """With ``--as NAME``, ``fairplay.viewer.check_seen``: refuse ``record`` unless it extends what
    NAME last saw of it (without ``--as``, the viewer's modules are not even loaded); ``writes``:
    whether the command would have written the file."""
    if as_name is not None:
        from ..fairplay.viewer import check_seen

        from .timing import check_future

        check_seen(record, as_name, keys, writes)
        check_future(record, writes)


def remember_seen(record: "Record", as_name: str | None, keys: str | None) -> None:
    """With ``--as NAME``, keep ``record`` as what NAME has seen (``fairplay.viewer.remember``)."""
    if as_name is not None:
        from ..fairplay.viewer import player_named, remember

        remember(record, player_named(record.players, as_name), keys)


def read_game(file: str | None, upto: int | None = None, as_name: str | None = None,
              keys: str | None = None) -> tuple[str, "Record", "Game"]:
    """(path, record, game) for FILE: the record read and replayed (its first ``upto`` moves).
    With ``as_name``, the record must first extend what that player saw of it (``seen``)."""
    path = game_path(file)
    record = open_record(path)
    check_seen_as(record, as_name, keys, writes=False)
    if upto is not None and upto > len(record.moves):
        raise click.BadParameter(ngettext("{path} has {count} move, not {upto}",
                                          "{path} has {count} moves, not {upto}", len(record.moves))
                                 .format(path=record.path, count=len(record.moves), upto=upto),
                                 param_hint="--at")
    return path, record, replay_valid(record, upto, alerts=as_name is None)


def listed_records(paths: Iterable[str]) -> tuple[list[str], int]:
    """(``record_files`` of ``paths``, how many folders could not be read): each such folder
    is reported on standard error in one line."""
    unreadable: list[tuple[str, str]] = []
    files = list(record_files(paths, unreadable))
    for folder, reason in unreadable:
        click.echo(_("Error: {folder}: cannot read the folder ({reason}); its records were "
                     "not read").format(folder=folder, reason=reason),
                   err=True)
    return files, len(unreadable)


def record_files(paths: Iterable[str], unreadable: list[tuple[str, str]]) -> Iterator[str]:
    """The files named, with every ``*.yaml``/``*.yml`` under the folders named (sorted,
    hidden folders skipped).  Links to folders are followed, each folder searched once (a link
    back to a folder already searched adds nothing).  Each folder that cannot be read is added
    to the list ``unreadable`` as (path as printed, reason): the caller reports it."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        found = []
        missed = len(unreadable)
        searched = set()
        waiting = [path]
        while waiting:
            folder = waiting.pop()
            try:
                status = os.stat(folder)
                if (status.st_dev, status.st_ino) in searched:
                    continue
                searched.add((status.st_dev, status.st_ino))
                with os.scandir(folder) as listing:
                    entries = list(listing)
            except OSError as exc:
                unreadable.append((display_path(folder), exc.strerror or str(exc)))
                continue
            for entry in entries:
                if _is_folder(entry):
                    if not entry.name.startswith("."):
                        waiting.append(entry.path)
                elif entry.name.endswith((".yaml", ".yml")):
                    found.append(entry.path)
        if not found and len(unreadable) == missed:
            raise click.ClickException(_("{path} is a folder with no .yaml records in it")
                                       .format(path=display_path(path)))
        yield from sorted(found)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether a folder entry is a folder or a link to one (a link that leads nowhere is not)."""
    try:
        return entry.is_dir()
    except OSError:
        return False
