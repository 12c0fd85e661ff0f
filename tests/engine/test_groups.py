"""Groups and cut points, worked out for a whole mask at once, against a simple reference:
breadth-first search over edge neighbours, and a square is a cut point when taking it out
leaves more groups. Masks of every density, so that loops round enclosed squares come up."""

from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from uptown_cli.engine.groups import count_groups, cut_points, is_cut_point
from uptown_cli.engine.geometry import ALL_SQUARES, crowded, holes, may_enclose, parse_square


def neighbours(sq):
    row, col = divmod(sq, 9)
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < 9 and 0 <= c < 9:
            yield r * 9 + c


def reference_groups(squares):
    left, count = set(squares), 0
    while left:
        queue = deque([left.pop()])
        while queue:
            for n in neighbours(queue.popleft()):
                if n in left:
                    left.remove(n)
                    queue.append(n)
        count += 1
    return count


def reference_cut_points(squares):
    count = reference_groups(squares)
    return {sq for sq in squares if reference_groups(squares - {sq}) > count}


def reference_holes(squares):
    """Squares outside ``squares`` that cannot reach the edge through the 8 squares around."""
    outside = {sq for sq in range(81) if sq not in squares and (sq // 9 in (0, 8) or sq % 9 in (0, 8))}
    queue = deque(outside)
    while queue:
        row, col = divmod(queue.popleft(), 9)
        for r in range(max(0, row - 1), min(9, row + 2)):
            for c in range(max(0, col - 1), min(9, col + 2)):
                n = r * 9 + c
                if n not in squares and n not in outside:
                    outside.add(n)
                    queue.append(n)
    return set(range(81)) - squares - outside


def squares_in(mask):
    return {sq for sq in range(81) if mask >> sq & 1}


def mask_of(*names):
    return sum(1 << parse_square(name) for name in names)


@st.composite
def masks(draw):
    """An 81-bit mask whose squares are each in it with one drawn chance (sparse to full)."""
    density = draw(st.floats(0.0, 1.0))
    bits = draw(st.lists(st.floats(0.0, 1.0, exclude_max=True), min_size=81, max_size=81))
    return sum(1 << sq for sq, x in enumerate(bits) if x < density)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(masks())
def test_groups_cut_points_and_holes_agree_with_the_reference(mask):
    squares = squares_in(mask)
    assert count_groups(mask) == reference_groups(squares)
    assert squares_in(cut_points(mask)) == reference_cut_points(squares)
    enclosed = reference_holes(squares)
    assert squares_in(holes(mask)) == enclosed
    assert may_enclose(mask) or not enclosed


RING = mask_of("D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6")  # round E5


@pytest.mark.parametrize("names, expected", [
    (("A1", "A2", "B2"), ("A2",)),                   # the corner of an L: one neighbour each way
    (("B1", "B2", "B3"), ("B2",)),                   # the middle of a line
    (("B2", "A2", "C2", "B1", "B3"), ("B2",)),       # the middle of a cross
    (("A1", "C3"), ()),                              # apart
])
def test_crowded_squares_have_two_neighbours_or_more_in_any_directions(names, expected):
    assert crowded(mask_of(*names)) == mask_of(*expected)


def test_a_ring_round_a_square_is_one_group_without_cut_points():
    assert count_groups(RING) == 1
    assert cut_points(RING) == 0
    assert holes(RING) == mask_of("E5")


def test_a_ring_with_a_tail_has_only_the_tail_root_as_cut_point():
    tailed = RING | mask_of("G5", "H5")
    assert count_groups(tailed) == 1
    assert cut_points(tailed) == mask_of("F5", "G5")


def test_a_loop_along_the_edge_encloses_nothing_but_its_inside():
    loop = mask_of("A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3")
    assert holes(loop) == mask_of("B2")
    assert cut_points(loop) == 0
    assert count_groups(loop) == 1


def test_a_cup_open_at_the_bottom_is_no_hole():
    cup = mask_of("D4", "D5", "D6", "E4", "E6")
    assert holes(cup) == 0
    assert count_groups(cup) == 1
    assert cut_points(cup) == mask_of("D4", "D5", "D6")


def test_two_loops_sharing_a_square_split_there():
    twin = RING | mask_of("D7", "D8", "E8", "F7", "F8")  # round E5 and E7, sharing D6-F6
    assert count_groups(twin) == 1
    assert cut_points(twin) == 0
    assert holes(twin) == mask_of("E5", "E7")
    eight = mask_of("A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3", "D2", "E1", "E2", "E3", "F1", "F3",
                    "G1", "G2", "G3")  # two loops joined by D2
    assert cut_points(eight) == mask_of("C2", "D2", "E2")
    assert count_groups(eight) == 1


def test_the_full_board_is_one_group_and_every_square_its_own_check():
    assert count_groups(ALL_SQUARES) == 1
    assert cut_points(ALL_SQUARES) == 0
    assert not any(is_cut_point(sq, ALL_SQUARES) for sq in range(81))
