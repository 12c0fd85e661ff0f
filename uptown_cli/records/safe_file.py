"""Files on disk, written whole or not at all: game files created, appended to and replaced,
and every other file uptown writes.

``append_move`` adds one move to a record (with its ``link`` in a game with hidden racks),
``write_entry`` an entry to a hidden-racks list (``commitments``, ``revealed``,
``withdrawn``): the new text comes from ``records.editing`` or ``records.editing``, which leave
every other byte as it was and read it back before the file is touched.

On disk, a path that is a symbolic link is resolved once; from then on everything
happens relative to a descriptor of the real file's folder, and the game is opened
without following links, so a folder swapped for a link cannot redirect the write.
The lock is an exclusive ``flock`` on the game file itself, taken again when
another writer replaced the file meanwhile: nothing is left beside the game.  The
new text goes to a temporary file in the same folder (``.NAME.uptown-HEX.tmp``),
created with the game's mode and owner before any data is written, synced, and
renamed over the game, which is then read back and compared; a failure puts the
original back.  The game is refused when it or its folder has no write bit, also
for root.  Any failure leaves the original file byte for byte as it was.
``create_record`` links a finished temporary file to the new name, which refuses
any existing name, a dangling symbolic link included.

``write_file`` writes every other file uptown makes (``-o``: pictures, exports) the
same way: a temporary file beside the target with the final mode (the old file's,
else what the umask allows), synced and renamed over the target only when complete,
under an exclusive ``flock`` on the folder.  It never writes through a symbolic link
nor over a folder, device, FIFO or socket, and on any failure leaves the old file
as it was and no temporary file behind; only when the folder cannot be synced after
the rename is the new file in place, and the error says so (as ``create_record``'s).

Every temporary file is written by one function, ``_write_temp``.  The disk work is
split into small step functions (``_make_temp``, ``_set_owner``, ``_set_mode``,
``_write_all``, ``_fsync``, ``_rename``, ``_sync_dir``, ``_read_back``) so that tests
can make each one fail.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
from typing import Callable

from ..errors import OutputError, RecordError
from .file_lock import LockedFile, LockWait, lock_file, locked_game, open_folder
from .reading import READ_CHUNK
from .schema import Record
from .editing import read_new_text
from ..i18n import _, system_reason

__all__ = ["create_record", "write_file", "replace_record", "holds"]

# -- the disk ------------------------------------------------------------------------------


def create_record(path: str, text: str) -> None:
    """Write a new record file at ``path`` atomically; refuses if anything has that name."""
    data = text.encode("utf-8")
    directory, name = os.path.split(path)
    try:
        folder = open_folder(directory)
    except OSError as exc:
        raise RecordError(_("could not create {path}: {value}")
                          .format(path=path, value=system_reason(exc))) from None
    try:
        if not os.fstat(folder).st_mode & 0o222:
            raise RecordError(_("could not create {path}: the folder is read-only")
                              .format(path=path))
        try:
            tmp = _write_temp(folder, name, data, 0o666)  # the umask applies, as to any new file
            try:
                os.link(tmp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
            finally:
                _remove_quietly(folder, tmp)
        except FileExistsError:
            raise RecordError(_("{path} already exists; not overwritten").format(path=path)) from None
        except OSError as exc:
            raise RecordError(_("could not create {path}: {value}")
                              .format(path=path, value=system_reason(exc))) from None
        try:
            _sync_dir(folder)
        except OSError as exc:
            raise RecordError(_("{path} was created, but its folder could not be synced to disk "
                                "({value})").format(path=path, value=system_reason(exc))) from None
    finally:
        os.close(folder)


def write_file(path: str, data: str | bytes, shown: str | None = None) -> int:
    """Create or replace the file at ``path`` with ``data`` (text is written as UTF-8), as
    the module docstring says; returns the number of bytes written.  ``shown`` is the
    path as printed in errors.  Raises OutputError (one line) when the target is a
    symbolic link, a folder or not a regular file, or when anything fails."""
    shown = path if shown is None else shown
    content = data.encode("utf-8") if isinstance(data, str) else data
    directory, name = os.path.split(path)
    if name in ("", ".", ".."):
        raise OutputError(_("{shown} is a folder; give a file name").format(shown=shown))
    try:
        folder = open_folder(directory)
    except OSError as exc:
        raise OutputError(_("cannot write {shown}: {value}")
                          .format(shown=shown, value=system_reason(exc))) from None
    try:
        lock_file(folder, LockWait(None), shown)
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        except OSError as exc:
            raise OutputError(_("cannot write {shown}: {value}")
                              .format(shown=shown, value=system_reason(exc))) from None
        if old is not None and stat.S_ISDIR(old.st_mode):
            raise OutputError(_("{shown} is a folder; give a file name").format(shown=shown))
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise OutputError(_("{shown} is {st_mode}, not a regular file; nothing was written (-o - "
                                "writes to standard output)")
                              .format(shown=shown, st_mode=_kind(old.st_mode)))
        _remove_stale_temps(folder, name)
        try:
            mode = 0o666 if old is None else stat.S_IMODE(old.st_mode)  # new: as the umask allows
            _write_beside(folder, name, content, mode, old)
        except OSError as exc:
            unchanged = _("nothing was written") if old is None else _("the old file is unchanged")
            raise OutputError(_("cannot write {shown}: {value}; {unchanged}")
                              .format(shown=shown, value=system_reason(exc), unchanged=unchanged)) from None
        try:
            _sync_dir(folder)
        except OSError as exc:
            raise OutputError(_("{shown} was written, but its folder could not be synced to disk "
                                "({value})").format(shown=shown, value=system_reason(exc))) from None
    except RecordError as exc:  # the folder's lock
        raise OutputError(exc.message) from None
    finally:
        os.close(folder)
    return len(content)


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for a refusal."""
    if stat.S_ISLNK(mode):
        return _("a symbolic link")
    if stat.S_ISFIFO(mode):
        return _("a FIFO")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("a device") if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else _("not a regular file")


def _write_beside(folder: int, name: str, data: bytes, mode: int,
                  owner: os.stat_result | None = None, held: list[int] | None = None) -> None:
    """Put ``data`` in ``name``'s place: a temporary file beside it, written whole as
    ``_write_temp`` writes it, renamed over it; the temporary file is removed on failure."""
    tmp = _write_temp(folder, name, data, mode, owner, held)
    try:
        _rename(folder, tmp, name)
    except BaseException:
        _remove_quietly(folder, tmp)
        raise


def replace_record(path: str, new: str | Record, expected: str | Record,
                   on_wait: Callable[[], None] | None = None) -> None:
    """Replace the record at ``path``, which must still hold ``expected`` (the Record read from
    it, or its text), by ``new``: the record edited (``records.editing``: a move appended, an
    entry written), or a received copy that extends it (a text must read as a record; a Record
    was read already). Refuses (RecordError, file untouched) when the file no longer holds
    ``expected``'s text (the game moved on), or when anything fails; ``on_wait`` is called once
    when another writer has held the file for WAIT_NOTICE seconds."""
    if isinstance(new, str):
        read_new_text(new, _("the new copy of {path} is not a record").format(path=path))
    _replace_record(path, _text(expected), _text(new), on_wait)


def _text(record: str | Record) -> str:
    return record.text if isinstance(record, Record) else record


def _replace_record(path: str, expected_text: str, new_text: str,
                    on_wait: Callable[[], None] | None) -> None:
    """Replace the record at ``path``, which must still hold ``expected_text``, by
    ``new_text`` (see the module docstring)."""
    old_bytes, new_bytes = expected_text.encode("utf-8"), new_text.encode("utf-8")
    with locked_game(os.path.realpath(path), path, on_wait) as game:
        if not game.stat.st_mode & 0o222 or not os.access(game.name, os.W_OK, dir_fd=game.folder):
            raise RecordError(_("{path} is read-only; nothing was written").format(path=path))
        if not os.fstat(game.folder).st_mode & 0o222:
            raise RecordError(_("{path} is in a read-only folder; nothing was written")
                              .format(path=path))
        try:
            current = _read_bytes(game.fd, len(old_bytes) + 1)
        except OSError as exc:
            raise RecordError(_("cannot read {path}: {value}")
                              .format(path=path, value=system_reason(exc))) from None
        if current != old_bytes:
            raise RecordError(_("{path} changed since it was read (the game moved on); nothing was "
                                "written").format(path=path))
        _remove_stale_temps(game.folder, game.name)
        try:
            _replace(game, new_bytes)
        except OSError as exc:
            raise RecordError(_("could not write {path}: {value}; the file is unchanged")
                              .format(path=path, value=system_reason(exc))) from None
        try:
            _sync_dir(game.folder)
            if _read_back(game.folder, game.name, len(new_bytes) + 1) != new_bytes:
                raise OSError(errno.EIO, _("the file read back differs from what was written"))
        except BaseException as exc:
            _restore(game, old_bytes, path)
            if isinstance(exc, OSError):
                raise RecordError(_("could not write {path}: {value}; the file was put back as it was")
                                  .format(path=path, value=system_reason(exc))) from None
            raise


def _replace(game: LockedFile, data: bytes) -> None:
    """Put a new file holding ``data``, with the game's mode and owner, in the game's place.
    It is locked before it takes the name, so that a writer who opens it waits until this
    one is done with it."""
    _write_beside(game.folder, game.name, data, stat.S_IMODE(game.stat.st_mode), game.stat,
                  game.held)


def _restore(game: LockedFile, data: bytes, shown: str) -> None:
    """Put the original bytes back after a failure that came after the rename."""
    try:
        _replace(game, data)
        if _read_named(game.folder, game.name, len(data) + 1) != data:
            raise OSError(errno.EIO, _("the file read back differs"))
    except OSError as exc:
        raise RecordError(_("writing {shown} failed and the original could not be put back "
                            "({value}); check the file")
                          .format(shown=shown, value=system_reason(exc))) from None
    with contextlib.suppress(OSError):
        _sync_dir(game.folder)


def _remove_quietly(folder: int, name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=folder)


def _temp_name(name: str, token: str) -> str:
    """The name of a temporary file for the game ``name`` (``token``: 12 hex digits)."""
    return f".{name}.uptown-{token}.tmp"


_TOKEN_DIGITS = 12
"""Hex digits of the random part of a temporary file's name."""


def _remove_stale_temps(folder: int, name: str) -> None:
    """Remove temporary files that a writer killed mid-write left beside the game ``name``:
    with the lock held, no other writer can be using one.  Only regular files named exactly
    as this writer names them are removed."""
    before, after = _temp_name(name, "\0").split("\0")
    ours = re.compile(re.escape(before) + f"[0-9a-f]{{{_TOKEN_DIGITS}}}" + re.escape(after))
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if ours.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                _remove_quietly(folder, entry.name)


def _make_temp(folder: int, name: str, mode: int) -> tuple[int, str]:
    """Create a new temporary file beside ``name``, no wider than ``mode``; returns (fd, name)."""
    tmp = _temp_name(name, os.urandom(_TOKEN_DIGITS // 2).hex())  # (secrets would import random)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(tmp, flags, mode & 0o777, dir_fd=folder), tmp


def _write_temp(folder: int, name: str, data: bytes, mode: int,
                owner: os.stat_result | None = None, held: list[int] | None = None) -> str:
    """A new temporary file beside ``name`` holding ``data``, synced, no wider than ``mode``
    from the start; returns its name. With ``owner`` (the file it is to replace), it gets
    that file's owner and group and exactly ``mode``; with ``held`` (a game's descriptors),
    it is locked before anything is written and stays open there, so that a writer who opens
    it once it has the game's name waits until this one is done. Removed on failure."""
    fd, tmp = _make_temp(folder, name, mode)
    try:
        try:
            if held is not None:
                held.append(fd)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody else knows it yet
            if owner is not None:
                _set_owner(fd, owner.st_uid, owner.st_gid)
                _set_mode(fd, mode)
            _write_all(fd, data)
            _fsync(fd)
        finally:
            if held is None:
                os.close(fd)
    except BaseException:
        _remove_quietly(folder, tmp)
        raise
    return tmp


def _set_owner(fd: int, uid: int, gid: int) -> None:
    """Give the file the game's owner and group: both as root; otherwise the group when we
    may (we cannot give a file away)."""
    now = os.fstat(fd)
    if (now.st_uid, now.st_gid) == (uid, gid):
        return
    try:
        os.fchown(fd, uid, gid)
    except PermissionError:
        if now.st_gid != gid:
            with contextlib.suppress(PermissionError):
                os.fchown(fd, -1, gid)


def _set_mode(fd: int, mode: int) -> None:
    os.fchmod(fd, mode)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _fsync(fd: int) -> None:
    os.fsync(fd)


def _rename(folder: int, tmp: str, name: str) -> None:
    os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)


def _sync_dir(folder: int) -> None:
    os.fsync(folder)


def _read_bytes(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from the start of the open file ``fd``."""
    chunks = []
    offset = 0
    while offset < limit:
        chunk = os.pread(fd, min(READ_CHUNK, limit - offset), offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def holds(path: str, data: bytes) -> bool:
    """Whether ``path`` is a regular file (a symbolic link is not followed, a FIFO is not
    waited for) holding exactly ``data``: a file to leave as it is."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and _read_bytes(fd, len(data) + 1) == data
    except OSError:
        return False
    finally:
        os.close(fd)


def _read_named(folder: int, name: str, limit: int) -> bytes:
    """Up to ``limit`` bytes of the file ``name`` in ``folder`` (not a symbolic link)."""
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    try:
        return _read_bytes(fd, limit)
    finally:
        os.close(fd)


def _read_back(folder: int, name: str, limit: int) -> bytes:
    """Read the game after writing it (a step of its own, so tests can make it fail)."""
    return _read_named(folder, name, limit)
