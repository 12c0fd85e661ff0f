"""A tournament's figures per entrant: games, first places, mean score; for two-seat games the
Elo difference with its 95% error bar (cutechess's formula) and the SPRT (the trinomial
GSPRT fastchess uses, logistic Elo); for more seats openskill's Plackett-Luce ratings.

A game counts as a win for the entrant whose seat is first, a draw when first place is shared,
a loss otherwise. An entrant in several seats of a game (the field of a gauntlet) counts each
seat as a game played, and is rated once per game by openskill, at its best rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any, NamedTuple

from .match import GameOutcome

__all__ = ["Sprt", "sprt_llr", "results_of", "figures"]

Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95% interval (1.95996...)."""


class Sprt(NamedTuple):
    """A sequential probability ratio test of H0 (the first entrant is ``elo0`` stronger)
    against H1 (``elo1`` stronger), with error rates ``alpha`` and ``beta``."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def bounds(self) -> tuple[float, float]:
        """The log-likelihood ratio's bounds: below the first H0 is accepted, above the
        second H1 (+-2.94 at alpha = beta = 0.05)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)


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


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` stronger (logistic)."""
    return 1 / (1 + 10 ** (-elo / 400))


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) after these results,
    by the generalised SPRT on the mean score: N (s1 - s0)(2 x - s0 - s1) / (2 var), where
    x is the mean score, var its per-game variance and s the expected scores (logistic).
    While every game has had the same result the variance is 0: one draw more is counted
    then, so that a match won (or lost) game after game still stops. 0 before any game."""
    games = wins + draws + losses
    if games == 0:
        return 0.0
    if games in (wins, draws, losses):
        draws, games = draws + 1, games + 1
    w, d = wins / games, draws / games
    x = w + d / 2
    var = w + d / 4 - x * x
    if var <= 0:  # only draws: no evidence either way
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return games * (s1 - s0) * (2 * x - s0 - s1) / (2 * var)


def results_of(outcomes: Sequence[GameOutcome], name: str) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of entrant ``name`` in the two-seat games it played."""
    wins = draws = losses = 0
    for outcome in outcomes:
        for seat in outcome.seats:
            if seat.entrant == name and len(outcome.seats) == 2:
                wins += seat.first == 1
                draws += 0 < seat.first < 1
                losses += seat.first == 0
    return wins, draws, losses


def sprt_decision(sprt: Sprt, outcomes: Sequence[GameOutcome], name: str) -> str | None:
    """``"H1"`` (``name`` is stronger by ``elo1``), ``"H0"``, or None while undecided."""
    llr = sprt_llr(*results_of(outcomes, name), sprt.elo0, sprt.elo1)
    lower, upper = sprt.bounds()
    return "H1" if llr >= upper else "H0" if llr <= lower else None


class EntrantFigures(NamedTuple):
    """An entrant's figures: ``games`` (seats played), ``firsts`` (first places, a shared one
    as a fraction), mean score; two seats: wins, draws, losses, Elo and its error bar; more
    seats: openskill's ``mu`` and ``sigma``."""

    name: str
    games: int
    firsts: float
    mean_score: float
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    elo: float | None = None
    elo_error: float | None = None
    mu: float | None = None
    sigma: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {key: round(value, 3) if isinstance(value, float) else value
                for key, value in self._asdict().items()}


def figures(outcomes: Sequence[GameOutcome], names: Sequence[str], seats: int) -> list[EntrantFigures]:
    """Each entrant's figures over ``outcomes`` (in game order), in the order of ``names``."""
    ratings = _openskill(outcomes) if seats > 2 else {}
    table = []
    for name in names:
        mine = [s for o in outcomes for s in o.seats if s.entrant == name]
        games = len(mine)
        base: dict[str, Any] = {
            "name": name, "games": games, "firsts": sum(s.first for s in mine),
            "mean_score": sum(s.score for s in mine) / games if games else 0.0}
        if seats == 2:
            wins, draws, losses = results_of(outcomes, name)
            elo, error = elo_interval(wins, draws, losses)
            base.update(wins=wins, draws=draws, losses=losses, elo=elo, elo_error=error)
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
