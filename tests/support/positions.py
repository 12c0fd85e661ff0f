"""Positions drawn as ASCII diagrams and built through the engine.

A diagram is rows of ``r b g y o`` (red, blue, green, yellow, orange) and ``.`` (empty),
starting at ``A1``; rows and columns not drawn are empty. ``build`` gives every drawn tile a
tile of its colour that fits its square and places them through the engine, in turn order.
"""

from uptown_cli.engine.game import COLORS, Game, Player
from uptown_cli.engine.geometry import FIT, parse_tile, square_name
from uptown_cli.engine.notation import PASS, Placement

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

    ``seats``: colour tuples in turn order (default: one seat per colour drawn, in the order
    of docs/RULES.md, with the next colours added up to three players).
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
            queues[player.name] += [(color, Placement(tile, sq)) for sq, tile in tiles.items()]
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
