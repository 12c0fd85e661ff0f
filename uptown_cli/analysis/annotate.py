"""An annotated copy of a record: each move's evaluation, the better move and its lines, from a review."""

from __future__ import annotations
from typing import TYPE_CHECKING
from ..errors import RecordError
from ..records.nodes import Mapping, Sequence
if TYPE_CHECKING:
    from .review import MoveReview
    from ..records.schema import Record
from ..records.annotations import MARK_WORDS, _WRITTEN_MARK


def annotate(record: Record, reviews: list[MoveReview]) -> str:
    """The text of ``record`` with ``reviews`` (one per move, in order) written under its moves:
    ``eval``, ``best`` when it differs, ``variations``, and the mark at the start of the move's
    comment. Earlier ``eval``, ``best`` and ``variations`` are replaced; every other byte (the
    hand-written ``comment``, links, other comments) is kept. Checked by reading it back."""
    from ..records.text import _indent, _last_end, _line_end, _newline, quote

    text = record.text
    root = record.parsed()
    pair = root.get("moves")
    items = pair[1].items if pair is not None and isinstance(pair[1], Sequence) else []
    if pair is not None and isinstance(pair[1], Sequence) and pair[1].flow or any(
            not isinstance(item, Mapping) or item.flow for item in items):
        raise RecordError(f"{record.path}: the moves are written in flow style ([...] or {{...}}); "
                          "write one move per line to annotate them", path=record.path)
    edits: list[tuple[int, int, str]] = []
    for item, review in zip(items, reviews):
        assert isinstance(item, Mapping)  # checked above
        key, value = item.pairs[0]
        newline = _newline(text, value.end)
        move_line_end = _line_end(text, value.end)
        line_break = len(newline) if text[move_line_end - 1:move_line_end] == "\n" else 0
        rest_end = move_line_end - line_break
        edits.append((value.end, rest_end, _move_comment(text[value.end:rest_end], review)))
        indent = _indent(text, key)
        added = [f"eval: {{score: {review.after.score:.2f}, win: {100 * review.after.win:.1f}%}}"]
        if review.best is not None:
            added.append(f"best: {quote(review.best)}")
        if review.variations:
            added.append("variations:")
            added += [f"  - [{', '.join(quote(m, flow=True) for m in line)}]" for line in review.variations]
        edits.append((move_line_end, move_line_end,
                       "".join(indent + line + newline for line in added)))
        for note_key, note_value in item.pairs[1:]:
            if note_key.value in ("eval", "best", "variations"):
                start = text.rfind("\n", 0, note_key.start) + 1
                edits.append((start, _line_end(text, _last_end(note_value)), ""))
    new = text
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        new = new[:start] + replacement + new[end:]
    _check_annotated(record, new, reviews)
    return new


def _move_comment(rest: str, review: MoveReview) -> str:
    """What follows a move on its line: the mark first in its comment, the rest kept."""
    at = rest.find("#")
    blanks, comment = (rest, "") if at == -1 else (rest[:at], rest[at + 1:].strip())
    old = _WRITTEN_MARK.match(comment)
    if old is not None:
        comment = comment[old.end():].strip()
    if review.mark is not None:
        said = f"{review.mark} {MARK_WORDS[review.mark]} (-{100 * review.loss:.0f}%)"
        comment = f"{said} {comment}".strip()
    if not comment:
        return ""
    return f"{blanks.rstrip()}   # {comment}" if at == -1 else f"{blanks}# {comment}"


def _check_annotated(record: Record, new: str, reviews: list[MoveReview]) -> None:
    """Refuse (RecordError) an annotated text that does not read back as the same game with
    the review's notes."""
    from ..records.schema import load_record_text

    refused = f"annotating {record.path} would not read back as the same game"
    try:
        back = load_record_text(new, record.path)
    except RecordError as exc:
        raise RecordError(f"{refused} ({exc.message})", path=record.path) from None
    same = [(m.color, m.text) for m in back.moves] == [(m.color, m.text) for m in record.moves]
    for entry, old, review in zip(back.moves, record.moves, reviews):
        notes = entry.notes
        comment = old.notes.comment if old.notes is not None else None
        if notes is None or notes.mark != review.mark or notes.comment != comment \
                or (notes.best is None) != (review.best is None):
            same = False
    if not same:
        raise RecordError(refused, path=record.path)
