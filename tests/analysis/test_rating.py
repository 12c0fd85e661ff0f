"""A tournament's statistics against values worked out by hand: Elo and its 95% error bar
(cutechess's formula), LOS and the pairing lines, forfeits counted as losses, and openskill
ratings for games of more than two. The SPRT is test_sprt.py."""

import pytest

from uptown_cli.analysis.match import GameOutcome, SeatResult
from uptown_cli.analysis.rating import elo_interval, elo_json, figures, los, pairing


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


def two_seat_game(number, first, second, a_first):
    def seat(name, share):
        return SeatResult(name, name, ("red", "green"), 3, 0, 1 if share else 2, share)

    shares = (1.0, 0.0) if a_first == 1 else (0.0, 1.0) if a_first == 0 else (0.5, 0.5)
    return GameOutcome(number, 0, "s", (), (seat(first, shares[0]), seat(second, shares[1])), True, False, {})


def test_two_seat_figures_count_wins_draws_and_losses():
    games = [two_seat_game(1, "a", "b", 1), two_seat_game(2, "b", "a", 0.5), two_seat_game(3, "b", "a", 1)]
    a, b = figures(games, ["a", "b"], 2)
    assert (a.games, a.firsts, a.wins, a.draws, a.losses) == (3, 1.5, 1, 1, 1)
    assert (b.wins, b.draws, b.losses) == (1, 1, 1)
    assert a.elo == pytest.approx(0.0) and a.mu is None and a.score == 0.5


def test_more_seats_are_rated_by_openskill_with_sigma():
    def game(number, order):
        seats = tuple(SeatResult(name, name, ("red",), rank, 0, rank, 1.0 if rank == 1 else 0.0)
                      for rank, name in enumerate(order, 1))
        return GameOutcome(number, 0, "s", (), seats, True, False, {})

    games = [game(n, ["a", "b", "c"]) for n in range(1, 7)]
    a, b, c = figures(games, ["a", "b", "c"], 3)
    assert a.mu > b.mu > c.mu and a.wins is None
    assert a.sigma < 25 / 3 and a.firsts == 6 and c.firsts == 0


def test_los_by_hand_as_cutechess_computes_it():
    # 0.5 + 0.5 erf((12 - 7) / sqrt(2 * 19)) = 0.5 + 0.5 erf(0.811107) = 0.5 + 0.5 * 0.748651 = 0.874325
    assert los(12, 7) == pytest.approx(0.874325, abs=1e-6)
    assert los(7, 12) == pytest.approx(1 - 0.874325, abs=1e-6)
    assert los(0, 0) == 0.5 and los(3, 3) == 0.5


def test_a_pairing_gives_cutechess_score_line_by_hand():
    from uptown_cli.cli.standings import pairing_lines

    games = ([two_seat_game(n, "a", "b", 1) for n in range(12)] + [two_seat_game(n, "a", "b", 0) for n in range(7)]
             + [two_seat_game(19, "b", "a", 0.5)])
    result = pairing(games, "a", "b")
    assert (result.wins, result.losses, result.draws, result.games) == (12, 7, 1, 20)
    # score (12 + 1/2) / 20 = 0.625; Elo -400 log10(1/0.625 - 1) = 88.74
    # sigma = sqrt(0.6 * 0.375^2 + 0.35 * 0.625^2 + 0.05 * 0.125^2) / sqrt(20) = 0.105327
    # 0.625 -+ 1.959964 sigma = 0.418563 .. 0.831437 -> Elo -57.10 .. 277.23 -> +- 167.16
    # LOS 0.874325 (above); the draw ratio 1/20
    assert result.score == 0.625 and result.elo == pytest.approx(88.74, abs=0.01)
    assert result.elo_error == pytest.approx(167.16, abs=0.01)
    assert pairing_lines(result) == ["Score of a vs b: 12 - 7 - 1  [0.625] 20",
                                     "Elo difference: 88.7 +/- 167.2, LOS: 87.4 %, DrawRatio: 5.0 %"]


def test_an_elo_out_of_reach_is_plus_or_minus_inf_with_the_score_that_gives_it():
    from uptown_cli.cli.standings import pairing_lines

    swept = pairing([two_seat_game(n, "a", "b", 1) for n in range(5)], "a", "b")
    assert swept.score == 1 and swept.elo is None
    assert swept.to_json()["elo"] == "+inf" and swept.to_json()["score"] == 1
    assert pairing([two_seat_game(n, "a", "b", 0) for n in range(5)], "a", "b").to_json()["elo"] == "-inf"
    # LOS 0.5 + 0.5 erf(5 / sqrt(10)) = 0.987326
    assert pairing_lines(swept)[1] == "Elo difference: +inf +/- inf, LOS: 98.7 %, DrawRatio: 0.0 %"
    assert elo_json(None, None) is None and elo_json(12.3456, 0.6) == 12.346


def test_a_forfeit_is_a_loss_and_no_flattering_score():
    """An entrant that forfeits every game has lost them all, and no mean score: its score 0
    (no groups, since it placed no tile) would be the best there is."""
    def forfeited(number):
        seats = (SeatResult("bad", "bad", ("red", "green"), 0, 0, 2, 0.0, "stall", "bad: no hello"),
                 SeatResult("good", "good", ("blue", "yellow"), 0, 0, 1, 1.0))
        return GameOutcome(number, 0, "s", (), seats, False, False, {})

    bad, good = figures([forfeited(n) for n in range(4)], ["bad", "good"], 2)
    assert (bad.wins, bad.losses, bad.forfeits, bad.firsts, bad.mean_score) == (0, 4, 4, 0, None)
    assert bad.to_json()["elo"] == "-inf" and good.to_json()["elo"] == "+inf"
