"""The SPRT (analysis.sprt): fishtest's GSPRT, checked against the log-likelihood ratios that
fishtest's own code gives and fastchess's tests publish, the deal scores it counts, and its
error rates against a simulation (the 10,000-run figures are scripts/sprt_simulation.py's)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uptown_cli.analysis.match import GameOutcome, SeatResult
from uptown_cli.analysis.sprt import DealScores, Sprt, expected_score, nearest_distribution, sprt_llr

FISHTEST = [
    # counts (losses first), elo0, elo1, LLRcalc.LLR_logistic of official-stockfish/fishtest
    # (server/fishtest/stats/LLRcalc.py at b8eecff2); the first three pentanomials are the
    # examples of its stat_util.py, the next four are fastchess's tests (app/tests/sprt_test.cpp,
    # "logistic", to two decimals there: -1.57, -2.59, -3.07, -4.98)
    ([10789, 19328, 33806, 19402, 10543], -3, 1, 2.1310678117940807),
    ([1187, 7410, 13475, 7378, 1164], -3, 1, 2.86152718059463),
    ([39, 2226, 31451, 2412, 40], 0.2, 0.9, 2.1625425800483593),
    ([21184, 40708, 21404], 0.5, 2.5, -1.5718887926943381),
    ([57030, 106593, 57433], 0, 2, -2.593024163515815),
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.0741264395890813),
    ([871, 26175, 55003 + 980, 26678, 821], 0, 2, -4.978672863444156),
    ([13624, 34333, 13543], -3, 1, 2.5021004266482283),
    # small samples, where a count of 0 is taken as 0.001
    ([0, 0, 0, 0, 4], 0, 50, 0.5346135680412256),
    ([0, 1, 2, 1, 0], 0, 50, -0.32626226224437904),
]


@pytest.mark.parametrize("counts,elo0,elo1,llr", FISHTEST)
def test_the_sprt_llr_is_fishtests_llr_logistic(counts, elo0, elo1, llr):
    assert sprt_llr(counts, elo0, elo1) == pytest.approx(llr, rel=1e-9, abs=1e-9)


def nearest_by_bisection(probs, mean):
    """The distribution of mean ``mean`` nearest to ``probs`` (on 0, 1/(K-1), ..., 1), as
    fishtest finds it: the root of sum p (a - mean) / (1 + x (a - mean)), here by bisection."""
    gaps = [i / (len(probs) - 1) - mean for i in range(len(probs))]
    low, high = -1 / max(gaps), -1 / min(gaps)
    for _ in range(200):
        x = (low + high) / 2
        if sum(p * g / (1 + x * g) for p, g in zip(probs, gaps)) > 0:
            low = x
        else:
            high = x
    return [p / (1 + x * g) for p, g in zip(probs, gaps)]


@given(st.sampled_from([3, 5]).flatmap(lambda k: st.lists(
           st.one_of(st.just(0), st.integers(1, 5), st.integers(1, 20000)), min_size=k, max_size=k)),
       st.sampled_from([-3, 0, 0.5, 2, 20]), st.sampled_from([1, 2, 5, 50]))
def test_the_sprt_llr_finds_the_nearest_distributions_for_any_counts(counts, elo0, width):
    """Whatever the counts (lopsided, sparse, a value never seen), the Newton steps land on the
    distributions that a bisection finds, of the mean of each hypothesis (to 1e-6: where a
    count of 0 faces thousands, 1 + t gap is near 0 and doubles give no more), and the LLR on
    their log-likelihoods, to 1e-9."""
    if not any(counts):
        return
    weights = [c if c else 1e-3 for c in counts]
    n = sum(weights)
    probs = [w / n for w in weights]
    near0 = nearest_by_bisection(probs, expected_score(elo0))
    near1 = nearest_by_bisection(probs, expected_score(elo0 + width))
    assert nearest_distribution(counts, elo0) == pytest.approx(near0, rel=1e-6)
    found = nearest_distribution(counts, elo0 + width)
    assert sum(found) == pytest.approx(1, abs=1e-6)
    assert sum(i / (len(found) - 1) * q for i, q in enumerate(found)) == pytest.approx(expected_score(elo0 + width))
    expected = n * sum(p * math.log(b / a) for p, a, b in zip(probs, near0, near1))
    assert sprt_llr(counts, elo0, elo0 + width) == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_the_sprt_llr_is_close_to_its_normal_approximation_on_many_games():
    # fishtest's LLR_alt2: N (s1 - s0)(2 x - s0 - s1) / (2 var), per pair of games
    counts = [10789, 19328, 33806, 19402, 10543]
    n = sum(counts)
    mean = sum(i / 4 * c for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(counts)) / n
    s0, s1 = expected_score(-3), expected_score(1)
    assert sprt_llr(counts, -3, 1) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), rel=2e-3)


def test_the_sprt_llr_is_zero_before_any_deal_and_grows_slowly_on_a_run_of_wins():
    assert sprt_llr([0, 0, 0, 0, 0], 0, 50) == 0.0
    assert sprt_llr([0, 0, 0], 0, 50) == 0.0
    # four deals won twice over do not decide [0, 50]: a start of 8-0 is not evidence enough
    assert Sprt(0, 50).decision(sprt_llr([0, 0, 0, 0, 4], 0, 50)) is None
    assert Sprt(0, 50).decision(sprt_llr([0, 0, 0, 0, 40], 0, 50)) == "H1"
    assert Sprt(0, 50).decision(sprt_llr([40, 0, 0, 0, 0], 0, 50)) == "H0"


def test_sprt_bounds_are_plus_minus_2_94_at_alpha_beta_0_05():
    lower, upper = Sprt(0, 5).bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(2.944, abs=1e-3)
    assert Sprt(0, 5, 0.1, 0.2).bounds() == (pytest.approx(math.log(0.2 / 0.9)), pytest.approx(math.log(0.8 / 0.1)))
    assert [Sprt().decision(x) for x in (-3, 0, 3)] == ["H0", None, "H1"]


def game(number, deal, ranks):
    """A finished game whose seats (entrant, rank) are ``ranks``."""
    seats = tuple(SeatResult(name, name, ("red",), rank, 0, rank, 0.0) for name, rank in ranks)
    return GameOutcome(number, deal, "s", (), seats, True, False, {})


def test_deal_scores_of_two_seats_are_the_pentanomial_of_the_deal_pairs():
    scores = DealScores("a", "b", 2)
    games = [game(1, 0, [("a", 1), ("b", 2)]), game(2, 0, [("b", 1), ("a", 1)]),  # W + D: 3
             game(3, 1, [("a", 2), ("b", 1)]), game(4, 1, [("b", 1), ("a", 2)]),  # L + L: 0
             game(5, 2, [("a", 1), ("b", 2)])]                                   # half a pair
    for outcome in games:
        scores.add(outcome)
    assert scores.counts == [1, 0, 0, 1, 0]


def test_deal_scores_of_more_seats_count_each_seat_against_each_seat():
    # three seats, a gauntlet of a against two b: each game two seat pairs, three games a deal
    scores = DealScores("a", "b", 3)
    for number, ranks in enumerate([[("a", 1), ("b", 2), ("b", 3)],   # a ahead of both: 4
                                    [("b", 1), ("a", 2), ("b", 3)],   # one of each: 2
                                    [("b", 1), ("b", 1), ("a", 3)]]):  # behind both: 0
        scores.add(game(number + 1, 0, ranks))
    assert len(scores.counts) == 13 and scores.counts[6] == 1 and sum(scores.counts) == 1


@pytest.fixture
def simulation(script_module):
    """scripts/sprt_simulation.py as a module."""
    return script_module("sprt_simulation")


@pytest.mark.parametrize("model", ["independent", "deal-split"])
@pytest.mark.parametrize("elo", [0, 20])
def test_a_simulated_run_decides_as_the_llr_after_every_pair(simulation, model, elo):
    """The simulation works the LLR out only where it may leave the test's bounds: its runs
    end where, and as, the LLR worked out after every pair ends them."""
    import itertools
    import random

    test = Sprt(0, 20)
    chances = list(itertools.accumulate(simulation.MODELS[model](elo)))
    for number in range(15):
        rng, counts = random.Random(f"plain-{number}"), [0] * 5
        decision = None
        while decision is None:
            counts[rng.choices(range(5), cum_weights=chances)[0]] += 1
            decision = test.decision(sprt_llr(counts, 0, 20))
        assert simulation.run(test, random.Random(f"plain-{number}"), chances) == (decision, sum(counts))


@pytest.mark.slow
@pytest.mark.parametrize("model", ["independent", "deal-split"])
def test_the_sprt_keeps_its_error_rates_in_a_simulation(simulation, model):
    """3,000 runs of [0, 50] at each bound: the false-positive and false-negative rates are
    within alpha and beta (0.05) up to the simulation's error (three standard errors, 0.012);
    the rule documented before (a draw more while every game had the same result) gave 0.106."""
    pairs = simulation.MODELS[model]
    positives, _ = simulation.simulate(Sprt(0, 50), pairs(0), 3000, seed=1)
    accepted, _ = simulation.simulate(Sprt(0, 50), pairs(50), 3000, seed=2)
    assert positives < 0.05 + 0.012 and 1 - accepted < 0.05 + 0.012


def test_the_simulated_pairs_have_the_expected_score_of_the_elo_tested(simulation):
    for model in simulation.MODELS.values():
        for elo in (0, 5, 50):
            pairs = model(elo)
            assert sum(pairs) == pytest.approx(1)
            assert sum(i / 4 * p for i, p in enumerate(pairs)) == pytest.approx(expected_score(elo))
