"""The engine against a deliberately simple reference of the rules, over thousands of positions.

The reference knows nothing of bit masks or caches: it replays a game's history onto a dict
board, finds groups by breadth-first search over edge neighbours, calls a tile a cut point when
taking it off leaves more groups, and lists legal moves straight from the rules (docs/RULES.md).
Random games of 2 to 5 players, with moves taken back now and then, must agree with it exactly:
legal moves in order, groups, cut points, and which placements ``check`` accepts.
"""

import random
from collections import deque
from functools import cache

import pytest

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.game import seat_colors
from uptown_cli.engine.groups import count_groups, cut_points, is_cut_point
from uptown_cli.errors import IllegalMove, Reason
from uptown_cli.engine.notation import Placement

POSITIONS = 3000


def neighbours(sq):
    """Squares edge to edge with ``sq``."""
    row, col = divmod(sq, 9)
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < 9 and 0 <= c < 9:
            yield r * 9 + c


def groups_of(squares):
    """The groups (edge-joined sets) of ``squares``, by breadth-first search."""
    left = set(squares)
    groups = []
    while left:
        start = left.pop()
        group, queue = {start}, deque([start])
        while queue:
            for n in neighbours(queue.popleft()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    queue.append(n)
        groups.append(group)
    return groups


@cache
def reference_cut_points(squares):
    """The squares of ``squares`` (a frozenset) whose removal leaves more groups."""
    count = len(groups_of(squares))
    return frozenset(sq for sq in squares if len(groups_of(squares - {sq})) > count)


def fits(tile, sq):
    """Whether ``tile`` may go on ``sq``: letter by row, number by column, symbol by region."""
    row, col = divmod(sq, 9)
    if tile < 9:
        return row == tile
    if tile < 18:
        return col == tile - 9
    if tile < 27:
        return (row // 3) * 3 + col // 3 == tile - 18
    return True


class Reference:
    """A position rebuilt from a game's players, bags and history alone."""

    def __init__(self, players, bags, history):
        self.players = players
        self.board = {}
        self.racks = {c: list(bag[:5]) for c, bag in bags.items()}
        drawn = dict.fromkeys(bags, 5)
        self.played = dict.fromkeys(bags, 0)
        passes = 0
        for turn in history:
            if turn.move.is_pass:
                passes += 1
                continue
            passes = 0
            color, tile = turn.color, turn.move.tile
            self.board[turn.move.square] = (color, tile)
            self.played[color] += 1
            self.racks[color].remove(tile)
            if drawn[color] < 28:
                self.racks[color].append(bags[color][drawn[color]])
                drawn[color] += 1
        self.finished = passes >= len(players) or all(n == 24 for n in self.played.values())
        self.player = players[len(history) % len(players)]

    def squares(self, color):
        return frozenset(sq for sq, (c, _) in self.board.items() if c == color)

    def placement(self, color, tile, sq):
        """``None`` when ``color`` may put ``tile`` on ``sq`` (a fitting square), else the reason."""
        occupant = self.board.get(sq)
        if occupant is None:
            return None
        if occupant[0] in self.player.colors:
            return Reason.OWN_TILE
        if sq in reference_cut_points(self.squares(occupant[0])):
            return Reason.SPLIT
        return None

    def legal_moves(self):
        """``(colour, tile, square, capture)`` in the engine's order; a pass when none; [] at the end."""
        if self.finished:
            return []
        moves = [
            (color, tile, sq, sq in self.board)
            for color in self.player.colors
            if self.played[color] < 24
            for tile in sorted(self.racks[color])
            for sq in range(81)
            if fits(tile, sq) and self.placement(color, tile, sq) is None
        ]
        return moves or [(self.player.colors[0], None, None, False)]


def mask_of(squares):
    """``squares`` as an 81-bit mask, the engine's form."""
    return sum(1 << sq for sq in squares)


def agree(game, ref):
    """Assert that ``game`` and the reference ``ref`` of its position agree."""
    assert game.board == ref.board
    assert game.finished == ref.finished
    moves = [(c, m.tile, m.square, m.capture) for c, m in game.legal_moves()]
    assert moves == ref.legal_moves()
    for color in game.colors:
        squares = ref.squares(color)
        mask = game.mask(color)
        cuts = reference_cut_points(squares)
        assert mask == mask_of(squares)
        assert game.groups(color) == count_groups(mask) == len(groups_of(squares))
        assert game.cut_points(color) == cut_points(mask) == mask_of(cuts)
        assert [sq for sq in squares if is_cut_point(sq, mask)] == [sq for sq in squares if sq in cuts]
    agree_on_checks(game, ref)


def agree_on_checks(game, ref):
    """Assert that ``check`` accepts exactly the placements the reference allows, and refuses
    the others for the same reason."""
    if ref.finished:
        return
    for color in ref.player.colors:
        if ref.played[color] == 24:
            continue
        for tile in ref.racks[color]:
            for sq in range(81):
                if not fits(tile, sq):
                    continue
                try:
                    game.check(Placement(tile, sq), color)
                    refused = None
                except IllegalMove as exc:
                    refused = exc.reason
                assert refused == ref.placement(color, tile, sq)


def random_positions(rng, count):
    """Yield ``(game, bags)`` at ``count`` positions of random games, taking back 1 to 3 moves
    now and then so that undoing is checked as well as playing."""
    seen = 0
    while True:
        seats = rng.randint(2, 5)
        players = [Player(f"P{i}", colors) for i, colors in enumerate(seat_colors(seats))]
        bags = seeded_bags(str(rng.random()), [c for p in players for c in p.colors])
        game = Game(players, bags)
        while True:
            yield game, bags
            seen += 1
            if seen == count:
                return
            moves = game.legal_moves()
            if not moves:
                break
            if game.ply and rng.random() < 0.1:
                for _ in range(min(game.ply, rng.randint(1, 3))):
                    game.pop()
                continue
            color, move = rng.choice(moves)
            game.play(move, color)


@pytest.mark.parametrize("seed", [1, 2])
def test_engine_agrees_with_a_plain_reference(seed):
    for game, bags in random_positions(random.Random(seed), POSITIONS // 2):
        agree(game, Reference(game.players, bags, game.history))


def test_fresh_and_played_games_agree():
    """A game replayed from its history (nothing cached yet) agrees with the reference and
    gives what the played game gave."""
    for game, bags in random_positions(random.Random(3), 300):
        replayed = Game(game.players, bags)
        for turn in game.history:
            replayed.play(turn.move, turn.color)
        agree_on_checks(replayed, Reference(game.players, bags, game.history))
        assert replayed.legal_moves() == game.legal_moves()
        assert [replayed.cut_points(c) for c in game.colors] == [game.cut_points(c) for c in game.colors]
