"""Chances to win that mean what they say: isotonic calibration and reliability tables.

The review's chance to win is the share of playouts the mover wins; the playouts' players are
weaker than real ones, so the raw share is over-confident at the ends. A *calibration* maps it
to the rate at which such positions were won: fitted by isotonic regression (pool adjacent
violators: the non-decreasing step function closest to the outcomes in least squares) on the
positions of self-play games, read between the steps' centres by straight lines, and kept in
``calibration.json`` beside this module (``scripts/calibrate.py`` makes it). A *reliability
table* sorts forecasts into ten bins by tenths and compares each bin's mean forecast with the
rate observed; the Brier score is the mean squared error of the forecasts.
"""

from __future__ import annotations

import json
import os
from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

from ..errors import SetupError
from ..i18n import _

__all__ = ["CALIBRATION_VERSION", "CALIBRATION_FILE", "Calibration", "isotonic", "brier",
           "ReliabilityRow", "reliability", "load_calibration", "read_calibration"]

CALIBRATION_VERSION = 1
"""The version of the calibration file this code reads."""

CALIBRATION_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration.json")
"""The calibration shipped with the package."""


class Calibration(NamedTuple):
    """A non-decreasing map from raw chances to calibrated ones: straight lines between the
    points ``(raw, calibrated)``, flat beyond the first and the last."""

    raw: tuple[float, ...]
    calibrated: tuple[float, ...]

    def __call__(self, chance: float) -> float:
        raw, calibrated = self.raw, self.calibrated
        if not raw:
            return chance
        at = bisect_right(raw, chance)
        if at == 0:
            return calibrated[0]
        if at == len(raw):
            return calibrated[-1]
        low, high = raw[at - 1], raw[at]
        share = (chance - low) / (high - low)
        return calibrated[at - 1] + share * (calibrated[at] - calibrated[at - 1])

    def to_json(self) -> dict[str, Any]:
        """The calibration as a calibration file's JSON."""
        return {"version": CALIBRATION_VERSION,
                "points": [[round(x, 6), round(y, 6)] for x, y in zip(self.raw, self.calibrated)]}


def isotonic(forecasts: Sequence[float], outcomes: Sequence[float]) -> Calibration:
    """The isotonic regression of ``outcomes`` (0 to 1: a win share) on ``forecasts``, pooled
    by adjacent violators: each block of forecasts becomes one point at its mean forecast and
    its mean outcome, the outcomes' means non-decreasing from block to block."""
    tied: dict[float, list[float]] = {}
    for x, y in zip(forecasts, outcomes):
        sums = tied.setdefault(x, [0.0, 0.0])
        sums[0] += y
        sums[1] += 1
    blocks: list[list[float]] = []  # [sum of forecasts, sum of outcomes, count]
    for x in sorted(tied):
        total, count = tied[x]
        blocks.append([x * count, total, count])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            for i in range(3):
                blocks[-1][i] += last[i]
    return Calibration(tuple(b[0] / b[2] for b in blocks), tuple(b[1] / b[2] for b in blocks))


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
    points = [(float(x), float(y)) for x, y in data["points"]]
    return Calibration(tuple(x for x, _ in points), tuple(y for _, y in points))


@cache
def load_calibration(path: str = CALIBRATION_FILE) -> Calibration:
    """The calibration of the file at ``path`` (the one shipped by default), read once."""
    with open(path, encoding="utf-8") as f:
        return read_calibration(json.load(f))
