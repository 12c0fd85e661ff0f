"""A game to study (``uptown review``): its moves with their reviews, read from a record
``uptown analyze --annotate`` wrote (the ``eval``, ``best`` and ``variations`` under each move,
the chance lost in its mark's comment), or reviewed here (``analyse``: ``analysis.review`` on
fewer deals than ``analyze``'s, a few seconds a game); each marked move's reason in words
(``analysis.reasons``). No Textual here."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..analysis.reasons import reason
from ..analysis.review import DEFAULT_EVALUATOR, Evaluation, MoveReview, review_moves, tasks
from ..engine.bags import seeded_bags
from ..engine.game import Game
from ..errors import RecordError
from ..i18n import _
from ..records.schema import Record
from ..turns.game_files import open_record, replayed

__all__ = ["STUDY_DEALS", "Study", "annotated_reviews"]

STUDY_DEALS = 48
"""The deals each move is measured in when the review is made here (``analyze``: 256)."""

_LOSS = re.compile(r"#\s*(?:\?\?|\?!|\?)\s+\w+\s+\(-([0-9]+)%\)")
"""The chance lost, in the comment ``analyze --annotate`` writes after a marked move."""


def annotated_reviews(record: Record, game: Game) -> list[MoveReview] | None:
    """The reviews written under every move of ``record`` (replayed into ``game``), or None
    when it has no move or a move has no ``eval``. The chance before a move is the chance after it plus what its
    mark's comment says was lost."""
    if not record.moves:
        return None
    lines = record.text.splitlines()
    reviews = []
    for turn, entry in zip(game.history, record.moves):
        notes = entry.notes
        if notes is None or notes.eval is None:
            return None
        lost = _LOSS.search(lines[entry.line - 1]) if 0 < entry.line <= len(lines) else None
        loss = int(lost.group(1)) / 100 if lost else 0.0
        after = Evaluation(*notes.eval)
        reviews.append(MoveReview(turn.number, turn.player.name, turn.color, str(turn.move),
                                  Evaluation(after.score, min(1.0, after.win + loss)), after,
                                  notes.best, loss, notes.mark, False, notes.variations))
    return reviews


class Study:
    """The game of the record at ``path`` (``game``: after every move), with its ``reviews``
    (one a move, in order; fewer while ``analyse`` is under way)."""

    __slots__ = ("path", "record", "game", "reviews", "annotated", "_reasons")

    def __init__(self, path: str, record: Record, game: Game) -> None:
        self.path, self.record, self.game = path, record, game
        found = annotated_reviews(record, game)
        self.annotated = found is not None
        self.reviews: list[MoveReview] = found or []
        self._reasons: dict[int, str | None] = {}

    @classmethod
    def open(cls, path: str) -> Study:
        """The record at ``path``, refused unless it is annotated, or finished with its racks
        known (a seed) so that it can be reviewed here."""
        record = open_record(path)
        study = cls(path, record, replayed(record))
        if not study.annotated:
            if not study.game.finished:
                raise RecordError(_("{path}: the game is not over: review a finished game, or "
                                    "one analysed (uptown analyze --annotate)").format(
                    path=record.path))
            if record.seed is None:
                raise RecordError(_("{path}: the racks are unknown (no seed), so it cannot be "
                                    "reviewed here: analyse it first (uptown analyze "
                                    "--annotate)").format(path=record.path))
        return study

    @property
    def moves(self) -> int:
        """How many moves the game has."""
        return self.game.ply

    def analyse(self, deals: int = STUDY_DEALS, seed: str = "0") -> Iterator[MoveReview]:
        """Review every move here (the record was not annotated), one at a time, each kept in
        ``reviews`` as it comes."""
        assert self.record.seed is not None  # checked by open
        bags = seeded_bags(self.record.seed, self.record.colors)
        work = tasks(self.game, bags, self.record.variant, DEFAULT_EVALUATOR, seed, deals)
        for reviewed in review_moves(work):
            self.reviews.append(reviewed)
            yield reviewed

    def position(self, ply: int) -> Game:
        """The game after its first ``ply`` moves."""
        game = self.game.copy()
        game.rewind(ply)
        return game

    def reason(self, number: int) -> str | None:
        """Why move ``number`` (from 1, reviewed) was worse than the better move, in words."""
        if number not in self._reasons:
            before = self.position(number - 1)
            review = self.reviews[number - 1]
            self._reasons[number] = reason(before, review, number) if before.knows_racks \
                else None
        return self._reasons[number]
