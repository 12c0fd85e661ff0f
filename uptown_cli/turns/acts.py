"""Every kind of turn a player writes into a game file, each one call on a game opened by
``game_files.open_game``: a move or a pass (``play_move``, at the ``Seat`` of the player to
move), a resignation (``resign``), a pass, a forfeit or a bot's move written for a player out of
time (``stand_in``), a vacation (``pause``); and the entries of a game with hidden racks:
joining (``join``), a join undone (``undo_join``), a key revealed (``reveal``).

Each checks the entry as ``uptown validate`` would, edits the record (``records.editing``),
writes it (``game_files.write``: locked, atomic, what the writer saw kept) unless it is a dry
run, and returns what it did; a refusal is a library error of one line that says nothing was
written. The modules of hidden racks, signatures, keys, clocks and bots are loaded by the
turns that need them: a move in an open game starts without them (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from ..engine.game import Game, Turn
from ..engine.players import Player
from ..engine.moments import write_time
from ..engine.notation import Move
from ..errors import (NOTHING_WRITTEN, IllegalMove, KeyFileError, NotationError, RecordError,
                      ViewerError)
from ..fairplay.replay import replay
from ..i18n import _, pgettext
from ..records.editing import (record_with_entry, record_with_language, record_with_move, record_with_pause,
                               record_without_entry)
from ..engine.notation import FORFEIT
from ..records.entries import MoveEntry, PauseEntry
from ..records.names import player_named
from ..records.safe_file import replace_record
from ..records.schema import Record
from .bot_games import check_hand_move
from .game_files import OpenGame, open_record, replayed, write
from .own_turn import OwnTurn, own_turn, player_to_move, seen_at_turn, take_turn

if TYPE_CHECKING:
    from ..fairplay.viewer import HiddenView

__all__ = ["Seat", "seat_to_move", "Played", "play_move", "Written", "resign", "stand_in",
           "Paused", "pause", "Joined", "join", "Undone", "undo_join", "Revealed", "reveal"]


OnWait = Callable[[], None] | None
"""Called once when another writer has held the file for a while (``records.file_lock``)."""


def signing_key(record: Record, name: str, keys: str | None) -> bytes | None:
    """The private signing key of ``name`` (from their key folder, ``keys``) in a game whose
    entries are signed; None in any other."""
    if record.joins is None or not record.joins.signed:
        return None
    from ..fairplay.keys import keys_folder, load_signing_key

    return load_signing_key(keys_folder(keys), record.joins.game_id, name)


def entry_signature(record: Record, seed: bytes | None,
                    entry: MoveEntry | PauseEntry) -> str | None:
    """The signature (hex) with the private key ``seed`` of ``entry`` appended among the moves
    of ``record``: over the entry as it will be written and the history before it
    (``fairplay.signatures``); None without a key (a game whose entries are not signed)."""
    if seed is None:
        return None
    from ..fairplay.signatures import entry_digest, entry_fields, history_end, sign

    digest = entry_digest(history_end(record), entry.color, entry.text, entry_fields(entry))
    return sign(seed, digest).hex()


def _writing(opened: OpenGame) -> str:
    """The name of the player who opened a game whose entries are signed: their key signs what
    they write, so they must name themselves."""
    if opened.as_name is None:
        raise ViewerError(_("every entry of {path} is signed by its writer: run it with --as "
                            "NAME (your key signs it); nothing was written").format(
            path=opened.record.path))
    return player_named(opened.record.players, opened.as_name)


# -- a move or a pass ------------------------------------------------------------------------


class Seat(NamedTuple):
    """The player to move at an opened game: ``player`` (the engine's), the ``game`` as they
    see it (with hidden racks: their own racks, the others' imagined to fit the moves), and
    their own view of it (``own``: None in an open game)."""

    player: Player
    game: Game
    own: OwnTurn | None


def seat_to_move(opened: OpenGame, rack: str | None = None, bot: str | None = None) -> Seat:
    """The ``Seat`` of the player to move, refusing a finished game, another player's turn
    (when ``opened`` names a player), a ``rack`` that is not theirs, and a move by hand (no
    ``bot`` chooses it) at a seat the record gives a bot (``bot_games.check_hand_move``)."""
    player = player_to_move(opened.game, opened.as_name, opened.record.path)
    check_hand_move(opened, player, bot)
    if rack is not None and rack not in player.colors:
        raise ViewerError(_("{name} plays {colors}, not {rack}").format(
            name=player.name, colors=" and ".join(player.colors), rack=rack))
    game, own = seen_at_turn(opened.record, opened.game, opened.as_name, opened.keys)
    return Seat(player, game, own)


class Played(NamedTuple):
    """A move or pass played: ``turn`` (the engine's), the ``link`` written with it (None in
    an open game), the ``record`` written (None: a dry run), the ``game`` after it, and in a
    game with hidden racks what its player sees after it (``view``: the draw is still to
    come)."""

    turn: Turn
    link: str | None
    record: Record | None
    game: Game
    view: HiddenView | None


def play_move(opened: OpenGame, seat: Seat, chosen: Move, rack: str | None = None, *,
              now: datetime, dry_run: bool = False, on_wait: OnWait = None) -> Played:
    """Play ``chosen`` (from ``rack``, when the player has two) for the player at ``seat`` and
    append it to the file, dated ``now``."""
    stamp = {"at": write_time(now)}  # known before the link: the seal covers it
    try:
        turn, link = take_turn(seat.game, chosen, rack, seat.own, stamp)
    except IllegalMove as exc:
        raise IllegalMove(exc.reason, _(NOTHING_WRITTEN).format(reason=exc)) from None
    except NotationError as exc:
        raise NotationError(_(NOTHING_WRITTEN).format(reason=exc)) from None
    written = None
    if not dry_run:
        record = opened.record
        seed = signing_key(record, _writing(opened), opened.keys) if _signed(record) else None
        entry = MoveEntry(turn.color, str(turn.move), 0, link, None, stamp["at"])
        new = record_with_move(record, turn.color, str(turn.move), opened.path, link, stamp,
                               entry_signature(record, seed, entry))
        written = write(opened, new, on_wait)
    view = seat.own.view_after(turn, link) if seat.own is not None and link is not None else None
    return Played(turn, link, written, seat.game, view)


# -- resigning, and turns written for a player out of time ---------------------------------


class Written(NamedTuple):
    """A turn written as a pass or a forfeit (or a bot's move) rather than played at the board:
    its ``number``, the ``player`` whose turn it was, the ``color`` and ``action`` written
    (``pass``, ``forfeit``, or the bot's move), who wrote it for them (``by``: None for a
    resignation) and with which ``bot``, the ``record`` it makes (written unless a dry run)
    and the ``game`` after it."""

    number: int
    player: Player
    color: str
    action: str
    by: str | None
    bot: str | None
    record: Record
    game: Game


def resign(opened: OpenGame, *, now: datetime, dry_run: bool = False,
           on_wait: OnWait = None) -> Written:
    """The player to move (the one ``opened`` names, when it names one) forfeits, dated ``now``;
    in a game with hidden racks with the link their key makes."""
    record = opened.record
    player = player_to_move(opened.game, opened.as_name, record.path)
    stamp = {"at": write_time(now)}
    link = None
    if record.hidden is not None:
        link = own_turn(record, opened.game, opened.as_name, opened.keys).link(
            player.colors[0], FORFEIT, stamp)
    seed = signing_key(record, _writing(opened), opened.keys) if _signed(record) else None
    return _written(opened, player, player.colors[0], FORFEIT, stamp, link, seed, dry_run,
                    on_wait)


def stand_in(opened: OpenGame, for_name: str, action: str, *, now: datetime,
             bot: str | None = None, dry_run: bool = False, on_wait: OnWait = None) -> Written:
    """The player who opened the file writes ``for_name``'s turn, ``pass`` or ``forfeit``
    (``action``), or ``bot``'s move for them, dated ``now``: allowed once ``for_name`` is out of
    time, as the game's clock and late policy say (checked as ``validate`` checks it)."""
    record = opened.record
    if opened.as_name is None:
        raise ViewerError(_("the record says who wrote a turn for another: name yourself (--as "
                            "ME)"))
    if record.hidden is not None and bot is not None:
        raise ViewerError(_("nobody can play a move for another player in a game with hidden "
                            "racks (their rack is theirs alone): pass or forfeit for them; "
                            "nothing was written"))
    player = player_to_move(opened.game, for_name, record.path)
    writer = player_named(record.players, opened.as_name)
    stamp = {"at": write_time(now), "by": writer}
    color = player.colors[0]
    if bot is not None:
        policy = record.timing.late.bot if record.timing is not None else None
        if bot != policy:
            raise ViewerError(_("this game's late policy lets {policy} play for a late player, "
                                "not {bot}; nothing was written").format(
                policy=policy or _("no bot"), bot=bot))
        from ..analysis.stand_ins import stand_in_move

        color, action = stand_in_move(record, opened.game, bot, len(record.moves) + 1)
        stamp["bot"] = bot
    return _written(opened, player, color, action, stamp, None,
                    signing_key(record, writer, opened.keys), dry_run, on_wait)


def _signed(record: Record) -> bool:
    """Whether the entries of ``record`` are signed by their writers (protocol 5)."""
    return record.joins is not None and record.joins.signed


def _written(opened: OpenGame, player: Player, color: str, action: str, stamp: dict[str, str],
             link: str | None, seed: bytes | None, dry_run: bool, on_wait: OnWait) -> Written:
    """The entry ``color: action`` (``stamp`` and ``link`` under it, signed with ``seed``)
    appended to ``opened``, checked as ``validate`` checks it, and written unless
    ``dry_run``."""
    entry = MoveEntry(color, action, 0, link, None, stamp.get("at"), stamp.get("by"),
                      stamp.get("bot"))
    after = record_with_move(opened.record, color, action, opened.record.path, link, stamp,
                             entry_signature(opened.record, seed, entry))
    result = replay(after)
    if result.errors:
        raise RecordError(_(NOTHING_WRITTEN).format(reason=result.errors[0].message))
    if not dry_run:
        write(opened, after, on_wait)
    return Written(len(after.moves), player, color, action, stamp.get("by"), stamp.get("bot"),
                   after, result.game)


# -- vacations -------------------------------------------------------------------------------


class Paused(NamedTuple):
    """A vacation written: whose (``name``), when it begins and ends, how many days of
    vacation they have ``left`` after it, and the ``record`` written."""

    name: str
    begins: datetime
    end: datetime
    left: int
    record: Record


def pause(opened: OpenGame, days: int, *, now: datetime, begins: datetime | None = None,
          on_wait: OnWait = None) -> Paused:
    """The player who opened the file takes ``days`` of vacation from ``begins`` (default:
    ``now``, when it is written), as the game's clock and vacation allow: refused when it
    overlaps another, is more than they have left, or they are out of time already."""
    from ..engine.clock import Pause
    from ..engine.late import pause_problem
    from ..records.times import timeline

    record = opened.record
    name = player_named(record.players, opened.as_name or "")
    timing = record.timing
    if timing is None or timing.clock is None:
        raise RecordError(_("this game has no clock: there is no time to stop"))
    line = timeline(timing, record.moves, record.owners, pauses=record.pauses)
    wanted = Pause(name, now, days, begins)
    to_move = opened.game.to_move.name if opened.game.to_move is not None else None
    problem = pause_problem(timing.vacation, timing.clock, line, wanted, to_move)
    if problem is not None:
        raise RecordError(_(NOTHING_WRITTEN).format(reason=problem))
    color = next(p.colors[0] for p in record.players if p.name == name)
    stamp = {"at": write_time(now)}
    if begins is not None:
        stamp["from"] = write_time(begins)
    entry = PauseEntry(len(record.moves), color, days, stamp["at"], stamp.get("from"), 0)
    sig = entry_signature(record, signing_key(record, name, opened.keys), entry)
    written = write(opened, record_with_pause(record, color, days, opened.path, stamp, sig),
                    on_wait)
    left = timing.vacation.left(line, name, wanted.begins) - days if timing.vacation else 0
    return Paused(name, wanted.begins, wanted.end, left, written)


# -- disputes ---------------------------------------------------------------------------------


class Disputed(NamedTuple):
    """A dispute written: whose (``name``), the move disputed (``number``), whether it settles
    it, and the ``record`` written."""

    name: str
    number: int
    settled: bool
    record: Record


def dispute(opened: OpenGame, number: int | None = None, *, settle: bool = False,
            now: datetime, on_wait: OnWait = None) -> Disputed:
    """The player who opened the file disputes move ``number`` (default: the newest entry
    another player wrote for them, out of time, not disputed yet), or with ``settle`` settles their dispute of
    it, dated ``now`` and, in a game whose entries are signed, signed by them: checked as
    ``validate`` checks it. Refused in a game under a club judge (the judge keeps the time)."""
    from ..fairplay.signatures import dispute_digest, sign, signed_entries
    from ..records.disputes import dispute_errors, dispute_text, open_disputes, written_for
    from ..records.editing import record_with_dispute

    record = opened.record
    name = player_named(record.players, opened.as_name or "")
    if number is None:
        already = [d.number for d in open_disputes(record.disputes) if d.name == name]
        mine = already if settle else [n for n in written_for(record, name)
                                       if n not in already]
        if not mine:
            raise RecordError(_(NOTHING_WRITTEN).format(reason=(
                _("{name} has no dispute to settle") if settle else
                _("no entry of {path} was written for {name} by another player")).format(
                    name=name, path=record.path)))
        number = mine[-1]
    at = write_time(now)
    sig = None
    seed = signing_key(record, name, opened.keys) if _signed(record) else None
    if seed is not None:
        disputed = next((e.digest for e in signed_entries(record) if e.move == number), b"")
        sig = sign(seed, dispute_digest(disputed, name, dispute_text(number, settle), at)).hex()
    after = record_with_dispute(record, name, number, settle, at, sig)
    errors = dispute_errors(after)
    if errors:
        raise RecordError(_(NOTHING_WRITTEN).format(reason=errors[-1].message))
    return Disputed(name, number, settle, write(opened, after, on_wait))


# -- joining a game with hidden racks, and revealing a key ------------------------------------


class Joined(NamedTuple):
    """A player joined: their ``name``, the ``key_file`` made for them, who joins next (None:
    everyone has joined) and the ``record`` written."""

    name: str
    key_file: str
    following: str | None
    record: Record


def _hidden_record(path: str) -> Record:
    """The record at ``path``, refused unless it is a game with hidden racks."""
    record = open_record(path)
    if record.hidden is None:
        raise ViewerError(_("{path} is not a game with hidden racks (uptown new --hidden makes "
                            "one)").format(path=record.path))
    return record


def _joined_record(path: str) -> Record:
    """The record at ``path``, refused unless its players join it (hidden racks, or an open
    game signed by its players)."""
    record = open_record(path)
    if record.joins is None:
        raise ViewerError(_("{path} is not a game its players join: uptown new --hidden makes one "
                            "with hidden racks, uptown new --signed an open one whose entries "
                            "are signed").format(path=record.path))
    return record


def protocol_line(record: Record) -> int:
    """The line of ``protocol:`` in ``record`` (of ``hidden:`` when there is none: version 1)."""
    root = record.parsed()
    pair = root.get("protocol") or root.get("hidden")
    return pair[0].line if pair is not None else 1


def join(path: str, as_name: str, keys: str | None = None, *, older: bool = False,
         lang: str | None = None, on_wait: OnWait = None) -> Joined:
    """``as_name`` joins the game with hidden racks at ``path``: a new secret key in a file of
    their own (in ``keys``, default their key folder), and its commitment in the record. Players
    join in turn order; a game of a protocol older than the latest only with ``older`` (every
    player agreed to it). ``lang``: the language of the mail they get, written under their
    name in the same write."""
    from ..fairplay.draws import JOINABLE
    from ..fairplay.joins import commitment_of
    from ..fairplay.keys import create_key, keys_folder, load_signing_key, remove_key
    from ..fairplay.signatures import join_digest, joins_end, public_key, sign
    from ..fairplay.viewer import check_seen, holds_key, not_your_commitment, remember
    from ..records.hidden_fields import LATEST, PROTOCOLS, Signature

    record = _joined_record(path)
    hidden = record.joins
    assert hidden is not None  # _joined_record refuses a record without
    if hidden.version < JOINABLE:
        raise ViewerError(_("{path} uses {PROTOCOLS}, in which a player can re-roll their "
                            "starting rack; it can be played and checked, but not joined: start "
                            "a new game (uptown new --hidden)").format(
            path=record.path, PROTOCOLS=PROTOCOLS[hidden.version - 1]))
    if hidden.version < LATEST and not older:
        raise ViewerError(_("{path}:{line}: the game uses {used}, older than {latest} (what "
                            "uptown new makes): anyone who held the file could have changed it; "
                            "join only if every player agreed (--older-protocol); nothing was "
                            "written").format(path=record.path, line=protocol_line(record),
                                              used=PROTOCOLS[hidden.version - 1],
                                              latest=PROTOCOLS[LATEST - 1]))
    name = player_named(record.players, as_name)
    joined = hidden.joined()
    folder = keys_folder(keys)
    if name not in joined and holds_key(folder, hidden.game_id, name):
        raise KeyFileError(_("this game id was used before: you hold a key for it that {path} "
                             "does not commit to; a key serves one game, so ask for a new game "
                             "(uptown new --hidden); nothing was written").format(
            path=record.path))
    check_seen(record, name, keys)
    if name in joined and not holds_key(folder, hidden.game_id, name):
        raise KeyFileError(not_your_commitment(record, name, folder))
    if name in joined:
        raise ViewerError(_("{name} has already joined {path}").format(name=name,
                                                                       path=record.path))
    names = [p.name for p in record.players]
    if name != names[len(joined)]:
        raise ViewerError(_("players join in turn order: {names} joins next, not {name}; "
                            "nothing was written").format(names=names[len(joined)], name=name))
    key, key_file = create_key(folder, hidden.game_id, name)
    try:
        signature, pub = Signature(), None
        if hidden.signed:
            seed = load_signing_key(folder, hidden.game_id, name)
            pub = public_key(seed).hex()
        value = commitment_of(hidden, name, key, signing_key=pub)
        if pub is not None:
            digest = join_digest(joins_end(record), name, value, pub)
            signature = Signature(pub, sign(seed, digest).hex())
        new = record_with_entry(record, "commitments", name, value, path, signature)
        if lang is not None:
            new = record_with_language(new, name, lang)
        replace_record(path, new, record, on_wait)
    except BaseException:  # the commitment was not written: the key made for it is not kept
        remove_key(folder, hidden.game_id, name)
        raise
    remember(new, name, keys)
    following = names[len(joined) + 1] if len(joined) + 1 < len(names) else None
    return Joined(name, key_file, following, new)


class Undone(NamedTuple):
    """A join undone: whose (``name``), the ``line`` of the commitment taken out, and the
    ``record`` written."""

    name: str
    line: int
    record: Record


def undo_join(path: str, as_name: str, keys: str | None = None, *,
              on_wait: OnWait = None) -> Undone:
    """Take back ``as_name``'s join before the first move, publishing its key under
    ``withdrawn:`` so that every player's tool sees who made the change (only whoever made the
    join holds its key); the key file is removed (the key is public now). Only the last join
    can be undone."""
    from ..fairplay.keys import keys_folder, load_signing_key, remove_key
    from ..fairplay.signatures import header_digest, sign, withdraw_digest
    from ..fairplay.viewer import check_seen, player_key, remember
    from ..records.hidden_fields import Signature

    record = _joined_record(path)
    hidden = record.joins
    assert hidden is not None
    name = check_seen(record, as_name, keys)
    joined = hidden.joined()
    if name not in joined:
        raise ViewerError(_("{name} has not joined {path}: there is no join to undo; nothing was "
                            "written").format(name=name, path=record.path))
    if record.moves:
        raise ViewerError(_("the first move of {path} is played: a join cannot be undone any "
                            "more (it would deal new racks); nothing was written").format(
            path=record.path))
    if joined[-1] != name:
        raise ViewerError(_("{joined} joined after {name}: only the last join can be undone "
                            "({joined} undoes theirs first); nothing was written").format(
            joined=joined[-1], name=name))
    key = player_key(record, name, keys)
    line = hidden.lines["commitments", name]
    signature = Signature()
    if hidden.signed:
        pub = hidden.signing_keys()[name]
        digest = withdraw_digest(header_digest(record), name, key.hex(), pub)
        seed = load_signing_key(keys_folder(keys), hidden.game_id, name)
        signature = Signature(pub, sign(seed, digest).hex())
    without = record_without_entry(record, "commitments", name)
    new = record_with_entry(without, "withdrawn", name, key.hex(), record.path, signature)
    replace_record(path, new, record, on_wait)
    remove_key(keys_folder(keys), hidden.game_id, name)
    remember(new, name, keys)
    return Undone(name, line, new)


class Revealed(NamedTuple):
    """A key revealed: whose (``name``), the line of the entry it replaced (one that did not
    give their commitment; None: none), who is ``left`` to reveal, and the ``record``
    written."""

    name: str
    replaced: int | None
    left: list[str]
    record: Record


def reveal(path: str, as_name: str, keys: str | None = None, *, on_wait: OnWait = None,
           warn: Callable[[str], None] | None = None) -> Revealed:
    """``as_name`` publishes their key once the game is over, so that all can check their
    draws; the key file is then marked spent (never used in another game). ``warn`` is given
    each warning of the replay (a change the seals prove whose author is not named yet)."""
    from ..fairplay.joins import reveal_line, valid_reveals
    from ..fairplay.keys import keys_folder, load_signing_key, mark_spent
    from ..fairplay.signatures import history_end, reveal_digest, sign
    from ..fairplay.viewer import check_seen, own_view, player_key, remember
    from ..records.hidden_fields import Signature

    record = _hidden_record(path)
    hidden = record.hidden
    assert hidden is not None
    name = check_seen(record, as_name, keys, rewrites_own_key=True)
    warnings: list[str] = []
    game = replayed(record, warnings=warnings)
    if warn is not None:
        for line in warnings:
            warn(line)
    if not game.finished:
        raise ViewerError(_("the game is not over: a key is revealed only at the end (it shows "
                            "every rack and draw of its player); nothing was written"))
    if name in valid_reveals(hidden):
        raise ViewerError(_("{name} has already revealed their key in {path}; nothing was "
                            "written").format(name=name, path=record.path))
    key = player_key(record, name, keys, spent_ok=True)
    own_view(record, name, key)
    replaced = reveal_line(hidden, name)
    signature = Signature()
    if hidden.signed:
        seed = load_signing_key(keys_folder(keys), hidden.game_id, name)
        digest = reveal_digest(history_end(record), name, key.hex())
        signature = Signature(None, sign(seed, digest).hex())
    new = record_with_entry(record, "revealed", name, key.hex(), path, signature)
    replace_record(path, new, record, on_wait)
    mark_spent(keys_folder(keys), hidden.game_id, name)
    remember(new, name, keys)
    left = [n for n in hidden.joined() if n != name and n not in valid_reveals(hidden)]
    return Revealed(name, replaced, left, new)


def said_action(action: str) -> str:
    """A turn written for a player as people say it: ``forfeits``, ``passes`` (a bot's move as
    written)."""
    return {FORFEIT: pgettext("a player", "forfeits"),
            "pass": pgettext("a player", "passes")}.get(action, action)
