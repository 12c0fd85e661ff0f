"""A tournament's figures: per entrant, games, first places, forfeits, the mean score of the
games played to their end; per pairing of two entrants, cutechess's score line (wins, losses,
draws, score, Elo difference with its 95% error bar, LOS, draw ratio); with more than two
seats, openskill's Plackett-Luce ratings. The SPRT is ``analysis.sprt``.

Two entrants are compared a seat against a seat: in each game where both sit, every seat of
one against every seat of the other is a win for the one ranked ahead, a draw when they share
a rank, a loss otherwise (with two seats: a game won, drawn or lost). A forfeit ranks its seat
last, so it counts as a loss in every figure. An entrant in several seats of a game (the field
of a gauntlet) counts each seat as a game played, and is rated once per game by openskill, at
its best rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any, NamedTuple

from .match import GameOutcome

__all__ = ["Pairing", "pairings", "figures"]

Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95% interval (1.95996...)."""


def elo_of(score: float) -> float:
    """The Elo difference that gives an expected score of ``score`` (0 < score < 1)."""
    return -400 * math.log10(1 / score - 1)


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float | None, float | None]:
    """``(Elo difference, its 95% error bar)`` of these results (cutechess's formula); None
    where a result makes it infinite (all won or all lost, or a bound at 0 or 1)."""
    games = wins + draws + losses
    if games == 0:
        return None, None
    mu = (wins + draws / 2) / games
    if not 0 < mu < 1:
        return None, None
    w, d, l = wins / games, draws / games, losses / games
    sigma = math.sqrt(w * (1 - mu) ** 2 + l * mu ** 2 + d * (0.5 - mu) ** 2) / math.sqrt(games)
    low, high = mu - Z95 * sigma, mu + Z95 * sigma
    error = (elo_of(high) - elo_of(low)) / 2 if 0 < low and high < 1 else None
    return elo_of(mu), error


def los(wins: int, losses: int) -> float:
    """The likelihood of superiority (cutechess's): the chance that the one who won ``wins``
    and lost ``losses`` is the stronger, draws aside; 0.5 before any game won or lost."""
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2 * (wins + losses)))


def elo_json(elo: float | None, score: float | None) -> float | str | None:
    """An Elo difference as JSON: a number, ``"+inf"`` or ``"-inf"`` when the ``score`` is
    all or nothing, None before any game."""
    if score is None:
        return None
    if elo is None:
        return "+inf" if score == 1 else "-inf"
    return round(elo, 3) + 0.0  # never -0.0


class Pairing(NamedTuple):
    """The first entrant's results against the second, a seat against a seat: ``wins``,
    ``losses``, ``draws``; ``score`` ((W + D/2)/N, None before any game), the Elo difference
    (None where infinite: see ``score``) and its error bar, ``los`` and the draw ratio."""

    first: str
    second: str
    wins: int
    losses: int
    draws: int
    score: float | None
    elo: float | None
    elo_error: float | None
    los: float
    draw_ratio: float | None

    @property
    def games(self) -> int:
        """How many seats of the first entrant met a seat of the second."""
        return self.wins + self.losses + self.draws

    def to_json(self) -> dict[str, Any]:
        """The pairing as ``--json`` gives it (``elo`` a number, ``"+inf"`` or ``"-inf"``)."""
        return {"first": self.first, "second": self.second, "wins": self.wins,
                "losses": self.losses, "draws": self.draws, "games": self.games,
                "score": _rounded(self.score), "elo": elo_json(self.elo, self.score),
                "elo_error": _rounded(self.elo_error), "los": round(self.los, 4),
                "draw_ratio": _rounded(self.draw_ratio)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def head_to_head(outcomes: Sequence[GameOutcome], first: str, second: str) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of ``first`` against ``second``, a seat against a seat."""
    wins = draws = losses = 0
    for outcome in outcomes:
        mine = [s.rank for s in outcome.seats if s.entrant == first]
        for theirs in (s.rank for s in outcome.seats if s.entrant == second):
            wins += sum(rank < theirs for rank in mine)
            draws += sum(rank == theirs for rank in mine)
            losses += sum(rank > theirs for rank in mine)
    return wins, draws, losses


def pairing(outcomes: Sequence[GameOutcome], first: str, second: str) -> Pairing:
    """The ``Pairing`` of ``first`` against ``second`` over ``outcomes``."""
    wins, draws, losses = head_to_head(outcomes, first, second)
    games = wins + draws + losses
    elo, error = elo_interval(wins, draws, losses)
    return Pairing(first, second, wins, losses, draws,
                   (wins + draws / 2) / games if games else None, elo, error, los(wins, losses),
                   draws / games if games else None)


def pairings(outcomes: Sequence[GameOutcome], pairs: Sequence[tuple[str, str]]) -> list[Pairing]:
    """The ``Pairing`` of each ``(first, second)`` in ``pairs``."""
    return [pairing(outcomes, first, second) for first, second in pairs]


class EntrantFigures(NamedTuple):
    """An entrant's figures: ``games`` (seats played), ``firsts`` (first places, a shared one
    as a fraction), ``forfeits``, the mean score of the games played to their end (None
    without one: a game stopped by a forfeit has no final score); two seats: wins, draws,
    losses against every other, the score, Elo and its error bar; more seats: openskill's
    ``mu`` and ``sigma``."""

    name: str
    games: int
    firsts: float
    forfeits: int
    mean_score: float | None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    score: float | None = None
    elo: float | None = None
    elo_error: float | None = None
    mu: float | None = None
    sigma: float | None = None

    def to_json(self) -> dict[str, Any]:
        data = {key: round(value, 3) if isinstance(value, float) else value
                for key, value in self._asdict().items()}
        if self.wins is not None:
            data["elo"] = elo_json(self.elo, self.score)
        return data


def figures(outcomes: Sequence[GameOutcome], names: Sequence[str], seats: int) -> list[EntrantFigures]:
    """Each entrant's figures over ``outcomes`` (in game order), in the order of ``names``."""
    ratings = _openskill(outcomes) if seats > 2 else {}
    table = []
    for name in names:
        mine = [(s, o.finished) for o in outcomes for s in o.seats if s.entrant == name]
        finished = [s.score for s, whole in mine if whole]
        base: dict[str, Any] = {
            "name": name, "games": len(mine), "firsts": sum(s.first for s, _ in mine),
            "forfeits": sum(s.forfeit is not None for s, _ in mine),
            "mean_score": sum(finished) / len(finished) if finished else None}
        if seats == 2:
            total = [0, 0, 0]
            for other in names:
                if other != name:
                    total = [a + b for a, b in zip(total, head_to_head(outcomes, name, other))]
            wins, draws, losses = total
            games = wins + draws + losses
            elo, error = elo_interval(wins, draws, losses)
            base.update(wins=wins, draws=draws, losses=losses, elo=elo, elo_error=error,
                        score=(wins + draws / 2) / games if games else None)
        elif name in ratings:
            base.update(mu=ratings[name][0], sigma=ratings[name][1])
        table.append(EntrantFigures(**base))
    return table


def _openskill(outcomes: Sequence[GameOutcome]) -> dict[str, tuple[float, float]]:
    """``{entrant: (mu, sigma)}`` after rating every game in order (Plackett-Luce, openskill's
    defaults), each entrant once per game at its best rank."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for outcome in outcomes:
        best: dict[str, int] = {}
        for seat in outcome.seats:
            best[seat.entrant] = min(seat.rank, best.get(seat.entrant, seat.rank))
        if len(best) < 2:
            continue
        names = list(best)
        for name in names:
            ratings.setdefault(name, model.rating(name=name))
        rated = model.rate([[ratings[name]] for name in names], ranks=[best[n] for n in names])
        for name, team in zip(names, rated):
            ratings[name] = team[0]
    return {name: (rating.mu, rating.sigma) for name, rating in ratings.items()}
