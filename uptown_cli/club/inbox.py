"""Receiving a game by email: compare the game a message carries (``club.mime``) with the
local copy, and save it when it is the same game carried further.

``receive`` compares the game with the local copy (``compare.compare_records``, as ``uptown
diff`` does) and writes only a copy that extends it (``records.safe_file.replace_record``,
locked and atomic as ``move`` writes), the local copy with the received revealed keys of a
hidden game merged into it (``compare.hidden_progress``), or a new game that validates, never
over a file (``records.safe_file.create_record``); a copy that rewrites the history, changes an
address or is another game is refused and kept beside the local one (``kept_path``, as a new
record is written). It says
when the message is not from the player who made the newest entry of the copy it takes
(``sender_warning``): a warning, not a refusal, since anyone can write any From header.
``progress`` ranks the copies of a mailbox (``club.boxes.best_copy``).
"""

from __future__ import annotations

import os
import re
from typing import Callable, NamedTuple

from ..engine.game import Game, same_name
from ..engine.notation import parse_move
from ..engine.words import Word
from ..errors import NOTHING_WRITTEN, MailError, RecordError
from ..fairplay.copies import Comparison, Progress, Relation, compare_records, hidden_progress
from ..fairplay.joins import valid_reveals
from ..fairplay.keys import has_key, keys_folder
from ..fairplay.memory import missing_entry, signed_snapshot
from ..fairplay.signatures import first_kept_missing, header_digest, signed_entries, unstamped
from ..i18n import _, ngettext
from ..i18n import _ as gettext
from ..pictures.tile_names import move_label
from ..records.reading import load_record
from ..records.safe_file import create_record, holds, replace_record
from ..records.schema import Record
from ..turns.validation import validate_record
from .headers import address_key
from .mime import Attached

__all__ = ["KEPT_COPY", "Outcome", "progress", "receive", "Received"]


# -- comparing and saving ------------------------------------------------------------------

class Outcome(Word):
    """What ``receive`` did with a copy."""

    SAVED_NEW = "saved-new"
    """A new game saved (there was no local copy)."""
    EXTENDED = "extended"
    """The local copy carried further (or merged with the received keys)."""
    SAME = "same"
    """The local copy holds the received one already: nothing written."""
    OLDER = "older"
    """The received copy is older than the local one: nothing written."""

MAX_KEPT = 100
"""How many refused copies of one game ``receive`` keeps beside it (``kept_path``)."""


class Received(NamedTuple):
    """What ``receive`` did: ``outcome``, where, what it says, and what it warns of
    (``sender_warning``)."""

    outcome: Outcome
    path: str
    message: str
    warnings: tuple[str, ...] = ()

    @property
    def written(self) -> bool:
        """Whether the game file was written (a new game, or a copy carried further)."""
        return self.outcome in (Outcome.SAVED_NEW, Outcome.EXTENDED)

    def to_json(self) -> dict[str, object]:
        """What ``receive --json`` prints of it."""
        return {"outcome": self.outcome, "path": self.path, "written": self.written,
                "message": self.message, "warnings": list(self.warnings)}


def receive(game: Attached, local_path: str, shown: str,
            on_wait: Callable[[], None] | None = None,
            received: Record | None = None, keys: str | None = None) -> Received:
    """Compare ``game`` with the local copy at ``local_path`` and save it when it extends it
    (or when there is no local copy and it validates). MailError or RecordError (one line)
    when it is invalid (nothing written), or when it rewrites the history or is another game
    (the local copy unchanged, the received one kept beside it, see ``kept_path``).
    ``received``: ``game.record()``, when the caller has read it already; ``keys``: the key
    folder of whoever receives it (``receiver``)."""
    if received is None:
        received = game.record()
    played = _valid_game(received)
    judged = received.joins is not None and received.joins.judge is not None
    if judged:
        _stamped_throughout(received)
    if not os.path.lexists(local_path):

        create_record(local_path, received.text)
        return Received(Outcome.SAVED_NEW, shown, _("Saved {path}: a new game, {moves}; {waiting}.").format(
                        path=shown, moves=_moves(len(received.moves)),
                        waiting=_waiting(received, played)),
                        _warned(sender_warning(game, None, received)))
    local = load_record(local_path, shown)
    if judged and local.joins is not None and local.game_id == received.game_id:
        return _judges_copy(local, received, local_path, shown, played, on_wait)
    missing = missing_entry(signed_snapshot(local), received, receiver(local, keys))
    if missing is not None:  # a signed entry of the local copy gone (protocol 5)
        raise _refused(f"{received.path}:{missing[0]}: {missing[1]}", received, local_path, shown)
    comparison = compare_records(local, received, valid=received)
    if comparison.relation not in (Relation.IDENTICAL, Relation.EXTENDS):
        raise _refused(comparison.message(), received, local_path, shown)
    hidden = hidden_progress(local, received)
    news = hidden.news
    if comparison.relation == Relation.IDENTICAL and hidden.state == Progress.SAME:
        return Received(Outcome.SAME, shown, _("{path} already holds this copy of the game ({moves}); "
                                       "nothing was written.").format(
                        path=shown, moves=_moves(len(local.moves))))
    further_here = comparison.longer == "a"  # yet it may bring disputes to merge
    if _brings_nothing(comparison, hidden.state):
        return _older(shown)
    if comparison.relation == Relation.EXTENDS and not further_here:
        news = ", ".join(filter(None, [_new_moves(local, received), news]))

    # the game as written: the local copy's moves, with the received disputes, when further
    after, after_game = (local, _valid_game(local)) if further_here else (received, played)
    replace_record(local_path, hidden.text or received, local.text, on_wait)
    return Received(Outcome.EXTENDED, shown, _("Saved {path}: {news}; {waiting}.").format(
                    path=shown, news=news, waiting=_waiting(after, after_game)),
                    _warned(sender_warning(game, local, received)))


def _judges_copy(local: Record, received: Record, local_path: str, shown: str, played: Game,
                 on_wait: Callable[[], None] | None) -> Received:
    """Take ``received``, a copy of a game under a club judge, over ``local``, a copy of the
    same game: the judge's copy is the game (its entries all stamped: ``_stamped_throughout``).
    Refused (MailError, one line) unless it has ``local``'s header and holds every entry of
    ``local`` the judge stamped; an older copy of the judge's changes nothing. The entries of
    ``local`` the judge has not stamped (the receiver's own, sent to the judge) may be in it,
    stamped, or not (the judge refused them, or has not had them yet: the local copy is then
    kept beside it)."""
    if header_digest(local) != header_digest(received):
        raise _refused(gettext("{path}: its header (the players, their addresses, the seed or "
                               "the clock) is not your copy's: it was changed").format(
            path=received.path), received, local_path, shown)
    gone = first_kept_missing(local, received, stamped_only=True)
    if gone is not None and first_kept_missing(received, local, stamped_only=True) is None:
        return _older(shown)
    if gone is not None:
        raise _refused(gettext("{path}: {what}, stamped by the judge in your copy, is not in "
                               "this one as the judge stamped it").format(
            path=received.path, what=gone.what), received, local_path, shown)
    if received.text == local.text:
        return Received(Outcome.SAME, shown, _("{path} already holds this copy of the game "
                                               "({moves}); nothing was written.").format(
            path=shown, moves=_moves(len(local.moves))))
    taken = {entry.sig for entry in signed_entries(received)}
    dropped = any(entry.sig not in taken for entry in unstamped(local))
    if dropped:
        kept = kept_path(local.text, local_path)
        news = _("your entries the judge has not stamped are not in the judge's copy, which is "
                 "the game (yours is kept as {kept})").format(
            kept=os.path.join(os.path.dirname(shown), os.path.basename(kept)))
    elif len(received.moves) > len(local.moves):
        news = _new_moves(local, received)
    else:
        news = _("the judge's stamps")
    replace_record(local_path, received, local.text, on_wait)
    return Received(Outcome.EXTENDED, shown, _("Saved {path}: {news}; {waiting}.").format(
        path=shown, news=news, waiting=_waiting(received, played)))


def _brings_nothing(comparison: Comparison, progressed: str) -> bool:
    """Whether a received copy is older than the local one: its joins, keys or disputes are
    (``hidden_progress``), or its moves are and it brings no disputes to merge."""
    return progressed == Progress.OLDER or (comparison.longer == "a"
                                            and progressed != Progress.MERGED)


def _older(shown: str) -> Received:
    """What receiving a copy older than the local one (at ``shown``) did: nothing."""
    return Received(Outcome.OLDER, shown, _("{path} is newer than the received copy; nothing was "
                                            "written.").format(path=shown))


def _stamped_throughout(received: Record) -> None:
    """MailError (one line, nothing written) unless the club judge stamped every entry of
    ``received``, a copy of a game under a judge: a copy that did not come through the judge
    (sent around it by a player) is not the game."""
    left = unstamped(received)
    judge = received.joins.judge if received.joins is not None else None
    if left:
        raise MailError(gettext("{path}:{line}: {what} carries no stamp of the judge: in a game "
                                "under a club judge every copy comes from the judge ({judge}), "
                                "which stamps each entry as it receives it; this one came around "
                                "it").format(path=received.path, line=left[0].line,
                                             what=left[0].what,
                                             judge=judge.email if judge else "?"),
                        NOTHING_WRITTEN)


def receiver(local: Record, keys: str | None) -> str | None:
    """The player who receives a copy of the game ``local`` (their own copy): the one whose
    key for it is in the key folder ``keys`` (default: the user's), when it holds one player's
    key; None otherwise (a club's secretary, a game nobody joined)."""
    if local.game_id is None or local.joins is None:
        return None
    folder = keys_folder(keys)
    held = [p.name for p in local.players if has_key(folder, local.game_id, p.name)]
    return held[0] if len(held) == 1 else None


def progress(local: Record | None, received: Record) -> tuple[int, int] | None:
    """How far ``received`` carries ``local``, to rank the copies in a mailbox: ``(3, N)`` for
    a copy that extends it (N: its moves, players joined and keys revealed; any copy when there
    is no local one; a copy whose revealed keys merge with the local ones extends it too),
    ``(2, 0)`` the same copy, ``(1, 0)`` an older one, ``(0, 0)`` one that rewrites the history
    or changes an address; None for another game."""
    hidden = received.hidden
    size = len(received.moves) + (len(hidden.commitments) + len(valid_reveals(hidden))
                                  if hidden else 0)
    if local is None:
        return 3, size
    comparison = compare_records(local, received)
    if comparison.relation == Relation.DIFFERENT_GAMES:
        return None
    if not comparison.consistent:
        return 0, 0
    progressed = hidden_progress(local, received).state
    if _brings_nothing(comparison, progressed):
        return 1, 0
    if comparison.relation == Relation.IDENTICAL and progressed == Progress.SAME:
        return 2, 0
    return 3, size


def sender_warning(game: Attached, local: Record | None, received: Record) -> str | None:
    """What to say when the message is not from the player who made the newest entry the
    received copy adds (``_newest_entry``: a move, a key revealed, a join, a join undone), by
    their address in the local copy (the received one's, for a new game): the message must be
    from that address alone (``headers.address_key``). None when it is, or cannot be told."""
    newest = _newest_entry(local, received)
    if newest is None:
        return None
    what, name = newest
    book = (local or received).players
    entry = next((p for p in book if same_name(p.name, name)), None)
    if entry is None or entry.email is None:
        return None
    if game.senders == (address_key(entry.email),):
        return None
    known = {address_key(p.email): p.name for p in book if p.email}
    senders = ", ".join(f"{a} ({known[a]})" if a in known else a for a in game.senders)
    return (_("the message is from {senders}, but {what} is {name}'s ({address}): check with "
              "{name} that it is theirs") if senders else
            _("the message is from no address uptown can read, but {what} is {name}'s "
              "({address}): check with {name} that it is theirs")).format(
        senders=senders, what=what, name=name, address=entry.email)


def _newest_entry(local: Record | None, received: Record) -> tuple[str, str] | None:
    """(what, whose) of the newest entry ``received`` adds to ``local``: ``move N``; else,
    in a game with hidden racks, the newest key revealed (keys come after the game), else the
    newest join, else the newest join undone (``withdrawn``); None when it adds none."""
    if len(received.moves) > (len(local.moves) if local else 0):
        color = received.moves[-1].color
        return _("move {number}").format(number=len(received.moves)), received.owners[color]
    hidden, before = received.hidden, local.hidden if local else None
    if hidden is None:
        return None
    known = valid_reveals(before) if before else {}
    revealed = [name for name in valid_reveals(hidden) if name not in known]
    if revealed:
        return _("the newest key revealed"), revealed[-1]
    mine = before.commitments if before else ()
    joined = [name for seat, (name, value) in enumerate(hidden.commitments)
              if seat >= len(mine) or mine[seat][1] != value]
    if joined:
        return _("the newest join"), joined[-1]
    undone = hidden.withdrawn[len(before.withdrawn) if before else 0:]
    return (_("the newest join undone"), undone[-1][0]) if undone else None


def _warned(warning: str | None) -> tuple[str, ...]:
    return () if warning is None else (warning,)


def _refused(what: str, received: Record, local_path: str, shown: str) -> MailError:
    """The one-line refusal of a copy that rewrites the history or is another game, once the
    received copy is kept beside the local one (``kept_path``)."""
    try:
        kept = kept_path(received.text, local_path)
    except RecordError as exc:
        return MailError(gettext("{what}; refused: your copy is unchanged, and the received one could "
                           "not be kept ({exc})").format(what=what, exc=exc))
    kept_shown = os.path.join(os.path.dirname(shown), os.path.basename(kept))
    return MailError(gettext("{what}; refused: your copy is unchanged, the received one is kept as "
                       "{kept_shown}").format(what=what, kept_shown=kept_shown))


KEPT_COPY = re.compile(r"\.received-[0-9]+\.ya?ml$")
"""The names of received copies kept beside a game (``kept_path``): not games of their own."""


def kept_path(text: str, local_path: str) -> str:
    """Keep the record ``text`` beside ``local_path`` under the first name
    ``NAME.received-N.yaml`` that is free (or already holds that text), written as a new record
    is (atomic, never over an existing file); returns its path."""
    directory, name = os.path.split(local_path)
    stem, suffix = os.path.splitext(name)
    data = text.encode("utf-8")
    for number in range(1, MAX_KEPT + 1):
        path = os.path.join(directory, f"{stem}.received-{number}{suffix or '.yaml'}")
        if not os.path.lexists(path):
            try:
                create_record(path, text)
                return path
            except RecordError:
                if not os.path.lexists(path):  # not made meanwhile by another receive
                    raise
        if holds(path, data):
            return path
    raise RecordError(gettext("{MAX_KEPT} received copies of {name} are kept already")
                      .format(MAX_KEPT=MAX_KEPT, name=name))


def _valid_game(record: Record) -> Game:
    """The game ``record`` holds, replayed; MailError when the record is invalid."""
    result = validate_record(record)
    if result.errors:  # a finished hidden game may wait for its keys: not invalid
        raise MailError(gettext("the attached game is invalid: {errors}")
                        .format(errors=result.errors[0].report_line()), NOTHING_WRITTEN)
    assert result.game is not None  # replayed with the record
    return result.game


def _new_moves(local: Record, received: Record) -> str:
    """``move 5 (Bo: sax E8) is new`` or ``moves 5-6 (...) are new``."""
    owner = received.owners
    first, entries = len(local.moves) + 1, received.moves[len(local.moves):]
    listed = ", ".join(f"{owner[m.color]}: {_move_shown(m.text)}" for m in entries)
    if len(entries) == 1:
        return _("move {number} ({moves}) is new").format(number=first, moves=listed)
    return _("moves {first}-{last} ({moves}) are new").format(
        first=first, last=first + len(entries) - 1, moves=listed)


def _move_shown(text: str) -> str:
    """A move of a record as the players of the language in use read it (``saxofón E8``)."""
    try:
        return move_label(parse_move(text))
    except ValueError:
        return text


def _waiting(record: Record, game: Game) -> str:
    """Who the game waits for now (``game``: ``record`` replayed), as the end of a sentence."""
    hidden = record.hidden
    if hidden is not None and len(hidden.commitments) < len(record.players):
        return _("{name} to join").format(name=record.players[len(hidden.commitments)].name)
    mover = game.to_move
    return _("the game is over") if mover is None else _("{name} to move").format(name=mover.name)


def _moves(count: int) -> str:
    return ngettext("{count} move", "{count} moves", count).format(count=count)
