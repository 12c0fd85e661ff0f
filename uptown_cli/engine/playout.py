"""Playouts for the Monte-Carlo bots: a position played on to the end of the game, fast.

A ``Playout`` holds a position as bare numbers (one 81-bit mask of squares per colour, racks
and bag orders as lists of tile numbers), taken from a game and one deal of the tiles its
player to move cannot see. ``run`` plays it to the end with a cheap policy and returns the
final scores; ``reset`` goes back to the position it was made from, so that the same deal can
be played out after each candidate move. Moves are chosen by arithmetic on masks: no move
objects, no lists of legal moves, no legality checks (the policy only picks legal moves).

A policy is a list of *classes* of moves, best first; each class is ``(closeness, target,
tiles)``: whether the square touches the mover's own tiles of that colour (``TOUCHING``) or not
(``APART``), whether it is empty (``EMPTY``) or a capture (``CAPTURE``), and which tiles (a range
of tile numbers: ``WILD``, ``NOT_WILD``). A move is drawn at random among the moves of the first
class that has any.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random

from .game import RACK_SIZE, TILES_PLAYED_PER_COLOR, Game
from .geometry import (
    ALL_SQUARES,
    FIT,
    NOT_FIRST_COLUMN,
    NOT_LAST_COLUMN,
    TILES_PER_COLOR,
)
from .groups import count_groups, cut_points

__all__ = ["TOUCHING", "APART", "EMPTY", "CAPTURE", "WILD", "NOT_WILD", "MoveClass", "QUICK", "Playout"]

TOUCHING, APART = range(2)
"""How close a class's squares are to the mover's own tiles of the colour: touching one or
more of them, or none."""
EMPTY, CAPTURE = range(2)
"""Whether a class's squares are empty or hold a tile to capture."""
WILD, NOT_WILD = range(27, 28), range(0, 27)
"""A class's tiles: ``$``, or every tile but ``$``."""

MoveClass = tuple[int, int, range]
"""``(closeness, target, tiles)``: one class of moves of a policy (see above)."""

QUICK: list[MoveClass] = [
    (closeness, target, tiles)
    for closeness in (TOUCHING, APART)
    for target in (EMPTY, CAPTURE)
    for tiles in (NOT_WILD, WILD)
]
"""``mc``'s policy: join the colour's own tiles if it can, then avoid captures, then keep ``$``."""

class Playout:
    """A position of ``game`` with every colour's bag order given by ``bags`` (``{colour:
    28 tiles}``, as ``Game`` takes them; only the draws still to come and the racks they
    imply are used), ready to be played out under ``variant`` scoring."""

    def __init__(self, game: Game, bags: Mapping[str, Sequence[int]], variant: str = "standard") -> None:
        colors = game.colors
        index = {color: i for i, color in enumerate(colors)}
        self.blockers = variant == "blockers"
        self.seats = [tuple(index[c] for c in player.colors) for player in game.players]
        self.owner = [game.players.index(game.owner(c)) for c in colors]
        self.start_masks = [game.mask(c) for c in colors]
        self.start_played = [game.played_count(c) for c in colors]
        self.start_captured = [[game.captured(c, v) for v in colors] for c in colors]
        self.start_turn = 0 if game.to_move is None else game.players.index(game.to_move)
        self.start_passes = game.passes
        self.start_racks: list[list[int]] = []
        self.bags: list[list[int]] = []  # the draws to come, read from ``draw_at`` on
        for color, played in zip(colors, self.start_played):
            drawn = min(TILES_PER_COLOR, RACK_SIZE + played)
            unplayed = set(game.unplayed_tiles(color))
            self.start_racks.append([t for t in bags[color][:drawn] if t in unplayed])
            self.bags.append(list(bags[color][drawn:]))
        self.reset()

    def reset(self) -> None:
        """Go back to the position the playout was made from."""
        self.masks = list(self.start_masks)
        self.occupied = 0
        for mask in self.masks:
            self.occupied |= mask
        self.played = list(self.start_played)
        self.captured = [list(row) for row in self.start_captured]
        self.racks = [list(rack) for rack in self.start_racks]
        self.draw_at = [0] * len(self.bags)
        self.turn = self.start_turn
        self.passes = self.start_passes

    def play(self, color: int, tile: int, sq: int) -> None:
        """Play ``tile`` of colour number ``color`` on ``sq`` (a legal move), draw, pass the turn."""
        bit = 1 << sq
        masks = self.masks
        if self.occupied & bit:
            for victim, mask in enumerate(masks):
                if mask & bit:
                    masks[victim] = mask & ~bit
                    self.captured[color][victim] += 1
                    break
        else:
            self.occupied |= bit
        masks[color] |= bit
        rack = self.racks[color]
        rack.remove(tile)
        bag = self.bags[color]
        if self.draw_at[color] < len(bag):
            rack.append(bag[self.draw_at[color]])
            self.draw_at[color] += 1
        self.played[color] += 1
        self.passes = 0
        self.turn = (self.turn + 1) % len(self.seats)

    def pass_turn(self) -> None:
        """The seat to move passes (it has no legal placement)."""
        self.passes += 1
        self.turn = (self.turn + 1) % len(self.seats)

    def run(self, policy: Sequence[MoveClass], rng: Random,
            plies: int | None = None) -> list[tuple[int, int]]:
        """Play on to the end of the game, or for at most ``plies`` turns (moves and passes),
        each move drawn by ``rng`` from the first class of ``policy`` that has one; returns
        each seat's ``(score, captures)`` where it stopped."""
        self.advance(policy, rng, plies)
        return self.results()

    def advance(self, policy: Sequence[MoveClass], rng: Random, plies: int | None = None) -> None:
        """Play on as ``run`` does, without reading the scores where it stopped."""
        random = rng.random
        played = self.played
        players = len(self.seats)
        left = sum(1 for p in played if p < TILES_PLAYED_PER_COLOR)
        turns = -1 if plies is None else plies  # counted down; from -1 it never reaches 0
        while left and self.passes < players and turns:
            turns -= 1
            chosen = self.choose(policy, random)
            if chosen is None:
                self.pass_turn()
            else:
                self.play(*chosen)
                if played[chosen[0]] == TILES_PLAYED_PER_COLOR:
                    left -= 1

    def over(self) -> bool:
        """Whether the game is over here: every colour has played its tiles, or every seat
        passed in a row."""
        return (self.passes >= len(self.seats)
                or all(p >= TILES_PLAYED_PER_COLOR for p in self.played))

    def choose(self, policy: Sequence[MoveClass],
               random: Callable[[], float]) -> tuple[int, int, int] | None:
        """``(colour number, tile, square)``: a move of the seat to move drawn with ``random``
        (a function giving floats in [0, 1)) from the first class of ``policy`` that has one,
        or None when the seat must pass."""
        masks, racks, played = self.masks, self.racks, self.played
        turn = self.turn
        empty = ALL_SQUARES & ~self.occupied
        mine = self.seats[turn]
        capturable: int | None = None
        near: dict[int, int] = {}  # _near(masks[c], closeness) by ``closeness * 8 + c``
        # (colour, tile, squares, how many) in the class looked at:
        options: list[tuple[int, int, int, int]] = []
        for closeness, target, tiles in policy:
            total = 0
            for c in mine:
                if played[c] >= TILES_PLAYED_PER_COLOR:
                    continue
                key = closeness * 8 + c
                squares = near.get(key)
                if squares is None:
                    squares = near[key] = _near(masks[c], closeness)
                if target == EMPTY:
                    squares &= empty
                else:
                    if capturable is None:
                        capturable = 0
                        for victim, mask in enumerate(masks):
                            if mask and self.owner[victim] != turn:
                                capturable |= mask & ~cut_points(mask)
                    squares &= capturable
                if not squares:
                    continue
                for t in racks[c]:
                    if t in tiles:
                        fit = FIT[t] & squares
                        if fit:
                            count = fit.bit_count()
                            options.append((c, t, fit, count))
                            total += count
            if total:
                pick = int(random() * total)
                for c, t, fit, count in options:
                    if pick < count:
                        for _ in range(pick):
                            fit &= fit - 1
                        return c, t, (fit & -fit).bit_length() - 1
                    pick -= count
        return None

    def results(self) -> list[tuple[int, int]]:
        """Each seat's ``(score, captures)`` as the position is now (lower scores are better)."""
        masks = self.masks
        return [(sum(count_groups(masks[c]) for c in mine) + penalty, captures)
                for mine, (penalty, captures) in zip(self.seats, self.capture_counts())]

    def capture_counts(self) -> list[tuple[int, int]]:
        """Each seat's ``(penalty, captures)``: what its captures add to its score (in
        Blockers!, the most tiles taken from one opponent; else 0), and how many it made."""
        out: list[tuple[int, int]] = []
        for mine in self.seats:
            taken = [0] * len(self.seats)
            for c in mine:
                for victim, n in enumerate(self.captured[c]):
                    taken[self.owner[victim]] += n
            out.append((max(taken) if self.blockers else 0, sum(taken)))
        return out


def _near(mask: int, closeness: int) -> int:
    """The squares at ``closeness`` to the squares of ``mask`` (``mask`` itself excluded)."""
    up = (mask << 9) & ALL_SQUARES
    down = mask >> 9
    left = (mask << 1) & NOT_FIRST_COLUMN
    right = (mask >> 1) & NOT_LAST_COLUMN
    if closeness == TOUCHING:
        return (up | down | left | right) & ~mask
    return ALL_SQUARES & ~(up | down | left | right | mask)
