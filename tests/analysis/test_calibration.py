"""Calibrated chances to win: logistic lines, reliability tables and the Brier score, each
against a small example worked out by hand, and the calibration file the review reads."""

import json
import math
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
    fit_calibration,
    load_calibration,
    logistic_line,
    read_calibration,
    reliability,
)
from uptown_cli.errors import SetupError


def test_a_logistic_line_meets_the_rates_of_two_forecasts_as_worked_out_by_hand():
    # Said 20% and won 2 in 5; said 80% and won 3 in 5. Two forecasts, two unknowns: the line
    # meets both rates, log-odds -ln 4 -> ln(2/3) and ln 4 -> ln(3/2): intercept 0, slope
    # ln(1.5) / ln(4).
    intercept, slope = logistic_line([0.2] * 5 + [0.8] * 5, [1, 1, 0, 0, 0, 1, 1, 1, 0, 0])
    assert intercept == pytest.approx(0.0, abs=1e-3)
    assert slope == pytest.approx(math.log(1.5) / math.log(4), abs=1e-3)
    calibration = Calibration({2: (intercept, slope)})
    assert calibration(0.2, 2) == pytest.approx(0.4, abs=1e-3)
    assert calibration(0.8, 2) == pytest.approx(0.6, abs=1e-3)


def test_forecasts_that_are_all_the_same_move_to_their_rate():
    # Nothing says what the slope is: the ridge keeps it at 1, and 0.5 moves to the rate, 3 in 4.
    assert Calibration({3: logistic_line([0.5] * 4, [1, 1, 1, 0])})(0.5, 3) == pytest.approx(
        0.75, abs=1e-3)


def test_forecasts_that_are_already_right_are_left_as_they_are():
    forecasts = [i / 20 for i in range(1, 20)]
    intercept, slope = logistic_line(forecasts, forecasts)
    assert (intercept, slope) == (pytest.approx(0.0, abs=1e-9), pytest.approx(1.0, abs=1e-9))


def test_each_number_of_players_has_its_own_line_and_others_are_left_as_they_are():
    calibration = fit_calibration([2] * 10 + [4] * 4, [0.2] * 5 + [0.8] * 5 + [0.5] * 4,
                                  [1, 1, 0, 0, 0, 1, 1, 1, 0, 0] + [0, 0, 0, 1])
    assert sorted(calibration.lines) == [2, 4]
    assert calibration(0.5, 4) == pytest.approx(0.25, abs=1e-3)
    assert calibration(0.2, 2) == pytest.approx(0.4, abs=1e-3)
    assert calibration(0.37, 5) == 0.37


@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from([0.0, 0.5, 1.0])), min_size=1,
                max_size=60))
def test_a_calibrated_chance_stays_between_0_and_1_even_at_the_edges(pairs):
    forecasts, outcomes = zip(*pairs)
    calibration = fit_calibration([2] * len(forecasts), forecasts, outcomes)
    for chance in (0.0, 1e-9, 0.5, 1 - 1e-9, 1.0, *forecasts):
        assert 0.0 <= calibration(chance, 2) <= 1.0


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
    """Forecasts too sure of themselves (the log-odds of the truth doubled) are brought to
    within a few points of the truth on games it was not fitted on."""
    rng = random.Random(4)

    def sample(count):
        forecasts, outcomes = [], []
        for _ in range(count):
            truth = rng.uniform(0.02, 0.98)
            forecasts.append(1 / (1 + (1 / truth - 1) ** 2))  # too sure
            outcomes.append(1.0 if rng.random() < truth else 0.0)
        return forecasts, outcomes

    fit_forecasts, fit_outcomes = sample(4000)
    fitted = fit_calibration([3] * 4000, fit_forecasts, fit_outcomes)
    assert fitted.lines[3][1] == pytest.approx(0.5, abs=0.05)
    forecasts, outcomes = sample(4000)
    calibrated = [fitted(f, 3) for f in forecasts]
    rows = reliability(calibrated, outcomes)
    assert max(abs(row.observed - row.forecast) for row in rows if row.positions > 100) < 0.05
    assert brier(calibrated, outcomes) < brier(forecasts, outcomes)


def test_the_shipped_calibration_loads_and_rises_from_low_to_high_for_2_to_5_players():
    shipped = load_calibration()
    assert sorted(shipped.lines) == [2, 3, 4, 5]
    for players in (2, 3, 4, 5):
        grid = [shipped(i / 100, players) for i in range(101)]
        assert grid == sorted(grid) and grid[2] < 0.5 < grid[98]


def test_a_calibration_file_of_another_version_is_refused(tmp_path):
    data = json.loads(Path(calib.CALIBRATION_FILE).read_text())
    with pytest.raises(SetupError, match="calibration file is version"):
        read_calibration({**data, "version": calib.CALIBRATION_VERSION - 1})
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(Calibration({2: (0.25, 0.5)}).to_json()))
    assert load_calibration(str(path)) == Calibration({2: (0.25, 0.5)})
    assert load_calibration(str(path))(0.5, 2) == pytest.approx(1 / (1 + math.exp(-0.25)))
