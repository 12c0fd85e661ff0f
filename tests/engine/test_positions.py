"""Positions as data: ASCII diagrams with their groups, cut points and legal-move counts.

A diagram is rows of ``r b g y o`` (red, blue, green, yellow, orange) and ``.`` (empty),
starting at ``A1``; rows and columns not drawn are empty. ``build`` gives every drawn tile a
tile of its colour that fits its square and places them through the engine, in turn order.
"""

from collections import Counter
from typing import NamedTuple, Optional

import pytest
from support.positions import build, parse_diagram, render

from uptown_cli.errors import IllegalMove, Reason
from uptown_cli.engine.geometry import FIT, parse_square, square_name, tile_name
from uptown_cli.engine.notation import PASS, Placement


class Position(NamedTuple):
    diagram: str
    groups: dict
    """Groups per colour; colours not named have none."""
    cuts: frozenset = frozenset()
    seats: Optional[tuple] = None
    racks: Optional[dict] = None
    moves: Optional[dict] = None
    """Legal moves of the player to move with ``racks``: ``{tile name: count}``; {} is a forced pass."""


POSITIONS = {
    "lone tiles": Position(
        """
        r....
        ...b.
        .g...
        """,
        groups={"red": 1, "blue": 1, "green": 1},
    ),
    "corner to corner is not joined": Position(
        """
        r.r
        .r.
        r.r
        """,
        groups={"red": 5},
    ),
    "chain: middle tiles are cut points, ends are not": Position(
        """
        rrrr
        """,
        groups={"red": 1},
        cuts={"A2", "A3"},
    ),
    "bent chain": Position(
        """
        r..
        rr.
        .rr
        """,
        groups={"red": 1},
        cuts={"B1", "B2", "C2"},
    ),
    "2x2 block is a ring: no cut point": Position(
        """
        rr
        rr
        """,
        groups={"red": 1},
    ),
    "cycle round a hole: no cut point": Position(
        """
        rrrr
        r..r
        rrrr
        """,
        groups={"red": 1},
    ),
    "cycle with a tail: only the joint": Position(
        """
        rrr.
        r.rr
        rrr.
        """,
        groups={"red": 1},
        cuts={"B3"},
    ),
    "T-junction": Position(
        """
        rrr
        .r.
        .r.
        """,
        groups={"red": 1},
        cuts={"A2", "B2"},
    ),
    "plus": Position(
        """
        .r.
        rrr
        .r.
        """,
        groups={"red": 1},
        cuts={"B2"},
    ),
    "two rings touching at a square": Position(
        """
        rr.
        rrr
        .rr
        """,
        groups={"red": 1},
        cuts={"B2"},
    ),
    "two rings and a bridge": Position(
        """
        rr.rr
        rrrrr
        """,
        groups={"red": 1},
        cuts={"B2", "B3", "B4"},
    ),
    "colours do not join each other": Position(
        """
        rbr
        brb
        rbr
        """,
        groups={"red": 5, "blue": 4},
    ),
    "three colours, one chain each": Position(
        """
        rrb
        gbb
        grr
        """,
        groups={"red": 2, "blue": 1, "green": 1},
        cuts={"B3"},
    ),
    "board edges do not wrap": Position(
        """
        ........r
        r........
        .........
        .........
        .........
        .........
        .........
        ........b
        b.......b
        """,
        groups={"red": 2, "blue": 2},
    ),
    "snake along the bottom right": Position(
        """
        .........
        .........
        .........
        .........
        .........
        .........
        ......ggg
        ......g..
        ......ggg
        """,
        groups={"green": 1},
        cuts={"G7", "G8", "H7", "I7", "I8"},
    ),
    "empty board": Position(
        "",
        groups={"red": 0, "blue": 0, "green": 0},
        seats=(("red",), ("blue",), ("green",)),
        racks={"red": ["A", "1", "man", "$", "B"]},
        moves={"A": 9, "1": 9, "man": 9, "$": 81, "B": 9},
    ),
    "captures: ends and lone tiles yes, the middle no": Position(
        """
        r.......r
        bbb......
        g.g.r.g..
        """,
        groups={"red": 3, "blue": 1, "green": 3},
        cuts={"B2"},
        racks={"red": ["B", "2", "man", "$", "I"]},
        moves={"B": 8, "2": 8, "man": 7, "$": 77, "I": 9},
    ),
    "captures around a T-junction and a chain": Position(
        """
        bbb.rrrrr
        .b.......
        .b.......
        ggggg....
        """,
        groups={"red": 1, "blue": 1, "green": 1},
        cuts={"A2", "B2", "A6", "A7", "A8", "D2", "D3", "D4"},
        racks={"red": ["2", "B", "man", "$", "ring"]},
        moves={"2": 6, "B": 8, "man": 7, "$": 71, "ring": 7},
    ),
    "two players: own colours are never targets, both racks play": Position(
        """
        rgr
        byb
        """,
        groups={"red": 2, "green": 1, "blue": 2, "yellow": 1},
        seats=(("red", "green"), ("blue", "yellow")),
        racks={"red": ["B", "1", "2", "man", "$"], "green": ["B", "1", "2", "man", "$"]},
        moves={"B": 18, "1": 16, "2": 16, "man": 12, "$": 156},
    ),
    "nothing fits: a forced pass": Position(
        """
        rrrrrrrrr
        bbbbbbbbb
        bgggggggb
        bg.....gb
        .........
        .........
        rr..gg...
        r...g....
        r...g....
        """,
        groups={"red": 2, "blue": 1, "green": 2},
        cuts={f"B{n}" for n in range(1, 10)} | {f"C{n}" for n in range(1, 10)}
        | {"A2", "A3", "A4", "A5", "A6", "A7", "A8", "G1", "H1", "G5", "H5"},
        racks={"red": ["A", "B", "C", "man", "ring"]},
        moves={},
    ),
}

cases = pytest.mark.parametrize("position", POSITIONS.values(), ids=POSITIONS.keys())


@cases
def test_diagram_is_built_through_the_engine(position):
    game = build(position.diagram, position.seats, position.racks)
    drawn = {sq: color for sq, (color, _) in game.board.items()}
    assert render(drawn) == render(parse_diagram(position.diagram))
    assert all(FIT[tile] >> sq & 1 for sq, (_, tile) in game.board.items())


@cases
def test_groups(position):
    game = build(position.diagram, position.seats, position.racks)
    assert {c: game.groups(c) for c in game.colors} == {c: position.groups.get(c, 0) for c in game.colors}


@cases
def test_cut_points(position):
    game = build(position.diagram, position.seats, position.racks)
    cuts = {square_name(sq) for c in game.colors for sq in range(81) if game.cut_points(c) >> sq & 1}
    assert cuts == position.cuts


@cases
def test_cut_points_are_exactly_the_tiles_that_may_not_be_captured(position):
    """With unknown bags, the player to move may capture an opponent's tile (with any unplayed
    tile of theirs that fits) exactly when it is not a cut point."""
    game = build(position.diagram, position.seats)
    color = game.to_move.colors[0]
    for sq, (victim, _) in game.board.items():
        fitting = [t for t in game.unplayed_tiles(color) if FIT[t] >> sq & 1]
        if victim in game.to_move.colors or not fitting:
            continue
        try:
            game.check(Placement(fitting[0], sq), color)
            refused = None
        except IllegalMove as error:
            refused = error.reason
        assert refused is (Reason.SPLIT if square_name(sq) in position.cuts else None)


@pytest.mark.parametrize(
    "position",
    [p for p in POSITIONS.values() if p.moves is not None],
    ids=[k for k, p in POSITIONS.items() if p.moves is not None],
)
def test_legal_move_counts(position):
    game = build(position.diagram, position.seats, position.racks)
    moves = game.legal_moves()
    if not position.moves:
        assert moves == [(game.to_move.colors[0], PASS)]
        return
    assert all(color in game.to_move.colors for color, _ in moves)
    assert Counter(tile_name(move.tile) for _, move in moves) == position.moves
    for color, move in moves:
        game.check(move, color)
        assert move.capture == (game.at(move.square) is not None)


def test_square_several_rack_tiles_fit_gives_one_move_per_tile():
    """On the empty board A1 takes four of the rack's tiles: A, 1, man and $."""
    game = build("", (("red",), ("blue",), ("green",)), {"red": ["A", "1", "man", "$", "B"]})
    on_a1 = sorted(tile_name(m.tile) for _, m in game.legal_moves() if m.square == parse_square("A1"))
    assert on_a1 == ["$", "1", "A", "man"]


def test_two_player_tile_on_both_racks_is_one_move_per_colour():
    """Both racks hold B: the same tile on the same square is one move per colour."""
    position = POSITIONS["two players: own colours are never targets, both racks play"]
    game = build(position.diagram, position.seats, position.racks)
    on_b4 = sorted(c for c, m in game.legal_moves() if str(m) == "B B4")
    assert on_b4 == ["green", "red"]

