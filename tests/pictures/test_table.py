"""``pictures.table.simple_table`` draws what tabulate's ``simple`` format draws, byte for byte."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from uptown_cli.pictures.table import simple_table

WORDS = st.one_of(st.text(st.one_of(st.characters(min_codepoint=32, max_codepoint=0x24F),
                                    st.sampled_from("\u0301\u4e2d\uff21 \t1.e+-")), max_size=12),
                  st.sampled_from(["inf", "-NaN", "+Infinity", "--inf", "infinite", "*", "\u0663"]))
CELLS = st.one_of(st.integers(-10**6, 10**6), WORDS)


@st.composite
def tables(draw):
    width = draw(st.integers(1, 6))
    kinds = draw(st.lists(st.sampled_from(["int", "word"]), min_size=width, max_size=width))
    row = st.tuples(*[st.integers(-10**6, 10**6) if kind == "int" else WORDS for kind in kinds])
    rows = [list(r) for r in draw(st.lists(row, max_size=6))]
    headers = draw(st.lists(WORDS, min_size=width, max_size=width))
    return rows, headers


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(tables())
@example(([[0, 0, "", "0"], [0, 0, "", "False"]], ["", "", "", ""]))  # once found here: "False"
@example(([[0, "x"], [1, "False"]], ["", ""]))                        # is a boolean to tabulate
def test_simple_table_is_tabulates_simple_format_when_it_draws_one(table):
    rows, headers = table
    drawn = simple_table(rows, headers)
    if drawn is not None:
        assert drawn == tabulate(rows, headers, tablefmt="simple")


@pytest.mark.parametrize("rows", [
    [[0, 0, "", "0"], [0, 0, "", "False"]],  # found by the property test: "False" is a boolean
    [[0, "x"], [1, "False"]],                 # to tabulate, and a column of it and "0" numbers
    [[0, "True"], [1, "False"]],
])
def test_true_and_false_are_aligned_as_tabulate_aligns_them(rows):
    """tabulate reads "True" and "False" as booleans, and aligns a column of them and numbers
    as numbers: such a table is left to it (or drawn as it draws it)."""
    headers = [""] * len(rows[0])
    drawn = simple_table(rows, headers)
    assert drawn is None or drawn == tabulate(rows, headers, tablefmt="simple")
    if rows[0][-1] == "0":
        assert tabulate(rows, headers, tablefmt="simple").splitlines()[-2] == " 0   0          0"


def test_the_tables_of_every_turn_are_drawn_without_tabulate():
    rows = [["", "Ana", "red", 18, 2, 0, 2], ["*", "Cy", "green", 19, 1, 0, 1]]
    headers = ["", "player", "colours", "to play", "groups", "captures", "score"]
    assert simple_table(rows, headers) == tabulate(rows, headers, tablefmt="simple")
    finished = [["", "Ana", "red", 0], ["", "Cy", "green", 0]]  # nobody to move: a blank column
    assert simple_table(finished, headers[:4]) == tabulate(finished, headers[:4], tablefmt="simple")
    moves = [["green", "H", "H1 H3 H4"], ["green", "6", "A6 xB6"], ["", "", "C6"]]
    assert simple_table(moves, ["colour", "tile", "squares"]) == tabulate(
        moves, ["colour", "tile", "squares"], tablefmt="simple")


@pytest.mark.parametrize("rows", [[["1.5"]], [["007"], ["1"]], [["inf"]], [["-NaN"]], [["+Infinity"]],
                                  [["a\nb"]], [[1.5]], [[""], ["7"]], [["\u4e2d"]], [["0"], ["False"]],
                                  [["True"], ["False"]]])
def test_what_tabulate_might_draw_otherwise_is_left_to_it(rows):
    assert simple_table(rows, ["x"]) is None
