"""A record's moves played through the engine, one by one, each checked by the rules and the
clock (``play_moves``); what checks them beyond that, in a game with hidden racks, is given by
the caller (``MoveCheck``: ``fairplay.check.HiddenCheck``, through ``fairplay.replay``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..engine.game import Game
from ..engine.geometry import shown_color
from ..engine.notation import FORFEIT, parse_move
from ..errors import IllegalMove, NotationError, RecordError
from ..i18n import _ as gettext
from .entries import MoveEntry
from .schema import Record
from .times import stand_in_error

if TYPE_CHECKING:
    from ..engine.game import Turn
    from ..engine.players import Player
    from ..engine.notation import Move

__all__ = ["Replay", "MoveCheck", "play_moves", "not_canonical", "rack_line_problems", "move_error"]


class Replay:
    """The result of replaying a record: the game as far as it went, the errors found,
    how many moves were played legally before the first illegal one, and the warnings: the
    notes under the moves (``best``, ``variations``) that do not fit the rules or the racks,
    which never make a record invalid. ``alerts``: in a game with hidden racks, a change to
    the history that a seal proves but whose author no seal names yet (who is checked next,
    and when); once named, it is an error."""

    __slots__ = ("game", "errors", "moves_ok", "warnings", "alerts")

    def __init__(self, game: Game, errors: list[RecordError], moves_ok: int,
                 warnings: list[RecordError] | None = None) -> None:
        self.game = game
        self.errors = errors
        self.moves_ok = moves_ok
        self.warnings: list[RecordError] = [] if warnings is None else warnings
        self.alerts: list[RecordError] = []

    @property
    def valid(self) -> bool:
        """Whether the replay found no error."""
        return not self.errors


class MoveCheck(Protocol):
    """What checks each entry of a record beyond the rules and the clock as ``play_moves``
    plays it: ``errors`` found before the first move, what is wrong with a move or a forfeit
    (None: nothing), and each entry fed once played."""

    errors: list[RecordError]

    def problem(self, game: Game, entry: MoveEntry, move: Move) -> str | None:
        """What is wrong with the next move (its entry, and the Move read from it), or None."""
    def forfeit_problem(self, game: Game, entry: MoveEntry) -> str | None:
        """What is wrong with a forfeit, or None."""
    def forfeited(self, player: Player, entry: MoveEntry) -> None:
        """Feed a forfeit that ``forfeit_problem`` accepted."""
    def played(self, turn: Turn, entry: MoveEntry) -> None:
        """Feed a move the engine accepted."""


def play_moves(record: Record, game: Game, strict: bool = False, upto: int | None = None,
               hidden: MoveCheck | None = None) -> Replay:
    """Play the record's moves (the first ``upto`` of them, when given) on ``game`` (a game at
    move 0 of the record's players), each checked by the rules, the clock (a forfeit, an entry
    written for another) and ``hidden`` (the fair play of a game with hidden racks:
    ``fairplay.replay``, which every reader of a hidden game goes through).

    Stops at the first move that cannot be read or is illegal, reporting it with its move
    number and line.  With ``strict``, also reports every move not written canonically."""
    errors = list(hidden.errors) if hidden is not None else []
    moves = record.moves if upto is None else record.moves[:upto]
    result = Replay(game, errors, len(moves))
    for number, entry in enumerate(moves, 1):
        if entry.by is not None or entry.text == FORFEIT:  # (records.times)

            problem = stand_in_error(record, game, number - 1, record.hidden is not None)
            if problem is not None:
                errors.append(move_error(record, entry, number, problem))
                result.moves_ok = number - 1
                break
            if entry.text == FORFEIT and hidden is not None:
                problem = hidden.forfeit_problem(game, entry)
                if problem is not None:
                    errors.append(move_error(record, entry, number, problem))
                    result.moves_ok = number - 1
                    break
                player = game.to_move
                game.forfeit()
                hidden.forfeited(player, entry)  # type: ignore[arg-type]  # checked above
                continue
            if entry.text == FORFEIT:
                game.forfeit()
                continue
        try:
            move = parse_move(entry.text)
        except NotationError as exc:
            message = gettext("{color}'s move {text!r} cannot be read: {reason}").format(
                color=shown_color(entry.color), text=entry.text, reason=exc)
            errors.append(move_error(record, entry, number, message))
            result.moves_ok = number - 1
            break
        if entry.notes is not None:
            from .annotations import line_problems  # (for notes only: see records.schema)

            result.warnings += line_problems(game, record.path, entry, number)
        problem = hidden.problem(game, entry, move) if hidden is not None else None
        if problem is not None:
            errors.append(move_error(record, entry, number, problem))
            result.moves_ok = number - 1
            break
        try:
            turn = game.play(move, entry.color, entry.by is not None)
        except IllegalMove as exc:
            errors.append(move_error(record, entry, number, str(exc)))
            result.moves_ok = number - 1
            break
        if hidden is not None:
            hidden.played(turn, entry)
    if strict:
        errors += not_canonical(record, game.history)
    return result


def not_canonical(record: Record, turns: list[Turn]) -> list[RecordError]:
    """A problem for each of the moves played (``turns``) not written in canonical notation,
    or a pass not recorded under the player's first colour."""
    errors = []
    for number, (turn, entry) in enumerate(zip(turns, record.moves), 1):
        first = turn.player.colors[0]
        canonical = str(turn.move)
        if entry.text == FORFEIT:
            continue
        if entry.text != canonical:
            message = gettext("{text!r} is not canonical notation: write {canonical!r}").format(
                text=entry.text, canonical=canonical)
            errors.append(move_error(record, entry, number, message))
        elif turn.move.is_pass and entry.color != first:
            message = gettext("a pass is recorded under the player's first colour, {color}").format(
                color=shown_color(first))
            errors.append(move_error(record, entry, number, message))
    return errors


def move_error(record: Record, entry: MoveEntry, number: int, message: str) -> RecordError:
    """``message`` as the error of move ``number`` of ``record`` (``entry``), at its line."""
    return RecordError(message, path=record.path, line=entry.line, move=number)


def rack_line_problems(record: Record, game: Game,
                        bags: dict[str, list[int]] | None) -> list[RecordError]:
    """``line_problems`` of the moves played in ``game``, a position dealt ``bags`` (a copy
    taken back move by move, so that the variations are checked against the racks)."""
    problems: list[RecordError] = []
    if bags is None or all(entry.notes is None for entry in record.moves[:game.ply]):
        return problems
    from .annotations import line_problems  # (for notes only: see records.schema)

    board = game.redealt(bags)
    while board.ply:
        number = board.ply
        board.pop()
        entry = record.moves[number - 1]
        if entry.notes is not None:
            problems[:0] = line_problems(board, record.path, entry, number)
    return problems


