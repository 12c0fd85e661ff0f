"""Replaying a record through the engine, and validating records: every problem, in file order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..engine.game import Game
from ..engine.geometry import shown_color
from ..engine.notation import parse_move
from ..errors import IllegalMove, NotationError, RecordError
from ..i18n import _ as gettext
from .entries import FORFEIT, MoveEntry, forfeits
from .reading import read_file
from .schema import Record, SchemaReader, file_order
from .yaml_reader import decode

if TYPE_CHECKING:
    from datetime import datetime
    from pathlib import Path

    from ..engine.game import Turn
    from .hidden_check import HiddenCheck  # loaded only for games with hidden racks

__all__ = ["replay", "drawn_bags", "Validation", "validate_text", "validate_file",
           "validate_record"]



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
        return not self.errors


def replay(record: Record, strict: bool = False, upto: int | None = None,
           hidden: HiddenCheck | None = None) -> Replay:
    """Play the record's moves (the first ``upto`` of them, when given) through the engine.

    Stops at the first move that cannot be read or is illegal, reporting it with its move
    number and line.  With ``strict``, also reports every move not written canonically.
    A game with hidden racks is checked by ``hidden`` (by default one that knows the keys
    revealed in the record), whose ``deal`` then holds the racks it knows; once every key is
    revealed and the whole game checks, its game is dealt the bags those keys drew.

    The moves are played once per record: a check that knows more keys (a player's view)
    after a valid replay of the same moves checks what its keys add on the game that replay
    played (the same Game object, when nothing was played on it since); a revealed game's
    position before the end is taken back from the whole game's replay.
    """
    if record.hidden is None:
        return play_moves(record, record.new_game(), strict, upto)
    from .hidden_check import HiddenCheck

    taken_back = upto is not None and upto < len(record.moves) and _all_revealed(record)
    if taken_back and None not in record.replayed:
        replay(record)  # kept on the record: the position is taken back from it
    check = HiddenCheck(record) if hidden is None else hidden
    followed = _follow(record, upto, check) if hidden is not None or taken_back else None
    result = followed or _play_hidden(record, upto, check)
    found = check.forgery()
    if found is not None and not found[2] and not result.errors:
        result.alerts.append(RecordError(found[1], path=record.path, line=found[0]))
    elif found is not None:  # named at the changed move's line, not at the move proving it
        result.errors[:] = [RecordError(found[1], path=record.path, line=found[0])] + [
            e for e in result.errors if e.message != found[1]]
    moves = record.moves if upto is None else record.moves[:upto]
    if hidden is None and result.moves_ok == len(moves) and (
            result.game.knows_racks or not result.errors):
        record.replayed[upto] = (result.game, tuple(result.game.history), check)
    if (record.hidden.revealed and result.moves_ok == len(record.moves)
            and not result.game.finished):
        from .hidden_check import early_reveals

        result.errors += early_reveals(record)
    if strict:
        result.errors += _not_canonical(record, result.game.history)
    return result


def _all_revealed(record: Record) -> bool:
    """Whether every player of a hidden game has revealed their key (a key that does not give
    its player's commitment counts as not revealed)."""
    assert record.hidden is not None
    return len(record.hidden.valid_reveals()) == len(record.players)


def _play_hidden(record: Record, upto: int | None, check: HiddenCheck) -> Replay:
    """The moves of a hidden game played once with ``check``, racks unknown; re-dealt the
    bags the keys drew (``Game.redealt``) when the whole game was played, every key is
    revealed and known to ``check`` and nothing is wrong, its variations then checked against
    the racks too."""
    result = play_moves(record, record.new_game(), upto=upto, hidden=check)
    if not _all_revealed(record) or result.errors or result.moves_ok < len(record.moves):
        return result
    bags = drawn_bags(check)
    if bags is None:
        return result
    game = result.game.redealt(bags)
    return Replay(game, [], result.moves_ok, _rack_line_problems(record, game, bags))


def _rack_line_problems(record: Record, game: Game,
                        bags: dict[str, list[int]] | None) -> list[RecordError]:
    """``line_problems`` of the moves played in ``game``, a position dealt ``bags`` (a copy
    taken back move by move, so that the variations are checked against the racks)."""
    problems: list[RecordError] = []
    if bags is None or all(entry.notes is None for entry in record.moves[:game.ply]):
        return problems
    from .annotations import line_problems  # here: most records have no notes

    board = game.redealt(bags)
    while board.ply:
        number = board.ply
        board.pop()
        entry = record.moves[number - 1]
        if entry.notes is not None:
            problems[:0] = line_problems(board, record.path, entry, number)
    return problems


def drawn_bags(check: HiddenCheck) -> dict[str, list[int]] | None:
    """The bags the keys ``check`` knows drew, when it knows every player's key and found no
    fault in them (nor a seal that does not cover the history); else None."""
    from ..hidden.draws import bags_from_draws

    if (check.errors or len(check.keys) < len(check.deal.players)
            or check.forgery() is not None):  # a move changed after it was sealed
        return None
    return bags_from_draws(check.deal.drawn, check.deal.drawn.keys())


def _follow(record: Record, upto: int | None, hidden: HiddenCheck) -> Replay | None:
    """``replay`` with ``hidden`` from a public replay kept for ``upto`` (or, in a dealt
    game, for the whole game, taken back to ``upto``) without playing the moves again; None
    when there is none, or its game was played on since."""
    kept = record.replayed.get(upto)
    whole = record.replayed.get(None)
    if kept is None and whole is not None and whole[0].knows_racks:
        kept = whole
    if kept is None or tuple(kept[0].history) != kept[1]:
        return None
    game, turns, checked = kept
    count = len(turns) if upto is None else min(upto, len(turns))
    if any(turn.move.is_pass and ply not in checked.passes
           for ply, turn in enumerate(turns[:count])):
        return None
    found = hidden.follow(checked, turns[:count], record.moves)
    number = count + 1 if found is None else found[0]
    bags = drawn_bags(checked) if game.knows_racks else None
    if number - 1 < len(turns):
        game = game.redealt(bags)
        game.rewind(number - 1)
    errors = list(hidden.errors)
    if found is not None:
        errors.append(_move_error(record, record.moves[number - 1], number, found[1]))
    return Replay(game, errors, number - 1, _rack_line_problems(record, game, bags))


def play_moves(record: Record, game: Game, strict: bool = False, upto: int | None = None,
               hidden: HiddenCheck | None = None) -> Replay:
    """``replay`` on ``game`` (a game at move 0 of the record's players)."""
    if hidden is None and record.hidden is not None:
        from .hidden_check import HiddenCheck

        hidden = HiddenCheck(record)
    errors = list(hidden.errors) if hidden is not None else []
    moves = record.moves if upto is None else record.moves[:upto]
    result = Replay(game, errors, len(moves))
    for number, entry in enumerate(moves, 1):
        if entry.by is not None or entry.text == FORFEIT:  # (records.times)
            from .deadlines import stand_in_error

            problem = stand_in_error(record, game, number - 1, hidden is not None)
            if problem is not None:
                errors.append(_move_error(record, entry, number, problem))
                result.moves_ok = number - 1
                break
            if entry.text == FORFEIT and hidden is not None:
                problem = hidden.forfeit_problem(game, entry)
                if problem is not None:
                    errors.append(_move_error(record, entry, number, problem))
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
            errors.append(_move_error(record, entry, number, message))
            result.moves_ok = number - 1
            break
        if entry.notes is not None:
            from .annotations import line_problems  # here: most records have no notes

            result.warnings += line_problems(game, record.path, entry, number)
        problem = hidden.problem(game, entry, move) if hidden is not None else None
        if problem is not None:
            errors.append(_move_error(record, entry, number, problem))
            result.moves_ok = number - 1
            break
        try:
            turn = game.play(move, entry.color, entry.by is not None)
        except IllegalMove as exc:
            errors.append(_move_error(record, entry, number, str(exc)))
            result.moves_ok = number - 1
            break
        if hidden is not None:
            hidden.played(turn, entry)
    if strict:
        errors += _not_canonical(record, game.history)
    return result


def _not_canonical(record: Record, turns: list[Turn]) -> list[RecordError]:
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
            errors.append(_move_error(record, entry, number, message))
        elif turn.move.is_pass and entry.color != first:
            message = gettext("a pass is recorded under the player's first colour, {color}").format(
                color=shown_color(first))
            errors.append(_move_error(record, entry, number, message))
    return errors


def _move_error(record: Record, entry: MoveEntry, number: int, message: str) -> RecordError:
    return RecordError(message, path=record.path, line=entry.line, move=number)


class Validation:
    """A record checked from end to end: its schema, then a replay of the moves before the
    first that breaks the format.  ``record`` is None unless the schema holds; ``moves``
    counts the moves replayed legally before the first problem with a move; ``errors`` are
    in file order, so the earliest move's problem comes before those of later moves;
    ``warnings`` (in file order too) are the notes under the moves that do not read as notes
    or do not fit the rules or the racks: notes are not the game, and never make it invalid."""

    __slots__ = ("path", "record", "errors", "moves", "unchecked", "unrevealed", "warnings",
                 "settled", "game")

    def __init__(self, path: str, record: Record | None, errors: list[RecordError], moves: int,
                 unchecked: list[str] | None = None, unrevealed: list[str] | None = None,
                 warnings: list[RecordError] | None = None, game: Game | None = None) -> None:
        self.path = path
        self.record = record
        self.game = game
        """The game ``record``'s moves were replayed into, as far as they are legal (None
        with ``record``): read it, do not play on it."""
        self.errors = errors
        self.moves = moves
        self.warnings: list[RecordError] = [] if warnings is None else warnings
        self.unchecked: list[str] = [] if unchecked is None else unchecked
        """What cannot be checked yet (hidden racks whose keys are not revealed)."""
        self.unrevealed: list[str] = [] if unrevealed is None else unrevealed
        """The players of a *finished* hidden game whose draws stay unchecked (no valid
        key)."""
        self.settled: dict[str, str] = {}
        """The players of ``unrevealed`` whose reveal deadline has passed at the ``now`` of
        ``validate_text`` (``deadlines.settle``), with the deadline: they forfeit, and the game
        counts for the others."""

    @property
    def valid(self) -> bool:
        """No problem found, and nothing left unchecked in a finished game (a player who did
        not reveal in time is settled: ranked last)."""
        return not self.errors and all(name in self.settled for name in self.unrevealed)

    @property
    def status(self) -> str:
        """``valid``, ``invalid``, ``settled`` (a finished game with a forfeit written in its
        moves, or every key missing from a finished hidden game past its reveal deadline) or
        ``unchecked``: no problem found, but a finished hidden game whose players in
        ``unrevealed`` have not revealed their keys."""
        if self.errors:
            return "invalid"
        if self.unrevealed:
            return "settled" if self.valid else "unchecked"
        finished = self.game is not None and self.game.finished
        forfeit = self.record is not None and any(m.text == FORFEIT for m in self.record.moves)
        return "settled" if finished and forfeit else "valid"

    def to_json(self) -> dict[str, Any]:
        """``{"path", "valid", "moves", "errors": [{"line", "move", "message"}], "warnings":
        [the same]}``, and for a game with hidden racks ``"status"``, ``"unchecked": [sentence,
        ...]`` and ``"unchecked_players": [name, ...]`` (those of a finished game who did not
        reveal)."""
        data = {"path": self.path, "valid": self.valid, "moves": self.moves,
                "errors": [e.to_json() for e in self.errors],
                "warnings": [w.to_json() for w in self.warnings]}
        if self.record is not None and self.record.hidden is not None:
            data.update(status=self.status, unchecked=self.unchecked,
                        unchecked_players=self.unrevealed, reveal_deadlines=self.settled)
        elif self.status == "settled":
            data["status"] = "settled"
        forfeited = self.forfeited()
        if forfeited:
            data["forfeited"] = forfeited
        return data

    def forfeited(self) -> list[dict[str, object]]:
        """``{"name", "reason" ("resigned", "out of time", "reveal"), "at", "move"}`` for each
        forfeit of the record (in the moves, then the reveals not made in time)."""
        return self.forfeits_in_moves() + forfeits((), {}, self.settled)

    def forfeits_in_moves(self) -> list[dict[str, object]]:
        """The forfeits of ``forfeited`` written in the record's moves."""
        record = self.record
        return [] if record is None else forfeits(record.moves, record.owners, {})


Check = Callable[[Record], list[RecordError]]
"""A check of a record, from a layer above ``records`` (``validate_text``'s ``more``): a
problem for each thing wrong."""


def validate_text(text: str | bytes, path: str, strict: bool = False,
                  now: datetime | None = None, more: Check | None = None) -> Validation:
    """Check a record given as text; every problem lands in the result, nothing is raised.

    With ``now`` (the reader's clock; None: no time is checked), a move dated in the reader's
    future is a problem (``times.future_problem``), and the players of a finished hidden game
    who did not reveal by their deadline settle it (``Validation.settled``). ``more`` is a check
    from a layer above (the stand-in bots of ``analysis.stand_ins``, which ``validate`` adds),
    run on a record without a problem so far, before it is settled."""
    try:
        if isinstance(text, bytes):
            text = decode(text, path)
        schema = SchemaReader(text, path)
        record = schema.check()
    except RecordError as exc:
        return Validation(path, None, exc.problems, 0)
    if record is None:
        return Validation(path, None, schema.problems, 0, warnings=schema.warnings)
    return _validated(record, schema.problems, schema.warnings, strict, now, more)


def validate_record(record: Record, strict: bool = False, now: datetime | None = None,
                    more: Check | None = None) -> Validation:
    """``validate_text`` of a record already read (``schema.load_record_text``: its schema
    holds), without reading its text again."""
    return _validated(record, [], [], strict, now, more)


def _validated(record: Record, problems: list[RecordError], warned: list[RecordError],
               strict: bool, now: datetime | None, more: Check | None) -> Validation:
    """``validate_text`` of ``record`` once its schema is read, with the ``problems`` and
    warnings (``warned``) found there: its moves replayed once."""
    result = replay(record, strict)
    if record.pauses:  # vacations (records.deadlines)
        from .deadlines import pause_errors

        result.errors += pause_errors(record, result.game)
    errors = sorted(problems + result.errors, key=file_order)
    warnings = sorted(warned + result.warnings + result.alerts, key=file_order)
    unrevealed = []
    if record.hidden is not None and result.game.finished and not errors:
        from .hidden_check import unrevealed_players

        unrevealed = unrevealed_players(record)
    if problems:
        return Validation(record.path, None, errors, result.moves_ok, _unchecked(record),
                          unrevealed, warnings)
    checked = Validation(record.path, record, errors, result.moves_ok, _unchecked(record),
                         unrevealed, warnings, result.game)
    _check_further(checked, record, now, more)
    return checked


def _check_further(checked: Validation, record: Record, now: datetime | None,
                   more: Check | None) -> None:
    """Add to ``checked`` (``record`` checked, its schema holding) what ``now`` and ``more``
    find (``validate_text``), and who is settled at ``now``."""
    if now is not None and (record.timing is not None or any(m.at is not None
                                                             for m in record.moves)):
        from .times import future_problem

        problem = future_problem(checked.path, record.moves, now, record.timing, record.pauses)
        if problem is not None:
            checked.errors = sorted(checked.errors + [problem], key=file_order)
    if more is not None and not checked.errors:
        checked.errors += more(record)
    if now is not None and checked.unrevealed and not checked.errors:
        from .deadlines import settle

        checked.settled = settle(record, checked.unrevealed, now)


def validate_file(path: str | Path, strict: bool = False, shown: str | None = None,
                  now: datetime | None = None, more: Check | None = None) -> Validation:
    """Check the record at ``path``; every problem lands in the result, nothing is raised
    (``now`` and ``more``: as for ``validate_text``)."""
    shown = str(path) if shown is None else shown
    try:
        text = read_file(path, shown)
    except RecordError as exc:
        return Validation(shown, None, exc.problems, 0)
    return validate_text(text, shown, strict, now, more)


def _unchecked(record: Record) -> list[str]:
    """What cannot be checked yet in a game with hidden racks (nothing in an open game)."""
    if record.hidden is None:
        return []
    from .hidden_check import unchecked

    return unchecked(record)
