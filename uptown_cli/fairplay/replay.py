"""Reading a game as it was played: a record's moves replayed through the engine with every
check of fair play (``replay``): in a game with hidden racks, each link, seal, draw and pass
against the commitments and the keys known (``fairplay.check``), and the bags the keys drew once
they are all revealed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RecordError
from ..records.replay import Replay, move_error, not_canonical, play_moves, rack_line_problems
from ..records.schema import Record

if TYPE_CHECKING:
    from .check import HiddenCheck

__all__ = ["replay", "drawn_bags"]


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
    if record.joins is not None and record.joins.signed:
        result = _replay_signed(record, strict, upto, hidden)
        from .signatures import signature_problems  # (signed games only)

        errors, warnings = signature_problems(record)
        lines = {error.line for error in errors}  # an entry not signed is told once, as such
        result.errors[:] = errors + [e for e in result.errors if e.line not in lines]
        result.warnings += warnings
        return result
    return _replay(record, strict, upto, hidden)


def _replay(record: Record, strict: bool, upto: int | None,
            hidden: HiddenCheck | None) -> Replay:
    """``replay``, the signatures aside."""
    if record.hidden is None:
        return play_moves(record, record.new_game(), strict, upto)
    # Loaded for a hidden game only: the checks and their hashing cost an open game's reader
    # 3.2 ms of CPU (python -X importtime, median of 9, 2026-12-06).
    from .check import HiddenCheck, early_reveals
    from .joins import hand_written_joins

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
        result.errors += early_reveals(record)
    result.warnings += hand_written_joins(record)[1]
    if strict:
        result.errors += not_canonical(record, result.game.history)
    return result


def _replay_signed(record: Record, strict: bool, upto: int | None,
                   hidden: HiddenCheck | None) -> Replay:
    """``_replay`` of a game of protocol 5; an open one is checked for its joins (a move
    before every player has joined is refused, as in a hidden game)."""
    if record.hidden is not None:
        return _replay(record, strict, upto, hidden)
    from .check import JoinsCheck

    return play_moves(record, record.new_game(), strict, upto, JoinsCheck(record))


def _all_revealed(record: Record) -> bool:
    """Whether every player of a hidden game has revealed their key (a key that does not give
    its player's commitment counts as not revealed)."""
    from .joins import valid_reveals  # (hidden games only: see replay)

    assert record.hidden is not None
    return len(valid_reveals(record.hidden)) == len(record.players)


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
    return Replay(game, [], result.moves_ok, rack_line_problems(record, game, bags))


def drawn_bags(check: HiddenCheck) -> dict[str, list[int]] | None:
    """The bags the keys ``check`` knows drew, when it knows every player's key and found no
    fault in them (nor a seal that does not cover the history); else None."""
    from .draws import bags_from_draws  # (hidden games only: see replay)

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
        errors.append(move_error(record, record.moves[number - 1], number, found[1]))
    return Replay(game, errors, number - 1, rack_line_problems(record, game, bags))


