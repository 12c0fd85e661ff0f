"""The lock on a game file: an exclusive ``flock`` on the file itself, taken relative to a
descriptor of its folder and taken again when another writer replaced the file meanwhile."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import time
from typing import Callable, Iterator

from ..errors import RecordError
from ..i18n import _, system_reason

__all__: list[str] = []

#: How long to wait for another process's lock on a record, in seconds.
LOCK_TIMEOUT = 10.0
WAIT_NOTICE = 1.0
"""After this many seconds of waiting for another writer's lock, ``on_wait`` is called."""


class LockedFile:
    """A game file opened and locked: its ``folder`` (a descriptor), its ``name`` in it,
    the descriptor ``fd`` and ``stat`` of the locked file, and every descriptor whose lock
    is held (the versions this writer put in place keep theirs until it is done)."""

    __slots__ = ("folder", "name", "fd", "stat", "held")

    def __init__(self, folder: int, name: str, fd: int, stat: os.stat_result,
                 held: list[int]) -> None:
        self.folder = folder
        self.name = name
        self.fd = fd
        self.stat = stat
        self.held = held


@contextlib.contextmanager
def locked_game(real: str, shown: str, on_wait: Callable[[], None] | None = None) -> Iterator[LockedFile]:
    """Hold an exclusive flock on the game file ``real`` (a path with no symbolic link),
    waiting up to LOCK_TIMEOUT seconds, once sure its name still names the locked file."""
    directory, name = os.path.split(real)
    try:
        folder = open_folder(directory, os.O_NOFOLLOW)
    except OSError as exc:
        raise RecordError(_("cannot read {shown}: {value}")
                          .format(shown=shown, value=system_reason(exc))) from None
    held: list[int] = []
    try:
        wait = LockWait(on_wait)
        while True:
            try:
                held.append(_open_game(folder, name))
                locked = os.fstat(held[-1])
            except OSError as exc:
                raise RecordError(_("cannot read {shown}: {value}")
                                  .format(shown=shown, value=system_reason(exc))) from None
            if not stat.S_ISREG(locked.st_mode):
                raise RecordError(_("{shown} is not a regular file; nothing was written")
                                  .format(shown=shown))
            lock_file(held[-1], wait, shown)
            if _names(folder, name, locked):
                break
            os.close(held.pop())  # replaced by another writer meanwhile: lock the new file
        yield LockedFile(folder, name, held[-1], locked, held)
    finally:
        for descriptor in held:
            os.close(descriptor)
        os.close(folder)


def open_folder(directory: str, flags: int = 0) -> int:
    """A descriptor of the folder ``directory`` ("" is the current one), for work relative to it."""
    return os.open(directory or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | flags)


def _open_game(folder: int, name: str) -> int:
    """Open ``name`` without following a symbolic link, waiting or taking a terminal;
    for writing when allowed (an exclusive flock over NFS needs it)."""
    flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        return os.open(name, os.O_RDWR | flags, dir_fd=folder)
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS, errno.EISDIR, errno.ETXTBSY):
            raise
    return os.open(name, os.O_RDONLY | flags, dir_fd=folder)


class LockWait:
    """The wait for other writers' locks: LOCK_TIMEOUT seconds at most, told to ``on_wait``
    once it has lasted WAIT_NOTICE seconds."""

    def __init__(self, on_wait: Callable[[], None] | None):
        self.start = time.monotonic()
        self.on_wait = on_wait

    def longer(self) -> bool:
        """Wait a little more; False once the time is up."""
        waited = time.monotonic() - self.start
        if waited > LOCK_TIMEOUT:
            return False
        if self.on_wait is not None and waited >= WAIT_NOTICE:
            self.on_wait()
            self.on_wait = None
        time.sleep(0.05)
        return True


def lock_file(fd: int, wait: LockWait, shown: str) -> None:
    """Take an exclusive flock on ``fd``, waiting as ``wait`` allows; RecordError when the
    time is up or the lock cannot be taken."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if not wait.longer():
                raise RecordError(_("{shown} is locked by another process (a move being written, or a "
                                    "program reading it); nothing was written, try again")
                                  .format(shown=shown)) from None
        except OSError as exc:
            raise RecordError(_("cannot lock {shown}: {value}")
                              .format(shown=shown, value=system_reason(exc))) from None


def _names(folder: int, name: str, locked: os.stat_result) -> bool:
    """Whether ``name`` in ``folder`` is still the file ``locked``."""
    try:
        now = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (now.st_dev, now.st_ino) == (locked.st_dev, locked.st_ino)
