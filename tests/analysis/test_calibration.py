"""Calibrated chances to win: isotonic regression, reliability tables and the Brier score,
each against a small example worked out by hand, and the calibration file the review reads."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uptown_cli.analysis import calibration as calib
from uptown_cli.analysis.calibration import (
    Calibration,
    ReliabilityRow,
    brier,
    isotonic,
    load_calibration,
    read_calibration,
    reliability,
)
from uptown_cli.errors import SetupError


def test_isotonic_pools_the_adjacent_violators_as_worked_out_by_hand():
    # 0.2 won and 0.3 lost: out of order, so they pool into one point at their means.
    fitted = isotonic([0.3, 0.1, 0.4, 0.2], [0, 0, 1, 1])
    assert fitted == Calibration((0.1, 0.25, 0.4), (0.0, 0.5, 1.0))
    assert fitted(0.2) == pytest.approx(1 / 3)  # a third of the way from 0.1 to 0.25
    assert fitted(0.0) == 0.0 and fitted(1.0) == 1.0  # flat beyond the ends


def test_isotonic_counts_equal_forecasts_as_one_point():
    assert isotonic([0.5, 0.5, 0.5, 0.9], [1, 0, 0, 1]) == Calibration((0.5, 0.9), (1 / 3, 1.0))


@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=60))
def test_an_isotonic_calibration_never_goes_down_and_stays_within_the_outcomes(pairs):
    forecasts, outcomes = zip(*pairs)
    fitted = isotonic(forecasts, outcomes)
    assert list(fitted.calibrated) == sorted(fitted.calibrated)
    assert list(fitted.raw) == sorted(set(fitted.raw))
    grid = [i / 50 for i in range(51)]
    assert all(fitted(a) <= fitted(b) + 1e-12 for a, b in zip(grid, grid[1:]))
    assert all(min(outcomes) - 1e-12 <= fitted(x) <= max(outcomes) + 1e-12 for x in grid)
    # Outcomes already rising with the forecasts are kept as they are.
    rising = sorted(set(forecasts))
    kept = isotonic(rising, [i / len(rising) for i in range(len(rising))])
    assert kept == Calibration(tuple(rising), tuple(i / len(rising) for i in range(len(rising))))


def test_the_reliability_table_and_brier_score_of_a_hand_made_example():
    forecasts, outcomes = [0.05, 0.15, 0.12, 0.95, 1.0], [0, 1, 0, 1, 1]
    assert reliability(forecasts, outcomes) == [
        ReliabilityRow(0.0, 0.1, 1, 0.05, 0.0),
        ReliabilityRow(0.1, 0.2, 2, pytest.approx(0.135), 0.5),
        ReliabilityRow(0.9, 1.0, 2, pytest.approx(0.975), 1.0),
    ]
    assert brier(forecasts, outcomes) == pytest.approx(
        (0.05 ** 2 + 0.85 ** 2 + 0.12 ** 2 + 0.05 ** 2 + 0) / 5)


def test_a_calibration_fitted_on_miscalibrated_forecasts_brings_them_in_line():
    """Forecasts that say 0.9 for events that happen 70% of the time (and 0.1 for 30%) are
    brought to within a few points of the truth on games it was not fitted on."""
    rng = random.Random(4)

    def sample(count):
        forecasts, outcomes = [], []
        for _ in range(count):
            truth = rng.random()
            forecasts.append(min(1.0, max(0.0, 0.5 + 2 * (truth - 0.5))))  # too sure
            outcomes.append(1.0 if rng.random() < truth else 0.0)
        return forecasts, outcomes

    fitted = isotonic(*sample(4000))
    forecasts, outcomes = sample(4000)
    rows = reliability([fitted(f) for f in forecasts], outcomes)
    assert max(abs(row.observed - row.forecast) for row in rows if row.positions > 100) < 0.06
    assert brier([fitted(f) for f in forecasts], outcomes) < brier(forecasts, outcomes)


def test_the_shipped_calibration_loads_and_rises_from_low_to_high():
    shipped = load_calibration()
    assert list(shipped.calibrated) == sorted(shipped.calibrated)
    assert shipped(0.02) < 0.5 < shipped(0.98)


def test_a_calibration_file_of_another_version_is_refused(tmp_path):
    data = json.loads(Path(calib.CALIBRATION_FILE).read_text())
    with pytest.raises(SetupError, match="calibration file is version"):
        read_calibration({**data, "version": calib.CALIBRATION_VERSION + 1})
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(Calibration((0.2, 0.8), (0.3, 0.7)).to_json()))
    assert load_calibration(str(path))(0.5) == pytest.approx(0.5)
