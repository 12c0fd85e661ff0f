"""Plain text tables in tabulate's ``simple`` style, without importing tabulate.

The commands a player runs on every turn (``show``, ``move``, ``moves``, ``score``) print small
tables of whole numbers and words.  Importing tabulate costs more than the rest of such a
command (it loads ``importlib.metadata`` to know its own version), so ``simple_table`` draws
those tables itself, byte for byte as tabulate would (a property test holds it to that), and
says None for any table it cannot draw exactly so (floats, text that reads as a number, cells
on several lines, wide or combining characters), which then goes to tabulate.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from ..i18n import decimal_separator, figures

__all__ = ["simple_table", "plain_table", "people_figures"]

MIN_PADDING = 2
"""The blanks tabulate adds to each header's width."""
SEPARATOR = "  "

_NUMBER = r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*|\s*[-+]?(inf|nan|infinity)\s*"
"""What tabulate reads as a number (case ignored). Patterns here and in the record modules are
compiled on first use (``re`` keeps them), not at import: most commands never need most of
them, and compiling one costs a good part of a millisecond."""


def _is_text(cell: object) -> bool:
    """Text that tabulate prints as it is: one printable line with no blanks around it, each
    character one column wide."""
    return (isinstance(cell, str) and cell == cell.strip() and cell.isprintable()
            and (cell.isascii() or _one_column_each(cell)))


def _is_word(cell: str) -> bool:
    """Text (``_is_text``: no blanks around it) that does not read as a number (tabulate would
    align a column of those as one). ``True`` and ``False`` are not words: tabulate reads them
    as booleans, and a column of booleans and numbers as numbers."""
    if not cell or cell in ("True", "False"):
        return False
    if cell[0].isalpha() and cell[0] not in "iInN":  # no number begins so (inf and nan do)
        return True
    if not any(char.isdecimal() for char in cell):  # no digit: a number only if inf or nan
        return (cell[1:] if cell[0] in "+-" else cell).lower() not in ("inf", "nan", "infinity")
    return re.fullmatch(_NUMBER, cell, re.IGNORECASE) is None


def _one_column_each(text: str) -> bool:
    """Whether each character of ``text`` takes one column on a terminal (not wide, not
    combining)."""
    return all(unicodedata.east_asian_width(char) not in "WF" and not unicodedata.combining(char)
               for char in text)


def plain_table(rows: Sequence[Sequence[object]], headers: list[str]) -> str:
    """``rows`` under ``headers`` in tabulate's ``simple`` style: ``simple_table``'s, else
    tabulate's own (imported only then)."""
    drawn = simple_table(rows, headers)
    if drawn is not None:
        return drawn
    from tabulate import tabulate

    return str(tabulate(rows, headers))


def simple_table(rows: Sequence[Sequence[object]], headers: list[str]) -> str | None:
    """``rows`` under ``headers`` in tabulate's ``simple`` format, or None when tabulate might
    draw it otherwise (a cell that is neither a whole number nor plain text, a column whose
    only text reads as numbers, a header on two lines, rows of unequal length)."""
    if any(len(row) != len(headers) for row in rows) or not all(map(_is_text, headers)):
        return None
    numeric = []
    for column in zip(*rows) if rows else [()] * len(headers):
        if all(type(cell) is int for cell in column) and column:
            numeric.append(True)
        elif all(_is_text(cell) for cell in column) and (
                any(_is_word(cell) for cell in column) or not any(column)):
            numeric.append(False)
        else:
            return None
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [max([len(header) + MIN_PADDING] + [len(row[i]) for row in cells])
              for i, header in enumerate(headers)]

    def line(texts: list[str]) -> str:
        return SEPARATOR.join(text.rjust(width) if right else text.ljust(width)
                              for text, width, right in zip(texts, widths, numeric)).rstrip()

    lines = [line(headers), SEPARATOR.join("-" * width for width in widths)]
    lines += [line(row) for row in cells]
    return "\n".join(lines)


_FIGURE = r"[-+\u00b1]?\d+\.\d+%?((->|-)[-+]?\d+\.\d+%?)?"
"""A cell holding a figure with decimals, as the commands write them: ``0.25``, ``62.5%``,
``\u00b141.2``, ``7.0->5.5``."""


def people_figures(rows: Sequence[Sequence[Any]]) -> tuple[Sequence[Sequence[Any]], list[str] | None]:
    """``rows`` with the figures of their cells written with the language's decimal separator
    (``i18n.figures``), and tabulate's column alignment that keeps those columns on the right
    (None: the rows as they were, in English). Machines never get here (csv, JSON)."""
    if decimal_separator() == ".":
        return rows, None

    changed: set[int] = set()

    def cell(index: int, value: Any) -> Any:
        if isinstance(value, str) and re.fullmatch(r"[-+]?\d+\.\d+", value):
            value = float(value)  # tabulate shows a number written as text as a number
        if isinstance(value, float):
            changed.add(index)
            return figures(format(value, "g"))
        if isinstance(value, str) and re.fullmatch(_FIGURE, value):
            changed.add(index)
            return figures(value)
        return value

    people = [[cell(i, value) for i, value in enumerate(row)] for row in rows]
    if not changed:
        return rows, None
    width = max(map(len, rows))
    return people, ["right" if i in changed else "global" for i in range(width)]
