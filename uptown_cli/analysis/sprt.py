"""The SPRT of a match between two entrants: fishtest's generalised SPRT (GSPRT) on the scores
of whole deals, which stops a match as soon as it can tell "the first entrant is ``elo1``
stronger" (H1) from "``elo0`` stronger" (H0) with the error rates it names.

A sample is a deal played from every seat (docs/TOURNAMENTS.md): with two seats, the pair of
games with the seats swapped, scored 0, 1/2, 1, 3/2 or 2 for the first entrant, whose counts
are fishtest's pentanomial. With more seats, each game scores every seat of the first entrant
against every seat of the second (1 ahead, 1/2 level, 0 behind), and the deal's score is the
sum over its games, again counted by value. A single game scores 0, 1/2 or 1 (the trinomial,
for games that are not paired). An entrant ``elo`` stronger is expected to score
``expected_score(elo)`` a seat against a seat (logistic Elo).

The log-likelihood ratio is fishtest's ``LLR_logistic``: the counts' empirical distribution
(a count of 0 taken as 0.001), and under each hypothesis the distribution nearest to it whose
mean is the hypothesis' expected score (Van den Bergh, "Comments on normalized Elo",
proposition 1.1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from .match import GameOutcome
from .rating import head_to_head

__all__ = ["Sprt", "sprt_llr", "nearest_distribution", "DealScores"]

REGULARIZED = 1e-3
"""The count a value never seen is given, so that every value has some likelihood (fishtest's)."""


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

    def decision(self, llr: float) -> str | None:
        """``"H1"``, ``"H0"``, or None while ``llr`` is between the bounds."""
        lower, upper = self.bounds()
        return "H1" if llr >= upper else "H0" if llr <= lower else None


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` stronger (logistic)."""
    return 1 / (1 + 10 ** (-elo / 400))


def sprt_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for ``counts`` of
    samples scored 0, 1/(K-1), ..., 1 of the most (K = len(counts), at least 2): the
    trinomial (losses, draws, wins) of single games, the pentanomial (LL, LD, LW+DD+WL, WD,
    WW) of pairs. 0 before any sample."""
    if not any(counts):
        return 0.0
    total, probs = _distribution(counts)
    near0, near1 = nearest_distribution(counts, elo0), nearest_distribution(counts, elo1)
    return total * sum(p * math.log(b / a) for p, a, b in zip(probs, near0, near1))


def nearest_distribution(counts: Sequence[float], elo: float) -> list[float]:
    """Of the distributions of the scores of ``counts`` (as ``sprt_llr`` reads them) whose mean
    is ``expected_score(elo)``, the one that makes the counts most likely (fishtest's
    ``MLE_expected``): p / (1 + t (a - mean)), p being the counts' own distribution."""
    probs = _distribution(counts)[1]
    last, mean = len(probs) - 1, expected_score(elo)
    gaps = [index / last - mean for index in range(len(probs))]
    t = _tilt(gaps, probs, 1 / (mean - 1), 1 / mean)
    return [p / (1 + t * gap) for p, gap in zip(probs, gaps)]


def _distribution(counts: Sequence[float]) -> tuple[float, list[float]]:
    """The number of samples and their distribution, a count of 0 taken as ``REGULARIZED``."""
    weights = [count if count else REGULARIZED for count in counts]
    total = sum(weights)
    return total, [weight / total for weight in weights]


def _tilt(gaps: list[float], probs: list[float], low: float, high: float) -> float:
    """The ``t`` between ``low`` and ``high`` where sum p gap / (1 + t gap) is 0 (every prob
    above 0, the gaps of both signs): the slope of sum p log(1 + t gap), concave in ``t`` and
    falling from +inf to -inf on that bracket. Newton's steps from 0, kept inside the bracket
    by halving it where a step would leave, to a step under 1e-13 (taken: t's error is then its
    square, what the nearest distribution needs where it is steep in t)."""
    t = 0.0
    for _ in range(100):
        slope = curve = 0.0
        for p, gap in zip(probs, gaps):
            q = gap / (1 + t * gap)
            slope += p * q
            curve += p * q * q
        step = slope / curve
        if abs(step) <= 1e-13 * (1 + abs(t)):
            return t + step
        if slope > 0:
            low = t
        else:
            high = t
        t += step
        if not low < t < high:
            t = (low + high) / 2
    return t


class DealScores:
    """The first entrant's score against the second in each deal, gathered a game at a time
    (in any order): ``counts`` of the deals played whole (``games_per_deal`` games with both
    entrants) by score, from 0 to the most, in half points a seat against a seat (with two
    seats: the pentanomial)."""

    def __init__(self, first: str, second: str, games_per_deal: int):
        self.first, self.second, self.games_per_deal = first, second, games_per_deal
        self.counts = [0] * 5
        self._open: dict[int, list[int]] = {}  # deal -> [games, seat pairs, points]

    def add(self, outcome: GameOutcome) -> None:
        """Count ``outcome`` (a game without both entrants counts for nothing)."""
        wins, draws, losses = head_to_head([outcome], self.first, self.second)
        if not wins + draws + losses:
            return
        deal = self._open.setdefault(outcome.deal, [0, 0, 0])
        deal[0] += 1
        deal[1] += wins + draws + losses
        deal[2] += 2 * wins + draws
        if deal[0] == self.games_per_deal:
            del self._open[outcome.deal]
            if len(self.counts) < 2 * deal[1] + 1:
                self.counts += [0] * (2 * deal[1] + 1 - len(self.counts))
            self.counts[deal[2]] += 1

