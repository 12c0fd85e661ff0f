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
- ``different-games``: the players, the seed or the variant differ (``fields``
  names them, ``line_a`` and ``line_b`` locate the first of them); with hidden
  racks, also the game id, or the commitments when neither copy's are the start
  of the other's (a commitment rewritten after the next player joined).

Moves are compared as moves, not as text: ``7 b7`` equals ``7 B7`` and a capture's
``x`` may be left out.  Comments, layout and the optional text fields (event,
date, ...) do not matter; ``same_text`` says whether the files are byte-identical.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict, cast

from ..engine.notation import parse_move
from ..errors import NotationError
from .reading import load_record
from .replay import replay
from .schema import Record
from .entries import MoveEntry

__all__ = ["IDENTICAL", "EXTENDS", "DIFFERENT_GAMES", "compare_records"]

#: The two copies hold the same game, move for move.
IDENTICAL = "identical"
#: The second copy carries the first further.
EXTENDS = "extends"
ILLEGAL_EXTENSION = "illegal-extension"
DIVERGING = "diverging"
#: The copies are of two different games.
DIFFERENT_GAMES = "different-games"


@dataclass(frozen=True)
class Comparison:
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

    @property
    def consistent(self) -> bool:
        """True when neither copy contradicts the other (identical, or one extends the other)
        and the moves they share are legal."""
        return self.relation in (IDENTICAL, EXTENDS) and self.reason is None

    def message(self) -> str:
        """One line saying how the records relate."""
        a, b = self.path_a, self.path_b
        if self.relation == IDENTICAL and self.reason is not None:
            return (f"{a}:{self.line_a}: {a} and {b} hold the same {_count(self.moves_a)}, but "
                    f"move {self.move} is illegal: {self.reason}")
        if self.relation == IDENTICAL:
            layout = "" if self.same_text else " (they differ only in comments, layout or notes)"
            return f"{a} and {b} hold the same game and the same {_count(self.moves_a)}{layout}"
        if self.relation == EXTENDS:
            (long, n_long), (short, n_short) = sorted(
                [(a, self.moves_a), (b, self.moves_b)], key=lambda item: -item[1])
            more = n_long - n_short
            return f"{long} extends {short}: the same {_count(n_short)}, then {more} more"
        if self.relation == ILLEGAL_EXTENSION:
            (long, line), short = ((a, self.line_a), b) if self.longer == "a" else ((b, self.line_b), a)
            return (f"{long}:{line}: {long} extends {short}, but its move {self.move} is illegal: "
                    f"{self.reason}")
        where = f"{a}:{self.line_a} and {b}:{self.line_b}"
        if self.relation == DIVERGING:
            return (f"{where}: the games diverge at move {self.move} "
                    f"({_count(cast(int, self.move) - 1)} in common before it)")
        return f"{where}: not the same game ({', '.join(self.fields)} differ)"

    def to_json(self) -> dict[str, object]:
        """The comparison as plain data (for ``--json``)."""
        return {"relation": self.relation, "consistent": self.consistent,
                "a": {"path": self.path_a, "moves": self.moves_a, "line": self.line_a},
                "b": {"path": self.path_b, "moves": self.moves_b, "line": self.line_b},
                "longer": self.longer, "move": self.move, "fields": list(self.fields),
                "same_text": self.same_text, "reason": self.reason, "message": self.message()}


class _Common(TypedDict):
    """The fields of a Comparison that every relation fills in."""

    path_a: str
    path_b: str
    moves_a: int
    moves_b: int
    same_text: bool


def compare_files(path_a: str, path_b: str) -> Comparison:
    """Compare the records at two paths; a RecordError when either cannot be read."""
    return compare_records(load_record(path_a), load_record(path_b))


def compare_records(a: Record, b: Record) -> Comparison:
    """How record ``a`` relates to record ``b`` (only the longer one is replayed, when one
    extends the other, to tell a legal extension from an illegal one)."""
    common: _Common = dict(path_a=a.path, path_b=b.path, moves_a=len(a.moves),
                           moves_b=len(b.moves), same_text=a.text == b.text)
    fields = tuple(name for name in ("players", "seed", "variant", "hidden")
                   if _header(a)[name] != _header(b)[name])
    if not fields and a.hidden is not None and b.hidden is not None and not _one_starts_other(
            a.hidden.commitments, b.hidden.commitments):
        fields = ("commitments",)
    if fields:
        return Comparison(DIFFERENT_GAMES, fields=fields, line_a=_header_line(a, b, fields[0]),
                          line_b=_header_line(b, a, fields[0]), **common)
    for number, (move_a, move_b) in enumerate(zip(a.moves, b.moves), 1):
        if _key(move_a) != _key(move_b):
            return Comparison(DIVERGING, move=number, line_a=move_a.line, line_b=move_b.line,
                              **common)
    if len(a.moves) == len(b.moves):
        moved = [(e, e.move) for e in replay(a).errors if e.move is not None]
        if moved:  # the same moves, but not a game: neither copy can be trusted
            error, move = moved[0]
            return Comparison(IDENTICAL, move=move, line_a=error.line,
                              line_b=b.moves[move - 1].line, reason=error.message, **common)
        return Comparison(IDENTICAL, **common)
    longer = "a" if len(a.moves) > len(b.moves) else "b"
    long_record = a if longer == "a" else b
    number = min(len(a.moves), len(b.moves)) + 1
    errors = [e for e in replay(long_record).errors if e.move is not None]
    if errors:
        return Comparison(ILLEGAL_EXTENSION, longer=longer, move=errors[0].move,
                          reason=errors[0].message, **common,
                          line_a=errors[0].line if longer == "a" else None,
                          line_b=errors[0].line if longer == "b" else None)
    first_extra = long_record.moves[number - 1].line
    return Comparison(EXTENDS, longer=longer, move=number, **common,
                      line_a=first_extra if longer == "a" else None,
                      line_b=first_extra if longer == "b" else None)


def _header(record: Record) -> dict[str, object]:
    return {"players": [(p.name, p.colors) for p in record.players],
            "seed": record.seed, "variant": record.variant,
            "hidden": record.hidden and record.hidden.game_id}


def _one_starts_other(first: tuple[object, ...], second: tuple[object, ...]) -> bool:
    shorter = min(len(first), len(second))
    return first[:shorter] == second[:shorter]


def _key(entry: MoveEntry) -> tuple[object, ...]:
    """A move as compared: colour, tile and square (the capture mark aside), and its link
    (hidden racks)."""
    try:
        move = parse_move(entry.text)
    except NotationError:
        return entry.color, entry.text.strip(), entry.link
    if move.is_pass:
        return entry.color, None, None, entry.link
    return entry.color, move.tile, move.square, entry.link


def _header_line(record: Record, other: Record, name: str) -> int:
    """The line in ``record`` where header field ``name`` first differs from ``other``
    (the first differing player's entry, or the key's line; line 1 when the key is missing)."""
    if name == "players":
        for mine, theirs in zip(record.players, other.players):
            if (mine.name, mine.colors) != (theirs.name, theirs.colors):
                return mine.line
    pair = record.parsed().get(name)
    return pair[0].line if pair else 1


def _count(moves: int) -> str:
    return f"{moves} move{'' if moves == 1 else 's'}"
