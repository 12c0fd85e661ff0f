"""How the commands find and read their records: FILE and its default (``game_path``), a game
read to look at it (``read_game``: ``turns.game_files``'s steps, the warnings printed), and the
records of folders (``record_files``)."""

import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import click

from ..errors import display_path
from ..i18n import _, ngettext, system_reason

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


def read_game(file: str | None, upto: int | None = None, as_name: str | None = None,
              keys: str | None = None) -> tuple[str, "Record", "Game"]:
    """(path, record, game) for FILE, as a command that only looks at it reads it
    (``turns.game_files``): the record read, checked against what ``as_name`` saw of it, and
    replayed (its first ``upto`` moves, a usage error past its end); the replay's warnings
    (without ``as_name``: a player's own view says more) on standard error."""
    from ..turns.game_files import check_seen, open_record, replayed
    from .timing import now

    path = game_path(file)
    record = open_record(path)
    check_seen(record, as_name, keys, writes=False, now=now() if as_name else None)
    if upto is not None and upto > len(record.moves):
        raise click.BadParameter(ngettext("{path} has {count} move, not {upto}",
                                          "{path} has {count} moves, not {upto}", len(record.moves))
                                 .format(path=record.path, count=len(record.moves), upto=upto),
                                 param_hint="--at")
    warnings: list[str] = []
    game = replayed(record, upto, warnings if as_name is None else None)
    warn(warnings)
    return path, record, game


def replay_valid(record: "Record", upto: int | None = None) -> "Game":
    """``record`` replayed (its first ``upto`` moves: ``turns.game_files.replayed``), its
    warnings on standard error."""
    from ..turns.game_files import replayed

    warnings: list[str] = []
    game = replayed(record, upto, warnings)
    warn(warnings)
    return game


def warn(lines: Iterable[str]) -> None:
    """Each of ``lines`` (a warning, ``Warning: ...``) on standard error."""
    for line in lines:
        click.echo(line, err=True)


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
                unreadable.append((display_path(folder), system_reason(exc)))
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
