"""A bot program (an "engine", in the commands' words) run by the host: started in a process
group of its own, spoken to over its standard input and output (docs/ENGINE_PROTOCOL.md),
every wait bounded, and the whole group ended however the host leaves it.

Its standard error goes to a log file (or nowhere): it is kept, never read; lines it writes
on its standard output before its ``hello`` (a banner) are skipped and noted in that log. Each
failure is an ``EngineError`` whose ``reason`` says what happened: ``crash`` (it cannot start,
its output ended, or its input is closed), ``stall`` (no answer to the handshake or a ping in
time), ``time`` (no move in time), ``garbage`` (a line that is not a message, not the one
expected, or with a key the protocol does not have), ``refused`` (an error answer, another
protocol, or an option it does not take).

If the host is killed before it can end a program (SIGKILL leaves no way out), a reaper ends
it: a small process of its own session that is told of each program's process group (by the
program's own process, before its command runs, and by the host), and which ends the groups
still running once the host's end of its pipe closes.
"""

from __future__ import annotations

import contextlib
import functools
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

from ..errors import EngineError
from ..i18n import _, system_reason
from .bot_protocol import MAX_LINE, PROTOCOL, check_keys, decode, encode, typed_option

__all__ = ["BotProgram", "program_signals"]

QUIT_GRACE = 2.0
"""Seconds a program has to exit after ``quit`` before its process group is ended."""

TERM_GRACE = 0.5
"""Seconds between SIGTERM and SIGKILL to the program's process group."""


class BotProgram:
    """A running bot program: ``handshake``, ``ping``, ``ask``; ``end`` it (also on leaving a
    ``with`` block), which asks it to quit and then ends its whole process group. Its
    messages name no one: the caller knows which entrant it runs."""

    def __init__(self, command: Sequence[str], log: IO[bytes] | None = None):
        self.command = list(command)
        self.about: dict[str, Any] = {}
        self._log = log
        self._buffer = b""
        self._pings = 0
        self._ended = False
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=log if log is not None else subprocess.DEVNULL, start_new_session=True,
                bufsize=0, preexec_fn=functools.partial(_watched, _REAPER.pipe()))
        except OSError as exc:
            raise EngineError("crash", _("cannot start {command}: {reason}").format(
                command=" ".join(self.command), reason=system_reason(exc))) from None
        _REAPER.watch(self.process.pid)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]

    def __enter__(self) -> BotProgram:
        return self

    def __exit__(self, *exc: object) -> None:
        self.end()

    def handshake(self, timeout: float, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Say hello, set ``options`` (each typed as the hello declares it), and wait for the
        answer to a ping: the program's hello (its ``name``, ``author``, ``options``...), also
        kept as ``about``."""
        deadline = time.monotonic() + timeout
        self.send({"type": "hello", "protocol": PROTOCOL})
        hello = self._receive(deadline, "stall", _("no hello"), banner=True)
        if hello.get("type") != "hello":
            raise EngineError("garbage", _("answered {type!r} to hello").format(type=hello["type"]))
        if hello.get("protocol") != PROTOCOL:
            raise EngineError("refused", _("speaks {protocol!r}, not {ours}").format(
                protocol=str(hello.get("protocol"))[:40], ours=PROTOCOL))
        self.about = hello
        for name, value in (options or {}).items():
            self.send({"type": "option", "name": name,
                       "value": typed_option(name, value, hello.get("options"))})
        self.ping(max(0.0, deadline - time.monotonic()))
        return hello

    def ping(self, timeout: float) -> None:
        """Ping and wait for the pong (an error answer, to an option set before, is refused)."""
        self._pings += 1
        self.send({"type": "ping", "id": self._pings})
        answer = self._receive(time.monotonic() + timeout, "stall", _("no answer to a ping"))
        if answer.get("type") == "error":
            raise EngineError("refused", _("answered an error: {message}").format(
                message=str(answer.get("message"))[:200]))
        if answer.get("type") != "pong" or answer.get("id") != self._pings:
            raise EngineError("garbage", _("answered {type!r} to ping {number}").format(
                type=answer["type"], number=self._pings))

    def ask(self, request: Mapping[str, Any], allowed: float, margin: float = 0.0) -> dict[str, Any]:
        """Send ``request`` and return the next message (``info`` messages skipped); ``time``
        when none comes within ``allowed`` seconds and the ``margin``."""
        self.send(request)
        return self._receive(time.monotonic() + allowed + margin, "time",
                             _("no move within {allowed:.3g} s and a margin of {margin:.3g} s")
                             .format(allowed=allowed, margin=margin))

    def send(self, message: Mapping[str, Any]) -> None:
        """Write ``message`` to the program, one line of the protocol."""
        try:
            self.process.stdin.write(encode(message))  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError, OSError):
            raise self._crash("input") from None

    def tell(self, message: str) -> None:
        """Send an ``error`` message saying why the host ends the game (nothing if it is gone)."""
        with contextlib.suppress(EngineError):
            self.send({"type": "error", "message": message})

    def _receive(self, deadline: float, reason: str, late: str, banner: bool = False) -> dict[str, Any]:
        """The next message but ``info``; EngineError(``reason``, ``late``) after ``deadline``.
        ``banner``: lines that are not messages are skipped (and noted in the log)."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end + 1], self._buffer[end + 1:]
                if not line.strip():
                    continue
                try:
                    message = decode(line)
                except EngineError:
                    if not banner:
                        raise
                    self._note(b"uptown: a line before hello, skipped: " + line)
                    continue
                if message["type"] != "info":
                    check_keys(message)
                    return message
                continue
            if len(self._buffer) > MAX_LINE:
                raise EngineError("garbage", _("wrote a line over {size} bytes").format(size=MAX_LINE))
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                if _exited(self.process.pid, 0):
                    raise self._crash("exit")
                raise EngineError(reason, late)
            chunk = os.read(self.process.stdout.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                _exited(self.process.pid, 0.2)
                raise self._crash("output")
            self._buffer += chunk

    def _note(self, text: bytes) -> None:
        """Add ``text`` to the log, after what the program wrote there (the same file offset)."""
        if self._log is not None:
            with contextlib.suppress(OSError):
                os.write(self._log.fileno(), text if text.endswith(b"\n") else text + b"\n")

    def _crash(self, event: str) -> EngineError:
        """The error of an engine that closed its ``"input"`` or ``"output"``, or that
        exited (``"exit"``), saying its exit status or signal once it has exited."""
        how, number = "running", 0
        with contextlib.suppress(ChildProcessError):
            status = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if status is not None:
                how = "killed" if status.si_code != os.CLD_EXITED else "exited"
                number = status.si_status
        messages = {
            ("input", "running"): _("closed its input"),
            ("input", "exited"): _("closed its input (exit status {number})"),
            ("input", "killed"): _("closed its input (killed by signal {number})"),
            ("output", "running"): _("closed its output"),
            ("output", "exited"): _("closed its output (exit status {number})"),
            ("output", "killed"): _("closed its output (killed by signal {number})"),
            ("exit", "running"): _("exited"),
            ("exit", "exited"): _("exited (exit status {number})"),
            ("exit", "killed"): _("exited (killed by signal {number})"),
        }
        return EngineError("crash", messages[event, how].format(number=number))

    def end(self, grace: float = QUIT_GRACE) -> None:
        """Ask the program to quit, wait up to ``grace`` seconds, then end its whole process
        group (SIGTERM, then SIGKILL), and reap it. Safe to call more than once."""
        if not self._ended:
            self._ended = True
            try:  # a signal that stops the host while it waits still ends the group below
                with contextlib.suppress(EngineError):
                    self.send({"type": "quit"})
                with contextlib.suppress(OSError):
                    self.process.stdin.close()  # type: ignore[union-attr]
                # The leader is waited for without being reaped, so its process group cannot
                # be another's by the time it is signalled.
                if not _exited(self.process.pid, grace):
                    _signal_group(self.process.pid, signal.SIGTERM)
                    _exited(self.process.pid, TERM_GRACE)
            finally:
                _signal_group(self.process.pid, signal.SIGTERM)  # what it left behind
                _signal_group(self.process.pid, signal.SIGKILL)
                _REAPER.forget(self.process.pid)
                self.process.wait()  # reaped only now
        self._selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]


def _watched(pipe: int) -> None:
    """In the program's process, before its command runs: tell the reaper of its process group
    (its pid: it leads a session of its own), so that a host killed while it starts the
    program, before ``watch``, leaves it to the reaper all the same. One short line, written
    whole to the pipe; no lock taken."""
    with contextlib.suppress(OSError):
        os.write(pipe, b"+%d\n" % os.getpid())


def _exited(pid: int, timeout: float) -> bool:
    """Whether process ``pid`` (a child) exits within ``timeout`` seconds; it is left
    unreaped, a zombie that keeps its process group's number taken."""
    deadline = time.monotonic() + timeout
    pause = 0.001
    while True:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


REAPER_CODE = """\
import os, signal, sys, time
groups = set()
for line in sys.stdin:
    (groups.add if line[0] == "+" else groups.discard)(int(line[1:]))
for signum in (signal.SIGTERM, signal.SIGKILL):
    for group in groups:
        try:
            os.killpg(group, signum)
        except OSError:
            pass
    if groups and signum == signal.SIGTERM:
        time.sleep(%r)
""" % TERM_GRACE
"""The reaper: reads ``+GROUP`` and ``-GROUP`` lines until its input ends, then ends the
process groups left (SIGTERM, then SIGKILL)."""


class _Reaper:
    """The process that ends the programs' groups after the host has gone, started with the
    first program (a worker forked after it shares it: its lines are short, so atomic)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pipe: int | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def pipe(self) -> int:
        """The write end of the reaper's input, the reaper started if need be."""
        with self._lock:
            if self._pipe is None:
                self._pipe = self._start()
            return self._pipe

    def watch(self, pgid: int) -> None:
        self._tell(f"+{pgid}\n")

    def forget(self, pgid: int) -> None:
        self._tell(f"-{pgid}\n")

    def _tell(self, line: str) -> None:
        with self._lock:
            for _ in range(2):  # a reaper that has gone is started again
                if self._pipe is None:
                    self._pipe = self._start()
                try:
                    os.write(self._pipe, line.encode("ascii"))
                    return
                except OSError:
                    with contextlib.suppress(OSError):
                        os.close(self._pipe)
                    self._pipe = None

    def _start(self) -> int:
        """A new reaper, in a session of its own; the write end of its input."""
        read, write = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", REAPER_CODE], stdin=read,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        finally:
            os.close(read)
        return write


_REAPER = _Reaper()


@contextlib.contextmanager
def program_signals() -> Iterator[None]:
    """While inside, in a process's main thread: a write to a program that has gone raises
    (SIGPIPE ignored: the command line lets it end the program), and in a worker process
    whose SIGTERM ends it at once (a ``--jobs`` worker, which the pool ends so) SIGTERM raises
    SystemExit instead, so that the programs it runs are ended on the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pipe = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    term = signal.getsignal(signal.SIGTERM)
    if term is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        yield
    finally:
        signal.signal(signal.SIGPIPE, pipe)
        if term is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
