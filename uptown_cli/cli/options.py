"""What the commands share: options, reading records, and the one output path.

Every command that prints data goes through ``Output``: a text table in any tabulate style
(``--format``), csv (``--format csv``), or JSON (``--json``).  Machine formats (csv, tsv) print
the tables alone, with no title lines.  Heavy modules (PyYAML, tabulate) are imported when used.
"""

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..errors import display_path as display_path  # used by the commands through here
from ..i18n import N_, _, ngettext

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..records.schema import Record

__all__: list[str] = []

F = TypeVar("F", bound=Callable[..., Any])
"""A command function: the option decorators give it back with its type."""

GAME_ENV = "UPTOWN_GAME"
DEFAULT_GAME = "game.yaml"
PROGRESS_MIN_FILES = 20
"""Commands over many files show a progress bar (on a terminal) from this many files on."""
MACHINE_FORMATS = ("csv", "tsv")
"""Table formats for programs: the tables alone, no titles or boards."""


# -- options ---------------------------------------------------------------------------------


_FILE = click.Path(readable=False)
"""FILE's type (one for every command: click looks up a translation for each one made)."""


def file_argument(command: F) -> F:
    return click.argument("file", required=False, metavar="[FILE]", type=_FILE)(command)


def _table_formats() -> list[str]:
    from tabulate import tabulate_formats

    return ["csv", *tabulate_formats]


def _check_format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if value in ("simple", "csv"):  # the default, checked without importing tabulate
        return value
    if value not in _table_formats():
        import difflib

        near = difflib.get_close_matches(value, _table_formats(), n=1)
        hint = f"did you mean {near[0]!r}?" if near else "try plain, grid or csv"
        raise click.BadParameter(_("{value!r}: {hint}").format(value=value, hint=hint))
    return value


def json_option(command: F) -> F:
    """``--json``, given to the command as ``as_json``."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(command)


def output_options(command: F) -> F:
    """``--json`` and ``--format FMT``, given to the command as ``as_json`` and ``table_format``
    (see ``Output``)."""
    command = click.option(
        "--format", "table_format", default="simple", show_default=True, callback=_check_format,
        metavar="FMT", help="Table format: csv or any tabulate format (plain, github, tsv, ...).",
    )(command)
    return json_option(command)


def as_option(required: bool = False) -> Callable[[F], F]:
    """``--as NAME``, given to the command as ``as_name``: the player who runs the command."""
    return click.option("--as", "as_name", required=required, metavar="NAME",
                        help="The player you are (with hidden racks, your key file proves it).")


BOT_NAMES = ("random", "greedy", "mc", "horizon")
"""``analysis.bots.BOT_NAMES``: named here, checked equal by a test, so that ``--help`` imports
no bots (tests/cli/test_main.py)."""
PLAYOUT_BOTS = ("mc", "horizon")
"""The bots that play moves out and take ``--playouts``."""
MC_PLAYOUTS = 16
"""``analysis.bots.MC_PLAYOUTS``: how many deals mc plays each candidate in, by default."""


def playouts_option(default: int | None = None) -> Callable[[F], F]:
    """``--playouts N``, given to the command as ``playouts``."""
    return click.option(
        "--playouts", type=click.IntRange(min=1), metavar="N", default=default,
        show_default=default is not None,
        help=f"{', '.join(PLAYOUT_BOTS)}: how many sampled deals each candidate move is played "
        "out in.")


def cluster_option(command: F) -> F:
    """``--cluster ADDRESS``, given to the command as ``cluster`` (``analysis.cluster``)."""
    return click.option(
        "--cluster", metavar="ADDRESS",
        help="Work on the Dask scheduler at ADDRESS (tcp://HOST:8786), or on 'local:N' workers "
             "started here; the output is that of --jobs (pip install 'uptown[cluster]').")(command)


def check_playouts(playouts: int | None, bot: str | None) -> None:
    """A UsageError for ``--playouts`` with a bot that plays nothing out."""
    if playouts and bot not in PLAYOUT_BOTS:
        raise click.UsageError(
            _("--playouts goes with {value}")
            .format(value=' or '.join(f'--bot {b}' for b in PLAYOUT_BOTS)))


def keys_option(command: F) -> F:
    """``--keys DIR``: where a player's key files are, for games with hidden racks."""
    return click.option(
        "--keys", metavar="DIR",
        help="Folder of your key files, for games with hidden racks (default: $UPTOWN_KEYS, "
        "else the uptown/keys folder in your config folder).",
    )(command)


def sendmail_option(command: F) -> F:
    """``--sendmail``, for ``send`` and ``move --send``."""
    return click.option("--sendmail", is_flag=True,
                        help="Hand the message to the local sendmail program instead of "
                        "$UPTOWN_SMTP.")(command)


def color_options(command: F) -> F:
    """``--color auto|always|never`` (and ``--no-color``), given as ``color`` and ``no_color``."""
    command = click.option(
        "--no-color", is_flag=True, help="The same as --color never.",
    )(command)
    return click.option(
        "--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
        show_default=True,
        help="ANSI colour: auto is on a terminal unless NO_COLOR is set (FORCE_COLOR forces it).",
    )(command)


def use_color(color: str = "auto", no_color: bool = False) -> bool:
    """Whether to paint: never with ``--no-color``; ``auto`` honours NO_COLOR, then FORCE_COLOR,
    then whether standard output is a terminal."""
    if no_color or color == "never":
        return False
    if color == "always":
        return True
    if os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


# -- output ----------------------------------------------------------------------------------


def wrap_words(text: str, width: int) -> list[str]:
    """The words of ``text`` (split at blanks) in lines of at most ``width`` characters, a longer
    word alone on its line, unbroken: what ``textwrap.wrap`` gives for words without hyphens and
    no longer than ``width`` (such as the squares of ``moves``), without the cost of importing
    textwrap, which compiles its patterns."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


class Output:
    """Where a command's data goes: JSON, or tables in ``table_format`` (csv included)."""

    def __init__(self, as_json: bool = False, table_format: str = "simple") -> None:
        self.as_json = as_json
        self.table_format = table_format
        if self.for_machines:  # programs read the words of JSON and csv: English, as keys are
            from ..i18n import use_language

            use_language("en")

    @property
    def for_machines(self) -> bool:
        """True for JSON and the machine table formats: print data only, no titles."""
        return self.as_json or self.table_format in MACHINE_FORMATS

    def json(self, data: Any) -> None:
        import json

        click.echo(json.dumps(data, indent=2, ensure_ascii=False))

    def text(self, text: str = "", color: bool | None = None) -> None:
        """A line for people: shown with text tables, left out for machines. ``color=True`` keeps
        ANSI colour even off a terminal (--color always, FORCE_COLOR)."""
        if not self.for_machines:
            click.echo(text, color=color)

    def table(self, rows: Sequence[Sequence[Any]], headers: list[str], title: str | None = None,
              widths: Sequence[int | None] | None = None) -> None:
        """A table (with its title line for people); ``widths`` caps column widths (wrapping)."""
        if title is not None:
            self.text(title)
        click.echo(self.table_text(rows, headers, widths))

    def wrapped(self, rows: Sequence[Sequence[Any]], column: int,
                width: int) -> Sequence[Sequence[Any]]:
        """``rows`` with the words of ``column`` wrapped at ``width`` for people: each further line
        on a row of its own, blank elsewhere (machines get the rows as they are)."""
        if self.for_machines:
            return rows
        out = []
        for row in rows:
            lines = wrap_words(row[column], width) or [""]
            out.append([*row[:column], lines[0], *row[column + 1:]])
            out += [[""] * column + [line] + [""] * (len(row) - column - 1) for line in lines[1:]]
        return out

    def table_text(self, rows: Sequence[Sequence[Any]], headers: list[str],
                   widths: Sequence[int | None] | None = None) -> str:
        if self.table_format == "csv":
            import csv
            import io

            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(headers)
            writer.writerows(rows)
            return out.getvalue().rstrip("\n")
        from ..pictures.table import people_figures

        rows, colalign = people_figures(rows)
        if self.table_format == "simple" and not widths and colalign is None:
            from ..pictures.table import simple_table

            drawn = simple_table(rows, headers)
            if drawn is not None:
                return drawn
        from tabulate import tabulate

        if widths and self.table_format not in MACHINE_FORMATS:
            return tabulate(rows, headers, tablefmt=self.table_format, maxcolwidths=widths,
                            colalign=colalign)
        return tabulate(rows, headers, tablefmt=self.table_format, colalign=colalign)


def output_file_option(example: str) -> Callable[[F], F]:
    """``-o/--output FILE``: where a command that makes a file writes it (standard output by
    default)."""
    return click.option("-o", "--output", metavar="FILE",
                        help=f"Write to FILE (e.g. {example}) instead of standard output.")


def write_output(text: str, output: str | None, inputs: Iterable[str] = (), record: bool = False) -> None:
    """``text`` as UTF-8 to ``output``, a file (see ``records.safe_file.write_file``: whole or
    not at all, never through a link) or standard output (None or "-"), else a one-line
    ClickException.  A record is never written over: ``output`` may not end in .yaml/.yml
    nor be one of the files ``inputs``; with ``record`` (the output is a new record, made as
    ``uptown new`` makes one), it must not exist at all."""
    from ..errors import RecordError
    from ..records.safe_file import create_record, write_file

    if output in (None, "-"):
        click.echo(text.encode("utf-8"), nl=False)
        return
    if record:
        try:
            create_record(output, text)
        except RecordError as exc:
            raise click.ClickException(_("-o {exc}").format(exc=exc)) from None
        _wrote(output, len(text.encode("utf-8")))
        return
    if output.lower().endswith((".yaml", ".yml")) or any(
            os.path.exists(output) and os.path.exists(path) and os.path.samefile(output, path)
            for path in inputs if path != "-"):
        raise click.ClickException(_("-o {output} would write over a record; nothing was written")
                                   .format(output=display_path(output)))
    size = write_file(output, text, display_path(output))
    _wrote(output, size)


def _wrote(output: str, size: int) -> None:
    """The line on standard error that says a file was written, and how big it is."""
    from ..i18n import ngettext, thousands

    click.echo(ngettext("Wrote {path} ({size} byte).", "Wrote {path} ({size} bytes).", size)
               .format(path=display_path(output), size=thousands(size)), err=True)


def page(text: str, color: bool | None = None) -> None:
    """Print ``text``, through the pager ($PAGER, else less) when standard output is a terminal."""
    if sys.stdout.isatty():
        click.echo_via_pager(text, color=color)
    else:
        click.echo(text, color=color)


def lock_notice(path: str) -> Callable[[], None]:
    """What to tell the player while another player's move holds the game file."""
    return lambda: click.echo(_("{path} is locked by another program (a move being written, or a "
                                "program reading it); waiting...").format(path=display_path(path)), err=True)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def percent(rate: float) -> str:
    """A rate as every command prints it: ``62.5%``."""
    return f"{100 * rate:.1f}%"


# -- reading records -------------------------------------------------------------------------


def game_path(file: str | None) -> str:
    """FILE as given, else ``$UPTOWN_GAME``, else ``game.yaml``."""
    return file or os.environ.get(GAME_ENV) or DEFAULT_GAME


NO_SUCH_FILE = N_("no such file (uptown new creates a game)")
"""The one wording of every command for a FILE that is not there."""


def read_record(path: str) -> "Record":
    """The record at ``path`` ("-" for standard input), or a one-line ClickException."""
    from ..records.reading import load_record, read_standard_input
    from ..records.schema import load_record_text
    from ..errors import RecordError

    if path != "-" and not os.path.lexists(path):
        raise click.ClickException(_("{path}: {NO_SUCH_FILE}")
                                   .format(path=display_path(path), NO_SUCH_FILE=_(NO_SUCH_FILE)))
    try:
        if path == "-":
            return load_record_text(read_standard_input(), "<stdin>")
        return load_record(path, display_path(path))
    except RecordError as exc:
        more = len(exc.problems) - 1
        hint = f" (and {more} more; see uptown validate)" if more else ""
        raise click.ClickException(_("{exc}{hint}").format(exc=exc, hint=hint)) from None


def replay_valid(record: "Record", upto: int | None = None) -> "Game":
    """The game after the record's moves (the first ``upto``), or a ClickException for the
    first illegal move."""
    from ..records.replay import replay

    result = replay(record, upto=upto)
    if result.errors:
        raise click.ClickException(_("{report_line} (the record is invalid)")
                                   .format(report_line=result.errors[0].report_line()))
    return result.game


def check_seen_as(record: "Record", as_name: str | None, keys: str | None,
                  writes: bool = True) -> None:
    """With ``--as NAME``, ``records.viewer.check_seen``: refuse ``record`` unless it extends what
    NAME last saw of it (without ``--as``, the viewer's modules are not even loaded); ``writes``:
    whether the command would have written the file."""
    if as_name is not None:
        from ..records.viewer import check_seen

        check_seen(record, as_name, keys, writes)


def remember_seen(record: "Record", as_name: str | None, keys: str | None) -> None:
    """With ``--as NAME``, keep ``record`` as what NAME has seen (``records.viewer.remember``)."""
    if as_name is not None:
        from ..records.viewer import player_named, remember

        remember(record, player_named(record.players, as_name), keys)


def read_game(file: str | None, upto: int | None = None, as_name: str | None = None,
              keys: str | None = None) -> tuple[str, "Record", "Game"]:
    """(path, record, game) for FILE: the record read and replayed (its first ``upto`` moves).
    With ``as_name``, the record must first extend what that player saw of it (``seen``)."""
    path = game_path(file)
    record = read_record(path)
    check_seen_as(record, as_name, keys, writes=False)
    if upto is not None and upto > len(record.moves):
        raise click.BadParameter(ngettext("{path} has {count} move, not {upto}",
                                          "{path} has {count} moves, not {upto}", len(record.moves))
                                 .format(path=record.path, count=len(record.moves), upto=upto),
                                 param_hint="--at")
    return path, record, replay_valid(record, upto)


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

