"""Names that look alike (``records.names.look_alike``: Unicode's confusables, UTS #39, from
the table ``scripts/confusables.py`` makes of Unicode's data): refused at one table, flagged by
``ratings`` (tests/club/test_status.py), whatever the case; names merely alike in letters are
not."""

import pytest

from uptown_cli.records import confusables
from uptown_cli.records.names import look_alike, look_alikes, odd_character


@pytest.mark.parametrize("first, second", [
    ("Ana", "\u0410na"),            # a Cyrillic capital A
    ("ana", "\u0430na"),            # a small one
    ("ANA", "\u0430na"),            # and another case: the same player as Ana
    ("Bo", "\u0392\u03bf"),        # Greek capital beta, small omicron
    ("lan", "Ian"),                 # l and capital I
    ("Bill", "Bi11"),               # l and the digit one
    ("Jean-Luc", "Jean\u2010Luc"),  # a hyphen-minus and a hyphen
    ("Ana", "\uff21na"),            # a fullwidth A (NFKC)
    ("Cy", "C\u0443"),              # a Cyrillic small u
])
def test_names_that_look_alike_are_found(first, second):
    assert look_alikes([first, second]) == [(first, second)]


@pytest.mark.parametrize("first, second", [
    ("Ana", "ana"), (" Ana", "Ana "), ("Gr\u00e9edy", "Gre\u0301edy"),  # one player's names
    ("Ana", "Ada"), ("Jos\u00e9", "Jose"), ("Lan", "Ian"), ("Ed", "Eb"), ("\u0410\u043d\u044f", "Ana"),
])
def test_names_that_differ_at_a_glance_or_name_one_player_are_not_look_alikes(first, second):
    assert look_alikes([first, second]) == []


def test_look_alike_keeps_case_apart_and_then_folds_it():
    assert look_alike("Ana")[0] == look_alike("\u0410na")[0] != look_alike("ANA")[0]
    assert look_alike("ANA")[1] == look_alike("\u0430na")[1]


def test_the_character_that_tells_two_names_apart_is_named():
    assert odd_character("Ana", "\u0410na") == "U+0410 CYRILLIC CAPITAL LETTER A"
    assert odd_character("Bill", "Bi11") == "U+0031 DIGIT ONE"


def test_the_table_says_which_unicode_data_made_it_and_covers_latin_greek_and_cyrillic():
    assert confusables.VERSION.count(".") == 2 and "scripts/confusables.py" in confusables.__doc__
    assert confusables.PROTOTYPES["\u0410"] == "A" and confusables.PROTOTYPES["\u03bf"] == "o"
    assert all(ord(ch) < 0xAB70 for ch in confusables.PROTOTYPES)
