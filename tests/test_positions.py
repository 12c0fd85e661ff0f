"""Positions as data: ASCII diagrams with their groups, cut points and legal-move counts.

A diagram is rows of ``r b g y o`` (red, blue, green, yellow, orange) and ``.`` (empty),
starting at ``A1``; rows and columns not drawn are empty. ``build`` gives every drawn tile a
tile of its colour that fits its square and places them through the engine, in turn order.
"""

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import pytest

from uptown_cli.engine.game import COLORS, Game, Player
from uptown_cli.errors import IllegalMove
from uptown_cli.engine.geometry import FIT, parse_square, parse_tile, square_name, tile_name
from uptown_cli.engine.notation import PASS, Move

LETTERS = {c[0]: c for c in COLORS}
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


def parse_diagram(diagram):
    """``{square: colour}`` for the drawn tiles."""
    lines = [line.strip() for line in diagram.strip().splitlines()]
    assert len(lines) <= 9 and all(len(line) <= 9 for line in lines), "a diagram fits 9x9"
    return {
        r * 9 + c: LETTERS[ch]
        for r, line in enumerate(lines)
        for c, ch in enumerate(line)
        if ch != "."
    }


def render(colors):
    """The full 9x9 diagram of ``{square: colour}``."""
    return "\n".join(
        "".join(colors[sq][0] if sq in colors else "." for sq in range(r * 9, r * 9 + 9)) for r in range(9)
    )


def assign_tiles(squares, reserved):
    """A different tile for each square, fitting it and not in ``reserved`` (a bipartite
    matching found by augmenting paths; letters are tried first, then numbers, symbols, $)."""
    square_of = {}

    def take(sq, seen):
        for tile in range(28):
            if FIT[tile] >> sq & 1 and tile not in reserved and tile not in seen:
                seen.add(tile)
                if tile not in square_of or take(square_of[tile], seen):
                    square_of[tile] = sq
                    return True
        return False

    for sq in squares:
        assert take(sq, set()), f"no tile left for {square_name(sq)}"
    return {sq: tile for tile, sq in square_of.items()}


def build(diagram, seats=None, racks=None):
    """A game with ``diagram`` on the board.

    ``seats``: colour tuples in turn order (default: one seat per colour drawn, in SPEC order,
    with the next colours added up to three players).
    ``racks``: ``{colour: five tile names}``; when given the bags are known (placed tiles first,
    then the rack, then the rest), so the drawn tiles must come out even in turn order.
    Without racks the bags are unknown and a player with nothing left to place passes.
    """
    placed = parse_diagram(diagram)
    if seats is None:
        drawn = [c for c in COLORS if c in placed.values()]
        seats = [(c,) for c in drawn + [c for c in COLORS if c not in drawn][: 3 - len(drawn)]]
    players = [Player(name, colors) for name, colors in zip(NAMES, seats)]
    queues, bags = {}, {}
    for player in players:
        queues[player.name] = []
        for color in player.colors:
            rack = [parse_tile(t) for t in (racks or {}).get(color, ())]
            tiles = assign_tiles(sorted(sq for sq, c in placed.items() if c == color), set(rack))
            queues[player.name] += [(color, Move(tile, sq)) for sq, tile in tiles.items()]
            head = list(tiles.values()) + rack
            bags[color] = head + [t for t in range(28) if t not in head]
    game = Game(players, bags if racks is not None else None)
    while any(queues.values()):
        queue = queues[game.to_move.name]
        if queue:
            color, move = queue.pop(0)
            game.play(move, color)
        else:
            assert racks is None, "with racks the diagram must come out even in turn order"
            game.play(PASS)
    return game


@dataclass
class Position:
    diagram: str
    groups: dict
    """Groups per colour; colours not named have none."""
    cuts: set = field(default_factory=set)
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
            game.check(Move(fitting[0], sq), color)
            refused = None
        except IllegalMove as error:
            refused = error.reason
        assert refused == ("split" if square_name(sq) in position.cuts else None)


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

