"""The one output path of the commands: ``Output`` (text, tables in any tabulate style with
``--format``, csv, or JSON with ``--json``; machine formats print the tables alone), the files
``-o`` writes (``write_output``), the pager, colour, and the small words every command prints
alike (``percent``). tabulate is imported only for tables it must draw."""

import io
import os
import stat
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import click

from ..errors import display_path
from ..i18n import _, system_reason
from .exits import converted

__all__: list[str] = []

MACHINE_FORMATS = ("csv", "tsv")
"""Table formats for programs: the tables alone, no titles or boards."""


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


def line_width() -> int | None:
    """The columns a line of a listing may take: ``$COLUMNS`` when set, else the terminal's;
    None when standard output is no terminal (cron, a pipe, a file), where no line is cut."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if sys.stdout.isatty():
        import shutil

        return shutil.get_terminal_size().columns
    return None


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
            import csv  # only for csv tables

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


FORCE = "uptown.force"
"""The key of ``--force`` in the click context's ``meta`` (``output_file_option``)."""


def check_not_input(output: str | None, inputs: Iterable[str], record: bool = False) -> None:
    """A ClickException when ``output`` would write over a record: one of the files
    ``inputs``, or, unless ``record`` (the output is a record), any .yaml/.yml file. Commands
    that work long call it first, so that it is said before any work."""
    if output in (None, "-"):
        return
    if (not record and output.lower().endswith((".yaml", ".yml"))) or any(
            os.path.exists(output) and os.path.exists(path) and os.path.samefile(output, path)
            for path in inputs if path != "-"):
        raise click.ClickException(_("-o {output} would write over a record; nothing was written")
                                   .format(output=display_path(output)))


def write_output(text: str, output: str | None, inputs: Iterable[str] = (), record: bool = False) -> None:
    """``text`` as UTF-8 to ``output``, a file (see ``records.safe_file.write_file``: whole or
    not at all, never through a link) or standard output (None or "-"), else a one-line
    ClickException.  A record read is never written over: ``output`` may not be one of the
    files ``inputs``, nor, unless ``record`` (the output is a record), end in .yaml/.yml; a
    new record is made as ``uptown new`` makes one, or replaces the file with ``--force``
    (``output_file_option`` refused an existing file without it)."""
    from ..records.safe_file import create_record, write_file

    if output in (None, "-"):
        click.echo(text.encode("utf-8"), nl=False)
        return
    check_not_input(output, inputs, record)
    if record and not click.get_current_context().meta.get(FORCE):
        with converted(_("-o {error}")):
            create_record(output, text)
        size = len(text.encode("utf-8"))
    else:
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
                                "program reading it); waiting...").format(path=display_path(path)),
                              err=True)


def percent(rate: float) -> str:
    """A rate as every command prints it: ``62.5%``."""
    return f"{100 * rate:.1f}%"


GENERATOR = b'<meta name="generator" content="uptown">'
"""The line by which a page uptown wrote is known (``write_folder`` replaces those freely)."""
GENERATOR_WITHIN = 2048
"""How far into a page its ``GENERATOR`` line is looked for (it is in the page's head)."""


def write_folder(files: Mapping[str, bytes], folder: str, force: bool = False) -> int:
    """Put ``files`` (``{name: content}``) in ``folder``, made when missing (not its parents),
    in their order (a page after the pages it links to), each whole or not at all
    (``records.safe_file.write_file``); a file that holds its content already is left as it
    is. Before anything is written, a one-line ClickException refuses a ``folder`` that is not
    a folder, anything in the way that is not a regular file, and a file that uptown did not
    write (a page without its ``GENERATOR`` line in its first ``GENERATOR_WITHIN`` bytes)
    unless ``force``. Returns the bytes written."""
    from ..records.safe_file import write_file

    shown = display_path(folder)
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise click.ClickException(_("-o {folder} is not a folder; nothing was written")
                                   .format(folder=shown))
    changed = {}
    for name, content in files.items():
        path = os.path.join(folder, name)
        old = _old_content(path, max(len(content) + 1, GENERATOR_WITHIN))
        if old == content:
            continue
        if old is not None and GENERATOR not in old[:GENERATOR_WITHIN] and not force:
            raise click.ClickException(_("-o {path} exists and uptown did not write it; add "
                                         "--force to replace it (nothing was written)")
                                       .format(path=display_path(path)))
        changed[path] = content
    if not os.path.isdir(folder):
        try:
            os.mkdir(folder)
        except OSError as exc:
            raise click.ClickException(_("cannot create {folder}: {reason}; nothing was written")
                                       .format(folder=shown, reason=system_reason(exc))) from None
    return sum(write_file(path, content, display_path(path)) for path, content in changed.items())


def _old_content(path: str, limit: int) -> bytes | None:
    """Up to ``limit`` bytes of the regular file at ``path``, None when nothing is there; a
    one-line ClickException for anything else there (a link, a folder, a FIFO) or a file that
    cannot be read."""
    shown = display_path(path)
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise click.ClickException(_("-o {path} is in the way: it is not a regular file; "
                                         "nothing was written").format(path=shown))
        with open(path, "rb") as file:
            return file.read(limit)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise click.ClickException(_("cannot read {path}: {reason}; nothing was written")
                                   .format(path=shown, reason=system_reason(exc))) from None
