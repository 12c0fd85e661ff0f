"""The learned evaluation: each colour's final number of groups foreseen from its position.

A linear model over ``features.FEATURES``, one set of weights per number of players, fitted by
``scripts/train_value.py`` on the positions of self-play games against the groups each colour
had at the end (least squares with a little ridge, ``fit``); the weights of every number of
players are then tuned by the games they win (``scripts/tune_value.py``). The weights ship with
the package (``value_weights.json``, a few kilobytes); any weights file is read when first asked
for and again only once it has changed, its version and feature names checked
(``load_weights``), and vista can be given another than the shipped one (its ``weights``
option). ``foreseen_scores`` turns a playout's position into every seat's foreseen final score,
which the ``vista`` bot compares at the end of its short playouts.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Sequence
from functools import lru_cache
from operator import mul
from typing import Any

from ..engine.playout import Playout
from ..errors import SetupError
from ..i18n import _, system_reason
from .features import FEATURES, position_features

__all__ = ["WEIGHTS_VERSION", "WEIGHTS_FILE", "load_weights", "weights_seed", "weights_for",
           "read_weights", "save_weights", "fit", "foresee", "foreseen_scores"]

WEIGHTS_VERSION = 1
"""The version of the weights file this code reads: it changes with the features."""

WEIGHTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "value_weights.json")
"""The weights shipped with the package."""

LARGEST_WEIGHTS_FILE = 1 << 20
"""A weights file is a few kilobytes: a larger file is refused unread."""

Weights = dict[int, list[float]]
"""One weight per feature, by number of players."""


def read_weights(data: Any) -> Weights:
    """The weights in ``data`` (a weights file's JSON); SetupError when it is not a weights
    file, or its version or its features are not this code's."""
    if not isinstance(data, dict) or "version" not in data:
        raise SetupError(_("this is not a weights file"))
    if data["version"] != WEIGHTS_VERSION:
        raise SetupError(_("the weights file is version {found}, this uptown reads version "
                           "{version}").format(found=data["version"], version=WEIGHTS_VERSION))
    if data.get("features") != list(FEATURES):
        raise SetupError(_("the weights file was made for other features than this uptown's"))
    rows = data.get("weights")
    if not (isinstance(rows, dict) and all(_is_count(players) and isinstance(row, list)
                                           and all(map(_is_weight, row))
                                           for players, row in rows.items())):
        raise SetupError(_("the weights file does not give a list of numbers for each number "
                           "of players"))
    weights = {int(players): [float(w) for w in row] for players, row in rows.items()}
    if any(len(row) != len(FEATURES) for row in weights.values()):
        raise SetupError(_("the weights file does not have one weight per feature"))
    return weights


def _is_count(text: str) -> bool:
    """Whether ``text`` is a number of players as a weights file writes it: ASCII digits, no
    leading zero (so that no two keys name one number)."""
    return text.isascii() and text.isdigit() and not text.startswith("0")


def _is_weight(value: Any) -> bool:
    """Whether ``value`` (read from JSON) is a finite number that a float holds."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer past any float
        return False


def load_weights(path: str | None = None) -> Weights:
    """The weights of the file at ``path`` (``WEIGHTS_FILE`` by default: those shipped), read
    again only once the file has changed; SetupError, naming the file, when it is not a file
    that can be read, or not a weights file of this version."""
    return _weights_file(path)[0]


def weights_seed(path: str | None = None) -> str | None:
    """What the weights file at ``path`` says it was made from (its ``seed``: the training's
    seed, then each tuning's), or None when it says nothing; read and refused as
    ``load_weights`` reads and refuses the file, from the same reading."""
    return _weights_file(path)[1]


def _weights_file(path: str | None) -> tuple[Weights, str | None]:
    """The weights and the seed of the file at ``path`` (``load_weights``)."""
    path = WEIGHTS_FILE if path is None else path
    if not path:
        raise SetupError(_("a weights file needs a path, not an empty text"))
    try:
        found = os.stat(path)
        return _weights_of(path, found.st_dev, found.st_ino, found.st_ctime_ns, found.st_mtime_ns,
                           found.st_size)
    except SetupError as exc:
        raise SetupError(f"{path}: {exc}") from None
    except (OSError, ValueError) as exc:  # ValueError: a path with a NUL in it
        raise SetupError(f"{path}: {system_reason(exc)}") from None


def weights_for(players: int, path: str | None = None) -> list[float]:
    """The weights of ``players`` players in the file at ``path`` (``load_weights``);
    SetupError when it has none."""
    by_players = load_weights(path)
    if players not in by_players:
        raise SetupError(_("{path}: the weights file has no weights for {count} players").format(
            path=path or WEIGHTS_FILE, count=players))
    return by_players[players]


def save_weights(path: str, weights: Weights, seed: str) -> None:
    """Write ``weights`` as a weights file at ``path`` (whole or not at all,
    ``records.safe_file``), naming the ``seed`` they were made from; this process reads the
    file afresh next time."""
    # Only the training scripts write weights: here, the records' reader that safe_file loads
    # stays out of every bot's process.
    from ..records.safe_file import write_file

    data = {"version": WEIGHTS_VERSION, "features": list(FEATURES), "seed": seed,
            "weights": {str(p): [round(w, 6) for w in row] for p, row in sorted(weights.items())}}
    write_file(path, json.dumps(data, indent=1) + "\n")
    _weights_of.cache_clear()  # however soon, and whatever the file system's clock


@lru_cache(maxsize=32)  # a tuning writes two new files a step
def _weights_of(path: str, *_identity: int) -> tuple[Weights, str | None]:
    """The weights and the seed (None unless a text) of the file at ``path``, which
    ``_identity`` (its device, inode, times and size) tells from the file there before it: a
    file written again is read again."""
    try:
        # Opened without waiting, and read only once known to be a file of a weights file's
        # size: a pipe might never end.
        opened = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            found = os.fstat(opened)
            if not stat.S_ISREG(found.st_mode):
                raise SetupError(_("not a file"))
            if found.st_size > LARGEST_WEIGHTS_FILE:
                raise SetupError(_("{size} bytes: too large for a weights file").format(
                    size=found.st_size))
            with open(opened, "rb", closefd=False) as f:
                text = f.read()
        finally:
            os.close(opened)
    except OSError as exc:
        raise SetupError(system_reason(exc)) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, not text, or nested past Python's reach
        data = None
    weights = read_weights(data)
    seed = data.get("seed")
    return weights, seed if isinstance(seed, str) else None


def foresee(weights: Sequence[float], row: Sequence[float]) -> float:
    """The final groups ``weights`` foresee for a colour of figures ``row``."""
    return float(sum(map(mul, weights, row)))


def foreseen_scores(playout: Playout, weights: Sequence[float]) -> list[tuple[float, int]]:
    """Every seat's foreseen final ``(score, captures)`` in ``playout``'s position: its colours'
    foreseen groups (the groups themselves once the playout is over), plus in Blockers! the
    most tiles taken from one opponent so far."""
    if playout.over():
        return [(float(score), captures) for score, captures in playout.results()]
    groups = [sum(map(mul, weights, row)) for row in position_features(playout)]
    return [(penalty + sum(groups[c] for c in mine), captures)
            for mine, (penalty, captures) in zip(playout.seats, playout.capture_counts())]


def fit(rows: Sequence[Sequence[float]], targets: Sequence[float], ridge: float = 1.0) -> list[float]:
    """The least-squares weights that foresee ``targets`` from ``rows`` (each a row of figures),
    each weight but the first (the constant's) held towards 0 by ``ridge``: the normal
    equations solved by Gauss-Jordan elimination with partial pivoting."""
    size = len(rows[0])
    matrix = [[0.0] * (size + 1) for _ in range(size)]
    for row, target in zip(rows, targets):
        for i in range(size):
            xi = row[i]
            if xi:
                line = matrix[i]
                for j in range(size):
                    line[j] += xi * row[j]
                line[size] += xi * target
    for i in range(1, size):
        matrix[i][i] += ridge
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(matrix[r][col]))
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        lead = matrix[col][col]
        if lead == 0:
            continue
        matrix[col] = [x / lead for x in matrix[col]]
        for r in range(size):
            if r != col and matrix[r][col]:
                factor = matrix[r][col]
                matrix[r] = [x - factor * y for x, y in zip(matrix[r], matrix[col])]
    return [matrix[i][size] for i in range(size)]
