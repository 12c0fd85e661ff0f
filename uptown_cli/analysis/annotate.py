"""An annotated copy of a record from a review: under each move its evaluation, the better
move, the lines tried, and its mark (written by ``records.editing.annotated_text``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..records.annotations import MoveAnnotation
from ..records.editing import annotated_text

if TYPE_CHECKING:
    from ..records.schema import Record
    from .review import MoveReview

__all__ = ["annotate"]


def annotate(record: Record, reviews: list[MoveReview]) -> str:
    """The text of ``record`` with ``reviews`` (one per move, in order) written under its moves
    (see ``records.editing.annotated_text``)."""
    return annotated_text(record, [
        MoveAnnotation((review.after.score, review.after.win), review.best,
                       review.variations, review.mark, review.loss)
        for review in reviews])
