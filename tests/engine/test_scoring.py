"""Standings under standard (Uptown) and blockers (Blockers!) scoring, lower is better."""

import pytest

from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.notation import parse_move
from uptown_cli.engine.scoring import standings, win_share, win_shares

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


class Tally:
    """A stand-in for a game holding just what standings read: the players, each player's
    groups and the tiles each colour captured from each colour."""

    variant = "standard"
    forfeited = []

    def __init__(self, seats, groups, captured=None):
        self.players = [Player(name, colors) for name, colors in zip(NAMES, seats)]
        self._groups = dict(zip(NAMES, groups))
        self._captured = captured or {}

    def player_groups(self, player):
        return self._groups[player.name]

    def captured(self, capturer, victim):
        return self._captured.get((capturer, victim), 0)


FOUR = (("red",), ("blue",), ("green",), ("yellow",))


def table(rows, *fields):
    """``{name: (field, ...)}`` for the standings ``rows``."""
    return {row.name: tuple(getattr(row, f) for f in fields) for row in rows}


def real_game(seats, moves):
    """A game with unknown bags after ``moves`` (``colour: move``)."""
    game = Game([Player(name, colors) for name, colors in zip(NAMES, seats)])
    for text in moves:
        color, move = text.split(":")
        game.play(parse_move(move), color)
    return game


def test_standard_score_is_the_number_of_groups():
    rows = standings(Tally(FOUR, [3, 1, 2, 4]))
    assert table(rows, "groups", "score", "rank") == {
        "Ana": (3, 3, 3), "Bo": (1, 1, 1), "Cy": (2, 2, 2), "Di": (4, 4, 4),
    }


def test_standings_are_in_seat_order():
    rows = standings(Tally(FOUR, [3, 1, 2, 4]), "blockers")
    assert [r.name for r in rows] == list(NAMES[:4])
    assert [r.colors for r in rows] == list(FOUR)


def test_standard_tie_broken_by_fewer_captures():
    tally = Tally(FOUR, [2, 2, 2, 1], {("red", "blue"): 2, ("blue", "green"): 1})
    assert table(standings(tally), "score", "captures", "rank") == {
        "Ana": (2, 2, 4), "Bo": (2, 1, 3), "Cy": (2, 0, 2), "Di": (1, 0, 1),
    }


def test_still_tied_players_share_the_rank_and_the_next_is_skipped():
    tally = Tally(FOUR, [1, 2, 2, 3], {("blue", "red"): 1, ("green", "yellow"): 1})
    assert [r.rank for r in standings(tally)] == [1, 2, 2, 4]


def test_everyone_tied_shares_first():
    assert [r.rank for r in standings(Tally(FOUR, [0, 0, 0, 0]))] == [1, 1, 1, 1]


def test_a_shared_first_place_is_a_share_of_a_win_and_the_others_get_none():
    assert win_shares(standings(Tally(FOUR, [1, 2, 1, 1]))) == [1 / 3, 0.0, 1 / 3, 1 / 3]
    assert win_shares(standings(Tally(FOUR, [0, 0, 0, 0]))) == [0.25] * 4


def test_the_win_share_follows_the_ranks_tie_break_by_fewer_captures():
    tally = Tally(FOUR, [2, 2, 2, 3], {("red", "blue"): 1})
    rows = standings(tally)
    assert [r.rank for r in rows] == [3, 1, 1, 4]
    assert win_shares(rows) == [0.0, 0.5, 0.5, 0.0]
    assert win_share((2, 0), [(2, 1), (2, 0), (2, 0)]) == 0.5


def test_a_seat_behind_anyone_has_no_share_of_the_win():
    """Behind on the score, or level and behind on the captures: no share, whatever the rest."""
    assert win_share((3, 0), [(2, 0), (3, 0)]) == 0.0
    assert win_share((2, 1), [(2, 1), (2, 0), (2, 1)]) == 0.0
    assert win_share((2, 0), [(2, 0), (5, 0)]) == 1.0


def test_captures_are_counted_per_opponent_by_name():
    tally = Tally(FOUR, [1, 1, 1, 1], {("red", "blue"): 2, ("red", "yellow"): 1, ("green", "red"): 4})
    ana, bo, cy, di = standings(tally)
    assert ana.captured == {"Bo": 2, "Cy": 0, "Di": 1} and ana.captures == 3
    assert cy.captured == {"Ana": 4, "Bo": 0, "Di": 0} and cy.captures == 4
    assert bo.captured == {"Ana": 0, "Cy": 0, "Di": 0} and bo.captures == 0


def test_blockers_score_adds_the_most_captured_from_one_opponent():
    tally = Tally(FOUR, [1, 1, 1, 1], {("red", "blue"): 2, ("red", "yellow"): 1, ("green", "red"): 4})
    assert table(standings(tally, "blockers"), "score", "rank") == {
        "Ana": (3, 3), "Bo": (1, 1), "Cy": (5, 4), "Di": (1, 1),
    }


def test_blockers_tie_broken_by_fewer_captures_in_total():
    tally = Tally(FOUR, [2, 3, 1, 5], {("red", "blue"): 1, ("red", "green"): 1, ("green", "red"): 2})
    assert table(standings(tally, "blockers"), "score", "captures", "rank") == {
        "Ana": (3, 2, 2), "Bo": (3, 0, 1), "Cy": (3, 2, 2), "Di": (5, 0, 4),
    }


def test_blockers_example_of_the_spec():
    """One group and three tiles captured from blue scores 4, and loses to two groups with
    one tile captured from each of three opponents (3)."""
    tally = Tally(
        FOUR,
        [1, 5, 2, 5],
        {("red", "blue"): 3, ("green", "red"): 1, ("green", "blue"): 1, ("green", "yellow"): 1},
    )
    ana, _, cy, _ = standings(tally, "blockers")
    assert (ana.score, cy.score) == (4, 3)
    assert cy.rank < ana.rank
    ana, _, cy, _ = standings(tally)
    assert (ana.score, cy.score) == (1, 2)
    assert ana.rank < cy.rank


# The Blockers! example of docs/RULES.md, "Scoring": Ana (red) captures three lone blue tiles
# and ends with one group; Cy (green) captures one end of a chain from each of red, blue and
# yellow and ends with two groups.
SPEC_EXAMPLE = [
    "red: 1 A1", "blue: B B1", "green: I I9", "yellow: H H9",
    "red: B xB1", "blue: 2 B2", "green: H xH9", "yellow: E E5",
    "red: 2 xB2", "blue: 3 B3", "green: A xA1", "yellow: F F5",
    "red: 3 xB3", "blue: A A2", "green: 2 xA2", "yellow: G G5",
    "red: C C3", "blue: 5 I5", "green: 8 I8", "yellow: 5 H5",
]


def test_blockers_example_of_the_spec_played_on_the_board():
    game = real_game(FOUR, SPEC_EXAMPLE)
    assert table(standings(game, "blockers"), "groups", "captures", "score", "rank") == {
        "Ana": (1, 3, 4, 4), "Bo": (1, 0, 1, 1), "Cy": (2, 3, 3, 3), "Di": (1, 0, 1, 1),
    }
    rows = standings(game, "blockers")
    assert rows[0].captured == {"Bo": 3, "Cy": 0, "Di": 0}
    assert rows[2].captured == {"Ana": 1, "Bo": 1, "Di": 1}
    assert table(standings(game), "score", "rank") == {
        "Ana": (1, 3), "Bo": (1, 1), "Cy": (2, 4), "Di": (1, 1),
    }


TWO = (("red", "green"), ("blue", "yellow"))


def test_two_players_add_the_groups_of_both_colours():
    game = real_game(TWO, ["red: 1 A1", "blue: 9 I9", "green: 2 A2", "yellow: 8 I8", "red: 3 A3"])
    assert table(standings(game), "groups", "score") == {"Ana": (3, 3), "Bo": (2, 2)}


def test_two_player_blockers_counts_the_opponents_colours_together():
    """Ana takes one blue and one yellow tile: two from Bo, not one from each colour."""
    game = real_game(
        TWO,
        ["red: 1 A1", "blue: B B5", "green: 5 xB5", "yellow: C C9", "red: 9 xC9", "blue: I I1"],
    )
    ana, bo = standings(game, "blockers")
    assert ana.captured == {"Bo": 2} and ana.captures == 2
    assert (ana.groups, ana.score, ana.rank) == (3, 5, 2)
    assert (bo.groups, bo.score, bo.rank) == (1, 1, 1)
    tally = Tally(TWO, [3, 1], {("red", "blue"): 1, ("green", "yellow"): 1})
    assert [r.score for r in standings(tally, "blockers")] == [5, 1]


def test_standings_at_the_start_are_all_zero_and_shared():
    game = Game([Player(n, c) for n, c in zip(NAMES, FOUR)])
    for variant in ("standard", "blockers"):
        assert {(r.groups, r.captures, r.score, r.rank) for r in standings(game, variant)} == {(0, 0, 0, 1)}


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="variant"):
        standings(Tally(FOUR, [0, 0, 0, 0]), "uptown")
