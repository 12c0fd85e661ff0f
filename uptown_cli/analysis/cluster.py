"""Work spread over many machines with Dask's ``distributed`` (an optional extra:
``pip install 'uptown[cluster]'``), through its ``concurrent.futures`` executor.

Each task carries everything its result depends on (a game's seed is fixed by the task, never
by the worker), so the results are those of ``--jobs``, byte for byte. Tasks are submitted as
impure (``pure=False``: equal tasks are still each worked out); a worker that dies has its
tasks worked out again elsewhere by the scheduler, and the results are still taken in order,
once each.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..errors import SetupError
from ..i18n import _

__all__: list[str] = []

_Task = TypeVar("_Task")
_Result = TypeVar("_Result")

LOCAL = "local"
"""The address that starts a cluster on this machine instead: ``local`` (a worker per core)
or ``local:N`` (N workers), each a process with one thread."""

def on_cluster(function: Callable[[_Task], _Result], tasks: Sequence[_Task],
               address: str) -> Iterator[_Result]:
    """``function`` of each task, in order, worked out by the workers of the Dask scheduler at
    ``address`` (``tcp://HOST:8786``), or of a cluster started here for the run (``LOCAL``).
    Leaving early cancels the tasks not done."""
    with _client(address) as client:
        executor = client.get_executor(pure=False)
        futures = [executor.submit(function, task) for task in tasks]
        try:
            for future in futures:
                yield future.result()
        finally:
            executor.shutdown(wait=False)


@contextlib.contextmanager
def _client(address: str) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address`` (or of a local cluster), closed after."""
    try:  # typed as Any: the extra may be missing where the package is checked
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise SetupError(_("--cluster needs Dask's distributed: pip install "
                           "'uptown[cluster]'")) from None
    with contextlib.ExitStack() as stack:
        if address == LOCAL or address.startswith(LOCAL + ":"):
            count = address.partition(":")[2]
            if count and not (count.isdigit() and int(count) > 0):
                raise SetupError(_("not a number of workers: {address!r} (local:N)").format(
                    address=address))
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=int(count) if count else None, threads_per_worker=1, processes=True,
                dashboard_address=None))
            target: Any = cluster
        else:
            target = address
        try:
            # how long to try to reach it: Dask's setting (30 s; $DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT)
            client = stack.enter_context(distributed.Client(target))
        except (OSError, TimeoutError) as exc:
            raise SetupError(_("cannot reach the Dask scheduler at {address}: {reason}").format(
                address=address, reason=exc)) from None
        yield client
