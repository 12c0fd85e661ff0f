"""scripts/tune_value.py, the tuning of vista's weights for one number of players by games
(SPSA): the same weights from the same seed, the weights moved towards the side that won, each
side's seats, and the weights file it writes."""

import argparse
import json
import random
from pathlib import Path

import pytest

from uptown_cli.analysis import value
from uptown_cli.analysis.features import FEATURES
from uptown_cli.errors import SetupError

@pytest.fixture
def tuning(script_module):
    """scripts/tune_value.py as a module."""
    return script_module("tune_value")


class Games:
    """A stand-in for the pool of processes: in every game the seats whose weights file
    counts a colour's groups for more win (``better`` True), or for less; with ``better``
    None each side wins one game of the deal. Each game gives the even seats' share."""

    def __init__(self, better=True):
        self.better = better
        self.deals = []

    def map(self, play, tasks):
        self.deals.append([task[0] for task in tasks])
        if self.better is None:
            return [1.0, 1.0]
        groups = FEATURES.index("groups")
        shares = []
        for _, even, odd, _, players in tasks:
            mine, theirs = (value.load_weights(path)[players][groups] for path in (even, odd))
            shares.append(1.0 if (mine > theirs) == self.better else 0.0)
        return shares


def arguments(**changes):
    options = {"seed": "t", "steps": 4, "playouts": 2, "relative": 0.25, "floor": 0.4,
               "gain": 2.0, "every": 2, "players": 2}
    return argparse.Namespace(**{**options, **changes})


def test_saving_the_shipped_weights_writes_the_shipped_file(tmp_path):
    shipped = Path(value.WEIGHTS_FILE).read_text(encoding="utf-8")
    path = tmp_path / "weights.json"
    value.save_weights(str(path), value.load_weights(), json.loads(shipped)["seed"])
    assert path.read_text(encoding="utf-8") == shipped


def test_weights_saved_again_are_read_afresh(tmp_path):
    path = str(tmp_path / "weights.json")
    weights = dict(value.load_weights())
    value.save_weights(path, weights, "a")
    assert value.load_weights(path) == weights
    value.save_weights(path, {**weights, 2: [0.0] * len(FEATURES)}, "b")
    assert value.load_weights(path)[2] == [0.0] * len(FEATURES)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("better", [True, False])
def test_every_weight_moves_towards_the_side_that_won_both_games(tuning, tmp_path, better, players):
    start = value.load_weights()[players]
    args = arguments(steps=1, players=players)
    games = Games(better)
    tuned, _, trace = tuning.tune(args, games, start, str(tmp_path))
    drawn = random.Random("t/signs")
    signs = [drawn.choice((-1, 1)) for _ in tuning.TUNED]
    up = signs[0] > 0  # the + side counts groups for more
    direction = 1 if up == better else -1
    sizes = tuning.step_sizes(start, 0.25, 0.4)
    moved = tuning.gain(args, 0)
    assert trace == [[direction * moved * sign for sign in signs]]
    assert tuned[0] == start[0]  # the constant is not tuned
    for index, size, sign in zip(tuning.TUNED, sizes, signs):
        assert tuned[index] == pytest.approx(start[index] + direction * moved * sign * size)
    assert games.deals == [["t/tune/0", "t/tune/0"]]  # one deal, from both seats


def test_a_shared_result_moves_nothing(tuning, tmp_path):
    start = value.load_weights()[2]
    tuned, rows, trace = tuning.tune(arguments(), Games(None), start, str(tmp_path))
    assert tuned == pytest.approx(start) and trace == [[0.0] * len(tuning.TUNED)] * 4
    assert [row.split(" | ")[2] for row in rows] == ["50.0%", "50.0%"]  # one game of two


def test_the_weights_kept_are_the_mean_of_the_last_half_of_the_steps(tuning, tmp_path):
    start = value.load_weights()[2]
    args = arguments(steps=4)
    tuned, rows, trace = tuning.tune(args, Games(), start, str(tmp_path))
    sizes = tuning.step_sizes(start, 0.25, 0.4)
    for j, (index, size) in enumerate(zip(tuning.TUNED, sizes)):
        assert tuned[index] == pytest.approx(start[index] + size * (trace[2][j] + trace[3][j]) / 2)
    assert len(rows) == 2  # a row every two steps
    # The side that counts groups for more won every game: the + side's share is the share
    # of the steps whose sign for groups was +.
    drawn = random.Random("t/signs")
    ups = [[drawn.choice((-1, 1)) for _ in tuning.TUNED][0] > 0 for _ in range(4)]
    assert [row.split(" | ")[2] for row in rows] == [f"{sum(ups[:2]) / 2:.1%}", f"{sum(ups) / 4:.1%}"]


def test_a_step_size_is_a_share_of_the_weight_with_a_floor(tuning):
    row = [9.0] + [1.0, -2.0, 0.1, -0.2] + [0.0] * 5
    assert tuning.step_sizes(row, 0.5, 0.4)[:5] == [0.5, 1.0, 0.2, 0.2, 0.2]


def test_the_gain_shrinks_as_spall_s(tuning):
    args = arguments(steps=100, gain=2.0)
    assert tuning.gain(args, 0) == pytest.approx(2.0 / 11 ** 0.602)
    assert tuning.gain(args, 99) == pytest.approx(2.0 / 110 ** 0.602)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_even_seats_play_with_one_file_and_the_odd_seats_with_the_other(
        tuning, tmp_path, monkeypatch, players):
    moves = []

    def record_move(bot, game, seed, playouts, weights):
        moves.append((game.players.index(game.to_move), weights))
        return game.legal_moves()[0]

    monkeypatch.setattr(tuning, "choose_move", record_move)
    even, odd = (str(tmp_path / name) for name in ("even.json", "odd.json"))
    tuning.play_deal(("deal", even, odd, 1, players))
    assert {seat: {path for s, path in moves if s == seat} for seat in range(players)} == {
        seat: {odd if seat % 2 else even} for seat in range(players)}


@pytest.mark.parametrize("winners, share", [([0], 1.0), ([1], 0.0), ([2], 1.0), ([3], 0.0),
                                            ([0, 1], 0.5), ([0, 2], 1.0), ([1, 3], 0.0)])
def test_a_game_gives_the_share_of_first_place_of_the_even_seats(tuning, monkeypatch, winners,
                                                                 share):
    monkeypatch.setattr(tuning, "choose_move", lambda bot, game, **options: game.legal_moves()[0])
    monkeypatch.setattr(tuning, "standings", lambda game: game.players)
    monkeypatch.setattr(tuning, "win_shares", lambda players: [
        1 / len(winners) if seat in winners else 0.0 for seat in range(len(players))])
    assert tuning.play_deal(("deal", "even.json", "odd.json", 1, 4)) == share


@pytest.mark.slow
@pytest.mark.parametrize("players, named", [([], 2), (["--players", "4"], 4)])
def test_a_tuning_is_the_same_from_the_same_seed_with_any_jobs_and_tunes_its_players_only(
        tuning, tmp_path, monkeypatch, players, named):
    written = []
    for run in range(2):
        out = tmp_path / f"{run}.json"
        monkeypatch.setattr("sys.argv", ["tune_value.py", *players, "--seed", "s", "--steps",
                                         "2", "--playouts", "1", "--jobs", str(run + 1),
                                         "--out", str(out)])
        tuning.main()
        written.append(json.loads(out.read_text(encoding="utf-8")))
    shipped = value.load_weights()
    tuned = value.read_weights(written[0])
    assert written[0] == written[1]
    assert all(tuned[count] == pytest.approx(shipped[count]) for count in (2, 3, 4, 5)
               if count != named)
    assert tuned[named][0] == pytest.approx(shipped[named][0])
    word = {2: "two", 4: "four"}[named]
    made_from = json.loads(Path(value.WEIGHTS_FILE).read_text(encoding="utf-8"))["seed"]
    assert written[0]["seed"] == f"{made_from}; s ({word} players tuned by games)"


@pytest.mark.parametrize("made_from, named", [
    ("7", "7 (four players tuned by games)"),
    ("1 (two players tuned by games)",
     "1 (two players tuned by games); 7 (four players tuned by games)"),
    (None, "7 (four players tuned by games)"),
    (5, "7 (four players tuned by games)"),  # not a text: nothing said
])
def test_the_weights_file_names_the_seeds_that_made_it_and_tunes_its_row(
        tuning, tmp_path, monkeypatch, made_from, named):
    start, out = tmp_path / "start.json", tmp_path / "out.json"
    shipped = value.load_weights()
    value.save_weights(str(start), shipped, "made")
    data = json.loads(start.read_text(encoding="utf-8"))
    # Written as another tool might: a byte order mark first, the seed as found.
    start.write_bytes(b"\xef\xbb\xbf" + json.dumps({**data, "seed": made_from}).encode())

    class NoPool:
        def __init__(self, jobs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    tuned = [9.0] * len(FEATURES)
    monkeypatch.setattr(tuning, "Pool", NoPool)
    monkeypatch.setattr(tuning, "tune", lambda args, pool, row, folder: (tuned, [], [[0.0]]))
    monkeypatch.setattr("sys.argv", ["tune_value.py", "--players", "4", "--seed", "7",
                                     "--weights", str(start), "--out", str(out)])
    tuning.main()
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["seed"] == named
    assert value.read_weights(written) == {**shipped, 4: tuned}


def test_a_weights_file_tells_its_seed_from_the_reading_of_its_weights(tmp_path):
    path = tmp_path / "weights.json"
    value.save_weights(str(path), value.load_weights(), "first")
    assert value.weights_seed(str(path)) == "first"
    value.save_weights(str(path), value.load_weights(), "second, a longer seed")
    assert value.weights_seed(str(path)) == "second, a longer seed"
    assert value.weights_seed() == json.loads(
        Path(value.WEIGHTS_FILE).read_text(encoding="utf-8"))["seed"]
    with pytest.raises(SetupError, match="not a weights file"):
        path.write_text("[]", encoding="utf-8")
        value.weights_seed(str(path))


def test_the_report_names_the_options_that_decide_the_weights_and_no_folder(tuning):
    args = arguments(weights=value.WEIGHTS_FILE)
    assert tuning.settings(args) == ("python scripts/tune_value.py --seed t --steps 4 "
                                     "--playouts 2 --relative 0.25 --floor 0.4 --gain 2")
    args.weights = str(Path("elsewhere", "start.json").resolve())
    assert tuning.settings(args).endswith("--gain 2 --weights start.json")
    args.players = 4
    assert tuning.settings(args).startswith("python scripts/tune_value.py --players 4 --seed t ")
