"""Checking the moves of a game with hidden racks: every draw, link, seal and pass against
the commitments and the keys known (revealed, or a player's own), and what stays unchecked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..engine.geometry import shown_color
from ..engine.notation import FORFEIT, PASS
from ..engine.passes import Stuck, stuck_tiles, surely_unforced
from ..errors import RecordError
from .draws import (
    CHAIN_LENGTH,
    HiddenDeal,
    chain,
    history_start,
    history_step,
    seal,
    seal_secret,
)
from ..records.entries import STAMP_KEYS, TIMING_KEYS
from ..records.hidden_fields import SIGNED, is_hex
from .joins import bad_reveals as bad_reveal_names, hand_written_joins, reveal_line, valid_reveals
from ..i18n import _ as gettext
from ..i18n import names_list, ngettext

if TYPE_CHECKING:
    from ..engine.game import Game, Turn
    from ..engine.players import Player
    from ..engine.notation import Move
    from ..records.entries import MoveEntry, PauseEntry
    from ..records.schema import Record

__all__ = ["HiddenCheck", "JoinsCheck", "not_started", "own_link", "sealed_stamp", "sealed_pause",
           "unrevealed_players", "unchecked", "bad_reveals", "early_reveals"]


def not_started(waiting: list[str]) -> str:
    """The refusal of a turn in a game that some players (``waiting``) have not joined."""
    return ngettext("the game has not started: {waiting} must join first (uptown join)",
                    "the game has not started: {waiting} must join first (uptown join)",
                    len(waiting)).format(waiting=names_list(waiting))


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
        self._sealed = 1 < self.version < SIGNED
        """Versions 2 to 4: each move carries a seal of the history (from version 5 its writer's
        signature does that work: ``fairplay.signatures``)."""
        self.record = record
        self.errors: list[RecordError] = []
        values = [bytes.fromhex(value) for _, value in hidden.commitments]
        keys = {name: bytes.fromhex(value) for name, value in valid_reveals(hidden).items()}
        if own is not None:
            keys[own[0]] = own[1]
        self.keys = keys
        players = record.game_players()
        self.deal = HiddenDeal(self.game_id, players, keys, self.version,
                               {name: bytes.fromhex(key)
                                for name, key in hidden.signing_keys().items()})
        for joined in values:
            self.deal.join(joined)
        self.passes: dict[int, Stuck] = {}
        """What each pass was checked against, by the number of moves before it."""
        written = record.timing.written if record.timing is not None else {}
        self.digest = history_start(self.game_id, record.variant, players, values,
                                    self.version, [p.email for p in record.players],
                                    [written.get(key, "") for key in TIMING_KEYS])
        self._next_digest = self.digest
        self.previous_seal = b""
        """From version 3: the seal of the last move fed (what the next move's history
        hashes)."""
        self.seal_ok: dict[int, bool] = {}
        """Version 3: each move whose seal could be checked (its mover's next link is in the
        record, or their key is known), by number: whether it covers the history as it is."""
        self._fed = 0
        self._movers: dict[int, tuple[str, str, int]] = {}  # (name, colour, line) by number
        self._open: dict[str, tuple[int, bytes, bytes]] = {}  # each mover's last seal, unchecked
        self._named: tuple[int, str, bool] | None = None
        self._pauses = record.pauses if self._sealed and self.version > 3 else []
        self._paused = 0  # how many of ``_pauses`` the history holds
        self.victim: str | None = None
        """The mover of the first move whose seal does not cover the history (``forgery``)."""
        if self.version > 1:
            self.errors[:0] = _binding_errors(record, self.deal)
        self.errors += hand_written_joins(record)[0]

    def problem(self, game: Game, entry: MoveEntry, move: Move) -> str | None:
        """What is wrong with the next move (a MoveEntry, and its parsed Move), or None."""
        if not self.deal.started:
            waiting = [p.name for p in self.deal.players[self.deal.joined:]]
            return not_started(waiting)
        player = game.to_move
        if player is None or entry.color not in player.colors or entry.by is not None:
            return None  # the engine reports it; a pass for another: records.times
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
        if self.seal_ok.get(self._fed + 1) is False:
            return None  # not the move its mover sealed: its tile says nothing of their rack
        return self.deal.move_problem(player, entry.color, move, stuck=stuck)

    def forfeit_problem(self, game: Game, entry: MoveEntry) -> str | None:
        """What is wrong with a forfeit (``- COLOR: forfeit``), or None: a resignation (no
        ``by``) carries its player's link and seal, as a move does, which only their key
        makes; a forfeit written by another carries none (the clock and the late policy are
        checked by ``records.times``)."""
        if not self.deal.started:
            waiting = [p.name for p in self.deal.players[self.deal.joined:]]
            return not_started(waiting)
        player = game.to_move
        if player is None or entry.by is not None:
            return None
        if entry.link is None or not is_hex(entry.link, self.link_digits):
            return gettext("{name}'s forfeit has no link of theirs: a player resigns with "
                           "their own tool (uptown move forfeit --as {name}), which writes "
                           "it; this one was written by hand").format(name=player.name)
        link = bytes.fromhex(entry.link[:64])
        problem = self.deal.link_problem(player, link)
        if problem is not None:
            return gettext("{name}'s forfeit was not written by their tool "
                           "(written by hand?): {problem}").format(name=player.name,
                                                                   problem=problem)
        return self._seal_problem(player, entry, link)

    def forfeited(self, player: Player, entry: MoveEntry) -> None:
        """Feed a forfeit that ``forfeit_problem`` accepted: a resignation as a move that
        draws nothing; a forfeit written by another publishes nothing and is outside the
        seals' history (from version 4 it is in it, sealed by the next seal: ``_step_over``).
        Either way the player's draws stop (``HiddenDeal.leave``)."""
        if entry.by is not None:
            self._step_over(entry)
            self._fed += 1  # numbered as a move, sealed by nobody
            self.deal.leave(player, None)
            return
        self.digest = self._next_digest
        self._fed += 1
        if self._sealed and self.version > 2:
            sealed = bytes.fromhex(entry.link[64:])  # type: ignore[index]
            self._open[player.name] = (self._fed, sealed, self.digest)
            self.previous_seal = sealed
        self.deal.leave(player, bytes.fromhex(entry.link[:64]))  # type: ignore[index]

    def _seal_problem(self, player: Player, entry: MoveEntry, link: bytes) -> str | None:
        """Version 2: what is wrong with the seal of a move whose mover's key is known.
        Version 3: check every seal whose key is known now (this move's, when the mover's key
        is; the mover's previous one, whose key is this move's link); once a changed history
        is proven and the first seal over the change is checked, name who changed it."""
        if not self._sealed:
            return None
        number = self._fed + 1
        if self.version > 2:
            return self._seals(player, entry, link, number)
        self._next_digest = history_step(self.digest, entry.color, entry.text, link, self.version)
        key = self.keys.get(player.name)
        if key is not None and seal(self.game_id, key, self._next_digest,
                                    self.version).hex() != entry.link[64:]:  # type: ignore[index]
            return (gettext("the seal is not {name}'s: this move or an entry before it was changed "
                      "after {name} played it (compare copies with uptown diff)")
                    .format(name=player.name))
        return None

    def _seals(self, player: Player, entry: MoveEntry, link: bytes, number: int) -> str | None:
        """Version 3: ``_seal_problem``."""
        self._pauses_over()
        self._next_digest = history_step(self.digest, entry.color, entry.text, link,
                                         self.version, self.previous_seal,
                                         sealed_stamp(self.version, _stamp(entry)))
        self._movers[number] = (player.name, entry.color, entry.line)
        opened = self._open.get(player.name)
        if opened is not None:
            done, sealed, digest = opened
            self.seal_ok[done] = seal(self.game_id, link, digest, self.version) == sealed
        key = self.keys.get(player.name)
        if key is not None:
            turn = self.deal.turns[player.name] + 1
            secret = seal_secret(self.game_id, player.name, key, turn, self.version)
            if secret is not None:
                made = seal(self.game_id, secret, self._next_digest, self.version)
                self.seal_ok[number] = made.hex() == entry.link[64:]  # type: ignore[index]
        found = self.forgery(number)
        if found is None or not found[2]:
            return None
        self._named = found
        return found[1]

    def open_seal(self, name: str) -> int | None:
        """Version 3: the line of ``name``'s last move, whose seal nobody else can check yet
        (its key is their next link); None before their first move."""
        opened = self._open.get(name)
        return None if opened is None else self._movers[opened[0]][2]

    def forgery(self, last: int | None = None) -> tuple[int, str, bool] | None:
        """Version 3: ``(line, sentence, named)`` when a seal checked so far (up to move
        ``last``, by default every move fed) does not cover the history as it is: the first
        such move was changed (or an entry before it) after its mover sealed it, by the mover
        of the first later seal that covers the change (``named``: that seal is checked;
        else the sentence says whose seal is checked next, and when). None: no such seal.
        Without ``last`` (the whole record checked), a change that no seal checked covers, every
        later seal being checked, is named as made after the last one."""
        if last is None and self._named is not None:
            return self._named  # named while checking a move: the replay stopped there
        final, last = last is None, self._fed if last is None else last
        broken = [number for number, ok in self.seal_ok.items() if not ok and number <= last]
        if not broken:
            return None
        first = min(broken)
        self.victim = victim = self._movers[first][0]
        _, color, line = self._movers[first]
        said = {"number": first, "victim": victim, "color": shown_color(color)}
        between: list[str] = []
        for number in range(first + 1, last + 1):
            if number not in self._movers:
                continue  # a forfeit written for another player: nobody sealed it
            name = self._movers[number][0]
            ok = self.seal_ok.get(number)
            if ok and name == victim and between:  # the victim plays on: she did not make it
                return line, gettext(
                    "move {number} ({victim}'s {color}), or an entry before it, was changed "
                    "after {victim} played it: {victim}'s seal does not cover it, nor do the "
                    "seals after it to move {before}; {victim}'s own seal of move {later} is the "
                    "first that does: the change was made after move {before} was sealed, before "
                    "{victim} played on").format(before=number - 1, later=number, **said), True
            if ok:
                who = names_list(dict.fromkeys(between + [name]), "or")
                return line, (gettext(
                    "move {number} ({victim}'s {color}), or an entry before it, was changed "
                    "after {victim} played it: {victim}'s seal does not cover it; {name}'s seal "
                    "of move {later} is the first over the change: {who} changed it")
                    if not between else gettext(
                    "move {number} ({victim}'s {color}), or an entry before it, was changed "
                    "after {victim} played it: {victim}'s seal does not cover it; {name}'s seal "
                    "of move {later} is the first over the change, and the seals between do not "
                    "cover the history either: {who} changed it")).format(
                    name=name, later=number, who=who, **said), True
            if ok is None:
                return line, gettext(
                    "move {number} ({victim}'s {color}), or an entry before it, was changed after "
                    "{victim} played it: {victim}'s seal does not cover it; who changed it is "
                    "named when {name} plays next ({name}'s seal of move {later} is the next over "
                    "the change)").format(name=name, later=number, **said), False
            between.append(name)
        if final and last == len(self.record.moves):
            return line, gettext(
                "move {number} ({victim}'s {color}), or an entry before it, was changed after "
                "{victim} played it: {victim}'s seal does not cover it, nor does any seal after "
                "it: the change was made after the last move was sealed, by whoever held the file "
                "since").format(**said), True
        if final:
            return line, gettext(
                "move {number} ({victim}'s {color}), or an entry before it, was changed after "
                "{victim} played it: {victim}'s seal does not cover it, nor does any seal checked "
                "after it (to move {last}, where the replay stops)").format(last=last, **said), True
        return line, gettext(
            "move {number} ({victim}'s {color}), or an entry before it, was changed after "
            "{victim} played it: {victim}'s seal does not cover it; who changed it is named once "
            "the next move's seal is checked").format(**said), False

    def played(self, turn: Turn, entry: MoveEntry) -> None:
        """Feed a move the engine accepted (a pass written for another player: nobody
        sealed it, and no draw waits for its player this round: ``HiddenDeal.skip``; from
        version 4 the next seal covers it: ``_step_over``)."""
        if entry.by is not None:
            self._step_over(entry)
            self._fed += 1
            self.deal.skip(turn.player)
            return
        self.digest = self._next_digest
        self._fed += 1
        if self._sealed and self.version > 2:
            sealed = bytes.fromhex(entry.link[64:])  # type: ignore[index]
            self._open[turn.player.name] = (self._fed, sealed, self.digest)
            self.previous_seal = sealed
        self.deal.act(turn.player, turn.color, turn.move, bytes.fromhex(entry.link[:64]))  # type: ignore[index]

    def _step_over(self, entry: MoveEntry) -> None:
        """Version 4: an entry written by another for a player out of time (no link, no seal
        of its own) enters the history, with its stamp, so that the next seal covers it."""
        if self._sealed and self.version > 3:
            self._pauses_over()
            self.digest = history_step(
                self.digest, entry.color, entry.text, b"", self.version, self.previous_seal,
                sealed_stamp(self.version, _stamp(entry)))

    def _pauses_over(self) -> None:
        """Version 4: the pauses written since the last entry fed (``- blue: pause 3d``, not
        turns: no link, no seal, no draw) enter the history, in record order, with their
        ``at`` and ``from``, so that the next seal covers them."""
        while (self._paused < len(self._pauses)
               and self._pauses[self._paused].after <= self._fed):
            pause = self._pauses[self._paused]
            self.digest = history_step(
                self.digest, pause.color, pause.text, b"", self.version,
                self.previous_seal, sealed_pause(pause))
            self._paused += 1

    def history(self) -> tuple[bytes, bytes]:
        """What the next move's seal hashes: the history so far (from version 4 with the
        pauses written since the last entry fed) and the seal of the last sealed entry."""
        self._pauses_over()
        return self.digest, self.previous_seal

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
            problem = self._seal_problem(turn.player, entry, link)
            if problem is None and self.seal_ok.get(number) is not False:
                problem = self.deal.move_problem(turn.player, turn.color, turn.move, stuck=stuck)
            if problem is not None:
                return number, problem
            self.played(turn, entry)
        return None


class JoinsCheck:
    """Checks the moves of an open game signed by its players (``records.replay.MoveCheck``):
    none before every player has joined; the signatures are ``fairplay.signatures``'s."""

    def __init__(self, record: Record) -> None:
        assert record.joins is not None
        joined = record.joins.joined()
        self.waiting = [p.name for p in record.players if p.name not in joined]
        self.errors: list[RecordError] = []

    def problem(self, game: Game, entry: MoveEntry, move: Move) -> str | None:
        """Why a move cannot be played yet (not everyone has joined), or None."""
        return not_started(self.waiting) if self.waiting else None

    def forfeit_problem(self, game: Game, entry: MoveEntry) -> str | None:
        """As ``problem``, for a forfeit."""
        return self.problem(game, entry, PASS)

    def forfeited(self, player: Player, entry: MoveEntry) -> None:
        """Nothing to feed: the racks are public."""

    def played(self, turn: Turn, entry: MoveEntry) -> None:
        """Nothing to feed: the racks are public."""


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
        if (entry.color not in player.colors or entry.link is None or entry.text == FORFEIT
                or not is_hex(entry.link, hidden.link_digits)):
            break  # (a resignation's link is checked at its own line: forfeit_problem)
        problem = deal.link_problem(player, bytes.fromhex(entry.link[:64]))
        if problem is not None:
            return [RecordError(gettext("{problem} (first link: move {value})")
                                .format(problem=problem, value=seat + 1), path=record.path,
                                line=hidden.lines["commitments", name])]
    return []


def unrevealed_players(record: Record) -> list[str]:
    """The players whose draws nobody can check: no revealed key that gives their commitment."""
    assert record.hidden is not None
    revealed = valid_reveals(record.hidden)
    return [name for name in record.hidden.joined() if name not in revealed]


def unchecked(record: Record) -> list[str]:
    """What validation of a hidden game cannot check yet, one sentence per part."""
    hidden = record.hidden
    if hidden is None or hidden.void is not None:  # a void game: nothing to wait for
        return []
    notes = []
    joined = hidden.joined()
    waiting = [p.name for p in record.players if p.name not in joined]
    if waiting:
        notes.append(ngettext("not started: {waiting} must join (uptown join)",
                              "not started: {waiting} must join (uptown join)",
                              len(waiting)).format(waiting=names_list(waiting)))
    revealed = valid_reveals(hidden)
    bad = dict(bad_reveals(record))
    for player in record.players:
        if player.name in joined and player.name not in revealed:
            note = gettext("{name}'s draws ({colors}), until {name} reveals").format(
                name=player.name, colors=", ".join(map(shown_color, player.colors)))
            notes.append(note + (f" ({bad[player.name]})" if player.name in bad else ""))
    return notes


def bad_reveals(record: Record) -> list[tuple[str, str]]:
    """``(name, sentence)`` for each ``revealed`` entry that does not give its player's
    commitment: it counts as not revealed; the sentence names its line and says that the
    entry was not written by that player."""
    hidden = record.hidden
    assert hidden is not None
    return [(name, gettext("the key at line {line} does not give {name}'s commitment: that "
                           "entry was not written by {name}, and counts as not revealed").format(
        line=reveal_line(hidden, name), name=name)) for name in bad_reveal_names(hidden)]


def early_reveals(record: Record) -> list[RecordError]:
    """A problem for each ``revealed`` entry of a game that is not over: a key is revealed
    only once its player's part of the game is over (the end of the game), so such an entry
    was written by hand. Called with a replay of the whole record that found it not over."""
    hidden = record.hidden
    assert hidden is not None
    return [RecordError(gettext("{name}'s key is revealed before the game is over: a key is revealed "
                          "only at the end (uptown reveal), so this entry was written by hand; "
                          "remove it").format(name=name), path=record.path, line=reveal_line(hidden, name))
            for name in dict.fromkeys(name for name, _ in hidden.revealed)]


def own_link(record: Record, name: str, key: bytes, turn: int, color: str, move_text: str,
             digest: bytes, previous_seal: bytes = b"",
             stamp: Mapping[str, str] | None = None) -> str:
    """The ``link`` ``name`` writes with their ``turn``-th turn (1-based), as hex: the chain
    link, and from version 2 the seal of the record's history (``digest``, the history before
    the move; from version 3 with ``previous_seal``, the seal of the move before) with this
    move (in version 4 with its ``stamp`` as it will be written: ``sealed_stamp``)."""
    hidden = record.hidden
    assert hidden is not None
    sealed = 1 < hidden.version < SIGNED
    last = CHAIN_LENGTH - (1 if sealed and hidden.version > 2 else 0)  # versions 3, 4: the next link seals
    if turn > last:
        raise RecordError(gettext("{name} has no link left for turn {turn}").format(name=name, turn=turn))
    game_id = bytes.fromhex(hidden.game_id)
    link = chain(game_id, name, key, hidden.version)[CHAIN_LENGTH - turn]
    if not sealed:  # version 1; from version 5 the signature binds the history
        return link.hex()
    after = history_step(digest, color, move_text, link, hidden.version, previous_seal,
                         sealed_stamp(hidden.version, stamp or {}))
    secret = seal_secret(game_id, name, key, turn, hidden.version)
    assert secret is not None  # the turn is checked above
    return link.hex() + seal(game_id, secret, after, hidden.version).hex()


def sealed_stamp(version: int, stamp: Mapping[str, str | None]) -> list[tuple[str, str]]:
    """What a seal binds of an entry's stamp: in version 4 its ``at``, ``by`` and ``bot`` as
    written, those present, key then value, in that order; nothing before version 4."""
    if version < 4:
        return []
    return [(key, value) for key in STAMP_KEYS if (value := stamp.get(key)) is not None]


def sealed_pause(pause: PauseEntry) -> list[tuple[str, str]]:
    """What a seal of version 4 binds of a pause's stamp: its ``at`` then its ``from``, those
    present, key then value as written."""
    return [(key, value) for key, value in (("at", pause.at), ("from", pause.start))
            if value is not None]


def _stamp(entry: MoveEntry) -> dict[str, str | None]:
    """The stamp under ``entry``, by key (None: absent)."""
    return {"at": entry.at, "by": entry.by, "bot": entry.bot}
