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
    commitment,
    head,
)
from .entries import HIDDEN_KEYS, Settled
from .nodes import Mapping, Node, Scalar, Sequence, describe
from ..i18n import _ as gettext

if TYPE_CHECKING:
    from .entries import MoveEntry, PlayerEntry

__all__ = ["HiddenFields"]


class _Problem(Protocol):
    """Notes a problem: ``SchemaReader.problem``."""

    def __call__(self, message: str, where: Node | int | None, move: int | None = None) -> None:
        ...



class HiddenFields(Settled):
    """The hidden-draw fields of a record: game id and (name, value) pairs, all hex text.
    ``withdrawn`` lists the keys of joins undone before the first move (``join --undo``), a
    name possibly more than once. ``lines`` (not compared) gives the line of each commitment
    and revealed key, by (list name, player). Not to be changed once made."""

    __slots__ = ("game_id", "commitments", "version", "revealed", "withdrawn", "lines",
                 "_valid")

    def __init__(self, game_id: str, commitments: tuple[tuple[str, str], ...] = (),
                 version: int = 1, revealed: tuple[tuple[str, str], ...] = (),
                 lines: dict[tuple[str, str], int] | None = None,
                 withdrawn: tuple[tuple[str, str], ...] = ()) -> None:
        self.game_id: Final = game_id
        self.commitments: Final = commitments
        self.version: Final = version
        self.revealed: Final = revealed
        self.withdrawn: Final = withdrawn
        self.lines: Final[dict[tuple[str, str], int]] = {} if lines is None else lines
        self._valid: dict[str, str] | None = None

    def _compared(self) -> tuple[object, ...]:
        return self.game_id, self.commitments, self.version, self.revealed, self.withdrawn

    def _lists(self) -> dict[str, tuple[tuple[str, str], ...]]:
        return {"commitments": self.commitments, "revealed": self.revealed,
                "withdrawn": self.withdrawn}

    def _with(self, lists: dict[str, tuple[tuple[str, str], ...]]) -> HiddenFields:
        return HiddenFields(self.game_id, lists["commitments"], self.version, lists["revealed"],
                            self.lines, lists["withdrawn"])

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

    def commitment_of(self, name: str, key: bytes, earlier: list[str]) -> str:
        """The commitment (hex) that ``name`` makes with ``key`` after the commitments
        ``earlier`` (hex, those of the seats before, as they were)."""
        game_id = bytes.fromhex(self.game_id)
        made = commitment(game_id, name, head(game_id, name, key, self.version),
                          [bytes.fromhex(value) for value in earlier], self.version)
        return made.hex()

    def key_gives(self, name: str, key: bytes) -> bool:
        """Whether ``key`` gives ``name``'s commitment, with the commitments before it as they
        are: whether it is the key ``name`` joined with."""
        names = self.joined()
        if name not in names:
            return False
        seat = names.index(name)
        earlier = [value for _, value in self.commitments[:seat]]
        return self.commitment_of(name, key, earlier) == self.commitments[seat][1]

    def valid_reveals(self) -> dict[str, str]:
        """The revealed keys that give their player's commitment (hex, by name). Any other
        ``revealed`` entry was not written by that player and counts as not revealed."""
        if self._valid is None:
            self._valid = {name: value for name, value in self.revealed
                           if self.key_gives(name, bytes.fromhex(value))}
        return self._valid

    def bad_reveals(self) -> list[str]:
        """The players whose ``revealed`` entry does not give their commitment."""
        valid = self.valid_reveals()
        return [name for name, _ in self.revealed if name not in valid]

    def withdraws_current(self, index: int) -> bool:
        """Whether the key of ``withdrawn`` entry ``index`` gives the commitment its player
        holds now: the join it says was taken back is still there."""
        name, key = self.withdrawn[index]
        return name in self.joined() and self.key_gives(name, bytes.fromhex(key))

    def withdraws(self, name: str, value: str, earlier: list[str]) -> bool:
        """Whether a ``withdrawn`` key of ``name`` gives the commitment ``value`` made after
        the commitments ``earlier`` (hex): that join was undone by whoever made it."""
        return any(who == name and self.commitment_of(name, bytes.fromhex(key), earlier) == value
                   for who, key in self.withdrawn)


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
    at: list[int] = []
    withdrawn = _pairs(root, "withdrawn", names, problem, lines, once=False, at=at)
    joins = HiddenFields(node.value, tuple(commitments), version, withdrawn=tuple(withdrawn))
    for index, ((name, _), line) in enumerate(zip(withdrawn, at)):
        if joins.withdraws_current(index):
            problem(gettext("{name}'s withdrawn key gives {name}'s commitment, which is still "
                            "there: uptown join --undo takes the commitment out, so this entry "
                            "was written by hand; remove it").format(name=name), line)
    revealed = _reveals(root, names, HiddenFields(node.value, tuple(commitments), version),
                        problem if warning is None else warning, lines)
    return HiddenFields(node.value, tuple(commitments), version, tuple(revealed), lines,
                        tuple(withdrawn))


def _reveals(root: Mapping, names: list[str], joins: HiddenFields, warning: _Problem,
             lines: dict[tuple[str, str], int]) -> list[tuple[str, str]]:
    """The ``revealed`` entries counted, one per player who joined: the one whose key gives
    the player's commitment, else the first. Anyone can write an entry, so each other one
    (another entry for that player, a name that is no player or did not join) is ignored
    with a ``warning`` at its line, and never blocks the real key."""
    at: list[int] = []
    found = _pairs(root, "revealed", names, warning, {}, once=False, at=at, ignored=True)
    chosen: dict[str, tuple[str, int]] = {}
    for (name, value), line in zip(found, at):
        if name not in joins.joined():
            warning(gettext("{name} has not joined, so the key revealed for {name} is ignored")
                    .format(name=name), line)
            continue
        if name not in chosen or (joins.key_gives(name, bytes.fromhex(value))
                                  and not joins.key_gives(name, bytes.fromhex(chosen[name][0]))):
            chosen[name] = (value, line)
    for (name, value), line in zip(found, at):
        if name in chosen and chosen[name][1] != line:
            warning(gettext("another key revealed for {name} (line {line} is the one counted): "
                            "ignored; {name} did not write it").format(
                name=name, line=chosen[name][1]), line)
    for name, (_, line) in chosen.items():
        lines["revealed", name] = line
    return [(name, chosen[name][0]) for name in dict.fromkeys(n for n, _ in found)
            if name in chosen]


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
        skip = gettext(", so it is ignored") if ignored else ""
        if name not in names:
            problem(gettext("'{name}' in '{key}' is not a player of this game")
                    .format(name=name, key=key) + skip, name_node)
        elif once and (key, name) in lines:
            problem(gettext("{name} appears twice in '{key}'").format(name=name, key=key), name_node)
        elif not is_hex(value.value, 64):
            problem(gettext("{name}'s entry in '{key}' must be 64 hex digits (0-9, a-f)")
                    .format(name=name, key=key) + skip, value)
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
        elif entry.text == "forfeit" and entry.link is None:
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

