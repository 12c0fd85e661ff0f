"""A headless Chromium driven over the DevTools protocol, for the browser tests; no tests here.

The protocol runs over a pipe (``--remote-debugging-pipe``: Chromium reads commands on file
descriptor 3 and writes replies on 4, each message JSON ending in a NUL byte), so no port,
no websocket and no third-party package are needed. Every wait has a deadline.
"""

import base64
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import zlib

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER_ENV = "UPTOWN_CHROMIUM"
"""Set to the path of a Chromium-like browser to use that one."""
TIMEOUT = 30.0
"""Seconds any one reply or event may take."""


class BrowserError(RuntimeError):
    """Chromium failed, answered with an error, or did not answer in time."""


def find_browser():
    """The path of Chromium (``$UPTOWN_CHROMIUM``, else the first of BROWSERS on PATH), or None."""
    named = os.environ.get(BROWSER_ENV)
    if named:
        return named
    return next((path for path in map(shutil.which, BROWSERS) if path), None)


class Chromium:
    """One headless browser with one page; ``errors`` collects the page's console errors
    and uncaught exceptions."""

    def __init__(self, executable, width=1200, height=900):
        self.profile = tempfile.mkdtemp(prefix="uptown-chromium-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def on_fds_3_and_4():
            read, write = os.dup(commands_read), os.dup(replies_write)
            os.dup2(read, 3, inheritable=True)
            os.dup2(write, 4, inheritable=True)

        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            preexec_fn=on_fds_3_and_4,
            close_fds=False,
            start_new_session=True,  # so that close() can end its helper processes too
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(commands_read)
        os.close(replies_write)
        self._buffer = b""
        self._next_id = 0
        self._events = []
        self.errors = []
        try:
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                self.call(f"{domain}.enable", session=True)
            self.call("Emulation.setDeviceMetricsOverride", session=True, width=width,
                      height=height, deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close()
            raise

    # -- the protocol --------------------------------------------------------------------

    def _send(self, message):
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._commands, data):]

    def _receive(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._replies], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise BrowserError("Chromium closed the connection")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        message = json.loads(message)
        self._note(message)
        return message

    def _note(self, message):
        """Record console errors and exceptions; keep other events for ``wait_for``."""
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description") or details["text"])
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            self.errors.append(" ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            self.errors.append(params["entry"]["text"])
        elif method:
            self._events.append(message)

    def call(self, method, session=False, **params):
        """Send a command (to the page's session when ``session``) and return its result."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self._send(message)
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply["result"]

    def wait_for(self, method):
        """Wait for the next event ``method`` of the page."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            for index, event in enumerate(self._events):
                if event["method"] == method:
                    del self._events[: index + 1]
                    return event["params"]
            self._events.clear()
            self._receive(deadline)

    # -- the page ------------------------------------------------------------------------

    def open(self, url):
        """Load ``url`` afresh (even when only its #fragment differs from the page shown) and
        wait until it has loaded."""
        self._events.clear()
        if "loaderId" not in self.call("Page.navigate", session=True, url=url):
            # Only the fragment changed: leave the page, then load it again.
            self.call("Page.navigate", session=True, url="about:blank")
            self.wait_for("Page.loadEventFired")
            self.call("Page.navigate", session=True, url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (JSON-able values; a promise is
        awaited)."""
        result = self.call("Runtime.evaluate", session=True, expression=expression,
                           returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']['text']}")
        return result["result"].get("value")

    def press(self, key, code=None, key_code=None):
        """Press and release one key, as a user would."""
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", session=True, type=kind, key=key, code=code or key,
                      windowsVirtualKeyCode=key_code or 0)

    def screenshot(self, width, height, scale=1.0):
        """A PNG of the top-left ``width`` x ``height`` of the page, scaled by ``scale``."""
        clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": scale}
        return base64.b64decode(
            self.call("Page.captureScreenshot", session=True, format="png", clip=clip)["data"]
        )

    def close(self):
        try:
            os.close(self._commands)
        except OSError:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # the browser and its helpers
        except ProcessLookupError:
            pass
        self.process.wait(timeout=TIMEOUT)
        os.close(self._replies)
        # A helper that left the group may still be writing its last files: do not fail on it.
        shutil.rmtree(self.profile, ignore_errors=True)


def png_colours(png):
    """The distinct colours (RGB bytes) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat = 8, b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at : at + 8])
        body = png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color_type in (2, 6) and not interlace, "unexpected PNG layout"
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    size = 3 if color_type == 2 else 4
    stride = width * size
    raw = zlib.decompress(idat)
    previous = bytearray(stride)
    colours = set()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up = previous[i]
            corner = previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                near = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + near) & 0xFF
        colours.update(bytes(line[i : i + 3]) for i in range(0, stride, size))
        previous = line
    return colours
