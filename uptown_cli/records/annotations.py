"""Annotated records: what a move may carry besides the move, read, checked, shown and written.

Under a move, a record may hold ``eval`` (the evaluation after the move: ``{score: 4.25, win:
38%}``), ``best`` (the move the engine preferred), ``variations`` (lines of moves from the
position before the move, each a list) and ``comment`` (any text). The mark (``?!``, ``?``,
``??``, or a hand-written ``!``, ``!!``, ``!?``) is a YAML comment at the end of the move's line,
its first word: ``- red: 5 C5   # ?! inaccuracy (-7%)``. ``records/README.md`` documents them.

``read_notes`` reads them for the record reader, ``notes_lines`` says them for people, and
``MoveAnnotation`` is what a review has ``records.editing.annotated_text`` write under a move
(``line_problems`` checks the moves of ``best`` and of the variations).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, NamedTuple

from ..engine.game import COLORS
from ..engine.notation import parse_move
from ..errors import IllegalMove, NotationError, RecordError, one_line
from .entries import NOTE_KEYS, MoveNotes
from .nodes import Mapping, Node, Scalar, Sequence, describe, rest_of_line
from ..i18n import N_, figures
from ..i18n import _ as gettext

if TYPE_CHECKING:
    from ..engine.game import Game
    from .entries import MoveEntry

__all__ = ["MARK_WORDS", "MoveAnnotation", "notes_lines", "notes_data", "line_problems"]


MARK_WORDS = {"??": N_("blunder"), "?": N_("mistake"), "?!": N_("inaccuracy"),
              "!?": N_("interesting move"), "!": N_("good move"), "!!": N_("brilliant move")}
"""The marks read from a move's comment, and what each says (in English, as records write it;
``gettext(MARK_WORDS[mark])`` where people read it)."""

# Patterns as text, compiled on first use (``re`` keeps them): most records have no notes.
_MARK = r"#\s*(\?\?|\?!|\?|!!|!\?|!)(?=\s|$)"
WRITTEN_MARK = r"(\?\?|\?!|\?|!!|!\?|!)( (blunder|mistake|inaccuracy) \(-[0-9]+%\))?(?=\s|$)"
"""A mark at the start of a comment, with the words ``MoveAnnotation.said`` gives after it."""
_NUMBER = r"[0-9]+(\.[0-9]+)?"
_PERCENT = r"([0-9]+(\.[0-9]+)?)%"


class MoveAnnotation(NamedTuple):
    """What a review writes under a move: ``eval`` (after it: ``(score, chance to win 0..1)``),
    ``best`` (the better move, or None), ``variations`` (lines from the position before it), and
    its ``mark`` (or None) for a move that lost ``loss`` of the chance to win."""

    eval: tuple[float, float]
    best: str | None
    variations: tuple[tuple[str, ...], ...]
    mark: str | None
    loss: float

    def said(self) -> str | None:
        """The mark and what it says, as the move's comment begins: ``?! inaccuracy (-7%)``."""
        if self.mark is None:
            return None
        return f"{self.mark} {MARK_WORDS[self.mark]} (-{100 * self.loss:.0f}%)"


def read_notes(number: int, text: str, value: Scalar, pairs: list[tuple[Scalar, Node]],
               problem: Callable[[str, Node | int | None, int | None], None]) -> MoveNotes | None:
    """The notes of move ``number`` (its move scalar ``value``, its other ``pairs``), or None
    when it has none; each problem is reported through ``problem(message, where, move)``."""
    mark = _mark_after(text, value.end)
    if not pairs and mark is None:  # the usual move: nothing under it, no comment after it
        return None
    found = {key.value: node for key, node in pairs if key.value in NOTE_KEYS}
    if not found and mark is None:
        return None
    evaluation = None
    if "eval" in found:
        evaluation = _eval(number, found["eval"], problem)
    best = None
    lines: list[tuple[int, ...]] = []
    if "best" in found:
        node = found["best"]
        if isinstance(node, Scalar) and not node.empty:
            best = node.value
            lines.append((node.line,))
        else:
            problem(gettext("move {number}'s best must be a move like '7 B7', not {node}")
                    .format(number=number, node=describe(node)), node, number)
    variations = []
    if "variations" in found:
        node = found["variations"]
        items = node.items if isinstance(node, Sequence) else None
        if items is None:
            problem(gettext("variations are a list of lines, each a list of moves ('- [7 B7, sax "
                      "E8]')"),
                    node, number)
            items = []
        for line in items:
            moves = line.items if isinstance(line, Sequence) else None
            if not moves or not all(isinstance(m, Scalar) and not m.empty for m in moves):
                problem(gettext("a variation is a list of moves, like '- [7 B7, sax E8]'"), line, number)
                continue
            variations.append(tuple(m.value for m in moves))  # type: ignore[attr-defined]  # all Scalars
            lines.append(tuple(m.line for m in moves))
    comment = None
    if "comment" in found:
        node = found["comment"]
        if isinstance(node, Scalar):
            comment = None if node.empty else node.value
        else:
            problem(gettext("move {number}'s comment must be text, not {node}")
                    .format(number=number, node=describe(node)), node, number)
    return MoveNotes(evaluation, best, tuple(variations), comment, mark, tuple(lines))


def _mark_after(text: str, end: int) -> str | None:
    """The mark that begins the comment ending the line at ``end``, if any."""
    rest = rest_of_line(text, end)
    if "#" not in rest:
        return None
    found = re.match(_MARK, rest.lstrip(" \t"))
    return found.group(1) if found else None


def _eval(number: int, node: Node,
          problem: Callable[[str, Node | int | None, int | None], None]) -> tuple[float, float] | None:
    """``(score, chance to win)`` from ``{score: 4.25, win: 38%}``."""
    wanted = gettext("move {number}'s eval is {{score: NUMBER, win: PERCENT%}}, like {{score: 4.25, "
                     "win: 38%}}").format(number=number)
    if not isinstance(node, Mapping) or sorted(k.value for k, _ in node.pairs) != ["score", "win"]:
        problem(wanted, node, number)
        return None
    score, win = node.get("score")[1], node.get("win")[1]  # type: ignore[index]
    percent = re.fullmatch(_PERCENT, win.value) if isinstance(win, Scalar) else None
    if not (isinstance(score, Scalar) and re.fullmatch(_NUMBER, score.value)) or percent is None \
            or float(percent.group(1)) > 100:
        problem(wanted, node, number)
        return None
    return float(score.value), float(percent.group(1)) / 100


def parse_line_move(text: str) -> tuple[str | None, object]:
    """``(colour or None, Move)`` from a move of a line: ``7 B7``, or ``red 7 B7`` naming the
    rack (as ``uptown move`` takes it)."""
    words = text.split(None, 1)
    if len(words) == 2 and words[0] in COLORS:
        return words[0], parse_move(words[1])
    return None, parse_move(text)


def notes_lines(notes: MoveNotes | None) -> list[str]:
    """What a move's notes say, for people: the mark and the better move, the evaluation,
    the comment."""
    if notes is None:
        return []
    parts = []
    if notes.mark is not None:
        parts.append(gettext("{mark} {judgement}").format(
            mark=notes.mark, judgement=gettext(MARK_WORDS[notes.mark])))
    if notes.best is not None:
        parts.append(gettext("better: {move}").format(move=one_line(notes.best)))
    if notes.eval is not None:
        parts.append(gettext("after it: {evaluation}").format(evaluation=eval_text(notes.eval)))
    lines = ["; ".join(parts)] if parts else []
    if notes.comment is not None:
        said = notes.comment.splitlines() or [""]
        lines += [gettext("Comment: {text}").format(text=one_line(said[0]))]
        lines += [f"  {one_line(line)}" for line in said[1:]]
    return lines


def notes_data(notes: MoveNotes | None) -> dict[str, object]:
    """A move's notes as JSON: ``{"mark", "best", "eval": {"score", "win"}, "variations",
    "comment"}`` (``{}`` without notes)."""
    if notes is None:
        return {}
    evaluation = None if notes.eval is None else {"score": notes.eval[0], "win": notes.eval[1]}
    return {"mark": notes.mark, "best": notes.best, "eval": evaluation,
            "variations": [list(line) for line in notes.variations], "comment": notes.comment}


def eval_text(evaluation: tuple[float, float]) -> str:
    """``38.0% to win, score 4.25`` (for people, in the language in use)."""
    score, win = evaluation
    return figures(gettext("{percent}% to win, score {score}").format(
        percent=f"{100 * win:.1f}", score=f"{score:.2f}"))


# -- writing a review into a record ------------------------------------------------------------


def line_problems(game: Game, path: str, entry: MoveEntry, number: int) -> list[RecordError]:
    """Every variation of move ``number`` (``best`` counting as one) of the record at ``path``
    that cannot be played from ``game``, the position before the move: one problem each, at
    the line of its first bad move (a warning of ``replay``). ``game`` is left as it was."""
    notes = entry.notes
    assert notes is not None  # called for moves with notes only
    named = ([("best", (notes.best,))] if notes.best is not None else []) + [
        (f"variation {k}", line) for k, line in enumerate(notes.variations, 1)]
    problems = []
    for (what, moves), lines in zip(named, notes.lines):
        played = 0
        try:
            for j, text in enumerate(moves):
                try:
                    color, move = parse_line_move(text)
                    game.play(move, color)  # type: ignore[arg-type]
                    played += 1
                except (NotationError, IllegalMove) as exc:
                    where = f"{what}, move {j + 1} ({text})" if what != "best" else f"best ({text})"
                    problems.append(RecordError(gettext("{where}: {exc}").format(
                        where=where, exc=exc), path=path, line=lines[j], move=number))
                    break
        finally:
            for _ in range(played):
                game.pop()
    return problems
