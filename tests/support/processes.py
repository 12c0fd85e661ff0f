"""Commands stopped by a signal while their worker processes run (Linux's /proc)."""

import os
import signal
import subprocess
import time


def children(pid):
    """The process ids of ``pid``'s children."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(child) for child in listing.read().split()]
    except FileNotFoundError:
        return []


def alive(pid):
    """Whether ``pid`` still runs (a zombie waiting for its parent does not)."""
    try:
        with open(f"/proc/{pid}/stat") as status:
            return status.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _default_signals():
    """In the command: SIGTERM, SIGHUP and SIGINT (Ctrl-C) as a new terminal session has them,
    even when the tests run under ``nohup`` or as a background job, which ignore SIGHUP and
    SIGINT (a command rightly honours that, and Python keeps ignoring a SIGINT it started
    with)."""
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)


def cpu_seconds(pid):
    """The processor time ``pid`` has used so far, in seconds (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as status:
            user, system = status.read().rsplit(")", 1)[1].split()[11:13]
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(user) + int(system)) / os.sysconf("SC_CLK_TCK")


def stopped_at_work(command, signum, busy=1.0):
    """Run ``command`` (a list) in one process, send it ``signum`` once it has used ``busy``
    seconds of processor time (well past its start-up), and wait, bounded, for it to end:
    ``(return code, standard output, standard error)``."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, preexec_fn=_default_signals)
    try:
        deadline = time.monotonic() + 60
        while cpu_seconds(process.pid) < busy and time.monotonic() < deadline:
            time.sleep(0.05)
            if process.poll() is not None:
                raise AssertionError(f"the command ended first: {process.communicate()[1]}")
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
        return process.returncode, out, err
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def stopped_with_its_workers(command, signum, workers=2):
    """Run ``command`` (a list), send it ``signum`` once ``workers`` of its worker processes
    run, and wait, each wait bounded, for it and them to end: ``(return code, standard
    output, standard error)``. Fails when the workers never start or are left running."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, preexec_fn=_default_signals)
    running = []
    try:
        deadline = time.monotonic() + 60
        while len(running) < workers and time.monotonic() < deadline:
            time.sleep(0.1)
            if process.poll() is not None:  # ended before its workers ran: say why
                raise AssertionError(f"the command ended first: {process.communicate()[1]}")
            running = [pid for pid in children(process.pid) if alive(pid)]
        assert len(running) >= workers, "the workers never started"
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
        deadline = time.monotonic() + 20
        while any(map(alive, running)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(alive, running)), "workers left running"
        return process.returncode, out, err
    finally:
        for pid in [process.pid, *running]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        process.wait(timeout=10)
