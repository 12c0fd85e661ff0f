"""Checking the moves of a game with hidden racks: every draw, link, seal and pass against
the commitments and the keys known (revealed, or a player's own), and what stays unchecked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RecordError
from ..hidden.draws import (
    CHAIN_LENGTH,
    HiddenDeal,
    Stuck,
    chain,
    history_start,
    history_step,
    seal,
    stuck_tiles,
    surely_unforced,
)
from .hidden_fields import is_hex
from ..i18n import _ as gettext
from ..i18n import _ as gettext

if TYPE_CHECKING:
    from ..engine.game import Game, Player, Turn
    from ..engine.notation import Move
    from .entries import MoveEntry
    from .schema import Record

__all__ = ["HiddenCheck", "own_link", "commitment_of"]


class HiddenCheck:
    """Checks the moves of a hidden game as a replay plays them: the game has started, each
    link follows its player's chain, and, when the mover's key is known (revealed in the
    record, or given for a player's own view), each move fits the mover's rack and (from
    version 2) its seal is the mover's. ``errors`` holds the commitments that do not fit
    their first links. A revealed key that does not give its player's commitment is not used:
    it counts as not revealed (``unchecked`` says so)."""

    def __init__(self, record: Record, own: tuple[str, bytes] | None = None) -> None:
        hidden = record.hidden
        assert hidden is not None  # a game with hidden racks
        self.game_id = bytes.fromhex(hidden.game_id)
        self.version = hidden.version
        self.link_digits = hidden.link_digits
        self.errors: list[RecordError] = []
        values = [bytes.fromhex(value) for _, value in hidden.commitments]
        keys = {name: bytes.fromhex(value) for name, value in hidden.valid_reveals().items()}
        if own is not None:
            keys[own[0]] = own[1]
        self.keys = keys
        players = record.game_players()
        self.deal = HiddenDeal(self.game_id, players, keys, self.version)
        for joined in values:
            self.deal.join(joined)
        self.passes: dict[int, Stuck] = {}
        """What each pass was checked against, by the number of moves before it."""
        self.digest = history_start(self.game_id, record.variant, players, values,
                                    self.version, [p.email for p in record.players])
        self._next_digest = self.digest
        if self.version > 1:
            self.errors[:0] = _binding_errors(record, self.deal)

    def problem(self, game: Game, entry: MoveEntry, move: Move) -> str | None:
        """What is wrong with the next move (a MoveEntry, and its parsed Move), or None."""
        if not self.deal.started:
            waiting = [p.name for p in self.deal.players[self.deal.joined:]]
            return (gettext("the game has not started: {waiting} must join first (uptown join)")
                    .format(waiting=', '.join(waiting)))
        player = game.to_move
        if player is None or entry.color not in player.colors:
            return None  # the engine reports it
        digits = self.link_digits
        if entry.link is None or not is_hex(entry.link, digits):
            return (gettext("the move needs its link, {digits} hex digits (0-9, a-f)")
                    .format(digits=digits))
        link = bytes.fromhex(entry.link[:64])
        problem = self.deal.link_problem(player, link) or self._seal_problem(player, entry, link)
        if problem is not None:
            return problem
        stuck = None
        if move.is_pass:
            stuck = self.passes[game.ply] = stuck_tiles(game, player)
            if player.name not in self.keys:  # a known rack is checked exactly
                unforced = surely_unforced(game, player)
                if unforced is not None:
                    return unforced
        return self.deal.move_problem(player, entry.color, move, stuck=stuck)

    def _seal_problem(self, player: Player, entry: MoveEntry, link: bytes) -> str | None:
        """Version 2: what is wrong with the seal of a move whose mover's key is known."""
        if self.version == 1:
            return None
        self._next_digest = history_step(self.digest, entry.color, entry.text, link, self.version)
        key = self.keys.get(player.name)
        if key is not None and seal(self.game_id, key, self._next_digest,
                                    self.version).hex() != entry.link[64:]:  # type: ignore[index]
            return (gettext("the seal is not {name}'s: this move or an entry before it was changed "
                      "after {name} played it (compare copies with uptown diff)")
                    .format(name=player.name))
        return None

    def played(self, turn: Turn, entry: MoveEntry) -> None:
        """Feed a move the engine accepted."""
        self.digest = self._next_digest
        self.deal.act(turn.player, turn.color, turn.move, bytes.fromhex(entry.link[:64]))  # type: ignore[index]

    def follow(self, checked: HiddenCheck, turns: tuple[Turn, ...],
               entries: list[MoveEntry]) -> tuple[int, str] | None:
        """Check and feed the moves that another check of this record (``checked``, which
        knows fewer keys) saw played without a problem (``turns``, the engine's, and their
        ``entries``), without playing them again: only what the keys known here add is
        checked (seals, racks, and passes against what ``checked`` kept of each).  Stops at
        the first move with a problem: (its number, the problem); None when there is none."""
        for number, (turn, entry) in enumerate(zip(turns, entries), 1):
            stuck = checked.passes.get(number - 1)
            link = bytes.fromhex(entry.link[:64])  # type: ignore[index]  # checked on the public replay
            problem = (self._seal_problem(turn.player, entry, link)
                       or self.deal.move_problem(turn.player, turn.color, turn.move, stuck=stuck))
            if problem is not None:
                return number, problem
            self.played(turn, entry)
        return None


def _binding_errors(record: Record, deal: HiddenDeal) -> list[RecordError]:
    """Version 2: the first commitment that does not fit its player's first link (the first
    round of moves), checked before any move so that the entry is named at its own line."""
    hidden = record.hidden
    assert hidden is not None
    for seat, (name, _) in enumerate(hidden.commitments):
        if seat >= len(record.moves):
            break
        entry = record.moves[seat]
        player = deal.players[seat]
        if entry.color not in player.colors or entry.link is None or not is_hex(entry.link, 128):
            break
        problem = deal.link_problem(player, bytes.fromhex(entry.link[:64]))
        if problem is not None:
            return [RecordError(gettext("{problem} (first link: move {value})")
                                .format(problem=problem, value=seat + 1), path=record.path,
                                line=hidden.lines["commitments", name])]
    return []


def unrevealed_players(record: Record) -> list[str]:
    """The players whose draws nobody can check: no revealed key that gives their commitment."""
    assert record.hidden is not None
    revealed = record.hidden.valid_reveals()
    return [name for name in record.hidden.joined() if name not in revealed]


def unchecked(record: Record) -> list[str]:
    """What validation of a hidden game cannot check yet, one sentence per part."""
    hidden = record.hidden
    if hidden is None:
        return []
    notes = []
    joined = hidden.joined()
    waiting = [p.name for p in record.players if p.name not in joined]
    if waiting:
        notes.append(f"not started: {', '.join(waiting)} must join (uptown join)")
    revealed = hidden.valid_reveals()
    bad = dict(bad_reveals(record))
    for player in record.players:
        if player.name in joined and player.name not in revealed:
            note = (f"{player.name}'s draws ({', '.join(player.colors)}), until {player.name} "
                    "reveals")
            notes.append(note + (f" ({bad[player.name]})" if player.name in bad else ""))
    return notes


def bad_reveals(record: Record) -> list[tuple[str, str]]:
    """``(name, sentence)`` for each ``revealed`` entry that does not give its player's
    commitment: it counts as not revealed; the sentence names its line and says that the
    entry was not written by that player."""
    hidden = record.hidden
    assert hidden is not None
    return [(name, f"the key at line {hidden.lines['revealed', name]} does not give {name}'s "
                   f"commitment: that entry was not written by {name}, and counts as not "
                   "revealed") for name in hidden.bad_reveals()]


def early_reveals(record: Record) -> list[RecordError]:
    """A problem for each ``revealed`` entry of a game that is not over: a key is revealed
    only once its player's part of the game is over (the end of the game), so such an entry
    was written by hand. Called with a replay of the whole record that found it not over."""
    hidden = record.hidden
    assert hidden is not None
    return [RecordError(gettext("{name}'s key is revealed before the game is over: a key is revealed "
                          "only at the end (uptown reveal), so this entry was written by hand; "
                          "remove it").format(name=name), path=record.path, line=hidden.lines["revealed", name])
            for name, _ in hidden.revealed]


def own_link(record: Record, name: str, key: bytes, turn: int, color: str, move_text: str,
             digest: bytes) -> str:
    """The ``link`` ``name`` writes with their ``turn``-th turn (1-based), as hex: the chain
    link, and in version 2 the seal of the record's history (``digest``, the history before
    the move) with this move."""
    hidden = record.hidden
    assert hidden is not None
    if turn > CHAIN_LENGTH:
        raise RecordError(gettext("{name} has no link left for turn {turn}").format(name=name, turn=turn))
    game_id = bytes.fromhex(hidden.game_id)
    link = chain(game_id, name, key, hidden.version)[CHAIN_LENGTH - turn]
    if hidden.version == 1:
        return link.hex()
    after = history_step(digest, color, move_text, link, hidden.version)
    return link.hex() + seal(game_id, key, after, hidden.version).hex()


def commitment_of(record: Record, name: str, key: bytes) -> str:
    """The commitment ``name`` publishes with ``key`` when joining ``record`` now (hex)."""
    hidden = record.hidden
    assert hidden is not None
    return hidden.commitment_of(name, key, [value for _, value in hidden.commitments])
