"""Hidden draws: racks that only their owner can see, with no dealer, checkable by all at the end.

Each player holds a secret 32-byte key. From it comes a hash chain: ``c_0 = H(chain tag, game
id, name, key)``, ``c_{j+1} = SHA-256(c_j)``; the head ``c_256`` is the player's commitment,
published when they join. At their m-th turn (moves and passes) a player publishes the link
``c_{256-m}``; anyone checks that its SHA-256 is the value the player published before.

The record is a sequence of public values: the heads, in seat order (the joins), then one link
per move. Seats act in turn throughout, so the value after any seat's is always the next seat's.
Every draw of a player (the five of each starting rack, and the one after each tile placed)
mixes the player's key with the *next* public value, which the next seat publishes after the
player has acted: ``index = H(draw tag, game id, colour, draw number, key, value) mod (tiles left
in the bag)``, counted over the bag's tiles in tile order. Nobody can foresee their own draw (they
cannot invert the next seat's chain), nobody else can compute it (they lack the key), re-running a
move changes nothing (key and link are fixed), and the next seat cannot steer it (their link is
fixed by their head, and they lack the key). ``docs/HIDDEN_DRAWS.md`` gives the exact bytes.

This module is engine-level: no YAML, files or terminals.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from ..engine.game import RACK_SIZE, Game
from ..engine.players import Player
from ..engine.geometry import TILES_PER_COLOR, shown_color, shown_tile
from ..engine.notation import Move
from ..engine.passes import Stuck, stuck_tiles
from ..engine.sha256 import sha256
from ..i18n import _
from ..records.hidden_fields import PROTOCOLS, SIGNED

__all__ = [
    "JOINABLE", "CHAIN_LENGTH", "new_game_id", "chain", "head",
    "commitment", "history_start", "history_step", "seal", "seal_secret", "HiddenDeal", "bags_from_draws"]

JOINABLE = 2
"""The oldest version a player may still join (in version 1 a player can re-roll their
starting rack)."""
CHAIN_LENGTH = 256
"""Links in each chain past its start: more turns than any player can take (a round without a
tile placed ends the game, so a player has at most one turn more than there are tiles to place:
121)."""
KEY_BYTES = 32
GAME_ID_BYTES = 16


def framed_hash(*fields: bytes) -> bytes:
    """SHA-256 of the fields, each preceded by its length as 4 bytes, big-endian."""
    digest = sha256()
    for field in fields:
        digest.update(len(field).to_bytes(4, "big"))
        digest.update(field)
    return digest.digest()


def new_key() -> bytes:
    """A new secret key, from the operating system's secure random source."""
    return os.urandom(KEY_BYTES)  # what secrets.token_bytes gives, without loading OpenSSL


def new_game_id() -> bytes:
    """A new random game id (public: it ties each key and chain to one game)."""
    return os.urandom(GAME_ID_BYTES)


def tag(version: int, what: str) -> bytes:
    """The first field of every hash of protocol ``version``: ``uptown-hidden-2 draw``."""
    return f"{PROTOCOLS[version - 1]} {what}".encode("ascii")


def chain(game_id: bytes, name: str, key: bytes, version: int = 1) -> list[bytes]:
    """``[c_0, ..., c_256]`` of player ``name`` (text) under ``key`` in game ``game_id``."""
    return list(_chain(game_id, name, key, version))


@functools.lru_cache(maxsize=8)
def _chain(game_id: bytes, name: str, key: bytes, version: int) -> tuple[bytes, ...]:
    """``chain``, built once per key: a command checks a key against its commitment, then
    takes the link of the next turn from the same chain."""
    links = [framed_hash(tag(version, "chain"), game_id, name.encode("utf-8"), key)]
    for _step in range(CHAIN_LENGTH):
        links.append(sha256(links[-1]).digest())
    return tuple(links)


def head(game_id: bytes, name: str, key: bytes, version: int = 1) -> bytes:
    """The last link of a player's chain (in version 1, the commitment itself)."""
    return chain(game_id, name, key, version)[-1]


def commitment(game_id: bytes, name: str, chain_head: bytes, earlier: Iterable[bytes],
               version: int = 1, signing_key: bytes = b"") -> bytes:
    """What a player publishes when joining. Version 1: their chain head. Versions 2 to 4: a
    hash of the head and of every commitment published before theirs, so that none of those
    can be changed afterwards without breaking this one. Version 5: the same with the player's
    public signing key (``signing_key``) after the head (the head empty in an open game), so
    that the join binds the key that signs every entry of theirs."""
    if version == 1:
        return chain_head
    signed = [signing_key] if version >= SIGNED else []
    return framed_hash(tag(version, "commit"), game_id, name.encode("utf-8"), chain_head,
                       *signed, *earlier)


def history_start(game_id: bytes, variant: str, players: Iterable[Player],
                  commitments: Iterable[bytes], version: int = 2,
                  addresses: Iterable[str | None] = (), timing: Sequence[str] = ()) -> bytes:
    """Versions 2 to 4: the digest of a record before its first move (variant, players,
    colours, from version 3 each player's e-mail address, ``addresses`` in seat order, and the
    commitments; in version 4 then ``timing``, the game's ``clock``, ``late``, ``vacation`` and
    ``started`` as written, empty when absent), which the seal of move 1 binds."""
    fields = [variant.encode("utf-8")]
    emails = list(addresses)
    for seat, player in enumerate(players):
        fields += [player.name.encode("utf-8"), " ".join(player.colors).encode("ascii")]
        if version > 2:
            fields.append(((emails[seat] if seat < len(emails) else None) or "").encode("utf-8"))
    fields += commitments
    if version > 3:
        fields += [value.encode("utf-8") for value in timing]
    return framed_hash(tag(version, "history"), game_id, *fields)


def history_step(digest: bytes, color: str, move_text: str, link: bytes,
                 version: int = 2, previous_seal: bytes = b"",
                 more: Sequence[tuple[str, str]] = ()) -> bytes:
    """Versions 2 to 4: the digest after one more move, what its seal covers. Version 2: its
    colour, its text as written and its chain link. Versions 3 and 4: the seal of the move
    before (``previous_seal``, empty for move 1), the chain link, then every field of the entry
    as written, key then value (``colour: move`` first, then ``more``: in version 4 the entry's
    stamp, ``at``, ``by`` and ``bot`` as written, those present, in that order; not ``link`` and
    not the notes). Version 4 also steps over an entry written by another for a player out of
    time, and over a pause (``link`` empty: they have none; a pause's ``more`` is its ``at``
    then its ``from``), so the next seal covers them."""
    if version < 3:
        return framed_hash(tag(version, "history"), digest, color.encode("ascii"),
                           move_text.encode("utf-8"), link)
    fields = [color.encode("ascii"), move_text.encode("utf-8")]
    for key, value in more:
        fields += [key.encode("utf-8"), value.encode("utf-8")]
    return framed_hash(tag(version, "history"), digest, previous_seal, link, *fields)


def seal(game_id: bytes, secret: bytes, digest: bytes, version: int = 2) -> bytes:
    """Versions 2 to 4: the mover's seal of the record up to and with their move
    (``digest``). Version 2: made with their key. Versions 3 and 4: made with their *next* chain
    link (``secret``), which only they know until their next turn, when everyone can check
    the seal. Nobody else can make it for another history before then."""
    return framed_hash(tag(version, "seal"), game_id, secret, digest)


def seal_secret(game_id: bytes, name: str, key: bytes, turn: int, version: int) -> bytes | None:
    """What ``name`` seals their ``turn``-th turn (1-based) with: their key (version 2), their
    next chain link (versions 3 and 4; None past the chain's end)."""
    if version < 3:
        return key
    if turn + 1 > CHAIN_LENGTH:
        return None
    return chain(game_id, name, key, version)[CHAIN_LENGTH - turn - 1]


def follows(link: bytes, previous: bytes) -> bool:
    """Whether ``link`` is the link below ``previous`` in a chain. (Links are public once
    played, so a plain comparison gives nothing away: no constant-time compare is needed.)"""
    return sha256(link).digest() == previous


def draw_index(game_id: bytes, color: str, number: int, key: bytes,
               values: bytes | Sequence[bytes], left: int, version: int = 1) -> int:
    """Which of the ``left`` tiles still in ``color``'s bag (in tile order) its draw number
    ``number`` (0-based, the starting rack's included) takes, given the public value it waited
    for (versions 1 and 2), or the values of every other seat, in the order they were published
    (from version 3)."""
    mixed = [values] if isinstance(values, bytes) else list(values)
    digest = framed_hash(tag(version, "draw"), game_id, color.encode("ascii"), number.to_bytes(4, "big"),
                         key, *mixed)
    return int.from_bytes(digest, "big") % left


class HiddenDeal:
    """A hidden game's public values as they come, checked, and the draws of the players
    whose keys are known.

    ``players`` are engine Players in seat order; ``keys`` maps some of their names to keys.
    Feed it the joins (``join``) then the moves (``act``), in record order; ``link_problem``
    and ``move_problem`` say what is wrong with a move before it is fed. ``racks`` and
    ``drawn`` hold the known colours' racks and draws so far; a draw that waits for public
    values still to come is ``pending``: in versions 1 and 2 it waits for the next value, in
    versions 3 and 4 for the next value of every other seat.
    """

    def __init__(self, game_id: bytes, players: Iterable[Player],
                 keys: Mapping[str, bytes] | None = None, version: int = 1,
                 signing_keys: Mapping[str, bytes] | None = None) -> None:
        self.game_id = game_id
        self.version = version
        self.signing_keys = dict(signing_keys or {})
        """Each player's public signing key, which their commitment binds (version 5)."""
        self.commitments: list[bytes] = []
        self.players = list(players)
        self.keys = dict(keys or {})
        self.joined = 0
        self.turns = dict.fromkeys((p.name for p in self.players), 0)
        self._last: dict[str, bytes] = {}
        self._draws = {c: 0 for p in self.players for c in p.colors}
        self._owner_key = {c: self.keys[p.name] for p in self.players if p.name in self.keys
                           for c in p.colors}
        self._bags = {c: list(range(TILES_PER_COLOR)) for c in self._owner_key}
        self.racks: dict[str, list[int]] = {c: [] for c in self._owner_key}
        self.drawn: dict[str, list[int]] = {c: [] for c in self._owner_key}
        self._waiting: list[_Waiting] = []
        self.out: set[int] = set()
        """The seats that forfeited: they publish no more values, and no draw waits for them."""
    @property
    def started(self) -> bool:
        """Whether every seat has joined."""
        return self.joined == len(self.players)

    def pending(self, color: str) -> int:
        """How many of ``color``'s draws wait for public values still to come."""
        return sum(w.colors.count(color) for w in self._waiting)

    def join(self, commitment: bytes) -> None:
        """The next seat joins with its commitment; its starting racks wait for the values
        to come."""
        seat = self.joined
        player = self.players[seat]
        self._publish(seat, commitment)
        self.commitments.append(commitment)
        self._last[player.name] = commitment
        self.joined += 1
        self._wait(seat, [c for c in player.colors for _ in range(RACK_SIZE)])

    def link_problem(self, player: Player, link: bytes) -> str | None:
        """Why ``link`` cannot be ``player``'s next link, or None."""
        turn = self.turns[player.name] + 1
        if turn > CHAIN_LENGTH:
            return _("{name} has no link left for turn {turn}").format(name=player.name, turn=turn)
        if turn == 1 and self.version > 1:
            seat = self.players.index(player)
            made = commitment(self.game_id, player.name, sha256(link).digest(),
                              self.commitments[:seat], self.version,
                              self.signing_keys.get(player.name, b""))
            if made == self.commitments[seat]:  # public values, as in follows
                return None
            earlier = [p.name for p in self.players[:seat]]
            return [
                _("{name}'s first link does not fit their commitment: {name}'s commitment or "
                  "link was changed"),
                _("{name}'s first link does not fit their commitment: {name}'s commitment or "
                  "link was changed, or a commitment before it ({a}'s) changed after {name} "
                  "joined"),
                _("{name}'s first link does not fit their commitment: {name}'s commitment or "
                  "link was changed, or a commitment before it ({a}'s or {b}'s) changed after "
                  "{name} joined"),
                _("{name}'s first link does not fit their commitment: {name}'s commitment or "
                  "link was changed, or a commitment before it ({a}'s, {b}'s or {c}'s) changed "
                  "after {name} joined"),
                _("{name}'s first link does not fit their commitment: {name}'s commitment or "
                  "link was changed, or a commitment before it ({a}'s, {b}'s, {c}'s or {d}'s) "
                  "changed after {name} joined"),
            ][len(earlier)].format(name=player.name, **dict(zip("abcd", earlier)))
        if not follows(link, self._last[player.name]):
            return (_("the link is not the one below {name}'s previous commitment (its SHA-256 "
                      "must equal it)") if turn == 1 else
                    _("the link is not the one below {name}'s previous link (its SHA-256 must "
                      "equal it)")).format(name=player.name)
        return None

    def move_problem(self, player: Player, color: str, move: Move, game: Game | None = None,
                     stuck: Stuck | None = None) -> str | None:
        """Why ``player``'s ``move`` (``color``'s) contradicts their known rack, or None.
        A pass is checked against the position before it: ``game`` (its racks unknown), or
        what ``stuck_tiles`` said of it."""
        if player.name not in self.keys:
            return None
        if not move.is_pass:
            if move.tile in self.racks[color]:
                return None
            rack = " ".join(shown_tile(t) for t in sorted(self.racks[color]))
            return _("{colour} has no {tile} on its rack ({rack}); {name}'s move").format(
                colour=shown_color(color), tile=shown_tile(move.tile), rack=rack, name=player.name)
        if stuck is None:
            stuck = stuck_tiles(cast(Game, game), player)
        for c, (_held, fit_nowhere) in stuck.items():
            for tile in sorted(self.racks[c]):
                if tile not in fit_nowhere:
                    return _("{name} passed, but {colour} could play {tile}").format(
                        name=player.name, colour=shown_color(c), tile=shown_tile(tile))
        return None

    def act(self, player: Player, color: str, move: Move, link: bytes) -> None:
        """Feed a move (checked) with the link published with it."""
        seat = self.players.index(player)
        self._publish(seat, link)
        self._last[player.name] = link
        self.turns[player.name] += 1
        if move.is_pass:
            return
        if color in self.racks and move.tile in self.racks[color]:  # (not: a forged move)
            self.racks[color].remove(move.tile)
        if self._draws[color] + self.pending(color) < TILES_PER_COLOR:
            self._wait(seat, [color])

    def leave(self, player: Player, link: bytes | None) -> None:
        """``player`` forfeits: at their turn with ``link`` (a resignation, which publishes
        their next link and draws nothing), or without one (written by another once they are
        out of time). Their draws stop, and no draw waits for them any more: a draw that waited
        only for them is made at once (docs/HIDDEN_DRAWS.md, "Forfeits")."""
        seat = self.players.index(player)
        if link is not None:
            self._publish(seat, link)
            self._last[player.name] = link
            self.turns[player.name] += 1
        self.out.add(seat)
        self._waiting = [w for w in self._waiting if w.seat != seat]
        for waiting in self._waiting:
            if waiting.wanted is not None:
                waiting.wanted.discard(seat)
        self._publish(None, b"")

    def skip(self, player: Player) -> None:
        """Another player passed for ``player`` (out of time): they publish no value, so the
        draws that wait for their next value (from version 3) wait for it no more and are made with
        the values they have (docs/HIDDEN_DRAWS.md, "Forfeits"); later draws wait for them
        again."""
        seat = self.players.index(player)
        for waiting in self._waiting:
            if waiting.wanted is not None:
                waiting.wanted.discard(seat)
        self._publish(None, b"")

    def _wait(self, seat: int, colors: list[str]) -> None:
        """Draws of ``seat``'s ``colors`` that wait for the values to come: the next one
        (versions 1 and 2), or the next of every other seat still in play (from version 3)."""
        wanted = ({s for s in range(len(self.players)) if s != seat and s not in self.out}
                  if self.version > 2 else None)
        self._waiting.append(_Waiting(seat, colors, wanted))

    def _publish(self, seat: int | None, value: bytes) -> None:
        """Seat ``seat`` publishes a value: the draws waiting for it take it, and those that
        have every value they wait for are made (``seat`` None: nothing published, only
        those made)."""
        still = []
        for waiting in self._waiting:
            if seat is not None and waiting.takes(seat):
                waiting.values.append(value)
            if not waiting.complete:
                still.append(waiting)
                continue
            for color in waiting.colors:
                self._draw(color, waiting.values)
        self._waiting = still

    def _draw(self, color: str, values: list[bytes]) -> None:
        """Make ``color``'s next draw with the public ``values`` it waited for."""
        number = self._draws[color]
        self._draws[color] += 1
        if color in self._bags:
            bag = self._bags[color]
            key = self._owner_key[color]
            tile = bag.pop(draw_index(self.game_id, color, number, key, values, len(bag),
                                      self.version))
            self.drawn[color].append(tile)
            self.racks[color].append(tile)


class _Waiting:
    """Draws of one seat's colours that wait for public values: the seats whose next value
    they still wait for (from version 3; None: the next value of any other seat), and those
    published so far (by the other seats)."""

    __slots__ = ("seat", "colors", "wanted", "values")

    def __init__(self, seat: int, colors: list[str], wanted: set[int] | None) -> None:
        self.seat = seat
        self.colors = colors
        self.wanted = wanted
        self.values: list[bytes] = []

    def takes(self, seat: int) -> bool:
        """Whether a value that ``seat`` publishes now is one these draws wait for."""
        if self.wanted is None:
            return seat != self.seat and not self.values
        if seat in self.wanted:
            self.wanted.discard(seat)
            return True
        return False

    @property
    def complete(self) -> bool:
        """Whether every value these draws wait for is published."""
        return bool(self.values) if self.wanted is None else not self.wanted


def bags_from_draws(drawn: Mapping[str, list[int]], colors: Iterable[str]) -> dict[str, list[int]]:
    """Bags for ``colors`` that give each the tiles ``drawn`` (its draws in order, starting rack
    first) and then the rest in tile order: enough to replay a game whose draws are known."""
    return {c: drawn[c] + [t for t in range(TILES_PER_COLOR) if t not in drawn[c]] for c in colors}
