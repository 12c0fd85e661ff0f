"""Reading a record's file or standard input: regular files only (devices, sockets and folders
refused before reading), a silent pipe given up, never more than 1 MiB."""

from __future__ import annotations

import os
import select
import stat
import sys
from typing import TYPE_CHECKING

from ..errors import RecordError
from ..i18n import _, system_reason
from .schema import Record, load_record_text
from .yaml_reader import MAX_BYTES, PIPE_WAIT, decode

if TYPE_CHECKING:  # a type only: pathlib is not loaded at start-up
    from pathlib import Path

__all__ = ["load_record", "read_file"]


def load_record(path: str | Path, shown: str | None = None) -> Record:
    """Read and check the record at ``path`` (``shown`` is the name used in errors)."""
    shown = str(path) if shown is None else shown
    return load_record_text(read_file(path, shown), shown)


def read_file(path: str | Path, shown: str | None = None) -> str:
    """Read a record file's text, refusing files over 1 MiB before reading them.

    Only a regular file or a pipe is read (``<(cat game.yaml)`` works): a folder, a device
    such as a terminal or ``/dev/zero``, or a socket is refused before anything is read, by
    its type when the path is looked at and again once it is open.  Nothing waits for ever:
    the file is opened without waiting, a FIFO that nobody writes to reads as empty, and a
    pipe that stays silent for ``PIPE_WAIT`` seconds without ending is given up."""
    shown = str(path) if shown is None else shown
    try:
        _check_kind(os.stat(path).st_mode, shown)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise RecordError(_("cannot read the file: {value}").format(value=system_reason(exc)), path=shown) from None
    try:
        status = os.fstat(descriptor)
        _check_kind(status.st_mode, shown)
        if stat.S_ISREG(status.st_mode) and status.st_size > MAX_BYTES:
            raise RecordError(_("the file is larger than 1 MiB ({st_size} bytes); refused")
                              .format(st_size=status.st_size),
                              path=shown)
        data = _read_to_limit(descriptor, shown)
    except OSError as exc:
        raise RecordError(_("cannot read the file: {value}").format(value=system_reason(exc)), path=shown) from None
    finally:
        os.close(descriptor)
    return decode(data, shown)


def read_standard_input(shown: str = "<stdin>") -> bytes:
    """Standard input's bytes, no more than ``MAX_BYTES + 1`` of them (``decode`` then refuses
    a larger record); a RecordError when it cannot be read, closed (``<&-``) or a folder."""
    try:
        if sys.stdin is None:  # Python's standard input when descriptor 0 is closed
            raise OSError(_("it is closed"))
        return sys.stdin.buffer.read(MAX_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a closed file object
        reason = system_reason(exc) if isinstance(exc, OSError) and exc.strerror else _("it is closed")
        raise RecordError(_("cannot read standard input: {reason}").format(reason=reason), path=shown) from None


def _check_kind(mode: int, shown: str) -> None:
    """Refuse what is neither a regular file nor a pipe."""
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return
    if stat.S_ISDIR(mode):
        reason = _("Is a directory")
    else:
        kind = (_("a device (a terminal, /dev/zero...)") if stat.S_ISCHR(mode)
                else _("a block device") if stat.S_ISBLK(mode)
                else _("a socket") if stat.S_ISSOCK(mode) else _("not a file"))
        reason = _("it is {kind}, not a regular file").format(kind=kind)
    raise RecordError(_("cannot read the file: {reason}").format(reason=reason), path=shown)


READ_CHUNK = 64 * 1024
"""Bytes asked for by one read of a record: a record is a few KiB, and asking for a whole MiB each time
would make Python set aside (and the system clear) a MiB per read."""


def _read_to_limit(descriptor: int, shown: str) -> bytes:
    """Up to ``MAX_BYTES + 1`` bytes from a descriptor opened without waiting."""
    chunks = []
    size = 0
    while size <= MAX_BYTES:
        try:
            chunk = os.read(descriptor, min(READ_CHUNK, MAX_BYTES + 1 - size))
        except BlockingIOError:  # a pipe whose writer has sent nothing more yet

            waiting = select.poll()
            waiting.register(descriptor, select.POLLIN)
            if not waiting.poll(PIPE_WAIT * 1000):
                raise RecordError(_("cannot read the file: the pipe stayed silent for {PIPE_WAIT:g} s "
                                    "without ending").format(PIPE_WAIT=PIPE_WAIT), path=shown) from None
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
