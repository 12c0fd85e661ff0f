"""Ratings of a club's players over their finished games, with openskill's Plackett-Luce
model (any number of players, ties allowed), rated in date order.

The date of a game is its record's ``date`` when it reads as one (``2026-11-29``), else the
file's modification time.  Names are matched ignoring case, as in records; the name shown is
the one of the player's latest game.  The displayed rating is openskill's ordinal,
mu - 3 sigma, shown with sigma, the uncertainty.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from ..engine.game import name_key
from ..engine.moments import parse_time
from ..engine.scoring import Standing, standings
from ..records.disputes import open_disputes
from ..records.schema import Record
from ..records.times import entry_time
from ..turns.validation import Validation, validate_file
from .status import copies_once, file_time

__all__ = ["finished_games", "rate"]


class RatedGame(NamedTuple):
    """A finished game to rate: when it was played, its path, its standings, the other
    files that hold the same game (rated once: ``finished_games``), and the players whose
    dispute of an entry is open in any copy (``records.disputes``: the game is not rated
    until they settle it)."""

    when: datetime
    path: str
    standings: tuple[Standing, ...]
    copies: tuple[str, ...] = ()
    disputed: tuple[str, ...] = ()


class PlayerRating(NamedTuple):
    """A player's rating: openskill's ``mu`` and ``sigma``, games played and won."""

    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The rating shown: mu - 3 sigma (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, object]:
        return {"player": self.name, "rating": round(self.ordinal, 3), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "games": self.games, "wins": self.wins}


def game_date(record: Record, path: str) -> datetime:
    """The record's ``date`` when it reads as an ISO date, else the time of its last move (the
    judge's stamp in a game under a club judge), else the file's time (UTC; the latest date
    there is, for a time past the year 9999): what every copy of the game agrees on first."""
    text = record.fields.get("date", "").strip()
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        last = entry_time(record.moves[-1]) if record.moves else None
        if last is not None:
            return parse_time(last)
        return file_time(os.stat(path).st_mtime, utc=True) or datetime.max.replace(tzinfo=timezone.utc)
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


def finished_games(paths: list[str], variant: str | None = None, now: datetime | None = None,
                   validations: Mapping[str, Validation] | None = None
                   ) -> tuple[list[RatedGame], list[str]]:
    """(the valid finished games among ``paths``, of ``variant`` when given, in date order;
    the paths of the invalid records, which are left out). Validated at ``now``
    (``replay.validate_file``): a hidden game whose missing keys are past their reveal deadline
    is settled and counts, those who did not reveal ranked last; a move from the future makes
    its game invalid. Copies of one game (one game id, whatever their file names) count once:
    the copy with the most moves (then the first path), the others named in its ``copies``, a
    dispute open in any of them open in it.
    ``validations`` holds those made already (at ``now``), by path."""
    found: list[tuple[str | None, int, RatedGame]] = []
    invalid = []
    for path in paths:
        checked = (validations or {}).get(path) or validate_file(path, now=now)
        record, game = checked.record, checked.game
        if not checked.valid or record is None or game is None:
            invalid.append(path)
            continue
        if variant is not None and record.variant != variant:
            continue
        if game.finished:
            found.append((record.game_id, len(record.moves), RatedGame(
                game_date(record, path), path,
                tuple(standings(game, record.variant, list(checked.settled))),
                disputed=tuple(dict.fromkeys(d.name for d in open_disputes(record.disputes))))))
    disputed: dict[str | None, tuple[str, ...]] = {}
    for game_id, _moves, rated in found:
        disputed[game_id] = tuple(dict.fromkeys(disputed.get(game_id, ()) + rated.disputed))
    games = [rated._replace(copies=others, disputed=disputed[game_id] if game_id else rated.disputed)
             for (game_id, _moves, rated), others in copies_once(
        found, lambda item: item[0], lambda item: (-item[1],), lambda item: item[2].path)]
    games.sort(key=lambda g: (g.when, g.path))
    return games, invalid


def rate(games: list[RatedGame], model: Any = None) -> list[PlayerRating]:
    """Every player's rating after ``games`` (rated in the order given; a game with an open
    dispute is left out), best first. ``model`` is an openskill model (a default
    ``PlackettLuce`` when None)."""
    model = PlackettLuce() if model is None else model
    ratings: dict[str, Any] = {}
    names: dict[str, str] = {}
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for rated in (game for game in games if not game.disputed):
        keys = [name_key(s.name) for s in rated.standings]
        for key, standing in zip(keys, rated.standings):
            names[key] = standing.name
            ratings.setdefault(key, model.rating(name=standing.name))
            played[key] = played.get(key, 0) + 1
            won[key] = won.get(key, 0) + (standing.rank == 1)
        teams = model.rate([[ratings[key]] for key in keys],
                           ranks=[s.rank for s in rated.standings])
        for key, team in zip(keys, teams):
            ratings[key] = team[0]
    table = [PlayerRating(names[key], ratings[key].mu, ratings[key].sigma, played[key], won[key])
             for key in ratings]
    return sorted(table, key=lambda r: (-r.ordinal, name_key(r.name)))
