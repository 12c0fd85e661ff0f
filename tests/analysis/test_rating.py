"""A tournament's statistics against values worked out by hand: Elo and its 95% error bar
(cutechess's formula), the SPRT's log-likelihood ratio and bounds (the trinomial GSPRT of
fastchess), and openskill ratings for games of more than two."""

import math

import pytest

from uptown_cli.analysis.match import GameOutcome, SeatResult
from uptown_cli.analysis.rating import Sprt, elo_interval, figures, sprt_decision, sprt_llr


def test_elo_and_its_error_bar_by_hand_for_6_wins_2_draws_2_losses():
    # mu = (6 + 2/2) / 10 = 0.7; Elo = -400 log10(1/0.7 - 1) = 147.19
    # sigma = sqrt(0.6 * 0.3^2 + 0.2 * 0.7^2 + 0.2 * 0.2^2) / sqrt(10) = 0.4 / 3.1623 = 0.126491
    # mu +- 1.959964 sigma = 0.452082 .. 0.947918 -> Elo -33.40 .. 504.03 -> +- 268.72
    elo, error = elo_interval(6, 2, 2)
    assert elo == pytest.approx(147.19, abs=0.01)
    assert error == pytest.approx(268.72, abs=0.01)


def test_elo_by_hand_for_an_even_score_and_for_one_loss_in_four():
    assert elo_interval(3, 0, 3)[0] == pytest.approx(0.0)
    # mu = 0.75 -> Elo = -400 log10(1/3) = 190.85; sigma = sqrt(.75*.0625 + .25*.5625)/2 = 0.216506
    # 0.75 + 1.959964 * 0.216506 > 1: the upper bound is out of reach, so no error bar
    assert elo_interval(3, 0, 1) == (pytest.approx(190.85, abs=0.01), None)


def test_elo_is_none_when_every_game_was_won_or_there_were_none():
    assert elo_interval(5, 0, 0) == (None, None)
    assert elo_interval(0, 0, 4) == (None, None)
    assert elo_interval(0, 0, 0) == (None, None)


def test_sprt_llr_by_hand_for_6_wins_2_draws_2_losses():
    # s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514387; x = 0.7; var = 0.6 + 0.2/4 - 0.49 = 0.16
    # LLR = 10 * 0.014387 * (1.4 - 0.5 - 0.514387) / (2 * 0.16) = 0.17337
    assert sprt_llr(6, 2, 2, 0, 10) == pytest.approx(0.17337, abs=1e-4)
    # 2 wins, 2 draws, 6 losses: x = 0.3, var = 0.2 + 0.05 - 0.09 = 0.16
    # LLR = 10 * 0.014387 * (0.6 - 1.014387) / 0.32 = -0.18630
    assert sprt_llr(2, 2, 6, 0, 10) == pytest.approx(-0.18630, abs=1e-4)


def test_sprt_bounds_are_plus_minus_2_94_at_alpha_beta_0_05():
    lower, upper = Sprt(0, 5).bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(2.944, abs=1e-3)
    assert Sprt(0, 5, 0.1, 0.2).bounds() == (pytest.approx(math.log(0.2 / 0.9)), pytest.approx(math.log(0.8 / 0.1)))


def test_sprt_with_every_game_won_counts_one_draw_more_and_stops():
    # 4 wins and one draw more: x = 4.5/5 = 0.9, var = 0.85 - 0.81 = 0.04, s1(50) = 0.571463
    # LLR = 5 * 0.071463 * (1.8 - 1.071463) / 0.08 = 3.254 > 2.944: H1
    assert sprt_llr(4, 0, 0, 0, 50) == pytest.approx(3.254, abs=1e-3)
    assert sprt_llr(3, 0, 0, 0, 50) < 2.944 < sprt_llr(4, 0, 0, 0, 50)
    assert sprt_llr(0, 0, 4, 0, 50) < -2.944
    assert sprt_llr(0, 5, 0, 0, 50) == 0.0
    assert sprt_llr(0, 0, 0, 0, 50) == 0.0


def two_seat_game(number, first, second, a_first):
    def seat(name, share):
        return SeatResult(name, name, ("red", "green"), 3, 0, 1 if share else 2, share)

    shares = (1.0, 0.0) if a_first == 1 else (0.0, 1.0) if a_first == 0 else (0.5, 0.5)
    return GameOutcome(number, 0, "s", (), (seat(first, shares[0]), seat(second, shares[1])), True, False, {})


def test_sprt_decision_reads_the_first_entrants_results():
    wins = [two_seat_game(n, "a", "b", 1) for n in range(1, 5)]
    assert sprt_decision(Sprt(0, 50), wins[:3], "a") is None
    assert sprt_decision(Sprt(0, 50), wins, "a") == "H1"
    assert sprt_decision(Sprt(0, 50), wins, "b") == "H0"


def test_two_seat_figures_count_wins_draws_and_losses():
    games = [two_seat_game(1, "a", "b", 1), two_seat_game(2, "b", "a", 0.5), two_seat_game(3, "b", "a", 1)]
    a, b = figures(games, ["a", "b"], 2)
    assert (a.games, a.firsts, a.wins, a.draws, a.losses) == (3, 1.5, 1, 1, 1)
    assert (b.wins, b.draws, b.losses) == (1, 1, 1)
    assert a.elo == pytest.approx(0.0) and a.mu is None


def test_more_seats_are_rated_by_openskill_with_sigma():
    def game(number, order):
        seats = tuple(SeatResult(name, name, ("red",), rank, 0, rank, 1.0 if rank == 1 else 0.0)
                      for rank, name in enumerate(order, 1))
        return GameOutcome(number, 0, "s", (), seats, True, False, {})

    games = [game(n, ["a", "b", "c"]) for n in range(1, 7)]
    a, b, c = figures(games, ["a", "b", "c"], 3)
    assert a.mu > b.mu > c.mu and a.wins is None
    assert a.sigma < 25 / 3 and a.firsts == 6 and c.firsts == 0
