"""The fair-play protocol's fields in records (hidden racks, joins, signatures), read and
checked as text with the rest of the record: nothing here hashes or verifies.

A hidden game has, instead of a ``seed``::

    hidden: 5f0c...            # the game id: 32 hex digits, random
    protocol: uptown-hidden-5  # absent in games of version 1
    commitments:               # one per player, in seat order (uptown join)
      - Ana: 3a4b...           # 64 hex digits
        key: 5d1e...           # version 5: the player's public signing key (64 hex digits)
        sig: 0c7a...           # version 5: the join's signature (128 hex digits)
    revealed:                  # keys, after the game (uptown reveal)
      - Ana: 9c1d...
        sig: 44f0...           # version 5
    moves:
      - red: 7 B7
        link: 77e0...          # the mover's next chain link, with every move and pass
                               # (versions 2 to 4: 128 hex digits, the link then the seal)
        sig: 91ab...           # version 5: its writer's signature, under every entry

An open game signed by its players (``new --signed``) has its seed, a game id (``game:``),
``protocol: uptown-signed-5`` and the same joins and signatures, without links. Every record
``new`` makes has a game id: ``hidden:`` for hidden racks, ``game:`` otherwise.

``read_hidden`` checks these fields while a record is read; ``fairplay`` checks every entry
against them (``fairplay.check``, ``fairplay.signatures``); records/README.md documents the
fields.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from ..engine.notation import FORFEIT
from .entries import HIDDEN_KEYS, Settled
from .nodes import Mapping, Node, Scalar, Sequence, describe
from ..i18n import _ as gettext

if TYPE_CHECKING:
    from .entries import MoveEntry, PauseEntry, PlayerEntry

__all__ = ["HiddenFields", "Signature", "JudgeCard", "Void", "PROTOCOLS", "LATEST", "SIGNED", "OPEN_PROTOCOL",
           "read_game_id", "read_hidden", "check_links", "check_signatures"]

PROTOCOLS = ("uptown-hidden-1", "uptown-hidden-2", "uptown-hidden-3", "uptown-hidden-4",
             "uptown-hidden-5")
"""The fair-play protocol's versions as ``protocol:`` names them, by number (1 to 5): what each
hashes, seals and signs is ``fairplay``'s."""
LATEST = len(PROTOCOLS)
"""The protocol version of new games."""
SIGNED = 5
"""The first version whose entries are signed by their writers."""
OPEN_PROTOCOL = "uptown-signed-5"
"""The protocol of an open game signed by its players (version 5, its racks public)."""
KEY_DIGITS, SIG_DIGITS = 64, 128
"""Hex digits of a public signing key and of a signature."""


class Signature(NamedTuple):
    """What an entry of version 5 carries besides its value: the signer's public key, where
    the entry publishes it (a join, a withdrawn join), the signature, and in a game under a
    club judge when the judge received it and the judge's stamp, as written (None: absent)."""

    key: str | None = None
    sig: str | None = None
    judged: str | None = None
    stamp: str | None = None


class JudgeCard(NamedTuple):
    """The club judge a game is under (``judge:``, docs/JUDGE.md): its address, its public
    signing key (hex as written), and the line of ``judge:``."""

    email: str
    key: str
    line: int


class Void(NamedTuple):
    """The judge's ruling that a game nobody finished joining is void (``void:``): when (as
    written), the judge's stamp over it, and its line."""

    at: str
    stamp: str | None
    line: int


class _Problem(Protocol):
    """Notes a problem: ``SchemaReader.problem``."""

    def __call__(self, message: str, where: Node | int | None, move: int | None = None) -> None:
        ...



class HiddenFields(Settled):
    """The fair-play fields of a record: game id and (name, value) pairs, all hex text, as
    written. ``revealed`` holds every well-formed key revealed for a player who joined, in file
    order (anyone can write one: which counts is ``fairplay.joins``'s to say). ``withdrawn``
    lists the keys of joins undone before the first move (``join --undo``), a name possibly
    more than once. ``signatures`` holds each entry's ``Signature`` (version 5), by list name,
    in the order of its list; ``racks`` says whether the racks are hidden (False: an open game
    signed by its players). Not compared: ``lines`` gives the line of each commitment and the
    first withdrawn and revealed key of each player, by (list name, player); ``entry_lines``
    the line of every entry of ``revealed`` and ``withdrawn``, in order, by list name. Not to
    be changed once made."""

    __slots__ = ("game_id", "commitments", "version", "revealed", "withdrawn", "lines",
                 "entry_lines", "signatures", "racks", "judge", "void")

    def __init__(self, game_id: str, commitments: tuple[tuple[str, str], ...] = (),
                 version: int = 1, revealed: tuple[tuple[str, str], ...] = (),
                 lines: dict[tuple[str, str], int] | None = None,
                 withdrawn: tuple[tuple[str, str], ...] = (),
                 entry_lines: dict[str, tuple[int, ...]] | None = None,
                 signatures: dict[str, tuple[Signature, ...]] | None = None,
                 racks: bool = True, judge: JudgeCard | None = None,
                 void: Void | None = None) -> None:
        self.game_id: Final = game_id
        self.commitments: Final = commitments
        self.version: Final = version
        self.revealed: Final = revealed
        self.withdrawn: Final = withdrawn
        self.lines: Final[dict[tuple[str, str], int]] = {} if lines is None else lines
        self.entry_lines: Final[dict[str, tuple[int, ...]]] = entry_lines or {}
        given = signatures or {}
        self.signatures: Final[dict[str, tuple[Signature, ...]]] = {
            name: given.get(name, (Signature(),) * len(pairs))
            for name, pairs in self._lists().items()}
        self.racks: Final = racks
        self.judge: Final = judge
        self.void: Final = void

    def _compared(self) -> tuple[object, ...]:
        return (self.game_id, self.commitments, self.version, self.revealed, self.withdrawn,
                tuple(self.signatures.items()), self.racks,
                self.judge and self.judge[:2], self.void and self.void[:2])

    def _lists(self) -> dict[str, tuple[tuple[str, str], ...]]:
        return {"commitments": self.commitments, "revealed": self.revealed,
                "withdrawn": self.withdrawn}

    def _with(self, lists: dict[str, tuple[tuple[str, str], ...]],
              signatures: dict[str, tuple[Signature, ...]]) -> HiddenFields:
        return HiddenFields(self.game_id, lists["commitments"], self.version, lists["revealed"],
                            self.lines, lists["withdrawn"], self.entry_lines, signatures,
                            self.racks, self.judge, self.void)

    def with_entry(self, list_name: str, name: str, value: str,
                   signature: Signature = Signature()) -> HiddenFields:
        """These fields with ``name: value`` (and its ``signature``) in ``list_name``
        (``commitments``, ``revealed`` or ``withdrawn``): in the place of ``name``'s first entry
        when there is one (not in ``withdrawn``, where a name may come again), else added at
        the end."""
        lists, signatures = self._lists(), dict(self.signatures)
        pairs, signed = lists[list_name], signatures[list_name]
        if list_name != "withdrawn" and name in dict(pairs):
            first = [n for n, _ in pairs].index(name)
            lists[list_name] = tuple((n, value if i == first else v)
                                     for i, (n, v) in enumerate(pairs))
            signatures[list_name] = tuple(signature if i == first else s
                                          for i, s in enumerate(signed))
        else:
            lists[list_name] = pairs + ((name, value),)
            signatures[list_name] = signed + (signature,)
        return self._with(lists, signatures)

    def without_entry(self, list_name: str, name: str) -> HiddenFields:
        """These fields without ``name``'s entry in ``list_name``."""
        lists, signatures = self._lists(), dict(self.signatures)
        kept = [i for i, pair in enumerate(lists[list_name]) if pair[0] != name]
        signatures[list_name] = tuple(signatures[list_name][i] for i in kept)
        lists[list_name] = tuple(lists[list_name][i] for i in kept)
        return self._with(lists, signatures)

    def signing_keys(self) -> dict[str, str]:
        """Each player who joined and their public signing key (hex), as their join writes it
        (version 5)."""
        return {name: signature.key
                for (name, _), signature in zip(self.commitments, self.signatures["commitments"])
                if signature.key is not None}

    @property
    def signed(self) -> bool:
        """Whether every entry is signed by its writer (version 5)."""
        return self.version >= SIGNED

    def joined(self) -> list[str]:
        """The names of the players who have joined, in turn order."""
        return [name for name, _ in self.commitments]

    @property
    def link_digits(self) -> int:
        """Hex digits of a move's link: 64, 128 in versions 2 to 4 (link and seal), 64 again
        from version 5 (the writer's signature makes the seal's work)."""
        return 128 if 1 < self.version < SIGNED else 64


def is_hex(text: str, digits: int) -> bool:
    return re.fullmatch(f"[0-9a-f]{{{digits}}}", text) is not None


def read_game_id(root: Mapping, problem: _Problem, key: str = "game") -> str | None:
    """The game id under ``key`` (``game:`` in an open game, ``hidden:`` with hidden racks),
    32 hex digits, checked; None when it has none (a record made before game ids, or by hand)
    or it is not that."""
    pair = root.get(key)
    if pair is None:
        return None
    node = pair[1]
    if not (isinstance(node, Scalar) and is_hex(node.value, 32)):
        shown = node.value if isinstance(node, Scalar) else describe(node)
        problem(gettext("'{key}' must be the game id, 32 hex digits (0-9, a-f), not {shown!r}")
                .format(key=key, shown=shown), node)
        return None
    return node.value


def read_hidden(root: Mapping, players: list[PlayerEntry], seed: str | None,
                problem: _Problem, warning: _Problem | None = None) -> HiddenFields | None:
    """The fair-play fields of a record's ``root`` (hidden racks, or an open game signed by
    its players), checked; None in an open game without them. ``problem(message, node)`` notes
    each problem, ``warning`` each ``revealed`` entry that is ignored (anyone can write one: it
    never makes the record invalid)."""
    pair = root.get("hidden")
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        return _open_signed(root, players, problem)
    game_id = read_game_id(root, problem, "hidden")
    if game_id is None:
        return None
    if seed is not None:
        problem(gettext("a game with hidden racks has no seed (the seed would show every rack)"),
                root.get("seed")[1])  # type: ignore[index]  # the seed's key is there
    if root.get("game") is not None:
        problem(gettext("a game with hidden racks has its id under 'hidden': leave out 'game'"),
                root.get("game")[0])  # type: ignore[index]  # found just above
    return _fields(root, players, game_id, _version(root, problem), True, problem,
                   problem if warning is None else warning)


def _open_signed(root: Mapping, players: list[PlayerEntry],
                 problem: _Problem) -> HiddenFields | None:
    """The fields of an open game signed by its players (``game:`` and ``protocol:
    uptown-signed-5``); None, each key of hidden racks present a problem, in any other."""
    protocol = root.get("protocol")
    game_id = read_game_id(root, problem) if root.get("game") is not None else None
    if (protocol is not None and isinstance(protocol[1], Scalar)
            and protocol[1].value == OPEN_PROTOCOL and game_id is not None):
        if root.get("revealed") is not None:
            problem(gettext("an open game has no keys to reveal: 'revealed' belongs to a game "
                            "with hidden racks"), root.get("revealed")[0])  # type: ignore[index]
        return _fields(root, players, game_id, SIGNED, False, problem, problem)
    for key in HIDDEN_KEYS[1:]:
        if root.get(key) is not None:
            problem(gettext("'{key}' belongs to a game with hidden racks, which needs 'hidden: "
                            "GAME-ID' (uptown new --hidden), or to an open game signed by its "
                            "players ('game: GAME-ID' and 'protocol: {open}', uptown new "
                            "--signed)").format(key=key, open=OPEN_PROTOCOL),
                    root.get(key)[0])  # type: ignore[index]
    return None


def _fields(root: Mapping, players: list[PlayerEntry], game_id: str, version: int,
            racks: bool, problem: _Problem, warning: _Problem) -> HiddenFields:
    """The joins, withdrawn joins and revealed keys of a game of protocol ``version``."""
    names = [p.name for p in players]
    lines: dict[tuple[str, str], int] = {}
    commitments = _items(root, "commitments", names, version, problem, lines)
    for index, (name, _, _) in enumerate(commitments):
        if index < len(names) and name != names[index]:
            problem(gettext("the players join in seat order: commitment {value} must be "
                            "{names}'s, not {name}'s").format(value=index + 1, names=names[index],
                                                             name=name),
                    lines["commitments", name])
    withdrawn_at: list[int] = []
    withdrawn = _items(root, "withdrawn", names, version, problem, lines, once=False,
                       at=withdrawn_at)
    revealed, revealed_at = _reveals(root, names, [name for name, _, _ in commitments],
                                     version, warning, lines)
    judge, void = _judged(root, version, problem)
    for key, items in (("commitments", commitments), ("withdrawn", withdrawn),
                       ("revealed", revealed)):
        for name, _value, signature in items if judge is None else ():
            if signature.stamp is not None or signature.judged is not None:
                problem(_stamp_without_judge(), lines.get((key, name)))
    return HiddenFields(game_id, _values(commitments), version, _values(revealed), lines,
                        _values(withdrawn), {"revealed": tuple(revealed_at),
                                             "withdrawn": tuple(withdrawn_at)},
                        {"commitments": _signed(commitments), "revealed": _signed(revealed),
                         "withdrawn": _signed(withdrawn)}, racks, judge, void)


def _stamp_without_judge() -> str:
    """The problem of a judge's stamp in a game under no judge."""
    return gettext("'stamp' and 'judged' belong to a game under a club judge (its 'judge:' "
                   "names it)")


Item = tuple[str, str, Signature]
"""An entry of a list of joins or keys: the player's name, the value, its signature."""


def _values(items: list[Item]) -> tuple[tuple[str, str], ...]:
    return tuple((name, value) for name, value, _ in items)


def _signed(items: list[Item]) -> tuple[Signature, ...]:
    return tuple(signature for _, _, signature in items)


def _reveals(root: Mapping, names: list[str], joined: list[str], version: int,
             warning: _Problem, lines: dict[tuple[str, str], int]) -> tuple[list[Item], list[int]]:
    """The ``revealed`` entries of players who joined, in file order, and their lines. Anyone
    can write an entry, so one for a name that is no player or did not join is ignored with a
    ``warning`` at its line (which of several for one player counts is ``fairplay.joins``'s)."""
    at: list[int] = []
    found = _items(root, "revealed", names, version, warning, {}, once=False, at=at,
                   ignored=True)
    kept: list[Item] = []
    kept_at: list[int] = []
    for (name, value, signature), line in zip(found, at):
        if name not in joined:
            warning(gettext("{name} has not joined, so the key revealed for {name} is ignored")
                    .format(name=name), line)
            continue
        lines.setdefault(("revealed", name), line)
        kept.append((name, value, signature))
        kept_at.append(line)
    return kept, kept_at


def _judged(root: Mapping, version: int,
            problem: _Problem) -> tuple[JudgeCard | None, Void | None]:
    """The club judge a game is under (``judge:`` with ``email`` and ``key``) and its ruling
    that the game is void (``void:`` with ``at`` and ``stamp``), each checked as text (the
    stamp's signature is ``fairplay.signatures``'s)."""
    found: list[dict[str, str] | None] = []
    for key, wanted in (("judge", {"email": None, "key": KEY_DIGITS}),
                        ("void", {"at": None, "stamp": SIG_DIGITS})):
        pair = root.get(key)
        if pair is None:
            found.append(None)
            continue
        node = pair[1]
        if version < SIGNED:
            problem(gettext("'{key}' belongs to a game whose entries are signed (protocol "
                            "{latest} or {open})").format(key=key, latest=PROTOCOLS[SIGNED - 1],
                                                          open=OPEN_PROTOCOL), pair[0])
            found.append(None)
            continue
        values = {k.value: v.value for k, v in node.pairs
                  if isinstance(v, Scalar)} if isinstance(node, Mapping) else {}
        bad = [k for k, digits in wanted.items()
               if k not in values or (digits is not None and not is_hex(values[k], digits))]
        if bad or len(values) != len(wanted):
            problem(gettext("'{key}' holds {fields}, each one line").format(
                key=key, fields=", ".join(f"'{k}'" for k in wanted)), node)
            found.append(None)
            continue
        found.append(values)
    judge, void = found
    if void is not None and judge is None:
        problem(gettext("'void' is a club judge's ruling: a game without 'judge' has none"),
                root.get("void")[0])  # type: ignore[index]  # found above
    return (JudgeCard(judge["email"], judge["key"], root.get("judge")[0].line)  # type: ignore[index]
            if judge is not None else None,
            Void(void["at"], void["stamp"], root.get("void")[0].line)  # type: ignore[index]
            if void is not None and judge is not None else None)


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


_UNDER: dict[str, int | None] = {"key": KEY_DIGITS, "sig": SIG_DIGITS, "judged": None,
                                 "stamp": None}
"""What an entry of version 5 may carry under its ``NAME: HEX``, and how many hex digits
(None: the judge's time and stamp, read together by ``times.read_judged``)."""


def _items(root: Mapping, key: str, names: list[str], version: int, problem: _Problem,
           lines: dict[tuple[str, str], int], once: bool = True, at: list[int] | None = None,
           ignored: bool = False) -> list[Item]:
    """The ``- NAME: HEX`` items of list ``key`` (from version 5 with ``key:`` and ``sig:``
    under them), checked: each name ``once`` unless told otherwise (``lines`` then keeps the
    first line of a name; ``at`` gets each item's line). ``ignored``: the message of a bad item
    says that it is ignored (a warning)."""
    pair = root.get(key)
    if pair is None or (isinstance(pair[1], Scalar) and pair[1].empty):
        return []
    node = pair[1]
    if not isinstance(node, Sequence):
        problem(gettext("'{key}' must be a list of '- NAME: HEX' items, not {node}")
                .format(key=key, node=describe(node)), node)
        return []
    found: list[Item] = []
    for item in node.items:
        under = _signature(item, key, version, problem) if isinstance(item, Mapping) else None
        if under is None or not isinstance(item, Mapping) or not isinstance(item.pairs[0][1],
                                                                             Scalar):
            problem(gettext("each item of '{key}' is one player's name and 64 hex digits, like "
                            "'- Ana: 3a4b...'").format(key=key), item)
            continue
        name_node, value = item.pairs[0]
        assert isinstance(value, Scalar)  # checked above
        name = name_node.value
        if name not in names:
            problem((gettext("'{name}' in '{key}' is not a player of this game, so it is ignored")
                     if ignored else
                     gettext("'{name}' in '{key}' is not a player of this game")).format(
                name=name, key=key), name_node)
        elif once and (key, name) in lines:
            problem(gettext("{name} appears twice in '{key}'").format(name=name, key=key), name_node)
        elif not is_hex(value.value, 64):
            problem((gettext("{name}'s entry in '{key}' must be 64 hex digits (0-9, a-f), so it "
                             "is ignored") if ignored else
                     gettext("{name}'s entry in '{key}' must be 64 hex digits (0-9, a-f)")).format(
                name=name, key=key), value)
        else:
            lines.setdefault((key, name), name_node.line)
            found.append((name, value.value, under))
            if at is not None:
                at.append(name_node.line)
    return found


def _signature(item: Mapping, key: str, version: int, problem: _Problem) -> Signature | None:
    """What ``item`` carries under its ``NAME: HEX`` (version 5: ``key``, ``sig``, and the
    judge's ``judged`` and ``stamp``, together: ``times.read_judged``); None when it is not
    such an item (nothing may be under it before version 5)."""
    from .times import read_judged

    if not item.pairs or (len(item.pairs) > 1 and version < SIGNED):
        return None
    names = [name_node.value for name_node, _node in item.pairs[1:]]
    if any(name not in _UNDER for name in names) or len(set(names)) < len(names):
        return None
    found: dict[str, str] = {}
    for name_node, node in item.pairs[1:]:
        digits = _UNDER[name_node.value]
        if digits is None:
            continue  # the judge's, read below
        if not (isinstance(node, Scalar) and is_hex(node.value, digits)):
            problem(gettext("the {key} under an entry of '{list}' must be {digits} hex digits "
                            "(0-9, a-f)").format(key=name_node.value, list=key, digits=digits),
                    node)
        else:
            found[name_node.value] = node.value
    judged, stamp = read_judged(gettext("an entry of '{list}'").format(list=key), item, problem)
    return Signature(found.get("key"), found.get("sig"), judged, stamp)


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
        elif (hidden is None or not hidden.racks) and entry.link is not None:
            problem(gettext("'link' belongs to games with hidden racks only"), entry.line, number)
        elif hidden is None or not hidden.racks:
            continue
        elif entry.link is None:
            problem(gettext("move {number} has no link (a game with hidden racks needs 'link: HEX' "
                      "under every move)").format(number=number), entry.line, number)
        elif not is_hex(entry.link, hidden.link_digits):
            problem(gettext("the link must be {link_digits} hex digits (0-9, a-f)")
                    .format(link_digits=hidden.link_digits), entry.line,
                    number)



def check_signatures(moves: list[MoveEntry], pauses: list[PauseEntry],
                     fields: HiddenFields | None, problem: _Problem) -> None:
    """The ``sig`` under each move and pause is 128 hex digits, and only in a game whose
    entries are signed (version 5: whether each is there and its writer's is
    ``fairplay.signatures``'s to say); a judge's stamp only in a game under a judge.
    ``problem(message, line, move)`` notes each problem."""
    signed = fields is not None and fields.signed
    entries: list[tuple[MoveEntry | PauseEntry, int | None]] = [
        *((entry, number) for number, entry in enumerate(moves, 1)),
        *((pause, None) for pause in pauses)]
    judged = fields is not None and fields.judge is not None
    for entry, number in entries:
        if entry.stamp is not None and not judged:
            problem(_stamp_without_judge(), entry.line, number)
        if entry.sig is None:
            continue
        if not signed:
            problem(gettext("'sig' belongs to games whose entries are signed (protocol "
                            "{latest} or {open})").format(latest=PROTOCOLS[SIGNED - 1],
                                                          open=OPEN_PROTOCOL), entry.line, number)
        elif not is_hex(entry.sig, SIG_DIGITS):
            problem(gettext("a signature must be {digits} hex digits (0-9, a-f)").format(
                digits=SIG_DIGITS), entry.line, number)
