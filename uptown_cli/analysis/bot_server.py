"""uptown's bots served over the engine protocol (``uptown engine``): read a message a line,
answer each, until ``quit`` or the end of the input.

Each move request is made back into a game (``bot_protocol.request_view``) and the bot chooses on
it with the request's seed, so the same request always gets the same answer (unless the bot
thinks for a time, ``seconds``); the public game of the last request is kept only to play the
next one's moves sooner (``bot_protocol.Replay``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, BinaryIO

from ..errors import EngineError, SetupError, UptownError
from .bots import MC_PLAYOUTS, bot_takes, check_bot_options, choose_move
from .bot_protocol import (
    MAX_LINE,
    PROTOCOL,
    Clock,
    Replay,
    decode,
    encode,
    request_view,
    typed_option,
)

__all__ = ["serve"]

CLOCK_SHARE = 0.6
"""The share of its time for this move that the engine thinks for when it thinks by time:
the rest is left for the host's and the system's work (the bots count CPU time, the host
the time on the wall)."""


SERVED_OPTIONS: dict[str, dict[str, Any]] = {
    "playouts": {"type": "integer", "default": MC_PLAYOUTS, "min": 1,
                 "help": "sampled deals each candidate move is played out in"},
    "seconds": {"type": "number", "default": None, "min": 0,
                "help": "think this long per move (CPU time) instead, within the clock"},
    "weights": {"type": "text", "default": None,
                "help": "a weights file to play with instead of the shipped one"},
}
"""Every option an engine serving one of uptown's bots may offer, as its handshake lists it;
an option whose default is null may be set to null again."""


def served_options(bot: str) -> dict[str, dict[str, Any]]:
    """The options the engine serving ``bot`` accepts, as its handshake lists them: those of
    ``SERVED_OPTIONS`` the bot has a use for."""
    return {name: offered for name, offered in SERVED_OPTIONS.items() if bot_takes(bot, name)}


def serve(bot: str, stdin: BinaryIO, stdout: BinaryIO, seconds: float | None = None,
          playouts: int | None = None, version: str = "") -> None:
    """Answer the messages read from ``stdin`` on ``stdout`` until ``quit`` or the end of the
    input, choosing moves with ``bot`` (``seconds``, ``playouts``: its options to start with;
    the host may change them with ``option``); ``version`` is the one the handshake gives
    (the command line passes uptown's own)."""
    settings: dict[str, Any] = {"seconds": seconds, "playouts": playouts or MC_PLAYOUTS}
    replay = Replay()
    accepted = served_options(bot)

    def send(message: dict[str, Any]) -> None:
        stdout.write(encode(message))
        stdout.flush()

    handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any] | None]] = {
        "hello": lambda message: {"type": "hello", "protocol": PROTOCOL, "name": f"uptown {bot}",
                                  "author": "uptown", "version": version, "options": accepted},
        "ping": lambda message: {"type": "pong", "id": message.get("id")},
        "option": lambda message: _set_option(bot, settings, accepted, message),
        "move": lambda message: _move(bot, settings, message, replay),
    }
    while True:
        line = stdin.readline(MAX_LINE + 1)
        if not line or len(line) > MAX_LINE:
            return
        if not line.strip():
            continue
        try:
            message = decode(line)
        except UptownError as exc:
            send({"type": "error", "message": str(exc)})
            continue
        if message["type"] == "quit":
            return
        handler = handlers.get(message["type"])
        answer = (handler(message) if handler is not None else
                  {"type": "error", "id": message.get("id"),
                   "message": f"unknown message type {message['type']!r}"})
        if answer is not None:
            send(answer)


def _set_option(bot: str, settings: dict[str, Any], accepted: dict[str, dict[str, Any]],
                message: dict[str, Any]) -> dict[str, Any] | None:
    """Set an option, typed as the handshake offers it (``bot_protocol.typed_option``, as the
    host types it; one whose default is null may be null again) and checked as the bot would
    be before a game (``bots.check_bot_options``: a weights file that can be read); no answer
    unless it is refused, and then the option keeps its value."""
    name, value = str(message.get("name")), message.get("value")
    if value is None and name in accepted and accepted[name]["default"] is None:
        settings[name] = None
        return None
    try:
        typed = typed_option(name, value, accepted)
        check_bot_options(bot, {name: typed})
    except (EngineError, SetupError) as exc:
        return {"type": "error", "message": str(exc)}
    settings[name] = typed
    return None


def _move(bot: str, settings: dict[str, Any], message: dict[str, Any],
          replay: Replay) -> dict[str, Any]:
    """The answer to a move request."""
    try:
        view = request_view(message, replay)
        # every option set (a bot ignores those it has no use for), the time within the clock
        options = {name: value for name, value in settings.items() if value is not None}
        think = _thinking_time(settings["seconds"], view.clock, view.game)
        if think is not None:
            options["seconds"] = think
        color, move = choose_move(bot, view.game, seed=view.seed, variant=view.variant,
                                  **options)
    except UptownError as exc:
        return {"type": "error", "id": message.get("id"), "message": str(exc)}
    return {"type": "move", "id": message.get("id"), "move": str(move), "color": color}


def _thinking_time(seconds: float | None, clock: Clock | None, game: Any) -> float | None:
    """How long to think: ``seconds`` (None: by playouts), within a share of the clock."""
    if seconds is None or clock is None:
        return seconds
    if clock.move is not None:
        return min(seconds, CLOCK_SHARE * clock.move)
    me = game.to_move
    turns_left = max(1, sum(len(game.unplayed_tiles(c)) - 4 for c in me.colors))
    left = max(0.0, clock.left or 0.0)
    return min(seconds, CLOCK_SHARE * (left / turns_left + clock.increment))
