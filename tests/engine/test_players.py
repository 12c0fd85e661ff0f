"""The colours dealt round the table: one rule for new records, self-play and the benchmarks."""

import pytest

from uptown_cli.engine.game import dealt_colors, name_key, same_name, seat_colors
from uptown_cli.records.entries import PlayerEntry
from uptown_cli.records.lineup import deal_colors


def test_two_players_play_two_colours_each_dealt_round_the_table():
    assert seat_colors(2) == [("red", "green"), ("blue", "yellow")]


def test_three_to_five_players_play_one_colour_each_in_the_specs_order():
    assert seat_colors(5) == [("red",), ("blue",), ("green",), ("yellow",), ("orange",)]
    assert seat_colors(3) == seat_colors(5)[:3]


def test_seats_that_name_their_colours_keep_them_and_the_others_get_what_is_left():
    assert dealt_colors([(), ("red",), (), ("blue",)]) == [
        ("green",), ("red",), ("yellow",), ("blue",)]
    assert dealt_colors([(), ("blue", "red")]) == [("green", "yellow"), ("blue", "red")]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_new_record_and_self_play_deal_the_same_colours(players):
    entries = [PlayerEntry(f"P{seat}", (), 0) for seat in range(players)]
    deal_colors(entries)
    assert [entry.colors for entry in entries] == seat_colors(players)


def test_names_are_one_players_whatever_their_case_blanks_or_accents_spelling():
    composed, decomposed = "Gr\u00e9edy", "Gre\u0301edy"
    assert composed != decomposed
    assert same_name(composed, decomposed)
    assert same_name(" Ana", "ANA ") and same_name("Stra\u00dfe", "STRASSE")
    assert name_key(" Ana") == name_key("ana") == "ana"
    assert not same_name("Ana", "Anna") and not same_name("Bo", "Bö")
