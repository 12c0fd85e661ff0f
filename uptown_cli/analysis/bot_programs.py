"""An engine program run by the host: started in a process group of its own, spoken to over
its standard input and output (docs/ENGINE_PROTOCOL.md), every wait bounded, and the whole
group ended however the host leaves it.

Its standard error goes to a log file (or nowhere): it is kept, never read. Each failure is an
``EngineError`` whose ``reason`` says what happened: ``crash`` (the output ended, or the input
is closed), ``stall`` (no answer to the handshake or a ping in time), ``time`` (no move in
time), ``garbage`` (a line that is not a message, or not the one expected), ``refused`` (an
error answer, or another protocol).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

from ..errors import EngineError
from ..i18n import _
from .bot_protocol import MAX_LINE, PROTOCOL, decode, encode

__all__ = ["BotProgram", "program_signals"]

QUIT_GRACE = 2.0
"""Seconds an engine has to exit after ``quit`` before its process group is ended."""

TERM_GRACE = 0.5
"""Seconds between SIGTERM and SIGKILL to the engine's process group."""


class BotProgram:
    """A running engine: ``start`` it, ``handshake``, ``ping``, ``ask``; ``end`` it (also on
    leaving a ``with`` block), which asks it to quit and then ends its whole process group."""

    def __init__(self, command: Sequence[str], log: IO[bytes] | None = None):
        self.command = list(command)
        self.name = self.command[0] if self.command else "?"
        self.about: dict[str, Any] = {}
        self._buffer = b""
        self._pings = 0
        self._ended = False
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=log if log is not None else subprocess.DEVNULL, start_new_session=True,
                bufsize=0)
        except OSError as exc:
            raise EngineError("crash", _("cannot start {command}: {reason}").format(
                command=" ".join(self.command), reason=exc.strerror or exc)) from None
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]

    def __enter__(self) -> BotProgram:
        return self

    def __exit__(self, *exc: object) -> None:
        self.end()

    def handshake(self, timeout: float, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Say hello, set ``options``, and wait for the answer to a ping: the engine's hello
        (its ``name``, ``author``, ``options``...), also kept as ``about``."""
        deadline = time.monotonic() + timeout
        self.send({"type": "hello", "protocol": PROTOCOL})
        hello = self._receive(deadline, "stall", _("no hello"))
        if hello.get("type") != "hello":
            raise EngineError("garbage", _("answered {type!r} to hello").format(type=hello["type"]))
        if hello.get("protocol") != PROTOCOL:
            raise EngineError("refused", _("speaks {protocol!r}, not {ours}").format(
                protocol=str(hello.get("protocol"))[:40], ours=PROTOCOL))
        self.about = hello
        if isinstance(hello.get("name"), str) and hello["name"]:
            self.name = hello["name"][:60]
        for name, value in (options or {}).items():
            self.send({"type": "option", "name": name, "value": value})
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
        """Write ``message`` to the engine, one line of the protocol."""
        try:
            self.process.stdin.write(encode(message))  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError, OSError):
            raise EngineError("crash", _("{name} closed its input{exit}").format(
                name=self.name, exit=self._exit_text())) from None

    def _receive(self, deadline: float, reason: str, late: str) -> dict[str, Any]:
        """The next message but ``info``; EngineError(``reason``, ``late``) after ``deadline``."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end + 1], self._buffer[end + 1:]
                if not line.strip():
                    continue
                message = decode(line)
                if message["type"] != "info":
                    return message
                continue
            if len(self._buffer) > MAX_LINE:
                raise EngineError("garbage", _("{name} wrote a line over {size} bytes").format(
                    name=self.name, size=MAX_LINE))
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                if _exited(self.process.pid, 0):
                    raise EngineError("crash", _("{name} exited{exit}").format(
                        name=self.name, exit=self._exit_text()))
                raise EngineError(reason, f"{self.name}: {late}")
            chunk = os.read(self.process.stdout.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                _exited(self.process.pid, 0.2)
                raise EngineError("crash", _("{name} closed its output{exit}").format(
                    name=self.name, exit=self._exit_text()))
            self._buffer += chunk

    def _exit_text(self) -> str:
        """`` (exit status N)`` or `` (killed by signal N)`` once the engine has exited."""
        with contextlib.suppress(ChildProcessError):
            status = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if status is not None:
                killed = status.si_code != os.CLD_EXITED
                return (_(" (killed by signal {number})") if killed else
                        _(" (exit status {number})")).format(number=status.si_status)
        return ""

    def end(self, grace: float = QUIT_GRACE) -> None:
        """Ask the engine to quit, wait up to ``grace`` seconds, then end its whole process
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
                self.process.wait()  # reaped only now
        self._selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]


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


@contextlib.contextmanager
def program_signals() -> Iterator[None]:
    """While inside, in a process's main thread: a write to an engine that has gone raises
    (SIGPIPE ignored: the command line lets it end the program), and in a worker process
    whose SIGTERM ends it at once (a ``--jobs`` worker, which the pool ends so) SIGTERM raises
    SystemExit instead, so that the engines it runs are ended on the way out."""
    import threading

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
