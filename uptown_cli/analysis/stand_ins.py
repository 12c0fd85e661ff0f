"""The moves a bot plays for a player out of time (a late policy's ``bot``, docs/DEADLINES.md):
the move itself, seeded by the record and the move's number so that anyone plays it again,
and the check that each such move in a record is the bot's choice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RecordError, SetupError
from ..engine.geometry import shown_color
from ..i18n import _
from ..records.times import stand_in_seed
from ..fairplay.replay import replay

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..records.schema import Record

__all__ = ["stand_in_move", "stand_in_errors"]


def stand_in_move(record: Record, game: Game, bot: str, number: int) -> tuple[str, str]:
    """(colour, move as written) that ``bot`` plays as move ``number`` of ``record``, from
    ``game`` (the position before it; left unchanged). The bots are loaded here: a record
    without stand-ins is checked without them."""
    from .bots import choose_move

    color, chosen = choose_move(bot, game, seed=stand_in_seed(record, number),
                                variant=record.variant)
    return color, str(game.copy().play(chosen, color).move)


def stand_in_errors(record: Record) -> list[RecordError]:
    """An error for each move a bot made for a late player (``bot:`` under it) that is not
    what that bot plays there; the record is replayed once and taken back move by move."""
    stand_ins = [(index, entry, entry.bot) for index, entry in enumerate(record.moves) if entry.bot]
    if not stand_ins:
        return []
    game = replay(record).game
    errors = []
    for index, entry, bot in reversed(stand_ins):
        game.rewind(index)
        try:
            color, text = stand_in_move(record, game, bot, index + 1)
        except SetupError as exc:  # a bot this uptown does not have
            errors.append(RecordError(str(exc), path=record.path, line=entry.line, move=index + 1))
            continue
        if (color, text) != (entry.color, entry.text):
            mover = game.to_move.name if game.to_move else "?"
            errors.append(RecordError(_("{bot} plays {color} {text} for {name} here, not "
                                        "{written_color} {written}").format(
                bot=bot, color=shown_color(color), text=text, name=mover,
                written_color=shown_color(entry.color),
                written=entry.text), path=record.path, line=entry.line, move=index + 1))
    return errors[::-1]
