"""Chances to win that mean what they say: logistic calibration and reliability tables.

The review's chance to win is the share of playouts the mover wins; the playouts' players are
weaker than real ones, so the raw share is over-confident at the ends. A *calibration* maps it
to the rate at which such positions were won: for each number of players, a logistic line on
the raw chance's log-odds (Platt scaling), fitted by maximum likelihood on the positions of
self-play games and kept in ``calibration.json`` beside this module (``scripts/calibrate.py``
makes it). A *reliability table* sorts forecasts into ten bins by tenths and compares each
bin's mean forecast with the rate observed; the Brier score is the mean squared error of the
forecasts.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

from ..errors import SetupError
from ..i18n import _

__all__ = ["CALIBRATION_VERSION", "CALIBRATION_FILE", "Calibration", "fit_calibration",
           "logistic_line", "brier", "ReliabilityRow", "reliability", "load_calibration",
           "read_calibration"]

CALIBRATION_VERSION = 2
"""The version of the calibration file this code reads (1 was an isotonic map for every
number of players at once)."""

CALIBRATION_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration.json")
"""The calibration shipped with the package."""

EDGE = 0.002
"""How near 0 or 1 a raw chance is taken to be, at most, before its log-odds are read (a chance
of 0 or 1 has none)."""

RIDGE = 1e-3
"""How strongly a fit is held towards the line that changes nothing (intercept 0, slope 1): just
enough that a fit on forecasts that are all the same has one answer."""


def log_odds(chance: float) -> float:
    """The log-odds of ``chance``, taken within ``EDGE`` of 0 and 1."""
    chance = min(max(chance, EDGE), 1 - EDGE)
    return math.log(chance / (1 - chance))


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    ez = math.exp(z)
    return ez / (1 + ez)


class Calibration(NamedTuple):
    """For each number of players, the line ``(intercept, slope)`` that maps the log-odds of
    a raw chance to those of the calibrated one."""

    lines: dict[int, tuple[float, float]]

    def __call__(self, chance: float, players: int) -> float:
        """``chance`` calibrated for a game of ``players`` (as it is for a number of players
        the calibration has no line for)."""
        line = self.lines.get(players)
        if line is None:
            return chance
        intercept, slope = line
        return _sigmoid(intercept + slope * log_odds(chance))

    def to_json(self) -> dict[str, Any]:
        """The calibration as a calibration file's JSON."""
        return {"version": CALIBRATION_VERSION,
                "lines": {str(players): [round(a, 6), round(b, 6)]
                          for players, (a, b) in sorted(self.lines.items())}}


def logistic_line(forecasts: Sequence[float], outcomes: Sequence[float]) -> tuple[float, float]:
    """``(intercept, slope)`` of the logistic regression of ``outcomes`` (0 to 1: a win share)
    on the log-odds of ``forecasts``: the most likely by Newton's method, held towards ``(0,
    1)`` by ``RIDGE``."""
    xs = [log_odds(f) for f in forecasts]
    a, b = 0.0, 1.0
    for _step in range(50):
        ga, gb = -RIDGE * a, -RIDGE * (b - 1)
        chances = [_sigmoid(a + b * x) for x in xs]
        weights = [p * (1 - p) for p in chances]
        for x, y, p in zip(xs, outcomes, chances):
            ga += y - p
            gb += (y - p) * x
        total = sum(weights)
        mean = sum(w * x for w, x in zip(weights, xs)) / total if total else 0.0
        spread = sum(w * (x - mean) ** 2 for w, x in zip(weights, xs))
        haa, hab = total + RIDGE, total * mean
        hbb = spread + total * mean * mean + RIDGE
        # haa * hbb - hab ** 2, worked out so that it cannot cancel to 0
        det = total * spread + RIDGE * (total + hbb)
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-12:
            break
    return a, b


def fit_calibration(players: Sequence[int], forecasts: Sequence[float],
                    outcomes: Sequence[float]) -> Calibration:
    """The calibration fitted on positions of games of ``players`` each, with the raw
    ``forecasts`` and the ``outcomes`` (the mover's share of first place): one logistic line
    for each number of players."""
    lines = {}
    for count in sorted(set(players)):
        mine = [i for i, p in enumerate(players) if p == count]
        lines[count] = logistic_line([forecasts[i] for i in mine], [outcomes[i] for i in mine])
    return Calibration(lines)


def brier(forecasts: Sequence[float], outcomes: Sequence[float]) -> float:
    """The mean squared difference between forecasts and outcomes (lower is better)."""
    return sum((f - o) ** 2 for f, o in zip(forecasts, outcomes)) / len(forecasts)


class ReliabilityRow(NamedTuple):
    """One bin of a reliability table: forecasts from ``low`` up to ``high``."""

    low: float
    high: float
    positions: int
    forecast: float
    observed: float


def reliability(forecasts: Sequence[float], outcomes: Sequence[float],
                bins: int = 10) -> list[ReliabilityRow]:
    """The reliability table of ``forecasts``: one row per bin of width 1 / ``bins`` that holds
    any (a forecast of 1 in the last), its mean forecast and the mean outcome in it."""
    sums = [[0, 0.0, 0.0] for _ in range(bins)]
    for f, o in zip(forecasts, outcomes):
        row = sums[min(bins - 1, int(f * bins))]
        row[0] += 1
        row[1] += f
        row[2] += o
    return [ReliabilityRow(i / bins, (i + 1) / bins, int(n), f / n, o / n)
            for i, (n, f, o) in enumerate(sums) if n]


def read_calibration(data: dict[str, Any]) -> Calibration:
    """The calibration in ``data`` (a calibration file's JSON); SetupError when its version is
    not this code's."""
    if data.get("version") != CALIBRATION_VERSION:
        raise SetupError(_("the calibration file is version {found}, this uptown reads version "
                           "{version}").format(found=data.get("version"),
                                               version=CALIBRATION_VERSION))
    return Calibration({int(players): (float(a), float(b))
                        for players, (a, b) in data["lines"].items()})


@cache
def load_calibration(path: str = CALIBRATION_FILE) -> Calibration:
    """The calibration of the file at ``path`` (the one shipped by default), read once."""
    with open(path, encoding="utf-8") as f:
        return read_calibration(json.load(f))
