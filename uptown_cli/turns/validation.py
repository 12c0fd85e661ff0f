"""Validating records: a record checked from end to end, its schema, its moves and every check
of fair play, the clock and the bots that played for late players, every problem in file
order (``validate_file``, ``validate_text``, ``validate_record``): what ``uptown validate`` says,
and what every command that reads a game relies on."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from ..analysis.stand_ins import stand_in_errors
from ..engine.game import Game
from ..engine.words import Word
from ..errors import RecordError
from ..fairplay.replay import replay
from ..i18n import names_list, ngettext
from ..records.times import pause_errors, settle
from ..engine.notation import FORFEIT
from ..records.entries import forfeits
from ..records.reading import read_file
from ..records.schema import Record, SchemaReader, file_order
from ..records.times import future_problem
from ..records.yaml_reader import decode

__all__ = ["Status", "Validation", "validate_text", "validate_record", "validate_file", "settled_players"]


class Status(Word):
    """What validation says of a record as a whole (``Validation.status``)."""

    VALID = "valid"
    """No problem found."""
    INVALID = "invalid"
    """A problem found."""
    SETTLED = "settled"
    """No problem, and the result stands though the game did not end on the board: a forfeit
    in its moves, or a player who did not reveal their key by the deadline (ranked last)."""
    UNCHECKED = "unchecked"
    """No problem found, but a finished game with hidden racks whose players have not all
    revealed their keys: their draws stay unchecked."""
    VOID = "void"
    """No problem found, and no result: the club judge ruled the game void, since its players
    did not all join it in time."""


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
    def status(self) -> Status:
        """``valid``, ``invalid``, ``settled`` (a finished game with a forfeit written in its
        moves, or every key missing from a finished hidden game past its reveal deadline) or
        ``unchecked``: no problem found, but a finished hidden game whose players in
        ``unrevealed`` have not revealed their keys."""
        if self.errors:
            return Status.INVALID
        if self.void_text() is not None:
            return Status.VOID
        if self.unrevealed:
            return Status.SETTLED if self.valid else Status.UNCHECKED
        finished = self.game is not None and self.game.finished
        forfeit = self.record is not None and any(m.text == FORFEIT for m in self.record.moves)
        return Status.SETTLED if finished and forfeit else Status.VALID

    def void_text(self) -> str | None:
        """``Cy did not join by 2026-12-08T12:00:00Z`` when the club judge ruled the game void
        (``void:``), None otherwise."""
        joins = self.record.joins if self.record is not None else None
        if joins is None or joins.void is None or self.record is None:
            return None
        waiting = [p.name for p in self.record.players][len(joins.commitments):]
        return ngettext("{names} did not join by {at}", "{names} did not join by {at}",
                        len(waiting)).format(names=names_list(waiting), at=joins.void.at)

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
        elif self.status in (Status.SETTLED, Status.VOID):
            data["status"] = self.status
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


def validate_text(text: str | bytes, path: str, strict: bool = False,
                  now: datetime | None = None) -> Validation:
    """Check a record given as text; every problem lands in the result, nothing is raised.

    With ``now`` (the reader's clock; None: no time is checked), a move dated in the reader's
    future is a problem (``times.future_problem``), and the players of a finished hidden game
    who did not reveal by their deadline settle it (``Validation.settled``). A record without
    a problem so far has each move a bot made for a late player played again
    (``analysis.stand_ins``), before it is settled."""
    try:
        if isinstance(text, bytes):
            text = decode(text, path)
        schema = SchemaReader(text, path)
        record = schema.check()
    except RecordError as exc:
        return Validation(path, None, exc.problems, 0)
    if record is None:
        return Validation(path, None, schema.problems, 0, warnings=schema.warnings)
    return _validated(record, schema.problems, schema.warnings, strict, now)


def validate_record(record: Record, strict: bool = False,
                    now: datetime | None = None) -> Validation:
    """``validate_text`` of a record already read (``schema.load_record_text``: its schema
    holds), without reading its text again."""
    return _validated(record, [], [], strict, now)


def validate_file(path: str | Path, strict: bool = False, shown: str | None = None,
                  now: datetime | None = None) -> Validation:
    """Check the record at ``path`` (named ``shown`` in what is said, default ``path``); every
    problem lands in the result, nothing is raised (``now``: as for ``validate_text``)."""
    shown = str(path) if shown is None else shown
    try:
        text = read_file(path, shown)
    except RecordError as exc:
        return Validation(shown, None, exc.problems, 0)
    return validate_text(text, shown, strict, now)


def _validated(record: Record, problems: list[RecordError], warned: list[RecordError],
               strict: bool, now: datetime | None) -> Validation:
    """``validate_text`` of ``record`` once its schema is read, with the ``problems`` and
    warnings (``warned``) found there: its moves replayed once."""
    result = replay(record, strict)
    if record.pauses:
        result.errors += pause_errors(record, result.game)
    if record.disputes:
        from ..records.disputes import dispute_errors  # (records with disputes only)

        result.errors += dispute_errors(record)
    errors = sorted(problems + result.errors, key=file_order)
    warnings = sorted(warned + result.warnings + result.alerts, key=file_order)
    left_unchecked: list[str] = []
    unrevealed: list[str] = []
    if record.hidden is not None:
        from ..fairplay.check import unchecked, unrevealed_players  # (hidden games only)

        left_unchecked = unchecked(record)
        if result.game.finished and not errors:
            unrevealed = unrevealed_players(record)
    if problems:
        return Validation(record.path, None, errors, result.moves_ok, left_unchecked,
                          unrevealed, warnings)
    checked = Validation(record.path, record, errors, result.moves_ok, left_unchecked,
                         unrevealed, warnings, result.game)
    _check_further(checked, record, now)
    return checked


def _check_further(checked: Validation, record: Record, now: datetime | None) -> None:
    """Add to ``checked`` (``record`` checked, its schema holding) what ``now`` and the
    stand-ins' bots find (``validate_text``), and who is settled at ``now``."""
    if now is not None and (record.timing is not None or any(m.at is not None
                                                             for m in record.moves)):
        problem = future_problem(checked.path, record.moves, now, record.timing, record.pauses)
        if problem is not None:
            checked.errors = sorted(checked.errors + [problem], key=file_order)
    if not checked.errors:
        checked.errors += stand_in_errors(record)
    if now is not None and not checked.errors and checked.game is not None:
        checked.settled = settled_players(record, checked.game, now)


def settled_players(record: Record, game: Game, now: datetime) -> dict[str, str]:
    """The players of ``record``, a finished game with hidden racks (``game``, as replayed),
    who did not reveal their keys by their deadline at ``now``, with it: they forfeit, and the
    game counts for the others (``Validation.settled``)."""
    if record.hidden is None or not game.finished:
        return {}
    from ..fairplay.check import unrevealed_players

    return settle(record, unrevealed_players(record), now)
