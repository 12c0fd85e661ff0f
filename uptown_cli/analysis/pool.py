"""Work shared among worker processes (``--jobs``) that stops cleanly: Ctrl-C, SIGTERM or
SIGHUP end the workers with the run, and what finished can still be reported; a worker whose
parent is killed outright (SIGKILL) sees its lifeline, a pipe from the parent, close and ends
itself as SIGTERM would (Linux and macOS alike, whatever starts the workers)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import Connection
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NoReturn, TypeVar

__all__ = ["Stopped", "stopped_by_signals"]

_Task = TypeVar("_Task")
_Result = TypeVar("_Result")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """A run stopped by SIGTERM or SIGHUP (``signum``), as Ctrl-C stops it: the pool's workers
    are ended and what finished can be reported."""

    def __init__(self, signum: int):
        super().__init__(f"stopped by signal {signum}")
        self.signum = signum


def in_pool(function: Callable[[_Task], _Result], tasks: Sequence[_Task],
            jobs: int, cluster: str | None = None) -> Iterator[_Result]:
    """``function`` of each task, in order, worked out by a pool of ``jobs`` worker processes
    (no more than there are tasks; in this process alone for one job or one task), or by the
    workers of the Dask scheduler at ``cluster`` (``analysis.cluster``). Ctrl-C
    (KeyboardInterrupt) or a stop signal (``Stopped``) in this process ends the workers before
    it goes on; in this process alone, a stop signal is raised as ``Stopped`` too."""
    if cluster is not None:
        from .cluster import on_cluster

        with stopped_by_signals():
            yield from on_cluster(function, tasks, cluster)
        return
    if jobs <= 1 or len(tasks) <= 1:
        with stopped_by_signals():
            yield from map(function, tasks)
        return
    in_main = threading.current_thread() is threading.main_thread()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if in_main else None
    lifeline, kept = multiprocessing.Pipe(duplex=False)
    try:  # the workers are made with the stop signals held back, so none is missed
        pool = multiprocessing.Pool(min(jobs, len(tasks)), initializer=_worker_signals,
                                    initargs=(lifeline, kept))
    except BaseException:
        lifeline.close()
        kept.close()
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise
    # both ends stay open here while the pool lasts: a worker it starts again needs one
    with lifeline, kept, pool, stopped_by_signals(mask):
        yield from pool.imap(function, tasks)


@contextlib.contextmanager
def stopped_by_signals(mask: Iterable[int] | None = None) -> Iterator[None]:
    """While inside, in the main thread: SIGTERM and SIGHUP raise ``Stopped`` here, so that
    leaving a pool ends its workers (by default this process would die and leave them
    waiting); then the handlers are set back. A signal ignored (``nohup``) stays ignored.
    ``mask``: the signal mask to set once the handlers are in place (a signal held back
    arrives then)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: signal.signal(signum, _stop) for signum in STOP_SIGNALS
              if signal.getsignal(signum) is not signal.SIG_IGN}
    try:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def _stop(signum: int, frame: object) -> NoReturn:
    raise Stopped(signum)


def _worker_signals(lifeline: Connection, parents: Connection) -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool and reports what finished;
    SIGTERM (the pool's way to end a worker) ends the worker, and SIGHUP unless ignored; and
    SIGTERM comes too once ``lifeline`` ends (the parent holds its other end, ``parents``, which
    the worker closes: the pipe ends when the parent does)."""
    parents.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOP_SIGNALS:
        if signum == signal.SIGTERM or signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    threading.Thread(target=_end_with_parent, args=(lifeline,), daemon=True).start()


def _end_with_parent(lifeline: Connection) -> None:
    """Wait for ``lifeline`` to end, then end this worker by SIGTERM (the games it plays end
    their programs on the way out)."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    os.kill(os.getpid(), signal.SIGTERM)
