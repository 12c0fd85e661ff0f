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

``read_hidden`` checks these fields while a record is read; ``fairplay.check`` checks
every move of a replay against them. The protocol itself is ``fairplay.draws``; ``records/README.md`` documents the fields.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, Protocol

from ..engine.notation import FORFEIT
from .entries import HIDDEN_KEYS, Settled
from .nodes import Mapping, Node, Scalar, Sequence, describe
from ..i18n import _ as gettext

if TYPE_CHECKING:
    from .entries import MoveEntry, PlayerEntry

__all__ = ["HiddenFields", "PROTOCOLS", "LATEST", "read_hidden", "check_links"]

PROTOCOLS = ("uptown-hidden-1", "uptown-hidden-2", "uptown-hidden-3", "uptown-hidden-4")
"""The fair-play protocol's versions as ``protocol:`` names them, by number (1 to 4): what each
hashes and seals is ``fairplay.draws``'s."""
LATEST = len(PROTOCOLS)
"""The protocol version of new games."""


class _Problem(Protocol):
    """Notes a problem: ``SchemaReader.problem``."""

    def __call__(self, message: str, where: Node | int | None, move: int | None = None) -> None:
        ...



class HiddenFields(Settled):
    """The hidden-draw fields of a record: game id and (name, value) pairs, all hex text, as
    written. ``revealed`` holds every well-formed key revealed for a player who joined, in file
    order (anyone can write one: which counts is ``fairplay.joins``'s to say). ``withdrawn``
    lists the keys of joins undone before the first move (``join --undo``), a name possibly
    more than once. Not compared: ``lines`` gives the line of each commitment and the first
    withdrawn and revealed key of each player, by (list name, player); ``entry_lines`` the line
    of every entry of ``revealed`` and ``withdrawn``, in order, by list name. Not to be changed
    once made."""

    __slots__ = ("game_id", "commitments", "version", "revealed", "withdrawn", "lines",
                 "entry_lines")

    def __init__(self, game_id: str, commitments: tuple[tuple[str, str], ...] = (),
                 version: int = 1, revealed: tuple[tuple[str, str], ...] = (),
                 lines: dict[tuple[str, str], int] | None = None,
                 withdrawn: tuple[tuple[str, str], ...] = (),
                 entry_lines: dict[str, tuple[int, ...]] | None = None) -> None:
        self.game_id: Final = game_id
        self.commitments: Final = commitments
        self.version: Final = version
        self.revealed: Final = revealed
        self.withdrawn: Final = withdrawn
        self.lines: Final[dict[tuple[str, str], int]] = {} if lines is None else lines
        self.entry_lines: Final[dict[str, tuple[int, ...]]] = entry_lines or {}

    def _compared(self) -> tuple[object, ...]:
        return self.game_id, self.commitments, self.version, self.revealed, self.withdrawn

    def _lists(self) -> dict[str, tuple[tuple[str, str], ...]]:
        return {"commitments": self.commitments, "revealed": self.revealed,
                "withdrawn": self.withdrawn}

    def _with(self, lists: dict[str, tuple[tuple[str, str], ...]]) -> HiddenFields:
        return HiddenFields(self.game_id, lists["commitments"], self.version, lists["revealed"],
                            self.lines, lists["withdrawn"], self.entry_lines)

    def with_entry(self, list_name: str, name: str, value: str) -> HiddenFields:
        """These fields with ``name: value`` in ``list_name`` (``commitments``, ``revealed``
        or ``withdrawn``): in the place of ``name``'s entry when there is one (not in
        ``withdrawn``, where a name may come again), else added at the end."""
        lists = self._lists()
        pairs = lists[list_name]
        if list_name != "withdrawn" and name in dict(pairs):
            lists[list_name] = tuple((n, value if n == name else v) for n, v in pairs)
        else:
            lists[list_name] = pairs + ((name, value),)
        return self._with(lists)

    def without_entry(self, list_name: str, name: str) -> HiddenFields:
        """These fields without ``name``'s entry in ``list_name``."""
        lists = self._lists()
        lists[list_name] = tuple(pair for pair in lists[list_name] if pair[0] != name)
        return self._with(lists)

    def joined(self) -> list[str]:
        """The names of the players who have joined, in turn order."""
        return [name for name, _ in self.commitments]

    @property
    def link_digits(self) -> int:
        """Hex digits of a move's link: 64, or 128 from version 2 on (link and seal)."""
        return 64 if self.version == 1 else 128


def is_hex(text: str, digits: int) -> bool:
    return re.fullmatch(f"[0-9a-f]{{{digits}}}", text) is not None


def read_hidden(root: Mapping, players: list[PlayerEntry], seed: str | None,
                problem: _Problem, warning: _Problem | None = None) -> HiddenFields | None:
    """The hidden-draw fields of a record's ``root``, checked; None in an open game.
    ``problem(message, node)`` notes each problem, ``warning`` each ``revealed`` entry that
    is ignored (anyone can write one: it never makes the record invalid)."""
    pair = root.get("hidden")
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        for key in HIDDEN_KEYS[1:]:
            if root.get(key) is not None:
                problem(gettext("'{key}' belongs to a game with hidden racks, which needs 'hidden: "
                          "GAME-ID' (uptown new --hidden)").format(key=key), root.get(key)[0])  # type: ignore[index]
        return None
    node = pair[1]
    if not (isinstance(node, Scalar) and is_hex(node.value, 32)):
        shown = node.value if isinstance(node, Scalar) else describe(node)
        problem(gettext("'hidden' must be the game id, 32 hex digits (0-9, a-f), not {shown!r}")
                .format(shown=shown), node)
        return None
    if seed is not None:
        problem(gettext("a game with hidden racks has no seed (the seed would show every rack)"),
                root.get("seed")[1])  # type: ignore[index]  # the seed's key is there
    version = _version(root, problem)
    names = [p.name for p in players]
    lines: dict[tuple[str, str], int] = {}
    commitments = _pairs(root, "commitments", names, problem, lines)
    for index, (name, _) in enumerate(commitments):
        if index < len(names) and name != names[index]:
            problem(gettext("the players join in seat order: commitment {value} must be {names}'s, "
                      "not {name}'s").format(value=index + 1, names=names[index], name=name), lines["commitments", name])
    withdrawn_at: list[int] = []
    withdrawn = _pairs(root, "withdrawn", names, problem, lines, once=False, at=withdrawn_at)
    revealed, revealed_at = _reveals(root, names, [name for name, _ in commitments],
                                     problem if warning is None else warning, lines)
    return HiddenFields(node.value, tuple(commitments), version, tuple(revealed), lines,
                        tuple(withdrawn), {"revealed": tuple(revealed_at),
                                           "withdrawn": tuple(withdrawn_at)})


def _reveals(root: Mapping, names: list[str], joined: list[str], warning: _Problem,
             lines: dict[tuple[str, str], int]) -> tuple[list[tuple[str, str]], list[int]]:
    """The ``revealed`` entries of players who joined, in file order, and their lines. Anyone
    can write an entry, so one for a name that is no player or did not join is ignored with a
    ``warning`` at its line (which of several for one player counts is ``fairplay.joins``'s)."""
    at: list[int] = []
    found = _pairs(root, "revealed", names, warning, {}, once=False, at=at, ignored=True)
    kept: list[tuple[str, str]] = []
    kept_at: list[int] = []
    for (name, value), line in zip(found, at):
        if name not in joined:
            warning(gettext("{name} has not joined, so the key revealed for {name} is ignored")
                    .format(name=name), line)
            continue
        lines.setdefault(("revealed", name), line)
        kept.append((name, value))
        kept_at.append(line)
    return kept, kept_at


def _version(root: Mapping, problem: _Problem) -> int:
    """The protocol version named by ``protocol:`` (1 when it is absent)."""
    pair = root.get("protocol")
    if pair is None:
        return 1
    node = pair[1]
    if isinstance(node, Scalar) and node.value in PROTOCOLS:
        return PROTOCOLS.index(node.value) + 1
    shown = node.value if isinstance(node, Scalar) else describe(node)
    problem(gettext("unknown protocol {shown!r} (this uptown knows {PROTOCOLS})")
            .format(shown=shown, PROTOCOLS=', '.join(PROTOCOLS)), node)
    return LATEST


def _pairs(root: Mapping, key: str, names: list[str], problem: _Problem,
           lines: dict[tuple[str, str], int], once: bool = True, at: list[int] | None = None,
           ignored: bool = False) -> list[tuple[str, str]]:
    """The ``- NAME: HEX`` items of list ``key``, checked: each name ``once`` unless told
    otherwise (``lines`` then keeps the first line of a name; ``at`` gets each item's line).
    ``ignored``: the message of a bad item says that it is ignored (a warning)."""
    pair = root.get(key)
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        return []
    node = pair[1]
    if not isinstance(node, Sequence):
        problem(gettext("'{key}' must be a list of '- NAME: HEX' items, not {node}")
                .format(key=key, node=describe(node)), node)
        return []
    found: list[tuple[str, str]] = []
    for item in node.items:
        if not (isinstance(item, Mapping) and len(item.pairs) == 1
                and isinstance(item.pairs[0][1], Scalar)):
            problem(gettext("each item of '{key}' is one player's name and 64 hex digits, like '- "
                      "Ana: 3a4b...'").format(key=key), item)
            continue
        name_node, value = item.pairs[0]
        assert isinstance(value, Scalar)  # checked above
        name = name_node.value
        if name not in names:
            problem((gettext("'{name}' in '{key}' is not a player of this game, so it is ignored")
                     if ignored else gettext("'{name}' in '{key}' is not a player of this game"))
                    .format(name=name, key=key), name_node)
        elif once and (key, name) in lines:
            problem(gettext("{name} appears twice in '{key}'").format(name=name, key=key), name_node)
        elif not is_hex(value.value, 64):
            problem((gettext("{name}'s entry in '{key}' must be 64 hex digits (0-9, a-f), so it "
                             "is ignored") if ignored else
                     gettext("{name}'s entry in '{key}' must be 64 hex digits (0-9, a-f)"))
                    .format(name=name, key=key), value)
        else:
            lines.setdefault((key, name), name_node.line)
            found.append((name, value.value))
            if at is not None:
                at.append(name_node.line)
    return found


def check_links(moves: list[MoveEntry], hidden: HiddenFields | None, problem: _Problem) -> None:
    """Every move of a hidden game carries a link, but a pass or forfeit written for another
    player (``by``), which carries none (a resignation without its link is refused on replay, at
    its line: ``HiddenCheck.forfeit_problem``); no move of an open game does.
    ``problem(message, line, move)`` notes each problem."""
    for number, entry in enumerate(moves, 1):
        if entry.by is not None and entry.link is not None:
            problem(gettext("move {number} was written by {by} for another player: it carries "
                            "no link (only the player's key makes their links)").format(
                number=number, by=entry.by), entry.line, number)
        elif entry.by is not None:
            continue
        elif entry.text == FORFEIT and entry.link is None:
            continue  # a forfeit written for another; a resignation's is checked on replay
        elif hidden is None and entry.link is not None:
            problem(gettext("'link' belongs to games with hidden racks only"), entry.line, number)
        elif hidden is not None and entry.link is None:
            problem(gettext("move {number} has no link (a game with hidden racks needs 'link: HEX' "
                      "under every move)").format(number=number), entry.line, number)
        elif hidden is not None and not is_hex(entry.link, hidden.link_digits):  # type: ignore[arg-type]
            problem(gettext("the link must be {link_digits} hex digits (0-9, a-f)")
                    .format(link_digits=hidden.link_digits), entry.line,
                    number)

