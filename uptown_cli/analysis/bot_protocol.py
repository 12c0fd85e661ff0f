"""The protocol's messages (docs/ENGINE_PROTOCOL.md): one JSON object a line, written and read
here for both sides, the host that runs a game and the bot program (an "engine", in the
commands' words) that chooses moves.

A move request carries what the player to move may know and nothing more: the players, the
moves played, their own racks and the tiles they drew, how many tiles each bag holds, their
legal moves and the clock, so that an engine needs no memory between requests.
``request_view`` makes such a request back into a game that uptown's bots can play on (they
sample what they cannot see themselves, from what the player may know).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, NamedTuple, cast

from ..engine.game import Game
from ..engine.players import Player
from ..engine.geometry import TILE_NAMES, TILES_PER_COLOR, parse_tile
from ..engine.notation import Move, parse_move
from ..engine.sha256 import sha256
from ..errors import EngineError, NotationError, SetupError, UptownError
from ..i18n import _
from ..fairplay.draws import bags_from_draws

__all__ = ["typed_option"]

PROTOCOL = "uptown-engine-1"
"""The protocol's name and version, said by both sides in the handshake."""

MAX_LINE = 1 << 20
"""The longest line either side reads (1 MiB): a longer one is garbage."""

ANSWER_KEYS = {
    "hello": ("type", "protocol", "name", "author", "version", "options"),
    "pong": ("type", "id"),
    "move": ("type", "id", "move", "color"),
    "error": ("type", "id", "message"),
}
"""The keys of each answer a program may give (an ``info`` message holds any): another key is
refused, so that a misspelt one (``colour``) is told, not silently ignored."""

OPTION_TYPES = ("integer", "number", "flag", "text")
"""The types a program's handshake may give its options (any other is sent as JSON reads it)."""

FLAGS = {"true": True, "yes": True, "on": True, "1": True,
         "false": False, "no": False, "off": False, "0": False}
"""The words a flag's value may be given as, and what each means."""

_TILES = {name: tile for tile, name in enumerate(TILE_NAMES)}
"""Tiles by their canonical names, as requests write them."""


def _tile(text: str) -> int:
    """The tile named ``text`` (any name ``parse_tile`` reads; the canonical ones sooner)."""
    return _TILES[text] if text in _TILES else parse_tile(text)


class Clock(NamedTuple):
    """What the player to move has to think in: ``move`` seconds for this move, or ``left``
    seconds for the rest of the game with ``increment`` added after each move."""

    move: float | None = None
    left: float | None = None
    increment: float = 0.0

    def to_json(self) -> dict[str, float]:
        if self.move is not None:
            return {"move": self.move}
        return {"left": round(cast(float, self.left), 3), "increment": self.increment}

    @classmethod
    def from_json(cls, data: object) -> Clock | None:
        """The clock of a request (None when it has none or it is not one)."""
        if not isinstance(data, dict):
            return None
        if _is_number(data.get("move")):
            return cls(move=float(data["move"]))
        if _is_number(data.get("left")):
            increment = data.get("increment", 0.0)
            return cls(left=float(data["left"]),
                       increment=float(increment) if _is_number(increment) else 0.0)
        return None


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as its line: compact JSON, UTF-8, ending in a newline."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """The message on ``line``; EngineError (``garbage``) when it is not one JSON object with a
    text ``type``."""
    shown = line[:80].decode("utf-8", "replace").strip()
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise EngineError("garbage", _("not a JSON line: {line!r}").format(line=shown)) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise EngineError("garbage", _("not a message (a JSON object with a \"type\"): {line!r}")
                          .format(line=shown))
    return message


def check_keys(answer: Mapping[str, Any]) -> None:
    """EngineError (``garbage``) when ``answer`` holds a key its type does not have."""
    allowed = ANSWER_KEYS.get(answer["type"], ())
    unknown = sorted(set(answer) - set(allowed)) if allowed else []
    if not unknown:
        return
    import difflib

    close = difflib.get_close_matches(unknown[0], allowed, 1)
    if close:
        raise EngineError("garbage", _("a {type!r} message with the key {key!r}, which the "
                                       "protocol does not have: did you mean {close!r}?")
                          .format(type=answer["type"], key=unknown[0][:40], close=close[0]))
    raise EngineError("garbage", _("a {type!r} message with the key {key!r}, which the "
                                   "protocol does not have ({keys})").format(
        type=answer["type"], key=unknown[0][:40], keys=", ".join(allowed)))


def typed_option(name: str, value: Any, offered: object) -> Any:
    """``value`` of option ``name`` (a text from the command line, or a value already typed)
    as the type the program's handshake gives it (``offered``: its ``options``); EngineError
    (``refused``) for an option it does not offer, or a value that is not of its type or out
    of its ``min`` and ``max``. An option of no known type gets the value as JSON reads it."""
    declared = offered.get(name) if isinstance(offered, dict) else None
    if not isinstance(declared, dict):
        names = ", ".join(sorted(offered)) if isinstance(offered, dict) and offered else None
        raise EngineError("refused", (_("it offers no option {name!r} (it offers {names})") if names
                                      else _("it offers no option {name!r} (it offers none)"))
                          .format(name=name, names=names))
    kind = declared.get("type")
    typed = _typed(value, kind)
    if typed is None and kind in OPTION_TYPES:
        raise EngineError("refused", _WRONG_TYPE[cast(str, kind)]().format(name=name, value=value))
    low, high = declared.get("min"), declared.get("max")
    if kind in ("integer", "number") and (_is_number(low) and typed < low or
                                          _is_number(high) and typed > high):
        raise EngineError("refused", _("option {name!r} takes a value from {min} to {max}, not "
                                       "{value!r}").format(name=name, min=low if _is_number(low)
                                                           else "-inf", value=value,
                                                           max=high if _is_number(high) else "inf"))
    return typed


_WRONG_TYPE = {
    "integer": lambda: _("option {name!r} takes an integer, not {value!r}"),
    "number": lambda: _("option {name!r} takes a number, not {value!r}"),
    "flag": lambda: _("option {name!r} takes true or false, not {value!r}"),
    "text": lambda: _("option {name!r} takes a text, not {value!r}"),
}
"""The refusal of a value that is not of the option's type, for each type."""


def _typed(value: Any, kind: object) -> Any:
    """``value`` as an option of type ``kind``, None when it is not one."""
    if kind not in OPTION_TYPES:
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            return value
    if kind == "text":
        return value if isinstance(value, str) else None
    if kind == "flag":
        return value if isinstance(value, bool) else FLAGS.get(str(value).strip().lower())
    if isinstance(value, str):
        try:
            value = int(value) if kind == "integer" else float(value)
        except ValueError:
            return None
    if not _is_number(value) or not math.isfinite(value) or (kind == "integer" and value != int(value)):
        return None
    return int(value) if kind == "integer" else value


def move_seed(game_seed: str, ply: int) -> str:
    """The seed an engine is given for move ``ply`` (from 0) of the game dealt by
    ``game_seed``: fixed by the game, and telling nothing of its bags."""
    return sha256(f"uptown-engine\n{game_seed}\n{ply}".encode("utf-8")).hexdigest()[:16]


def move_request(game: Game, bags: Mapping[str, list[int]], clock: Clock | None, seed: str,
                 variant: str, number: int, moves: list[list[str]] | None = None) -> dict[str, Any]:
    """Request ``number`` of a game: the move of the player to move in ``game`` (dealt
    ``bags``), with what that player may know. ``moves``: the game's moves as
    ``[colour, text]``, when the caller keeps them (else they are written out here)."""
    me = cast(Player, game.to_move)
    racks = cast("dict[str, list[int]]", game.racks)
    sizes = cast("dict[str, int]", game.bag_sizes)
    drawn = {color: TILES_PER_COLOR - sizes[color] for color in me.colors}
    request: dict[str, Any] = {
        "type": "move",
        "id": number,
        "variant": variant,
        "players": [{"name": p.name, "colors": list(p.colors)} for p in game.players],
        "you": me.name,
        "moves": moves if moves is not None else [[t.color, str(t.move)] for t in game.history],
        "racks": {color: [TILE_NAMES[t] for t in racks[color]] for color in me.colors},
        "drawn": {color: [TILE_NAMES[t] for t in bags[color][:drawn[color]]] for color in me.colors},
        "bags": dict(sizes),
        "legal": [[color, str(move)] for color, move in game.legal_moves()],
        "seed": seed,
    }
    if clock is not None:
        request["clock"] = clock.to_json()
    return request


def answered_move(answer: Mapping[str, Any], number: int) -> tuple[str | None, Move]:
    """``(colour or None, Move)`` of an engine's answer to request ``number``; EngineError:
    ``refused`` for an error message, ``garbage`` for another message, ``illegal`` for text
    that is not a move."""
    kind = answer.get("type")
    if kind == "error":
        raise EngineError("refused", _("answered an error: {message}").format(
            message=str(answer.get("message"))[:200]))
    if kind != "move" or answer.get("id") != number:
        raise EngineError("garbage", _("answered {answer} to move request {number}").format(
            answer=json.dumps(answer)[:120], number=number))
    text, color = answer.get("move"), answer.get("color")
    if not isinstance(text, str) or not (color is None or isinstance(color, str)):
        raise EngineError("garbage", _("a move answer without a move: {answer}").format(
            answer=json.dumps(answer)[:120]))
    try:
        return color, parse_move(text)
    except NotationError as exc:
        raise EngineError("illegal", _("played {move!r}: {reason}").format(
            move=text[:60], reason=exc)) from None


class RequestView(NamedTuple):
    """A move request made back into a game: ``game`` as its player to move may see it (their
    own racks as they are; every other bag dealt its tiles played, in order, then the rest, a
    deal that fits the moves and that bots never read), the request's ``seed``, ``variant``
    and ``clock``."""

    game: Game
    seed: str
    variant: str
    clock: Clock | None


class Replay:
    """The public game of the last request an engine answered (racks unknown), so that the next
    request's moves are played on it instead of from the start when they extend it: the answer
    is the same, only sooner."""

    def __init__(self) -> None:
        self.players: list[Player] = []
        self.moves: list[Any] = []
        self.game: Game | None = None

    def game_for(self, players: list[Player], moves: list[Any]) -> Game:
        """The game of ``players`` after ``moves`` (IllegalMove, NotationError as they come)."""
        if self.game is None or players != self.players or moves[:len(self.moves)] != self.moves:
            self.players, self.moves, self.game = players, [], Game(players, None)
        game = self.game
        try:
            for color, text in moves[len(self.moves):]:
                game.play(parse_move(text), color)
                self.moves.append([color, text])
        except BaseException:
            self.game = None
            raise
        return game


def request_view(request: Mapping[str, Any], replay: Replay | None = None) -> RequestView:
    """The ``RequestView`` of a move request (its public game played on ``replay`` when given);
    SetupError (one line) when it is not a sound one."""
    try:
        players = [Player(p["name"], tuple(p["colors"])) for p in request["players"]]
        game = (replay or Replay()).game_for(players, request["moves"])
        me = game.to_move
        if me is None or me.name != request["you"]:
            raise SetupError(_("it is not {name}'s turn").format(name=request["you"]))
        drawn: dict[str, list[int]] = {color: [] for color in game.colors}
        for turn in game.history:
            if not turn.move.is_pass:
                drawn[turn.color].append(turn.move.tile)
        drawn.update({color: [_tile(t) for t in request["drawn"][color]] for color in me.colors})
        view = game.redealt(bags_from_draws(drawn, game.colors))
        racks = cast("dict[str, list[int]]", view.racks)
        for color in me.colors:
            if sorted(_tile(t) for t in request["racks"][color]) != racks[color]:
                raise SetupError(_("the {color} rack does not follow from the tiles drawn and "
                                   "played").format(color=color))
    except UptownError as exc:
        raise SetupError(_("a move request that is not sound: {reason}").format(
            reason=exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SetupError(_("a move request that is not sound: missing or wrong {field}").format(
            field=exc)) from None
    variant = request.get("variant", "standard")
    return RequestView(view, str(request.get("seed", "")),
                      variant if isinstance(variant, str) else "standard",
                      Clock.from_json(request.get("clock")))
