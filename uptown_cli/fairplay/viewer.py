"""Who looks at a game: the player ``--as`` names, their key, their own view of a game with
hidden racks, and what they have seen of it.

A player's view of a hidden game is the record replayed with their key (from the record once
revealed, else from their key file, see ``fairplay.keys``): it knows their racks and no one
else's. Before a player acts on a file, the file must extend what they last saw of it
(``seen``); after, what they saw is kept. Errors are ``ViewerError``, ``KeyFileError`` and
``RecordError``, each one line.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine.moments import current_time, write_time
from ..errors import NOTHING_WRITTEN, KeyFileError, RecordError, ViewerError
from ..i18n import _
from ..records.names import player_named
from ..records.reading import read_file
from ..records.schema import Record
from .check import HiddenCheck
from .joins import key_gives, valid_reveals
from .keys import check_folder, has_key, keys_folder, load_key
from .memory import (
    first_change,
    first_changed_move,
    game_ident,
    load_seen,
    save_seen,
    snapshot,
    verified_names,
)
from .replay import replay

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..records.hidden_fields import HiddenFields

__all__ = [
    "HiddenView", "check_seen", "remember", "holds_key", "not_your_commitment",
    "player_key", "own_view", "player_view", "seal_alert"
]


class HiddenView(NamedTuple):
    """What a viewer knows of a game with hidden racks: the ``record`` (who joined, who
    revealed) and, for a player, their ``name`` and ``deal`` (their racks and the draws still
    to come); anyone else sees no rack."""

    record: Record
    name: str | None = None
    deal: Any = None
    alert: str | None = None
    """A change to the history that a seal this viewer can check proves, whose author no
    seal names yet (``fairplay.check.HiddenCheck.forgery``), as ``PATH:LINE: sentence``."""


def check_seen(record: Record, as_name: str, keys: str | None, writes: bool = True,
               rewrites_own_key: bool = False) -> str:
    """Refuse ``record`` unless it extends what player ``as_name`` last saw of it (their
    memory beside their keys); returns the player's name as the record writes it. ``writes``:
    whether the command would write the file (the refusal says that nothing was);
    ``rewrites_own_key``: the command writes the player's own revealed key (``reveal``). In a
    game whose entries are signed, every signature is checked too, before the game is played:
    a bad one is refused, naming its entry and signer (a change to what the player saw is
    told first, as it says what changed)."""
    name = player_named(record.players, as_name)
    folder = keys_folder(keys)
    seen = load_seen(folder, game_ident(record), name)
    if seen is None and record.hidden is None and record.moves:  # its first move is new here
        seen = load_seen(folder, game_ident(record, opening=True), name)
    change = seen and first_change(seen, record, name, rewrites_own_key)
    if change and seen and _sealed_change(seen, record, name, keys):
        return name  # the seals prove it, and name who made it: the view says so
    if change and _moved_on(record):
        raise ViewerError((_("{path} changed since it was read (the game moved on); nothing was "
                             "written") if writes else
                           _("{path} changed since it was read (the game moved on)"))
                          .format(path=record.path))
    if change:
        line, message = change
        raise ViewerError(_("{path}:{line}: {message}; nothing was written").format(
            path=record.path, line=line, message=message) if writes else
            f"{record.path}:{line}: {message}")
    if record.joins is not None and record.joins.signed:
        from .signatures import signature_problems  # (signed games only)

        bad = signature_problems(record, verified_names(seen))[0]
        if bad:
            said = bad[0].report_line()
            raise ViewerError(_(NOTHING_WRITTEN).format(reason=said) if writes else said)
    return name


def _sealed_change(seen: dict[str, Any], record: Record, name: str, keys: str | None) -> bool:
    """Whether the first entry that changed since ``name`` saw it is a move whose seal, checked
    with ``name``'s key (version 3), proves the change: the first seal that does not cover
    the history as it is now is that move's. Then the view names who changed it (or whose
    seal is checked next), and the player can play on: a refusal would freeze the game with
    nobody blamed."""
    if record.hidden is None or record.hidden.version < 3:
        return False
    number = first_changed_move(seen, record)
    if number is None:
        return False
    try:
        check = HiddenCheck(record, own=(name, player_key(record, name, keys)))
    except (KeyFileError, ViewerError, RecordError):
        return False
    replay(record, hidden=check)
    found = check.forgery()
    return found is not None and found[0] == record.moves[number - 1].line


def seal_alert(record: Record, check: HiddenCheck, viewer: str | None = None) -> str | None:
    """``check``'s change proven by a seal whose author no seal names yet, as ``PATH:LINE:
    sentence``; None when there is none (or its author is named: an error). To the
    ``viewer`` whose move it is, it says that they can play on."""
    found = check.forgery()
    if found is None or found[2]:
        return None
    if viewer and viewer == check.victim and check.open_seal(viewer) == found[0]:
        return _("{path}:{line}: {problem}; {name} can play on from this copy, which the others "
                 "hold: {name}'s next link shows the change to every tool").format(
            path=record.path, line=found[0], problem=found[1], name=viewer)
    return f"{record.path}:{found[0]}: {found[1]}"


def _moved_on(record: Record) -> bool:
    """Whether the file of ``record`` holds other text now (another player's command wrote it
    meanwhile, after this one read it)."""
    try:
        return read_file(record.path) != record.text
    except RecordError:
        return False


def remember(record: Record, name: str | None, keys: str | None) -> None:
    """Keep ``record`` as what ``name`` has seen (nothing without a name), with the
    signatures of a signed game verified so far (``fairplay.signatures.verifications``)."""
    if name is None:
        return
    try:
        folder, game = keys_folder(keys), game_ident(record)
        now = write_time(current_time(os.environ))
        before = load_seen(folder, game, name)
        seen = snapshot(record, before, now)
        if record.joins is not None and record.joins.signed:
            from .signatures import verifications  # (signed games only)

            seen["verified"] = verifications(record, verified_names(before))
        save_seen(folder, game, name, seen)
    except (KeyFileError, RecordError) as exc:
        raise KeyFileError(_("cannot remember what {name} saw: {exc}").format(name=name, exc=exc)) from None


def holds_key(folder: str, game_id: str, name: str) -> bool:
    """Whether ``folder`` (checked safe first) holds ``name``'s key for the game."""
    check_folder(folder)
    return bool(has_key(folder, game_id, name))


def _hidden(record: Record) -> HiddenFields:
    """The fair-play fields of ``record``, a game its players join (hidden racks, or an open
    game signed by its players)."""
    if record.joins is None:
        raise ViewerError(_("{path} is not a game with hidden racks").format(path=record.path))
    return record.joins


def not_your_commitment(record: Record, name: str, folder: str) -> str:
    """What to tell ``name``, who holds no key for a game the record says they joined."""
    line = _hidden(record).lines["commitments", name]
    return _("{path}:{line}: {name}'s commitment was not made with a key of yours (no key for "
             "this game in {folder}): if you did not join, someone else joined as {name}, and "
             "before the first move they can undo it (uptown join --undo --as {name}, with their "
             "keys); if you lost your key, {name} cannot play on. Start a new game (uptown new "
             "--hidden), or give the folder of your key with --keys").format(
        path=record.path, line=line, name=name, folder=folder)


def player_key(record: Record, name: str, keys: str | None, spent_ok: bool = False) -> bytes:
    """``name``'s key for this game: revealed in the record, else from their key file (a
    spent one too with ``spent_ok``: to reveal it again); checked against their
    commitment."""
    hidden = _hidden(record)
    if name not in hidden.joined():
        raise ViewerError(_("{name} has not joined {path} yet (uptown join)")
                          .format(name=name, path=record.path))
    revealed = valid_reveals(hidden).get(name)
    if revealed is not None:
        return bytes.fromhex(revealed)
    folder = keys_folder(keys)
    if not holds_key(folder, hidden.game_id, name):
        raise KeyFileError(not_your_commitment(record, name, folder))
    key: bytes = load_key(folder, hidden.game_id, name, spent_ok)
    if not key_gives(hidden, name, key):
        line = hidden.lines["commitments", name]
        names = hidden.joined()
        earlier = names[:names.index(name)] if hidden.version > 1 else []
        raise KeyFileError([
            _("{path}:{line}: {name}'s key file does not give {name}'s commitment: it was "
              "changed"),
            _("{path}:{line}: {name}'s key file does not give {name}'s commitment: it was "
              "changed, or a commitment before it ({a}'s) was changed after {name} joined"),
            _("{path}:{line}: {name}'s key file does not give {name}'s commitment: it was "
              "changed, or a commitment before it ({a}'s or {b}'s) was changed after {name} "
              "joined"),
            _("{path}:{line}: {name}'s key file does not give {name}'s commitment: it was "
              "changed, or a commitment before it ({a}'s, {b}'s or {c}'s) was changed after "
              "{name} joined"),
            _("{path}:{line}: {name}'s key file does not give {name}'s commitment: it was "
              "changed, or a commitment before it ({a}'s, {b}'s, {c}'s or {d}'s) was changed "
              "after {name} joined"),
        ][len(earlier)].format(path=record.path, line=line, name=name,
                               **dict(zip("abcd", earlier))))
    return key


def own_view(record: Record, name: str, key: bytes,
             upto: int | None = None) -> tuple[Game, HiddenCheck]:
    """``(game, check)``: the game after the record's moves (the first ``upto``), replayed with
    player ``name``'s key, whose ``check.deal`` knows that player's racks."""
    check = HiddenCheck(record, own=(name, key))
    result = replay(record, upto=upto, hidden=check)
    if result.errors:
        raise RecordError(_("{report_line} (the record is invalid)")
                          .format(report_line=result.errors[0].report_line()))
    return result.game, check


def player_view(record: Record, as_name: str, keys: str | None,
                upto: int | None = None) -> HiddenView:
    """What the player ``as_name`` names knows of a game with hidden racks after its first
    ``upto`` moves (all without), from their key."""
    name = player_named(record.players, as_name)
    key = player_key(record, name, keys)
    check = own_view(record, name, key, upto)[1]
    return HiddenView(record, name, check.deal, seal_alert(record, check, name))
