"""Seeded bags: the same seed gives the same draws on every machine and Python, forever."""

import hashlib

import pytest

from uptown_cli.engine.bags import bag_order, seeded_bags
from uptown_cli.engine.game import COLORS
from uptown_cli.engine.geometry import TILE_NAMES, tile_name

# Golden orders: never change these. A different order here means every seeded record
# already written would replay differently.
GOLDEN = {
    ("7f3a9c01", "red"): "champagne G woman 9 I sign E 8 skyline $ 7 C A D H sax B cards 1 ring F 5 4 2 man 3 car 6",
    ("7f3a9c01", "blue"): "2 car man sax I C skyline 3 6 8 4 9 5 F sign cards woman 1 G D H $ B champagne A 7 ring E",
    ("0123", "green"): "1 $ man sax B H champagne cards ring 6 sign car G C E skyline I 7 9 F 5 D woman 2 A 3 4 8",
    ("0", "yellow"): "C I D G ring H $ A F 3 sign 4 man B 7 5 6 skyline car 9 cards sax woman champagne 1 2 E 8",
    ("Tuesday club", "orange"): "A G B ring E woman $ 7 champagne car sax 1 9 cards 3 skyline D 6 C 4 5 8 F sign I 2 H man",
    ("\u00fc", "red"): "sign 3 sax woman B F E car 7 4 C H 8 I skyline 2 cards D 1 6 9 5 man champagne G $ ring A",
}


@pytest.mark.parametrize("seed, color", GOLDEN)
def test_bag_order_is_pinned(seed, color):
    assert " ".join(tile_name(t) for t in bag_order(seed, color)) == GOLDEN[seed, color]


@pytest.mark.parametrize("seed, color", GOLDEN)
def test_bag_order_follows_its_documented_recipe(seed, color):
    """Tiles sorted by SHA-256 of "uptown-bag-1\\n" + seed + "\\n" + colour + "\\n" + tile name."""

    def key(name):
        return hashlib.sha256(f"uptown-bag-1\n{seed}\n{color}\n{name}".encode("utf-8")).digest()

    assert [tile_name(t) for t in bag_order(seed, color)] == sorted(TILE_NAMES, key=key)


@pytest.mark.parametrize("seed", ["", "0", "00", "7f3a9c01", "a seed with spaces", "\u00e9t\u00e9"])
@pytest.mark.parametrize("color", COLORS)
def test_every_bag_is_a_permutation_of_the_28_tiles(seed, color):
    assert sorted(bag_order(seed, color)) == list(range(28))


def test_same_seed_same_bag():
    assert bag_order("7f3a9c01", "red") == bag_order("7f3a9c01", "red")


def test_seeds_are_text_not_numbers():
    """``0123`` and ``123`` are different seeds, as a record keeps them as typed."""
    assert bag_order("0123", "red") != bag_order("123", "red")


def test_seeded_bags_gives_each_colour_its_own_order():
    bags = seeded_bags("7f3a9c01", COLORS)
    assert list(bags) == list(COLORS)
    assert all(bags[c] == bag_order("7f3a9c01", c) for c in COLORS)
    assert len({tuple(order) for order in bags.values()}) == len(COLORS)


def test_seeded_bags_for_some_colours_only():
    bags = seeded_bags("x", ("blue", "yellow"))
    assert bags == {"blue": bag_order("x", "blue"), "yellow": bag_order("x", "yellow")}
