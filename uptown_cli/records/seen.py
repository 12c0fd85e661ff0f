"""What a player has seen of a game: a snapshot of the public record, and the first change.

Each player's tool keeps, beside their key, the public part of the record as they last saw it
(game id, protocol, variant, seed, players, commitments, moves with their links, revealed keys).
A file they run a command on must *extend* it: the same entries, more of them at the end. The
first entry that differs is named with its line and whose entry it is, so that a rewritten
move, a swapped commitment or an older copy played differently is refused before anything is
written. This module knows records, not files or terminals.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..engine.sha256 import sha256
from .schema import Record

__all__: list[str] = []


def game_ident(record: Record) -> str:
    """The name a game's memory is kept under: its game id (hidden racks), else a digest of
    its file's full path, seed, variant and players (so a game whose seed is changed, or a new
    game, reads as another game)."""
    if record.hidden is not None:
        return record.hidden.game_id
    lineup = [os.path.realpath(record.path), record.seed, record.variant,
              [[p.name, list(p.colors)] for p in record.players]]
    text = json.dumps(lineup, ensure_ascii=False)
    return "open-" + sha256(text.encode("utf-8")).hexdigest()[:32]


def snapshot(record: Record) -> dict[str, Any]:
    """The public part of ``record``, as JSON-ready data."""
    hidden = record.hidden
    return {
        "game": None if hidden is None else hidden.game_id,
        "protocol": None if hidden is None else hidden.version,
        "variant": record.variant,
        "seed": record.seed,
        "players": [[p.name, list(p.colors)] for p in record.players],
        "commitments": [] if hidden is None else [list(c) for c in hidden.commitments],
        "moves": [[m.color, m.text, m.link] for m in record.moves],
        "revealed": [] if hidden is None else [list(r) for r in hidden.revealed],
    }


def first_change(seen: dict[str, Any], record: Record, viewer: str) -> tuple[int, str] | None:
    """``(line, message)`` for the first entry of what ``viewer`` saw (``seen``, a snapshot)
    that ``record`` does not hold as it was; None when ``record`` extends it."""
    now = snapshot(record)
    since = f"since {viewer} saw it"
    for key in ("game", "protocol", "variant", "seed"):
        if seen.get(key) != now[key]:
            return (_key_line(record.text, key), f"the {_WORDS[key]} changed {since} (was "
                    f"{seen.get(key)!r}, now {now[key]!r}): the file was edited by hand")
    for index, (was, new) in enumerate(zip(seen["players"], now["players"])):
        if was != new:
            return (record.players[index].line, f"player {index + 1} changed {since} (was "
                    f"{was[0]}, now {new[0]}): the players were edited by hand")
    if len(seen["players"]) != len(now["players"]):
        return (1, f"the players changed {since}: the file was edited by hand")
    owner = {c: p.name for p in record.players for c in p.colors}
    for list_name in ("commitments", "moves", "revealed"):
        old, new = seen[list_name], now[list_name]
        for index, was in enumerate(old):
            line = _line_of(record, list_name, index)
            if index >= len(new):
                return (line, f"{_entry(list_name, index, was, owner)} is gone {since}: this is "
                        "an older copy, or entries were removed")
            if was != new[index]:
                what = f"{_entry(list_name, index, was, owner)} changed {since}"
                if list_name == "moves" and was[:2] != new[index][:2]:
                    current = new[index][1] if was[0] == new[index][0] else " ".join(new[index][:2])
                    what += f": was {was[1]!r}, now {current!r}"
                elif list_name == "moves":
                    what += " (its link)"
                return (line, what)
    return None


_WORDS = {"game": "game id", "protocol": "protocol", "variant": "variant", "seed": "seed"}
_KEYS = {"game": "hidden", "protocol": "protocol", "variant": "variant", "seed": "seed"}


def _entry(list_name: str, index: int, was: list[Any], owner: dict[str, str]) -> str:
    """Names an entry and whose it is: ``move 3 (Bo's, blue)``."""
    if list_name == "moves":
        return f"move {index + 1} ({owner.get(was[0], '?')}'s {was[0]})"
    noun = "commitment" if list_name == "commitments" else "revealed key"
    return f"{was[0]}'s {noun}"


def _line_of(record: Record, list_name: str, index: int) -> int:
    """The line of entry ``index`` of ``list_name`` in ``record`` (its list's line past the end)."""
    if list_name == "moves":
        if index < len(record.moves):
            return record.moves[index].line
        return _key_line(record.text, "moves")
    pairs = getattr(record.hidden, list_name, ()) if record.hidden is not None else ()
    if index < len(pairs):
        line: int = record.hidden.lines[list_name, pairs[index][0]]  # type: ignore[union-attr]
        return line
    return _key_line(record.text, list_name)


def _key_line(text: str, key: str) -> int:
    """The line of top-level ``key:`` in ``text`` (1 when it is not there)."""
    key = _KEYS.get(key, key)
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(f"{key}:"):
            return number
    return 1
