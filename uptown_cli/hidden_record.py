"""Hidden-draw games in records: their fields, their checks during a replay, and a player's view.

A hidden game has, instead of a ``seed``::

    hidden: 5f0c...            # the game id: 32 hex digits, random
    commitments:               # chain heads, one per player, in seat order (uptown join)
      - Ana: 3a4b...           # 64 hex digits
    revealed:                  # keys, after the game (uptown reveal)
      - Ana: 9c1d...
    moves:
      - red: 7 B7
        link: 77e0...          # the mover's next chain link, with every move and pass

``read_hidden`` checks these fields while a record is read; ``HiddenCheck`` checks every move of
a replay (the link, and the rack when the mover's key is known); ``unchecked`` says what cannot be
checked yet. The protocol itself is ``hidden_draws``; ``records/README.md`` documents the fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .hidden_draws import CHAIN_LENGTH, HiddenDeal, chain, head
from .record import HIDDEN_KEYS
from .yamlsafe import Mapping, RecordError, Scalar, Sequence, describe

_HEX = {32: re.compile(r"[0-9a-f]{32}"), 64: re.compile(r"[0-9a-f]{64}")}


@dataclass(frozen=True)
class HiddenFields:
    """The hidden-draw fields of a record: game id and (name, value) pairs, all hex text.
    ``lines`` gives the line of each commitment and revealed key, by (list name, player)."""

    game_id: str
    commitments: tuple = ()
    revealed: tuple = ()
    lines: dict = field(default_factory=dict, compare=False, hash=False)

    def appended(self, list_name: str, name: str, value: str) -> HiddenFields:
        """These fields with ``name: value`` added at the end of ``list_name``."""
        pairs = getattr(self, list_name) + ((name, value),)
        return HiddenFields(**{**self.__dict__, list_name: pairs})

    def joined(self) -> list[str]:
        return [name for name, _ in self.commitments]


def is_hex(text: str, digits: int) -> bool:
    return bool(_HEX[digits].fullmatch(text))


def read_hidden(root: Mapping, players: list, seed: str | None, problem) -> HiddenFields | None:
    """The hidden-draw fields of a record's ``root``, checked; None in an open game.
    ``problem(message, node)`` notes each problem."""
    pair = root.get("hidden")
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        for key in HIDDEN_KEYS[1:]:
            if root.get(key) is not None:
                problem(f"'{key}' belongs to a game with hidden racks, which needs 'hidden: "
                        "GAME-ID' (uptown new --hidden)", root.get(key)[0])
        return None
    node = pair[1]
    if not (isinstance(node, Scalar) and is_hex(node.value, 32)):
        shown = node.value if isinstance(node, Scalar) else describe(node)
        problem(f"'hidden' must be the game id, 32 hex digits (0-9, a-f), not {shown!r}", node)
        return None
    if seed is not None:
        problem("a game with hidden racks has no seed (the seed would show every rack)",
                root.get("seed")[1])
    names = [p.name for p in players]
    lines = {}
    commitments = _pairs(root, "commitments", names, problem, lines)
    for index, (name, _) in enumerate(commitments):
        if index < len(names) and name != names[index]:
            problem(f"the players join in seat order: commitment {index + 1} must be "
                    f"{names[index]}'s, not {name}'s", lines["commitments", name])
    revealed = _pairs(root, "revealed", names, problem, lines)
    for name, _ in revealed:
        if name not in dict(commitments):
            problem(f"{name} reveals a key without having joined", lines["revealed", name])
    return HiddenFields(node.value, tuple(commitments), tuple(revealed), lines)


def _pairs(root: Mapping, key: str, names: list, problem, lines: dict) -> list:
    """The ``- NAME: HEX`` items of list ``key``, checked."""
    pair = root.get(key)
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        return []
    node = pair[1]
    if not isinstance(node, Sequence):
        problem(f"'{key}' must be a list of '- NAME: HEX' items, not {describe(node)}", node)
        return []
    found = []
    for item in node.items:
        if not (isinstance(item, Mapping) and len(item.pairs) == 1
                and isinstance(item.pairs[0][1], Scalar)):
            problem(f"each item of '{key}' is one player's name and 64 hex digits, "
                    "like '- Ana: 3a4b...'", item)
            continue
        name_node, value = item.pairs[0]
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


def check_links(moves: list, hidden: HiddenFields | None, problem) -> None:
    """Every move of a hidden game carries a link; no move of an open game does.
    ``problem(message, line, move)`` notes each problem."""
    for number, entry in enumerate(moves, 1):
        if hidden is None and entry.link is not None:
            problem("'link' belongs to games with hidden racks only", entry.line, number)
        elif hidden is not None and entry.link is None:
            problem(f"move {number} has no link (a game with hidden racks needs "
                    "'link: HEX' under every move)", entry.line, number)
        elif hidden is not None and not is_hex(entry.link, 64):
            problem("the link must be 64 hex digits (0-9, a-f)", entry.line, number)


class HiddenCheck:
    """Checks the moves of a hidden game as a replay plays them: the game has started, each
    link follows its player's chain, and each move fits the mover's rack when their key is
    known (revealed in the record, or given for a player's own view). ``errors`` holds the
    problems with the revealed keys themselves (a key that does not match its commitment is
    reported and not used)."""

    def __init__(self, record, own: tuple[str, bytes] | None = None):
        hidden = record.hidden
        self.game_id = bytes.fromhex(hidden.game_id)
        self.errors = []
        commitments = {name: bytes.fromhex(value) for name, value in hidden.commitments}
        keys = {}
        for name, value in hidden.revealed:
            key = bytes.fromhex(value)
            if head(self.game_id, name, key) == commitments[name]:
                keys[name] = key
            else:
                self.errors.append(RecordError(
                    f"{name}'s revealed key does not match their commitment",
                    path=record.path, line=hidden.lines["revealed", name]))
        if own is not None:
            keys[own[0]] = own[1]
        players = record.game_players()
        self.deal = HiddenDeal(self.game_id, players, keys)
        for name, _ in hidden.commitments:
            self.deal.join(commitments[name])

    def problem(self, game, entry, move) -> str | None:
        """What is wrong with the next move (a MoveEntry, and its parsed Move), or None."""
        if not self.deal.started:
            waiting = [p.name for p in self.deal.players[self.deal.joined:]]
            return f"the game has not started: {', '.join(waiting)} must join first (uptown join)"
        player = game.to_move
        if player is None or entry.color not in player.colors:
            return None  # the engine reports it
        if entry.link is None or not is_hex(entry.link, 64):
            return "the move needs its link, 64 hex digits (0-9, a-f)"
        link = bytes.fromhex(entry.link)
        return (self.deal.link_problem(player, link)
                or self.deal.move_problem(player, entry.color, move, game))

    def played(self, turn, entry) -> None:
        """Feed a move the engine accepted."""
        self.deal.act(turn.player, turn.color, turn.move, bytes.fromhex(entry.link))


def unchecked(record) -> list[str]:
    """What validation of a hidden game cannot check yet, one sentence per part."""
    hidden = record.hidden
    if hidden is None:
        return []
    notes = []
    joined = hidden.joined()
    waiting = [p.name for p in record.players if p.name not in joined]
    if waiting:
        notes.append(f"not started: {', '.join(waiting)} must join (uptown join)")
    revealed = dict(hidden.revealed)
    hidden_racks = [p for p in record.players if p.name in joined and p.name not in revealed]
    for player in hidden_racks:
        notes.append(f"{player.name}'s draws and racks ({', '.join(player.colors)}), until "
                     f"{player.name} reveals their key (uptown reveal)")
    return notes


def own_link(game_id: str, name: str, key: bytes, turn: int) -> str:
    """The link ``name`` publishes at their ``turn``-th turn (1-based), as hex."""
    if turn > CHAIN_LENGTH:
        raise ValueError(f"{name} has no link left for turn {turn}")
    return chain(bytes.fromhex(game_id), name, key)[CHAIN_LENGTH - turn].hex()


def key_matches(record, name: str, key: bytes) -> bool:
    """Whether ``key`` is the one ``name`` committed to in ``record``."""
    commitment = dict(record.hidden.commitments).get(name)
    return commitment is not None and head(bytes.fromhex(record.hidden.game_id), name, key) \
        == bytes.fromhex(commitment)

