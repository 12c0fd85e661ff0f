"""Hidden-draw games in records: their fields, read and checked with the rest of the record.

A hidden game has, instead of a ``seed``::

    hidden: 5f0c...            # the game id: 32 hex digits, random
    protocol: uptown-hidden-2  # absent in games of version 1
    commitments:               # chain heads, one per player, in seat order (uptown join)
      - Ana: 3a4b...           # 64 hex digits
    revealed:                  # keys, after the game (uptown reveal)
      - Ana: 9c1d...
    moves:
      - red: 7 B7
        link: 77e0...          # the mover's next chain link, with every move and pass
                               # (version 2: 128 hex digits, the link then the move's seal)

``read_hidden`` checks these fields while a record is read; ``records.hidden_check`` checks
every move of a replay against them. The protocol itself is ``hidden.draws``; ``records/README.md`` documents the fields.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, Protocol

from ..hidden.draws import (
    LATEST,
    PROTOCOLS,
)
from .entries import HIDDEN_KEYS, Settled
from .nodes import Mapping, Node, Scalar, Sequence, describe

if TYPE_CHECKING:
    from .entries import MoveEntry, PlayerEntry

__all__ = ["HiddenFields"]


class _Problem(Protocol):
    """Notes a problem: ``SchemaReader.problem``."""

    def __call__(self, message: str, where: Node | int | None, move: int | None = None) -> None:
        ...



class HiddenFields(Settled):
    """The hidden-draw fields of a record: game id and (name, value) pairs, all hex text.
    ``lines`` (not compared) gives the line of each commitment and revealed key, by (list
    name, player). Not to be changed once made."""

    __slots__ = ("game_id", "commitments", "version", "revealed", "lines")

    def __init__(self, game_id: str, commitments: tuple[tuple[str, str], ...] = (),
                 version: int = 1, revealed: tuple[tuple[str, str], ...] = (),
                 lines: dict[tuple[str, str], int] | None = None) -> None:
        self.game_id: Final = game_id
        self.commitments: Final = commitments
        self.version: Final = version
        self.revealed: Final = revealed
        self.lines: Final[dict[tuple[str, str], int]] = {} if lines is None else lines

    def _compared(self) -> tuple[object, ...]:
        return self.game_id, self.commitments, self.version, self.revealed

    def appended(self, list_name: str, name: str, value: str) -> HiddenFields:
        """These fields with ``name: value`` added at the end of ``list_name`` (``commitments``
        or ``revealed``)."""
        pairs = {"commitments": self.commitments, "revealed": self.revealed}
        pairs[list_name] += ((name, value),)
        return HiddenFields(self.game_id, pairs["commitments"], self.version, pairs["revealed"],
                            self.lines)

    def joined(self) -> list[str]:
        """The names of the players who have joined, in turn order."""
        return [name for name, _ in self.commitments]

    @property
    def link_digits(self) -> int:
        """Hex digits of a move's link: 64, or 128 in version 2 (link and seal)."""
        return 64 if self.version == 1 else 128


def is_hex(text: str, digits: int) -> bool:
    return re.fullmatch(f"[0-9a-f]{{{digits}}}", text) is not None


def read_hidden(root: Mapping, players: list[PlayerEntry], seed: str | None,
                problem: _Problem) -> HiddenFields | None:
    """The hidden-draw fields of a record's ``root``, checked; None in an open game.
    ``problem(message, node)`` notes each problem."""
    pair = root.get("hidden")
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        for key in HIDDEN_KEYS[1:]:
            if root.get(key) is not None:
                problem(f"'{key}' belongs to a game with hidden racks, which needs 'hidden: "
                        "GAME-ID' (uptown new --hidden)", root.get(key)[0])  # type: ignore[index]
        return None
    node = pair[1]
    if not (isinstance(node, Scalar) and is_hex(node.value, 32)):
        shown = node.value if isinstance(node, Scalar) else describe(node)
        problem(f"'hidden' must be the game id, 32 hex digits (0-9, a-f), not {shown!r}", node)
        return None
    if seed is not None:
        problem("a game with hidden racks has no seed (the seed would show every rack)",
                root.get("seed")[1])  # type: ignore[index]  # the seed's key is there
    version = _version(root, problem)
    names = [p.name for p in players]
    lines: dict[tuple[str, str], int] = {}
    commitments = _pairs(root, "commitments", names, problem, lines)
    for index, (name, _) in enumerate(commitments):
        if index < len(names) and name != names[index]:
            problem(f"the players join in seat order: commitment {index + 1} must be "
                    f"{names[index]}'s, not {name}'s", lines["commitments", name])
    revealed = _pairs(root, "revealed", names, problem, lines)
    for name, _ in revealed:
        if name not in dict(commitments):
            problem(f"{name} reveals a key without having joined", lines["revealed", name])
    return HiddenFields(node.value, tuple(commitments), version, tuple(revealed), lines)


def _version(root: Mapping, problem: _Problem) -> int:
    """The protocol version named by ``protocol:`` (1 when it is absent)."""
    pair = root.get("protocol")
    if pair is None:
        return 1
    node = pair[1]
    if isinstance(node, Scalar) and node.value in PROTOCOLS:
        return PROTOCOLS.index(node.value) + 1
    shown = node.value if isinstance(node, Scalar) else describe(node)
    problem(f"unknown protocol {shown!r} (this uptown knows {', '.join(PROTOCOLS)})", node)
    return LATEST


def _pairs(root: Mapping, key: str, names: list[str], problem: _Problem,
           lines: dict[tuple[str, str], int]) -> list[tuple[str, str]]:
    """The ``- NAME: HEX`` items of list ``key``, checked."""
    pair = root.get(key)
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        return []
    node = pair[1]
    if not isinstance(node, Sequence):
        problem(f"'{key}' must be a list of '- NAME: HEX' items, not {describe(node)}", node)
        return []
    found: list[tuple[str, str]] = []
    for item in node.items:
        if not (isinstance(item, Mapping) and len(item.pairs) == 1
                and isinstance(item.pairs[0][1], Scalar)):
            problem(f"each item of '{key}' is one player's name and 64 hex digits, "
                    "like '- Ana: 3a4b...'", item)
            continue
        name_node, value = item.pairs[0]
        assert isinstance(value, Scalar)  # checked above
        name = name_node.value
        if name not in names:
            problem(f"'{name}' in '{key}' is not a player of this game", name_node)
        elif (key, name) in lines:
            problem(f"{name} appears twice in '{key}'", name_node)
        elif not is_hex(value.value, 64):
            problem(f"{name}'s entry in '{key}' must be 64 hex digits (0-9, a-f)", value)
        else:
            lines[key, name] = name_node.line
            found.append((name, value.value))
    return found


def check_links(moves: list[MoveEntry], hidden: HiddenFields | None, problem: _Problem) -> None:
    """Every move of a hidden game carries a link; no move of an open game does.
    ``problem(message, line, move)`` notes each problem."""
    for number, entry in enumerate(moves, 1):
        if hidden is None and entry.link is not None:
            problem("'link' belongs to games with hidden racks only", entry.line, number)
        elif hidden is not None and entry.link is None:
            problem(f"move {number} has no link (a game with hidden racks needs "
                    "'link: HEX' under every move)", entry.line, number)
        elif hidden is not None and not is_hex(entry.link, hidden.link_digits):  # type: ignore[arg-type]
            problem(f"the link must be {hidden.link_digits} hex digits (0-9, a-f)", entry.line,
                    number)

