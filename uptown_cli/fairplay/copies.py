"""How two records of one game relate: the same, one extending the other, or a fork.

Two copies of a play-by-email game can drift apart: a player answers an older
copy, or someone edits one by hand.  ``compare_records`` tells which case it is:

- ``identical``: the same game (players, colours, seed, variant) and the same moves
  (when one of them is illegal, ``move``, ``line_a``, ``line_b`` and ``reason`` say which and
  why, and the copies are not ``consistent``);
- ``extends``: the same game, and one copy's moves are the start of the other's
  (``longer`` says which copy, ``"a"`` or ``"b"``, has more; ``move`` is its first
  move more, and ``line_a`` or ``line_b`` that move's line);
- ``illegal-extension``: as ``extends``, but the longer copy does not replay: a
  move it adds, or one the copies share, is illegal (``move`` is the first illegal
  move, ``line_a`` or ``line_b`` its line, and ``reason`` what is wrong with it);
- ``diverging``: the same game, but move ``move`` differs (``line_a`` and
  ``line_b`` are its lines in each file);
- ``address-changed``: the same game, but a player's e-mail address differs
  (``detail`` names the player and both addresses, ``line_a`` and ``line_b`` locate
  it): mail for that player would go elsewhere;
- ``different-games``: the players, the seed or the variant differ (``fields``
  names them, ``line_a`` and ``line_b`` locate the first of them); with hidden
  racks, also the game id, or the commitments when neither copy's can follow the
  other's (a commitment rewritten after the next player joined; a join undone
  before the first move, its key under ``withdrawn``, is a step forward).

In an open game moves are compared as moves, not as text: ``7 b7`` equals ``7 B7``
and a capture's ``x`` may be left out.  In a game with hidden racks they are
compared as written, with their links, as the seals and the players' memories
cover them: a move respelled is a change (``detail`` names the move, its mover and
both spellings).  Comments, layout and the optional text fields (event, date, ...)
do not matter; ``same_text`` says whether the files are byte-identical.

``hidden_progress`` tells, for two copies of a hidden game with the same moves,
which has more joins or revealed keys, and merges copies that each hold keys the
other lacks (revealed keys are a set).
"""

from __future__ import annotations

from typing import NamedTuple, TYPE_CHECKING, TypedDict, cast

from ..engine.notation import parse_move
from ..errors import NotationError, RecordError
from ..engine.geometry import shown_color
from ..engine.words import Word
from ..i18n import _, ngettext, pgettext
from .replay import replay
from ..records.hidden_fields import SIGNED
from ..records.schema import Record
from ..records.entries import MoveEntry
from .joins import valid_reveals, withdraws
from .memory import email_line
from ..records.editing import record_with_dispute, record_with_entry

if TYPE_CHECKING:
    from ..records.disputes import Dispute
    from ..records.hidden_fields import HiddenFields

__all__ = ["Relation", "Comparison", "compare_records", "Progress", "HiddenProgress", "hidden_progress"]

class Relation(Word):
    """How two copies of a game relate (see the module docstring)."""

    # The two copies hold the same game, move for move.
    IDENTICAL = "identical"
    # The second copy carries the first further.
    EXTENDS = "extends"
    ILLEGAL_EXTENSION = "illegal-extension"
    DIVERGING = "diverging"
    # The copies are of two different games.
    DIFFERENT_GAMES = "different-games"
    ADDRESS_CHANGED = "address-changed"


class Comparison(NamedTuple):
    """The relation of record ``a`` to record ``b`` (see the module docstring)."""

    relation: str
    path_a: str
    path_b: str
    moves_a: int
    moves_b: int
    same_text: bool
    longer: str | None = None
    move: int | None = None
    line_a: int | None = None
    line_b: int | None = None
    fields: tuple[str, ...] = ()
    reason: str | None = None
    detail: str | None = None

    @property
    def consistent(self) -> bool:
        """True when neither copy contradicts the other (identical, or one extends the other)
        and the moves they share are legal."""
        return self.relation in (Relation.IDENTICAL, Relation.EXTENDS) and self.reason is None

    def message(self) -> str:
        """One line saying how the records relate."""
        a, b = self.path_a, self.path_b
        if self.relation == Relation.IDENTICAL and self.reason is not None:
            return ngettext("{a}:{line}: {a} and {b} hold the same {count} move, but move {move} is "
                            "illegal: {reason}",
                            "{a}:{line}: {a} and {b} hold the same {count} moves, but move {move} is "
                            "illegal: {reason}", self.moves_a).format(
                a=a, b=b, line=self.line_a, count=self.moves_a, move=self.move, reason=self.reason)
        if self.relation == Relation.IDENTICAL:
            return (ngettext("{a} and {b} hold the same game and the same {count} move",
                             "{a} and {b} hold the same game and the same {count} moves",
                             self.moves_a) if self.same_text else
                    ngettext("{a} and {b} hold the same game and the same {count} move (they "
                             "differ only in comments, layout or notes)",
                             "{a} and {b} hold the same game and the same {count} moves (they "
                             "differ only in comments, layout or notes)",
                             self.moves_a)).format(a=a, b=b, count=self.moves_a)
        if self.relation == Relation.EXTENDS:
            (long, n_long), (short, n_short) = sorted(
                [(a, self.moves_a), (b, self.moves_b)], key=lambda item: -item[1])
            return ngettext("{long} extends {short}: the same {count} move, then {more} more",
                            "{long} extends {short}: the same {count} moves, then {more} more",
                            n_short).format(long=long, short=short, count=n_short,
                                            more=n_long - n_short)
        if self.relation == Relation.ILLEGAL_EXTENSION:
            (long, line), short = ((a, self.line_a), b) if self.longer == "a" else ((b, self.line_b), a)
            return _("{long}:{line}: {long} extends {short}, but its move {move} is illegal: "
                     "{reason}").format(long=long, line=line, short=short, move=self.move,
                                        reason=self.reason)
        where = _("{a} and {b}").format(a=f"{a}:{self.line_a}", b=f"{b}:{self.line_b}")
        if self.relation == Relation.DIVERGING:
            common = cast(int, self.move) - 1
            return (ngettext("{where}: the games diverge at move {move} ({count} move in common "
                             "before it): {detail}",
                             "{where}: the games diverge at move {move} ({count} moves in common "
                             "before it): {detail}", common) if self.detail else
                    ngettext("{where}: the games diverge at move {move} ({count} move in common "
                             "before it)",
                             "{where}: the games diverge at move {move} ({count} moves in common "
                             "before it)", common)).format(where=where, move=self.move,
                                                           count=common, detail=self.detail)
        if self.relation == Relation.ADDRESS_CHANGED:
            return f"{where}: {self.detail}"
        if self.fields == ("withdrawn",):
            return _("{where}: the withdrawn joins differ, though both copies have moves: a join "
                     "is undone only before the first move, so an entry was written by hand"
                     ).format(where=where)
        return _("{where}: not the same game ({fields} differ)").format(
            where=where, fields=", ".join(self.fields))

    def to_json(self) -> dict[str, object]:
        """The comparison as plain data (for ``--json``)."""
        return {"relation": self.relation, "consistent": self.consistent,
                "a": {"path": self.path_a, "moves": self.moves_a, "line": self.line_a},
                "b": {"path": self.path_b, "moves": self.moves_b, "line": self.line_b},
                "longer": self.longer, "move": self.move, "fields": list(self.fields),
                "same_text": self.same_text, "reason": self.reason, "detail": self.detail,
                "message": self.message()}


class _Common(TypedDict):
    """The fields of a Comparison that every relation fills in."""

    path_a: str
    path_b: str
    moves_a: int
    moves_b: int
    same_text: bool


def compare_records(a: Record, b: Record, valid: Record | None = None) -> Comparison:
    """How record ``a`` relates to record ``b`` (only the longer one is replayed, when one
    extends the other, to tell a legal extension from an illegal one; not when it is
    ``valid``, one of them found valid already: ``replay.validate_record``)."""
    common: _Common = dict(path_a=a.path, path_b=b.path, moves_a=len(a.moves),
                           moves_b=len(b.moves), same_text=a.text == b.text)
    fields = tuple(name for name in ("players", "seed", "variant", "hidden")
                   if _header(a)[name] != _header(b)[name])
    if not fields and a.hidden is not None and b.hidden is not None and not (
            _follows(a.hidden, b.hidden, not b.moves) or _follows(b.hidden, a.hidden, not a.moves)):
        fields = ("commitments",)
    if (not fields and a.hidden is not None and b.hidden is not None and a.moves and b.moves
            and a.hidden.withdrawn != b.hidden.withdrawn):  # undone only before the first move
        fields = ("withdrawn",)
    if fields:
        return Comparison(Relation.DIFFERENT_GAMES, fields=fields, line_a=_header_line(a, b, fields[0]),
                          line_b=_header_line(b, a, fields[0]), **common)
    for index, (player_a, player_b) in enumerate(zip(a.players, b.players)):
        if player_a.email != player_b.email:
            none = pgettext("an address", "none")
            changed = _("{name}'s e-mail address differs ({first} in {path_a}, {second} in "
                        "{path_b}): an address was changed, and mail for {name} would go "
                        "elsewhere").format(name=player_a.name, first=player_a.email or none,
                                            second=player_b.email or none, path_a=a.path,
                                            path_b=b.path)
            return Comparison(Relation.ADDRESS_CHANGED, line_a=email_line(a, index),
                              line_b=email_line(b, index), detail=changed, **common)
    key = _key if a.hidden is None else _written
    for number, (move_a, move_b) in enumerate(zip(a.moves, b.moves), 1):
        if key(move_a) != key(move_b):
            detail = None if a.hidden is None else _respelled(a, b, number)
            return Comparison(Relation.DIVERGING, move=number, line_a=move_a.line, line_b=move_b.line,
                              detail=detail, **common)
    if len(a.moves) == len(b.moves):
        moved = _move_errors(a, valid)
        if moved:  # the same moves, but not a game: neither copy can be trusted
            error, move = moved[0], cast(int, moved[0].move)
            return Comparison(Relation.IDENTICAL, move=move, line_a=error.line,
                              line_b=b.moves[move - 1].line, reason=error.message, **common)
        return Comparison(Relation.IDENTICAL, **common)
    longer = "a" if len(a.moves) > len(b.moves) else "b"
    long_record = a if longer == "a" else b
    number = min(len(a.moves), len(b.moves)) + 1
    errors = _move_errors(long_record, valid)
    if errors:
        return Comparison(Relation.ILLEGAL_EXTENSION, longer=longer, move=errors[0].move,
                          reason=errors[0].message, **common,
                          line_a=errors[0].line if longer == "a" else None,
                          line_b=errors[0].line if longer == "b" else None)
    first_extra = long_record.moves[number - 1].line
    return Comparison(Relation.EXTENDS, longer=longer, move=number, **common,
                      line_a=first_extra if longer == "a" else None,
                      line_b=first_extra if longer == "b" else None)


def _move_errors(record: Record, valid: Record | None) -> list[RecordError]:
    """The problems of ``record``'s moves (each with its move number), replayed; none when
    it is ``valid``."""
    if record is valid:
        return []
    return [e for e in replay(record).errors if e.move is not None]


def _header(record: Record) -> dict[str, object]:
    return {"players": [(p.name, p.colors) for p in record.players],
            "seed": record.seed, "variant": record.variant,
            "hidden": record.hidden and record.hidden.game_id}


def _follows(newer: HiddenFields, older: HiddenFields, undoable: bool = True) -> bool:
    """Whether the joins of ``newer`` can come after those of ``older``: each commitment of
    ``older`` is at its seat in ``newer``, or was withdrawn there (a ``withdrawn`` key gives
    it; only while ``undoable``: ``older`` has no move), and every join ``older`` withdrew is
    withdrawn in ``newer`` too."""
    earlier: list[str] = []
    for seat, (name, value) in enumerate(older.commitments):
        kept = seat < len(newer.commitments) and newer.commitments[seat][1] == value
        if not kept and not (undoable and withdraws(newer, name, value, earlier)):
            return False
        earlier.append(value)
    return newer.withdrawn[:len(older.withdrawn)] == older.withdrawn


def _key(entry: MoveEntry) -> tuple[object, ...]:
    """A move of an open game as compared: colour, tile and square (the capture mark
    aside)."""
    try:
        move = parse_move(entry.text)
    except NotationError:
        return entry.color, entry.text.strip()
    if move.is_pass:
        return entry.color, None, None
    return entry.color, move.tile, move.square


def _written(entry: MoveEntry) -> tuple[object, ...]:
    """A move of a hidden game as compared: exactly as written, with its link (what its seal
    covers)."""
    return entry.color, entry.text, entry.link


def _respelled(a: Record, b: Record, number: int) -> str:
    """What differs in move ``number`` of two copies of a hidden game: the move, its mover,
    and how each copy writes it."""
    move_a, move_b = a.moves[number - 1], b.moves[number - 1]
    owner = a.owners
    what = _("move {number} ({name}'s {colour})").format(
        number=number, name=owner.get(move_a.color, "?"), colour=shown_color(move_a.color))
    if (move_a.color, move_a.text) == (move_b.color, move_b.text):
        return _("{what} has another link in each copy").format(what=what)
    if _key(move_a) == _key(move_b):
        said = _("{what} is {colour_a}: {move_a!r} in {path_a}, {colour_b}: {move_b!r} in "
                 "{path_b} (the same move respelled: in a game with hidden racks a move is "
                 "compared as written, as its seal or signature covers it)")
    elif a.hidden is not None and 2 < a.hidden.version < SIGNED:
        said = _("{what} is {colour_a}: {move_a!r} in {path_a}, {colour_b}: {move_b!r} in "
                 "{path_b} (uptown show --as {name} on the kept copy tells which one {name} "
                 "sealed)")
    else:
        said = _("{what} is {colour_a}: {move_a!r} in {path_a}, {colour_b}: {move_b!r} in "
                 "{path_b}")
    return said.format(what=what, colour_a=shown_color(move_a.color), move_a=move_a.text,
                       path_a=a.path, colour_b=shown_color(move_b.color), move_b=move_b.text,
                       path_b=b.path, name=owner.get(move_a.color, "?"))


def _header_line(record: Record, other: Record, name: str) -> int:
    """The line in ``record`` where header field ``name`` first differs from ``other``
    (the first differing player's entry, or the key's line; line 1 when the key is missing)."""
    if name == "players":
        for mine, theirs in zip(record.players, other.players):
            if (mine.name, mine.colors) != (theirs.name, theirs.colors):
                return mine.line
    pair = record.parsed().get(name)
    return pair[0].line if pair else 1


class Progress(Word):
    """How the joins and revealed keys of a received copy of a hidden game relate to the local
    copy's (``HiddenProgress.state``)."""

    SAME = "same"
    OLDER = "older"
    NEWER = "newer"
    MERGED = "merged"



class HiddenProgress(NamedTuple):
    """How the joins and revealed keys of a received copy of a hidden game relate to the
    local copy's (their moves being the same, or one's the start of the other's): ``state``
    is ``same``, ``older`` (it lacks some and adds none), ``newer`` (it adds some and lacks
    none) or ``merged`` (each holds keys the other lacks: ``text`` is the local copy with the
    received keys added); ``news`` says what the received copy adds."""

    state: str
    news: str = ""
    text: str | None = None


def hidden_progress(local: Record, received: Record) -> HiddenProgress:
    """``HiddenProgress`` of ``received`` against ``local`` (a copy of the same game, its
    commitments one's start of the other's, or withdrawn: ``compare_records``). A revealed key
    that does not give its player's commitment counts as not revealed: a copy with the real key
    replaces it."""
    if local.joins is None or received.joins is None:
        return _disputes_progress(local, received, [], False, False)
    mine, theirs = local.joins, received.joins
    newer_joins, older_joins = not _follows(mine, theirs), not _follows(theirs, mine)
    keys, their_keys = valid_reveals(mine), valid_reveals(theirs)
    added = [name for name in their_keys if name not in keys]
    lacking = [name for name in keys if name not in their_keys]
    joined = [name for seat, (name, value) in enumerate(theirs.commitments)
              if seat >= len(mine.commitments) or mine.commitments[seat][1] != value]
    undone = [name for name, _value in theirs.withdrawn[len(mine.withdrawn):]]
    said = ([_("{name}'s join was undone").format(name=name) for name in undone]
            + [_("{name} joined").format(name=name) for name in joined]
            + [_("{name} revealed their key").format(name=name) for name in added])
    if not added:
        return _disputes_progress(local, received, said, newer_joins,
                                  bool(lacking or older_joins))
    if not lacking and not older_joins:
        return _disputes_progress(local, received, said, True, False)
    merged = local
    for name in added:
        merged = record_with_entry(merged, "revealed", name, their_keys[name], local.path)
    # (disputes the received copy adds come with its sender's next copy, merged then)
    return HiddenProgress(Progress.MERGED, _("{news} (merged with the keys of your copy)").format(
        news=", ".join(said)), merged.text)


def _disputes_progress(local: Record, received: Record, said: list[str], newer: bool,
                       older: bool) -> HiddenProgress:
    """``HiddenProgress`` of ``received`` against ``local`` once their joins and keys are
    compared (``newer``: the received copy adds some, ``older``: it lacks some; ``said``: what
    it adds), their disputes too (``records.disputes``). Disputes are a set that only grows:
    each is signed on its own, over the move it disputes, and two players may each write one
    before they see the other's, so what one copy lacks of the other's disputes is merged into
    it, never taken as the copy going back. The copy that is further along in every other way
    (the received one, unless it is older, or holds fewer moves) takes the other's disputes;
    when the disputes merged would not be valid together (one player disputing a move twice),
    the copies are not merged and the received one counts as older."""
    news, lacking = _unheld(local, received), _unheld(received, local)
    if not news and not lacking:
        if older:
            return HiddenProgress(Progress.OLDER)
        return HiddenProgress(Progress.NEWER, ", ".join(said)) if newer else HiddenProgress(
            Progress.SAME)
    further_here = older or len(local.moves) > len(received.moves)
    if not lacking and not further_here:
        return HiddenProgress(Progress.NEWER, ", ".join(said + _words(news)))
    if not news and further_here:
        return HiddenProgress(Progress.OLDER)
    merged = _with_disputes(local, news) if further_here else _with_disputes(received, lacking)
    if merged is None:
        return HiddenProgress(Progress.OLDER)
    kept = [] if further_here else [_(
        "{disputes}, not in this copy (written after it was sent, or taken out), kept from "
        "yours").format(disputes=", ".join(_words(lacking)))]
    return HiddenProgress(Progress.MERGED, ", ".join(said + _words(news) + kept), merged.text)


def _unheld(record: Record, other: Record) -> list[Dispute]:
    """The disputes of ``other`` that ``record`` does not hold (their lines apart), in
    ``other``'s order."""
    held = {dispute._replace(line=0) for dispute in record.disputes}
    return [dispute for dispute in other.disputes if dispute._replace(line=0) not in held]


def _words(disputes: list[Dispute]) -> list[str]:
    """Each of ``disputes`` in words."""
    if not disputes:
        return []
    from ..records.disputes import dispute_words  # (records with disputes only)

    return [dispute_words(dispute) for dispute in disputes]


def _with_disputes(base: Record, disputes: list[Dispute]) -> Record | None:
    """``base`` with ``disputes`` (another copy's, which it lacks) added after its own, each as
    written (its time and signature); None when they would not all be valid there
    (``records.disputes.dispute_errors``)."""
    from ..records.disputes import dispute_errors  # (records with disputes only)

    merged = base
    for dispute in disputes:
        merged = record_with_dispute(merged, dispute.name, dispute.number, dispute.settled,
                                     dispute.at, dispute.sig)
    return None if dispute_errors(merged) else merged
