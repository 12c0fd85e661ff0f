"""Random legal games, 2 to 5 players, checked after every move against plain recounts.

The recounts here share nothing with the engine: squares are ``(row, column)`` pairs, groups
are found by breadth-first search, a cut point is a tile whose removal adds a group, and racks,
captures and the end of the game are tracked from the moves played.
"""

import random
from collections import Counter, deque

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.game import seat_colors
from uptown_cli.errors import IllegalMove, Reason
from uptown_cli.engine.geometry import TILE_NAMES
from uptown_cli.engine.notation import PASS, Placement
from uptown_cli.engine.scoring import standings

ROWS = "ABCDEFGHI"
REGIONS = ("man", "ring", "woman", "sign", "skyline", "sax", "car", "cards", "champagne")


def fits(tile, sq):
    """Whether tile number ``tile`` may go on square ``sq``, from the tile's name."""
    name, (row, column) = TILE_NAMES[tile], divmod(sq, 9)
    if name == "$":
        return True
    if name in ROWS:
        return ROWS[row] == name
    if name.isdigit():
        return int(name) == column + 1
    return REGIONS[row // 3 * 3 + column // 3] == name


FITTING = [{sq for sq in range(81) if fits(tile, sq)} for tile in range(28)]


def count_groups(squares):
    """Groups of a set of squares, by breadth-first search over edge neighbours."""
    left, groups = set(squares), 0
    while left:
        groups += 1
        queue = deque([left.pop()])
        while queue:
            row, column = divmod(queue.popleft(), 9)
            for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
                if 0 <= r < 9 and 0 <= c < 9 and r * 9 + c in left:
                    left.remove(r * 9 + c)
                    queue.append(r * 9 + c)
    return groups


def cut_points(squares):
    """The squares whose removal makes more groups."""
    groups = count_groups(squares)
    return {sq for sq in squares if count_groups(squares - {sq}) > groups}


class RandomGames(RuleBasedStateMachine):
    """Plays random legal moves; ``teardown`` plays every game out to its end."""

    @initialize(players=st.integers(2, 5), seed=st.text("0123456789abcdef", min_size=1, max_size=8))
    def start(self, players, seed):
        self.seed = seed
        seats = seat_colors(players)
        self.bags = seeded_bags(seed, [c for s in seats for c in s])
        self.game = Game([Player(f"P{i + 1}", s) for i, s in enumerate(seats)], self.bags)
        self.racks = {c: list(order[:5]) for c, order in self.bags.items()}
        self.drawn = dict.fromkeys(self.bags, 5)
        self.played = set()
        self.lost = {c: [] for c in self.bags}
        self.captures = Counter()
        self.history = []
        self.snapshots = []

    # -- the recounts --------------------------------------------------------------------

    def squares(self):
        """``{colour: set of its squares}`` read from the board."""
        out = {c: set() for c in self.bags}
        for sq, (color, _) in self.game.board.items():
            out[color].add(sq)
        return out

    def recount(self):
        """``{colour: (its squares, its cut points)}``."""
        return {c: (mine, cut_points(mine)) for c, mine in self.squares().items()}

    def played_count(self, color):
        return sum(1 for c, _ in self.played if c == color)

    def expected_moves(self, recount):
        """``{(colour, tile, square)}`` the player to move may play."""
        player = self.game.players[len(self.history) % len(self.game.players)]
        blocked = set()
        for color, (mine, cuts) in recount.items():
            blocked |= mine if color in player.colors else cuts
        return {
            (color, tile, sq)
            for color in player.colors
            if self.played_count(color) < 24
            for tile in self.racks[color]
            for sq in FITTING[tile] - blocked
        }

    def expected_finished(self):
        everyone = all(self.played_count(c) == 24 for c in self.bags)
        n = len(self.game.players)
        stuck = len(self.history) >= n and all(t is None for t in self.history[-n:])
        return everyone or stuck

    def snapshot(self):
        game = self.game
        return (
            game.board, game.racks, game.bag_sizes, game.ply, list(game.history), game.to_move,
            game.finished, {c: (game.groups(c), game.cut_points(c)) for c in game.colors},
            game.legal_moves(),
        )

    # -- moves ---------------------------------------------------------------------------

    def play(self, color, move):
        """Play a legal move, checking first that a capture does not take a cut point."""
        game = self.game
        self.snapshots.append(self.snapshot())
        victim = game.at(move.square) if not move.is_pass else None
        if victim is not None:
            assert move.square not in cut_points(self.squares()[victim[0]]), "a cut point was captured"
        turn = game.play(move, color)
        assert turn.captured == victim
        if move.is_pass:
            self.history.append(None)
            return
        assert (color, move.tile) not in self.played, "a tile was played twice"
        self.played.add((color, move.tile))
        self.history.append((color, move.tile))
        if victim is not None:
            self.lost[victim[0]].append(victim[1])
            self.captures[color, victim[0]] += 1
        self.racks[color].remove(move.tile)
        drawn = None
        if self.drawn[color] < 28:
            drawn = self.bags[color][self.drawn[color]]
            self.racks[color].append(drawn)
            self.drawn[color] += 1
        assert turn.drawn == drawn

    @precondition(lambda self: not self.game.finished)
    @rule(pick=st.integers(0, 2**16))
    def play_a_legal_move(self, pick):
        moves = self.game.legal_moves()
        self.play(*moves[pick % len(moves)])

    @precondition(lambda self: self.game.ply > 0)
    @rule()
    def take_back_and_replay(self):
        turn = self.game.pop()
        assert self.snapshot() == self.snapshots[-1]
        assert self.game.play(turn.move, turn.color) == turn

    @precondition(lambda self: not self.game.finished)
    @rule(tile=st.integers(0, 27), square=st.integers(0, 80), second=st.booleans())
    def try_any_move(self, tile, square, second):
        """Any placement is accepted exactly when the recount says it is legal; a refused
        one changes nothing."""
        colors = self.game.to_move.colors
        color = colors[second % len(colors)]
        before = self.snapshot()
        try:
            self.game.check(Placement(tile, square), color)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == ((color, tile, square) in self.expected_moves(self.recount()))
        if not accepted:
            try:
                self.game.play(Placement(tile, square), color)
            except IllegalMove:
                pass
            assert self.snapshot() == before

    @precondition(lambda self: not self.game.finished)
    @rule()
    def try_to_pass(self):
        """A pass is accepted exactly when the recount finds no placement."""
        before = self.snapshot()
        try:
            self.game.check(PASS)
            accepted = True
        except IllegalMove as refused:
            accepted = False
            assert refused.reason is Reason.NOT_FORCED
        assert accepted == (not self.expected_moves(self.recount()))
        assert self.snapshot() == before

    # -- after every move ----------------------------------------------------------------

    @invariant()
    def position_matches_the_recount(self):
        game = self.game
        recount = self.recount()
        for color, (squares, cuts) in recount.items():
            on_board = [tile for c, tile in game.board.values() if c == color]
            left = self.bags[color][self.drawn[color]:]
            assert sorted(on_board + self.lost[color] + self.racks[color] + left) == list(range(28))
            assert game.racks[color] == sorted(self.racks[color])
            assert game.bag_sizes[color] == len(left)
            assert game.played_count(color) == self.played_count(color)
            assert game.groups(color) == count_groups(squares)
            assert {sq for sq in range(81) if game.cut_points(color) >> sq & 1} == cuts
            for other in self.bags:
                assert game.captured(color, other) == self.captures[color, other]
        for variant in ("standard", "blockers"):
            rows = [tuple(row)[:7] for row in standings(game, variant)]  # (no forfeits here)
            assert rows == self.recount_standings(recount, variant)
        assert game.finished == self.expected_finished()
        if not game.finished:
            assert game.to_move == game.players[len(self.history) % len(game.players)]
            expected = self.expected_moves(recount)
            moves = game.legal_moves()
            if expected:
                assert {(c, m.tile, m.square) for c, m in moves} == expected
                assert len(moves) == len(expected)
                assert all(m.capture == (game.at(m.square) is not None) for _, m in moves)
            else:
                assert moves == [(game.to_move.colors[0], PASS)]

    def teardown(self):
        """Play the game out with a generator seeded from the bag seed, checking after every
        move; at the end every colour has played 24 or a whole round has passed."""
        choose = random.Random(self.seed)
        while not self.game.finished:
            self.play(*choose.choice(self.game.legal_moves()))
            self.position_matches_the_recount()
        game = self.game
        assert game.to_move is None and game.legal_moves() == []
        if not all(self.played_count(c) == 24 for c in self.bags):
            assert self.history[-len(game.players):] == [None] * len(game.players)

    def recount_standings(self, recount, variant):
        """Each player's (name, colours, groups, captures, captured, score, rank)."""
        rows = []
        for player in self.game.players:
            captured = {
                other.name: sum(
                    self.captures[mine, theirs] for mine in player.colors for theirs in other.colors
                )
                for other in self.game.players
                if other != player
            }
            groups = sum(count_groups(recount[c][0]) for c in player.colors)
            extra = max(captured.values()) if variant == "blockers" else 0
            rows.append((player, groups, captured, groups + extra, sum(captured.values())))
        keys = [(score, total) for *_, score, total in rows]
        return [
            (player.name, player.colors, groups, total, captured, score,
             1 + sum(k < (score, total) for k in keys))
            for player, groups, captured, score, total in rows
        ]


RandomGames.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_random_games = pytest.mark.slow(RandomGames.TestCase)
