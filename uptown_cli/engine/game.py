"""The rules of Uptown: a game's state, its legal moves, and playing and undoing moves.

The board is kept as one 81-bit mask of occupied squares per colour (see ``geometry``), with
the tile on each square alongside. Groups and cut points of a colour are worked out from its
mask when asked for and cached. A tile put down or taken off with at most one neighbour of its
colour updates the cache in place (only that neighbour's cut point status can change); any other
change drops it, to be worked out again from the whole mask at once (``count_groups``,
``cut_points``: a few operations on the mask, with a search only beside an enclosed square).

With known bags (a seeded game) the racks are known and checked; without them (a game
transcribed from a board) everything else is checked.

Types: a placed move's square, the tile on a square that holds a colour and the bags of a game
whose racks are known are never None, though their types allow it. Where that is used on the
path of every move, a ``type: ignore`` says so (``typing.cast`` would cost a call each time);
elsewhere, ``cast``.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple, Optional, cast

from ..errors import IllegalMove as IllegalMove  # raised here, exported
from ..errors import RacksUnknown as RacksUnknown
from ..errors import SetupError
from .geometry import (
    ALL_SQUARES,
    FIT,
    GATHER,
    NEIGHBOURS,
    TILES_PER_COLOR,
    WILD,
    joined_around,
    square_name,
    tile_fit_text,
    tile_name,
)
from .groups import count_groups, cut_points, is_cut_point
from .move_lists import ROW_SHIFTS, move_lists, tile_moves
from .notation import PASS, Move

COLORS = ("red", "blue", "green", "yellow", "orange")
RACK_SIZE = 5
TILES_PLAYED_PER_COLOR = TILES_PER_COLOR - 4
"""Every colour plays exactly 24 tiles: it stops when its bag is empty and its rack is down to 4."""

_COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}


class _Seat(NamedTuple):
    name: str
    colors: tuple[str, ...]


class Player(_Seat):
    """A player: their name and colours (given as any iterable, kept as a tuple)."""

    __slots__ = ()

    def __new__(cls, name: str, colors: Iterable[str]) -> Player:
        return super().__new__(cls, name, tuple(colors))


class Turn(NamedTuple):
    """A move as it was played: who, with which colour, what it captured and drew.
    (A named tuple: one is made for every move replayed, so it must be cheap.)"""

    number: int
    player: Player
    color: str
    move: Move
    captured: Optional[tuple[str, int]] = None
    drawn: Optional[int] = None


_new_turn: Callable[
    [type[Turn], tuple[int, Player, str, Move, Optional[tuple[str, int]], Optional[int]]], Turn
] = tuple.__new__
"""Makes a Turn from a tuple of all its fields, without the keyword handling of ``Turn()``."""


class Game:
    """A game in progress: players in turn order, the board, racks and bags when known."""

    def __init__(self, players: Iterable[Player | tuple[str, tuple[str, ...]]],
                 bags: Mapping[str, Sequence[int]] | None = None) -> None:
        seated = [p if isinstance(p, Player) else Player(*p) for p in players]
        if not 2 <= len(seated) <= 5:
            raise SetupError("a game has 2 to 5 players")
        per_player = 2 if len(seated) == 2 else 1
        seen: set[str] = set()
        for p in seated:
            if len(p.colors) != per_player:
                raise SetupError(
                    f"{p.name} needs {per_player} colour{'s' if per_player > 1 else ''}"
                )
            for c in p.colors:
                if c not in _COLOR_INDEX or c in seen:
                    raise SetupError(f"colour {c!r} is unknown or taken twice")
                seen.add(c)
        self.players = seated
        self._owner: dict[str, int] = {}
        for index, p in enumerate(seated):
            for c in p.colors:
                self._owner[c] = index
        self._opponents = [tuple(c for c in self._owner if self._owner[c] != seat) for seat in range(len(seated))]
        self._occupied = 0
        self._exhausted = 0  # colours that have played all their tiles
        self._masks = dict.fromkeys(self._owner, 0)
        self._tile_at: list[int | None] = [None] * 81
        self._color_at: list[str | None] = [None] * 81
        self._played = dict.fromkeys(self._owner, 0)
        self._played_count = dict.fromkeys(self._owner, 0)
        self._captured = {c: dict.fromkeys(self._owner, 0) for c in self._owner}
        self._bags: dict[str, list[int]] | None
        self._racks: dict[str, list[int]] | None
        self._drawn: dict[str, int]
        if bags is None:
            self._bags = self._racks = None
        else:
            self._bags = {c: list(bags[c]) for c in self._owner}
            for c, order in self._bags.items():
                if sorted(order) != list(range(TILES_PER_COLOR)):
                    raise SetupError(f"the bag of {c} must hold each of the 28 tiles once")
            self._racks = {c: sorted(order[:RACK_SIZE]) for c, order in self._bags.items()}  # kept sorted
            self._drawn = dict.fromkeys(self._owner, RACK_SIZE)
        self._turn = 0
        self._passes = 0
        self.history: list[Turn] = []
        self._undo: list[tuple[int, int]] = []
        self._cuts: dict[str, int] = {}
        self._group_count: dict[str, int] = {}

    # -- what the position is ------------------------------------------------------------

    @property
    def colors(self) -> tuple[str, ...]:
        """The colours in the game, in seat order."""
        return tuple(self._owner)

    @property
    def ply(self) -> int:
        """How many moves (passes included) have been played."""
        return len(self.history)

    @property
    def last(self) -> Turn | None:
        return self.history[-1] if self.history else None

    @property
    def passes(self) -> int:
        """How many passes were played in a row just now (a whole round of them ends the game)."""
        return self._passes

    @property
    def finished(self) -> bool:
        return self._passes >= len(self.players) or self._exhausted == len(self._owner)

    @property
    def to_move(self) -> Player | None:
        """The player whose turn it is, or None once the game is over."""
        return None if self.finished else self.players[self._turn]

    @property
    def knows_racks(self) -> bool:
        return self._racks is not None

    @property
    def racks(self) -> dict[str, list[int]] | None:
        """Each colour's rack (tiles sorted), or None when the bags are unknown."""
        if self._racks is None:
            return None
        return {c: list(r) for c, r in self._racks.items()}

    @property
    def bag_sizes(self) -> dict[str, int] | None:
        """How many tiles are left in each colour's bag, or None when unknown."""
        if self._bags is None:
            return None
        return {c: TILES_PER_COLOR - self._drawn[c] for c in self._owner}

    @property
    def board(self) -> dict[int, tuple[str, int]]:
        """``{square: (colour, tile)}`` for every occupied square."""
        return cast("dict[int, tuple[str, int]]", {
            sq: (self._color_at[sq], self._tile_at[sq])
            for sq in range(81)
            if self._color_at[sq] is not None
        })

    def at(self, sq: int) -> tuple[str, int] | None:
        """``(colour, tile)`` on ``sq``, or None."""
        color = self._color_at[sq]
        return None if color is None else (color, self._tile_at[sq])  # type: ignore[return-value]

    def mask(self, color: str) -> int:
        """The squares holding ``color``'s tiles."""
        return self._masks[color]

    def owner(self, color: str) -> Player:
        """The player who plays ``color``."""
        return self.players[self._owner[color]]

    def played_count(self, color: str) -> int:
        return self._played_count[color]

    def unplayed_tiles(self, color: str) -> list[int]:
        """``color``'s tiles not yet placed (on its rack or in its bag), sorted."""
        played = self._played[color]
        return [t for t in range(TILES_PER_COLOR) if not played >> t & 1]

    def playable(self, color: str) -> bool:
        """Whether ``color`` still has tiles to play."""
        return self._played_count[color] < TILES_PLAYED_PER_COLOR

    def groups(self, color: str) -> int:
        """How many groups ``color``'s tiles form."""
        count = self._group_count.get(color)
        if count is None:
            count = self._group_count[color] = count_groups(self._masks[color])
        return count

    def player_groups(self, player: Player) -> int:
        return sum(self.groups(c) for c in player.colors)

    def cut_points(self, color: str) -> int:
        """The squares of ``color`` that may not be captured (taking one would split a group)."""
        cuts = self._cuts.get(color)
        if cuts is None:
            cuts = self._cuts[color] = cut_points(self._masks[color])
        return cuts

    def captured(self, capturer: str, victim: str) -> int:
        """How many of ``victim``'s tiles colour ``capturer`` has captured."""
        return self._captured[capturer][victim]

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[tuple[str, Move]]:
        """Every legal ``(colour, move)`` of the player to move; ``[(first colour, PASS)]``
        when there is none; ``[]`` once the game is over. Needs known racks."""
        if self._racks is None:
            raise RacksUnknown()
        if self.finished:
            return []
        player = self.players[self._turn]
        targets, occupied = self._targets()
        captures = targets & occupied
        moves: list[tuple[str, Move]] = []
        for color in player.colors:
            if self._played_count[color] >= TILES_PLAYED_PER_COLOR:
                continue
            lists = move_lists(color)
            for tile in self._racks[color]:
                if tile == WILD:
                    for shift, row_lists in zip(ROW_SHIFTS, lists[WILD:]):
                        open_squares = targets >> shift & 511
                        if open_squares:
                            taken = captures >> shift & 511
                            moves.extend(row_lists.with_captures(open_squares, taken) if taken
                                         else row_lists[open_squares])
                    continue
                shift, keep, multiplier, down = GATHER[tile]
                open_squares = ((targets >> shift) & keep) * multiplier >> down & 511
                if open_squares:
                    tile_lists = lists[tile]
                    taken = ((captures >> shift) & keep) * multiplier >> down & 511
                    moves.extend(tile_lists.with_captures(open_squares, taken) if taken
                                 else tile_lists[open_squares])
        return moves or [(player.colors[0], PASS)]

    def has_legal_placement(self) -> bool:
        """Whether the player to move can place a tile; RacksUnknown without known racks."""
        if self._racks is None:
            raise RacksUnknown()
        targets, _ = self._targets()
        return any(
            FIT[tile] & targets
            for color in self.players[self._turn].colors
            if self.playable(color)
            for tile in self._racks[color]
        )

    def _targets(self) -> tuple[int, int]:
        """Squares a tile of the player to move could go on (empty, or holding a capturable
        opponent tile), and the occupied squares."""
        occupied = self._occupied
        capturable = 0
        for color in self._opponents[self._turn]:
            mask = self._masks[color]
            if mask:
                cuts = self._cuts.get(color)
                if cuts is None:
                    cuts = self.cut_points(color)
                capturable |= mask & ~cuts
        return (ALL_SQUARES & ~occupied) | capturable, occupied

    def _color_for(self, move: Move, player: Player) -> str:
        """The colour a move without a named colour is played with, or an IllegalMove."""
        if move.is_pass or len(player.colors) == 1:
            return player.colors[0]
        tile = cast(int, move.tile)
        holders = [
            c
            for c in player.colors
            if self.playable(c)
            and (
                tile in self._racks[c]
                if self._racks is not None
                else not self._played[c] >> tile & 1
            )
        ]
        if len(holders) > 1:
            raise IllegalMove(
                "ambiguous_color",
                f"both {' and '.join(holders)} could play {tile_name(tile)}: say which colour",
            )
        return holders[0] if holders else player.colors[0]

    def check(self, move: Move, color: str | None = None) -> str:
        """Raise IllegalMove when ``move`` (by ``color``, or the colour it must be) is illegal;
        return the colour it is played with otherwise (a pass counts as the player's first
        colour's, whichever colour names it). Never changes the game."""
        if self.finished:
            raise IllegalMove("game_over", "the game is over")
        player = self.players[self._turn]
        if color is None:
            color = self._color_for(move, player)
        elif color not in self._owner:
            raise IllegalMove("unknown_color", f"{color} does not play in this game")
        if self._owner[color] != self._turn:
            raise IllegalMove(
                "wrong_turn",
                f"it is {player.name}'s turn ({', '.join(player.colors)}), not {color}'s",
            )
        tile = move.tile
        if tile is None:
            if self._racks is not None and self.has_legal_placement():
                example_color, example = self.legal_moves()[0]
                raise IllegalMove(
                    "not_forced",
                    f"{player.name} may not pass: {example_color} {example} is legal",
                )
            return player.colors[0]
        sq: int = move.square  # type: ignore[assignment]
        if self._played_count[color] >= TILES_PLAYED_PER_COLOR:
            raise IllegalMove("exhausted", f"{color} has played all its {TILES_PLAYED_PER_COLOR} tiles")
        if self._played[color] >> tile & 1:
            raise IllegalMove("reused", f"{color}'s {tile_name(tile)} has already been played")
        if self._racks is not None and tile not in self._racks[color]:
            rack = " ".join(tile_name(t) for t in self._racks[color])
            raise IllegalMove("not_on_rack", f"{color} has no {tile_name(tile)} on its rack ({rack})")
        if not FIT[tile] >> sq & 1:
            name = tile_name(tile)
            raise IllegalMove(
                "wrong_square",
                f"{color} plays {name} on {square_name(sq)}, but {name} goes in {tile_fit_text(tile)}",
            )
        victim = self._color_at[sq]
        if victim is not None:
            if self._owner[victim] == self._turn:
                raise IllegalMove(
                    "own_tile",
                    f"{color} plays {tile_name(tile)} on {square_name(sq)}, which holds {player.name}'s own "
                    f"{victim} {tile_name(cast(int, self._tile_at[sq]))}",
                )
            # Testing the one square is cheaper than finding all the victim's cut points.
            cuts = self._cuts.get(victim)
            splits = is_cut_point(sq, self._masks[victim]) if cuts is None else cuts >> sq & 1
            if splits:
                raise IllegalMove(
                    "split",
                    f"{color} may not capture {victim}'s {tile_name(cast(int, self._tile_at[sq]))} on "
                    f"{square_name(sq)}: it would split {victim}'s group",
                )
        return color

    def canonical(self, move: Move) -> str:
        """``move`` in canonical notation on this board (the ``x`` set by whether it captures)."""
        if move.is_pass:
            return str(PASS)
        return str(Move(move.tile, move.square, self._color_at[cast(int, move.square)] is not None))

    def play(self, move: Move, color: str | None = None) -> Turn:
        """Play ``move`` for the player to move (``color`` picks the rack; it may be left out
        when only one of the player's colours could play the tile). Returns the Turn."""
        color = self.check(move, color)
        seat = self._turn
        player = self.players[seat]
        undo = (seat, self._passes)
        tile = move.tile
        if tile is None:
            turn = Turn(len(self.history) + 1, player, color, PASS)
            self._passes += 1
        else:
            sq: int = move.square  # type: ignore[assignment]
            victim = self._color_at[sq]
            captured: tuple[str, int] | None = None
            if victim is not None:
                captured = (victim, self._tile_at[sq])  # type: ignore[assignment]
                self._take_off(victim, sq)
                self._captured[color][victim] += 1
            self._put_down(color, sq)
            self._occupied |= 1 << sq
            self._color_at[sq] = color
            self._tile_at[sq] = tile
            self._played[color] |= 1 << tile
            count = self._played_count[color] = self._played_count[color] + 1
            if count == TILES_PLAYED_PER_COLOR:
                self._exhausted += 1
            drawn = None
            if self._racks is not None:
                rack = self._racks[color]
                rack.remove(tile)
                if self._drawn[color] < TILES_PER_COLOR:
                    drawn = self._bags[color][self._drawn[color]]  # type: ignore[index]
                    self._drawn[color] += 1
                    insort(rack, drawn)
            if move.capture != (victim is not None):
                move = tile_moves(tile)[sq][victim is not None]
            turn = _new_turn(Turn, (len(self.history) + 1, player, color, move, captured, drawn))
            self._passes = 0
        self.history.append(turn)
        self._undo.append(undo)
        self._turn = (seat + 1) % len(self.players)
        return turn

    def pop(self) -> Turn:
        """Take back the last move; returns its Turn."""
        turn = self.history.pop()
        self._turn, self._passes = self._undo.pop()
        if turn.move.is_pass:
            return turn
        color = turn.color
        tile: int = turn.move.tile  # type: ignore[assignment]
        sq: int = turn.move.square  # type: ignore[assignment]
        if self._racks is not None:
            rack = self._racks[color]
            if turn.drawn is not None:
                rack.remove(turn.drawn)
                self._drawn[color] -= 1
            insort(rack, tile)
        self._played[color] &= ~(1 << tile)
        if self._played_count[color] == TILES_PLAYED_PER_COLOR:
            self._exhausted -= 1
        self._played_count[color] -= 1
        self._take_off(color, sq)
        if turn.captured is None:
            self._occupied &= ~(1 << sq)
            self._color_at[sq] = self._tile_at[sq] = None
        else:
            victim, victim_tile = turn.captured
            self._put_down(victim, sq)
            self._captured[color][victim] -= 1
            self._color_at[sq], self._tile_at[sq] = victim, victim_tile
        return turn

    def redealt(self, bags: Mapping[str, Sequence[int]] | None) -> Game:
        """This position (board, captures, history, turn) in a new game dealt ``bags`` (as
        ``Game`` takes them; None: racks unknown), without playing the moves again: each colour
        has drawn as many tiles as here and holds those it has not placed. Passes stay as
        played (a view of a hidden game keeps one no deal fits, ``analysis.views``).
        SetupError when a bag had not drawn a tile its colour placed."""
        game = Game(self.players, bags)
        game._occupied, game._exhausted, game._turn, game._passes = (
            self._occupied, self._exhausted, self._turn, self._passes)
        game._masks, game._played, game._played_count, game._cuts, game._group_count = (
            dict(self._masks), dict(self._played), dict(self._played_count), dict(self._cuts),
            dict(self._group_count))
        game._tile_at, game._color_at, game._undo = self._tile_at[:], self._color_at[:], self._undo[:]
        game._captured = {c: dict(victims) for c, victims in self._captured.items()}
        game.history = game._drawn_again(self.history)
        return game

    def _drawn_again(self, history: list[Turn]) -> list[Turn]:
        """``history`` with each tile drawn from this game's bags (None without), whose racks
        it sets."""
        bags = self._bags
        if bags is None:
            return [turn if turn.drawn is None else _new_turn(Turn, (*turn[:5], None))
                    for turn in history]
        placed = dict.fromkeys(bags, 0)
        turns = []
        for turn in history:
            if turn.move.tile is not None:
                bag, count = bags[turn.color], placed[turn.color]
                if turn.move.tile not in bag[:RACK_SIZE + count]:
                    raise SetupError(f"{turn.color}'s bag had not drawn {tile_name(turn.move.tile)} "
                                     f"by move {turn.number}")
                placed[turn.color] += 1
                drawn = bag[RACK_SIZE + count] if RACK_SIZE + count < TILES_PER_COLOR else None
                turn = turn if drawn == turn.drawn else _new_turn(Turn, (*turn[:5], drawn))
            turns.append(turn)
        self._drawn = {c: min(TILES_PER_COLOR, RACK_SIZE + n) for c, n in placed.items()}
        self._racks = {c: sorted(t for t in bag[:self._drawn[c]] if not self._played[c] >> t & 1)
                       for c, bag in bags.items()}
        return turns

    def _put_down(self, color: str, sq: int) -> None:
        """Add ``sq`` to ``color``'s squares, updating its cached cut points and group count."""
        before = self._masks[color]
        self._masks[color] = before | 1 << sq
        neighbours = NEIGHBOURS[sq] & before
        if not neighbours:
            if color in self._group_count:
                self._group_count[color] += 1
        elif neighbours & (neighbours - 1) == 0:
            # A new end of a chain: its one neighbour becomes a cut point unless it was alone.
            cuts = self._cuts.get(color)
            if cuts is not None and NEIGHBOURS[neighbours.bit_length() - 1] & before:
                self._cuts[color] = cuts | neighbours
        else:
            # Joining two or more tiles: the groups only stay as they were if those tiles
            # were already joined round ``sq``.
            self._cuts.pop(color, None)
            if not joined_around(sq, before):
                self._group_count.pop(color, None)

    def _take_off(self, color: str, sq: int) -> None:
        """Take ``sq`` out of ``color``'s squares, updating its cached cut points and group count."""
        after = self._masks[color] & ~(1 << sq)
        self._masks[color] = after
        neighbours = NEIGHBOURS[sq] & after
        if not neighbours:
            if color in self._group_count:
                self._group_count[color] -= 1
        elif neighbours & (neighbours - 1) == 0:
            # The end of a chain: only its one neighbour may stop being a cut point.
            cuts = self._cuts.get(color)
            if cuts is not None:
                held = neighbours if is_cut_point(neighbours.bit_length() - 1, after) else 0
                self._cuts[color] = (cuts & ~neighbours) | held
        else:
            # Leaving two or more tiles: the groups only stay as they were for certain if
            # those tiles are still joined round ``sq``.
            self._cuts.pop(color, None)
            if not joined_around(sq, after):
                self._group_count.pop(color, None)
