"""scripts/tune_value.py, the tuning of vista's two-player weights by games (SPSA): the same
weights from the same seed, the weights moved towards the side that won, and the weights file
it writes."""

import argparse
import json
import random
from pathlib import Path

import pytest

from uptown_cli.analysis import value

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture
def tuning(monkeypatch):
    """scripts/tune_value.py as a module."""
    monkeypatch.syspath_prepend(str(SCRIPTS))
    import tune_value

    monkeypatch.setattr(value, "WEIGHTS_FILE", value.WEIGHTS_FILE)  # the games set it
    return tune_value


class Games:
    """A stand-in for the pool of processes: every deal's two games end as ``shares`` say
    (the first game's seat 0 is the ``+`` side)."""

    def __init__(self, shares):
        self.shares = shares
        self.deals = []

    def map(self, play, tasks):
        self.deals.append([task[0] for task in tasks])
        return list(self.shares)


def arguments(**changes):
    options = {"seed": "t", "steps": 4, "playouts": 2, "relative": 0.25, "floor": 0.4,
               "gain": 2.0, "every": 2}
    return argparse.Namespace(**{**options, **changes})


def test_saving_the_shipped_weights_writes_the_shipped_file(tmp_path):
    shipped = Path(value.WEIGHTS_FILE).read_text(encoding="utf-8")
    path = tmp_path / "weights.json"
    value.save_weights(str(path), value.load_weights(), json.loads(shipped)["seed"])
    assert path.read_text(encoding="utf-8") == shipped


@pytest.mark.parametrize("shares, direction", [((1.0, 0.0), 1), ((0.0, 1.0), -1)])
def test_every_weight_moves_towards_the_side_that_won_both_games(tuning, tmp_path, shares,
                                                                  direction):
    start = value.load_weights()[2]
    args = arguments(steps=1)
    games = Games(shares)
    tuned, _, trace = tuning.tune(args, games, start, str(tmp_path))
    drawn = random.Random("t/signs")
    signs = [drawn.choice((-1, 1)) for _ in tuning.TUNED]
    sizes = tuning.step_sizes(start, 0.25, 0.4)
    moved = tuning.gain(args, 0)
    assert trace == [[direction * moved * sign for sign in signs]]
    assert tuned[0] == start[0]  # the constant is not tuned
    for index, size, sign in zip(tuning.TUNED, sizes, signs):
        assert tuned[index] == pytest.approx(start[index] + direction * moved * sign * size)
    assert games.deals == [["t/tune/0", "t/tune/0"]]  # one deal, from both seats


def test_a_shared_result_moves_nothing(tuning, tmp_path):
    start = value.load_weights()[2]
    tuned, _, trace = tuning.tune(arguments(), Games((0.5, 0.5)), start, str(tmp_path))
    assert tuned == pytest.approx(start) and trace == [[0.0] * len(tuning.TUNED)] * 4


def test_the_weights_kept_are_the_mean_of_the_last_half_of_the_steps(tuning, tmp_path):
    start = value.load_weights()[2]
    args = arguments(steps=4)
    tuned, rows, trace = tuning.tune(args, Games((1.0, 0.0)), start, str(tmp_path))
    sizes = tuning.step_sizes(start, 0.25, 0.4)
    for j, (index, size) in enumerate(zip(tuning.TUNED, sizes)):
        assert tuned[index] == pytest.approx(start[index] + size * (trace[2][j] + trace[3][j]) / 2)
    assert len(rows) == 2  # a row every two steps


def test_a_step_size_is_a_share_of_the_weight_with_a_floor(tuning):
    row = [9.0] + [1.0, -2.0, 0.1, -0.2] + [0.0] * 5
    assert tuning.step_sizes(row, 0.5, 0.4)[:5] == [0.5, 1.0, 0.2, 0.2, 0.2]


def test_the_gain_shrinks_as_spall_s(tuning):
    args = arguments(steps=100, gain=2.0)
    assert tuning.gain(args, 0) == pytest.approx(2.0 / 11 ** 0.602)
    assert tuning.gain(args, 99) == pytest.approx(2.0 / 110 ** 0.602)


@pytest.mark.slow
def test_a_tuning_is_the_same_from_the_same_seed_and_tunes_two_players_only(tuning, tmp_path,
                                                                          monkeypatch):
    written = []
    for run in range(2):
        out = tmp_path / f"{run}.json"
        monkeypatch.setattr("sys.argv", ["tune_value.py", "--seed", "s", "--steps", "2",
                                         "--playouts", "1", "--jobs", "1", "--out", str(out)])
        tuning.main()
        written.append(value.read_weights(json.loads(out.read_text(encoding="utf-8"))))
    shipped = value.load_weights()
    assert written[0] == written[1]
    assert all(written[0][players] == pytest.approx(shipped[players]) for players in (3, 4, 5))
    assert written[0][2][0] == pytest.approx(shipped[2][0])


def test_the_report_names_the_options_that_decide_the_weights_and_no_folder(tuning):
    args = arguments(weights=value.WEIGHTS_FILE)
    assert tuning.settings(args) == ("python scripts/tune_value.py --seed t --steps 4 "
                                     "--playouts 2 --relative 0.25 --floor 0.4 --gain 2")
    args.weights = str(Path("elsewhere", "start.json").resolve())
    assert tuning.settings(args).endswith("--gain 2 --weights start.json")
