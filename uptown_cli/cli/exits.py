"""How a command ends: its exit status (``ExitStatus``, the one table of docs/COMMANDS.md) and
the one place where a library error (``UptownError``) becomes a click error, that is one line on
standard error and exit status 1, or 2 for a value of an option (``converted``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum

import click

from ..errors import RecordError, UptownError
from ..i18n import _

__all__ = ["ExitStatus", "converted", "signal_status"]


class ExitStatus(IntEnum):
    """The exit statuses of ``uptown``, as docs/COMMANDS.md's table lists them."""

    OK = 0
    """Success."""
    ERROR = 1
    """An error of the user's or of the world (click's ``ClickException``)."""
    USAGE = 2
    """A usage error (click's ``UsageError``)."""
    UNCHECKED = 3
    """``validate``: no record invalid, but a finished hidden game whose draws stay unchecked."""
    TEMPFAIL = 75
    """``judge run --stdin``: the message was not handled; the mail server delivers it again
    later (sysexits.h's EX_TEMPFAIL)."""
    SIGNAL = 128
    """Ended by signal N: the status is 128 + N (``signal_status``)."""
    INTERRUPTED = 130
    """Ctrl-C (SIGINT, 128 + 2) in a command that ends its workers and engines first."""


def signal_status(signum: int) -> int:
    """The exit status of a command ended by signal ``signum``: 128 + ``signum``."""
    return ExitStatus.SIGNAL + signum


@contextmanager
def converted(line: str = "{error}", *, usage: bool = False, param_hint: str | None = None,
              catch: type[Exception] = UptownError, **fields: object) -> Iterator[None]:
    """Run the block; a library error (``catch``: ``UptownError``) raised in it becomes one
    click error: a ``ClickException`` (status 1) whose line is ``line`` (a whole sentence,
    translated, whose ``{error}`` is the error and whose other fields are ``fields``:
    ``_("engine {name}: {error}")``), or, with ``usage`` or a ``param_hint``, a
    ``BadParameter`` for that option (status 2; in a parameter's callback click names the
    parameter itself).  A record's error that found more problems says how many more.
    ``cli.UptownGroup.invoke`` runs every command in it, so a command converts on its own only
    to add words or to make the error a usage error."""
    try:
        yield
    except catch as exc:
        more = len(exc.problems) - 1 if isinstance(exc, RecordError) else 0
        error = _("{error} (and {more} more; see uptown validate)").format(
            error=exc, more=more) if more else str(exc)
        text = line.format(error=error, **fields)
        if usage or param_hint is not None:
            raise click.BadParameter(text, param_hint=param_hint) from None
        raise click.ClickException(text) from None
