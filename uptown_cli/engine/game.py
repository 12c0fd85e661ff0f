"""The rules of Uptown: who plays, a game's state, its legal moves, and playing and undoing moves.

A game in one call, a move from its text, and the board as text::

    game = Game.new(["Ana", "Bo"], seed="club-7")
    game.play_text("sax E8", color="green")
    print(game)

The board is kept as one 81-bit mask of occupied squares per colour (see ``geometry``), with
the tile on each square alongside. What each colour has (its mask, its counts, rack and bag,
its captures, its cached cut points) is kept in lists indexed by its slot, its place in
``colors``: the calls name colours, and each looks up the slot once. Groups and cut points of
a colour are worked out from its mask when asked for and cached. A tile put down or taken off
with at most one neighbour of its colour updates the cache in place (only that neighbour's cut
point status can change); any other change drops it, to be worked out again from the whole
mask at once (``count_groups``, ``cut_points``: a few operations on the mask, with a search only
beside an enclosed square).

With known bags (a seeded game) the racks are known and checked; without them (a game
transcribed from a board) everything else is checked.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal, NamedTuple, Optional, TypeGuard

from ..errors import IllegalMove, RacksUnknown, Reason, SetupError
from .bags import seeded_bags
from .geometry import (
    shown_color,
    shown_tile,
    ALL_SQUARES,
    FIT,
    NEIGHBOURS,
    TILES_PER_COLOR,
    WILD,
    joined_around,
    square_name,
    tile_fit_text,
)
from .groups import count_groups, cut_points, is_cut_point
from .move_lists import CAPTURES_UP, tile_moves, tile_windows
from .notation import PASS, Move, Placement, board_diagram, parse_move
from .players import Player as Player  # still given here, where it was defined before engine.players
from ..i18n import _ as gettext, names_list, ngettext

__all__ = [
    "Color", "COLORS", "Variant", "VARIANTS", "PLAYER_COUNTS", "RACK_SIZE", "TILES_PLAYED_PER_COLOR",
    "Turn", "Game", "dealt_colors", "seat_colors", "name_key", "same_name",
]

Color = Literal["red", "blue", "green", "yellow", "orange"]
"""A colour's name."""
COLORS: tuple[Color, ...] = ("red", "blue", "green", "yellow", "orange")
"""The five colours, in the order they are dealt round the table."""
Variant = Literal["standard", "blockers"]
"""A way of scoring: ``standard`` (Uptown) or ``blockers`` (Blockers!), see ``scoring``."""
VARIANTS: tuple[Variant, ...] = ("standard", "blockers")
"""The variants."""
PLAYER_COUNTS = range(2, 6)
"""How many players a game seats: 2 to 5."""
RACK_SIZE = 5
"""How many tiles a rack starts with."""
TILES_PLAYED_PER_COLOR = TILES_PER_COLOR - 4
"""Every colour plays exactly 24 tiles: it stops when its bag is empty and its rack is down to 4."""

_new_turn = tuple.__new__
"""Makes a ``Turn`` from all its fields as one tuple, without the named tuple's own
``__new__`` (a Python function, for the defaults): ``play`` makes one every move."""
_COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}
_EMPTY: Final = -1
"""``Game._color_at`` on an empty square."""
_UNKNOWN: Final = -1
"""A colour's cut points or group count not worked out since its tiles last changed."""


def _is_variant(name: str) -> TypeGuard[Variant]:
    """Whether ``name`` is a variant's."""
    return name in VARIANTS


def dealt_colors(named: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Each seat's colours: those it names, or for the seats that name none the colours nobody
    named, dealt round the table one at a time in the order red, blue, green, yellow, orange
    (twice round with 2 players, who play two colours each), while they last."""
    taken = {color for colors in named for color in colors}
    free = [color for color in COLORS if color not in taken]
    dealt = [list(colors) for colors in named]
    waiting = [seat for seat, colors in enumerate(named) if not colors]
    for _ in range(2 if len(named) == 2 else 1):
        for seat in waiting:
            if free:
                dealt[seat].append(free.pop(0))
    return [tuple(colors) for colors in dealt]


def seat_colors(players: int) -> list[tuple[str, ...]]:
    """The colours of each of ``players`` seats when nobody names theirs: ``[("red",
    "green"), ("blue", "yellow")]`` with 2, else one each."""
    return dealt_colors([()] * players)


def name_key(name: str) -> str:
    """What two spellings of one player's name share: the name without blanks round it, in
    Unicode's composed form (NFC), case folded. ``" Ana"``, ``"ana"`` and ``"ANA "`` are one
    player; so are the composed and decomposed spellings of ``"Gréedy"``."""
    if name.isascii():  # NFC leaves ASCII as it is, and folds its case as lower() does
        return name.strip().lower()
    import unicodedata  # its tables are loaded only for a name that needs them

    folded = unicodedata.normalize("NFC", name.strip()).casefold()
    return unicodedata.normalize("NFC", folded)


def same_name(first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` name the same player (see ``name_key``)."""
    return name_key(first) == name_key(second)


class Turn(NamedTuple):
    """A move as it was played: its number (from 1), who, with which colour, the move (as it
    was on the board: a capture marked), what it captured (``(colour, tile)``), the tile
    drawn after it (None when none was, or the racks are unknown), and its kind (a ``move``, a
    ``forfeit``, a ``stand-in`` pass), so that ``Game.redo`` plays it again as it was."""

    number: int
    player: Player
    color: str
    move: Move
    captured: Optional[tuple[str, int]] = None
    drawn: Optional[int] = None
    kind: Literal["move", "forfeit", "stand-in"] = "move"


class Game:
    """A game in progress: players in turn order, the board, and racks and bags when known.

    ``Game.new(names, seed=...)`` starts one as the rules deal it; ``Game(players, bags)``
    takes the players' colours and the bags as given (each colour's 28 tiles in the order
    they are drawn, the first five its rack; None when they are unknown). SetupError for a
    game that cannot be set up so.
    """

    def __init__(self, players: Iterable[Player | tuple[str, Iterable[str]]],
                 bags: Mapping[str, Sequence[int]] | None = None, *,
                 variant: str = "standard") -> None:
        seated = [p if isinstance(p, Player) else Player(*p) for p in players]
        if len(seated) not in PLAYER_COUNTS:
            raise SetupError(gettext("a game has 2 to 5 players"))
        if not _is_variant(variant):
            raise SetupError(gettext("unknown variant {variant!r} (standard or blockers)").format(variant=variant))
        per_player = 2 if len(seated) == 2 else 1
        seen: set[str] = set()
        for p in seated:
            if len(p.colors) != per_player:
                raise SetupError(
                    ngettext("{name} needs {count} colour", "{name} needs {count} colours", per_player)
                    .format(name=p.name, count=per_player)
                )
            for c in p.colors:
                if c not in _COLOR_INDEX or c in seen:
                    raise SetupError(gettext("colour {c!r} is unknown or taken twice").format(c=c))
                seen.add(c)
        self.players = seated
        """The players, in turn order."""
        self.variant: Variant = variant
        """How the game is scored (``scoring.standings``)."""
        self.seed: str | None = None
        """The seed the bags were dealt from (``Game.new``), or None."""
        # What each colour has is kept in lists indexed by its slot: its place in ``colors``.
        self._colors = tuple(c for p in seated for c in p.colors)
        self._slot = {c: slot for slot, c in enumerate(self._colors)}
        self._seat = [seat for seat, p in enumerate(seated) for _ in p.colors]  # each slot's
        self._seat_slots = [[(self._slot[c], tile_windows(c)) for c in p.colors] for p in seated]
        self._following = [*range(1, len(seated)), 0]  # the seat after each
        self._opponents = [tuple(slot for slot, at in enumerate(self._seat) if at != seat)
                           for seat in range(len(seated))]
        colors = len(self._colors)
        self._occupied = 0
        self._exhausted = 0  # colours that have played all their tiles
        self._masks = [0] * colors
        self._tile_at = [0] * 81  # read only where _color_at holds a slot
        self._color_at = [_EMPTY] * 81  # the slot of the colour on each square
        self._played = [0] * colors
        self._played_count = [0] * colors
        self._captured = [[0] * colors for _ in range(colors)]  # [capturer][victim]
        self._bags: list[list[int]] = []  # none while the racks are unknown
        self._racks: list[list[int]] | None = None
        self._drawn: list[int] = []
        if bags is not None:
            self._bags = [list(bags[c]) for c in self._colors]
            for c, order in zip(self._colors, self._bags):
                if sorted(order) != list(range(TILES_PER_COLOR)):
                    raise SetupError(gettext("the bag of {c} must hold each of the 28 tiles once").format(c=c))
            self._racks = [sorted(order[:RACK_SIZE]) for order in self._bags]  # kept sorted
            self._drawn = [RACK_SIZE] * colors
        self._turn = 0
        self._passes = 0
        self._over = False
        self.history: list[Turn] = []
        """Every move played, in order (a forfeit is there as its player's pass)."""
        self.forfeited: list[tuple[str, int]] = []
        """Who forfeited (``forfeit``), in order, and at which move: their turns are skipped."""
        self._undo: list[tuple[int, int]] = []
        self._cuts = [_UNKNOWN] * colors  # cut points and group counts, cached
        self._group_count = [_UNKNOWN] * colors

    @classmethod
    def new(cls, players: Iterable[str | Player], seed: str | None = None,
            variant: str = "standard") -> Game:
        """A new game of ``players`` (names, in turn order; a ``Player`` keeps the colours it
        names), their colours dealt as the rules deal them (``dealt_colors``), each colour's
        bag shuffled by ``seed`` (``bags.bag_order``: the same seed gives the same game
        everywhere); without a seed the racks are unknown, as in a game copied from a board."""
        named = [(p, ()) if isinstance(p, str) else p for p in players]
        colors = dealt_colors([c for _, c in named])
        seated = [Player(name, c) for (name, _), c in zip(named, colors)]
        bags = None if seed is None else seeded_bags(seed, [c for p in seated for c in p.colors])
        game = cls(seated, bags, variant=variant)
        game.seed = seed
        return game

    def __repr__(self) -> str:
        dealt = [p.colors for p in self.players] == seat_colors(len(self.players))
        seats = repr([p.name for p in self.players] if dealt else self.players)
        moves = f" after {self.ply} move{'' if self.ply == 1 else 's'}" if self.ply else ""
        variant = "" if self.variant == "standard" else f", variant={self.variant!r}"
        if self.seed is None and self._racks is not None:
            return f"<Game of {seats} with bags of its own{variant}{moves}>"
        seed = "" if self.seed is None else f", seed={self.seed!r}"
        return f"Game.new({seats}{seed}{variant}){moves}"

    def __str__(self) -> str:
        return board_diagram(self.board)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled, and copied by ``copy``, as a game of the same players and variant with this
        game's state set on it: the compiled engine's ``Game`` (docs/PERFORMANCE.md, "A faster
        engine") cannot be made again without the arguments of its ``__init__``."""
        return _restored, (self.players, self.variant, {name: getattr(self, name) for name in _STATE})

    def copy(self) -> Game:
        """A game of its own in this game's position (its moves, racks and bags)."""
        game = Game(self.players, variant=self.variant)
        game._take_position(self)
        game.seed, game.history = self.seed, self.history[:]
        game._bags, game._drawn = self._bags, self._drawn[:]  # bags are never changed
        game._racks = None if self._racks is None else [r[:] for r in self._racks]
        return game

    # -- what the position is ------------------------------------------------------------

    @property
    def colors(self) -> tuple[str, ...]:
        """The colours in the game, in seat order."""
        return self._colors

    @property
    def ply(self) -> int:
        """How many moves (passes included) have been played."""
        return len(self.history)

    @property
    def last(self) -> Turn | None:
        """The last move played, or None before the first."""
        return self.history[-1] if self.history else None

    @property
    def passes(self) -> int:
        """How many passes were played in a row just now (a whole round of them ends the game)."""
        return self._passes

    @property
    def finished(self) -> bool:
        """Whether the game is over: every colour has played its 24 tiles, or every player
        has passed in a row; after a forfeit, among the players still in play, or fewer than
        two of them are left."""
        return self._over

    def _settle(self) -> None:
        """Work out ``finished`` again, after a pass, a forfeit, a colour's last tile or a move
        taken back: nothing else can end the game."""
        if self.forfeited:
            out = {name for name, _ in self.forfeited}
            playing = [p for p in self.players if p.name not in out]
            self._over = len(playing) < 2 or self._passes >= len(playing) or all(
                self._played_count[self._slot[c]] >= TILES_PLAYED_PER_COLOR for p in playing for c in p.colors)
        else:
            self._over = self._passes >= len(self.players) or self._exhausted == len(self._colors)

    @property
    def to_move(self) -> Player | None:
        """The player whose turn it is, or None once the game is over."""
        return None if self.finished else self.players[self._turn]

    @property
    def knows_racks(self) -> bool:
        """Whether the racks are known (the game has bags)."""
        return self._racks is not None

    @property
    def racks(self) -> dict[str, list[int]] | None:
        """Each colour's rack (tiles sorted), or None when the bags are unknown."""
        if self._racks is None:
            return None
        return {c: list(r) for c, r in zip(self._colors, self._racks)}

    @property
    def bag_sizes(self) -> dict[str, int] | None:
        """How many tiles are left in each colour's bag, or None when unknown."""
        if self._racks is None:
            return None
        return {c: TILES_PER_COLOR - drawn for c, drawn in zip(self._colors, self._drawn)}

    @property
    def board(self) -> dict[int, tuple[str, int]]:
        """``{square: (colour, tile)}`` for every occupied square."""
        colors = self._colors
        return {sq: (colors[slot], self._tile_at[sq]) for sq, slot in enumerate(self._color_at)
                if slot != _EMPTY}

    def at(self, sq: int) -> tuple[str, int] | None:
        """``(colour, tile)`` on ``sq``, or None."""
        slot = self._color_at[sq]
        return None if slot == _EMPTY else (self._colors[slot], self._tile_at[sq])

    def mask(self, color: str) -> int:
        """The squares holding ``color``'s tiles."""
        return self._masks[self._slot[color]]

    def owner(self, color: str) -> Player:
        """The player who plays ``color``."""
        return self.players[self._seat[self._slot[color]]]

    def played_count(self, color: str) -> int:
        """How many tiles ``color`` has played."""
        return self._played_count[self._slot[color]]

    def unplayed_tiles(self, color: str) -> list[int]:
        """``color``'s tiles not yet placed (on its rack or in its bag), sorted."""
        played = self._played[self._slot[color]]
        return [t for t in range(TILES_PER_COLOR) if not played >> t & 1]

    def playable(self, color: str) -> bool:
        """Whether ``color`` still has tiles to play."""
        return self._played_count[self._slot[color]] < TILES_PLAYED_PER_COLOR

    def groups(self, color: str) -> int:
        """How many groups ``color``'s tiles form."""
        slot = self._slot[color]
        count = self._group_count[slot]
        if count == _UNKNOWN:
            count = self._group_count[slot] = count_groups(self._masks[slot])
        return count

    def player_groups(self, player: Player) -> int:
        """How many groups ``player``'s colours form, added up."""
        return sum(self.groups(c) for c in player.colors)

    def cut_points(self, color: str) -> int:
        """The squares of ``color`` that may not be captured (taking one would split a group)."""
        return self._cut_points(self._slot[color])

    def _cut_points(self, slot: int) -> int:
        """``cut_points`` of the colour in ``slot``."""
        cuts = self._cuts[slot]
        if cuts == _UNKNOWN:
            cuts = self._cuts[slot] = cut_points(self._masks[slot])
        return cuts

    def captured(self, capturer: str, victim: str) -> int:
        """How many of ``victim``'s tiles colour ``capturer`` has captured."""
        return self._captured[self._slot[capturer]][self._slot[victim]]

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[tuple[str, Move]]:
        """Every legal ``(colour, move)`` of the player to move; ``[(first colour, PASS)]``
        when there is none; ``[]`` once the game is over. Needs known racks."""
        if self._racks is None:
            raise RacksUnknown()
        if self._over:
            return []
        targets, capturable = self._targets()
        squares = targets | capturable << CAPTURES_UP
        moves: list[tuple[str, Move]] = []
        for slot, windows in self._seat_slots[self._turn]:
            if self._played_count[slot] >= TILES_PLAYED_PER_COLOR:
                continue
            for tile in self._racks[slot]:
                if tile == WILD:
                    for shift, keep, pickers, pairs in windows[WILD:]:
                        moves.extend(pickers[squares >> shift & keep](pairs))
                else:
                    shift, keep, pickers, pairs = windows[tile]
                    moves.extend(pickers[squares >> shift & keep](pairs))
        return moves or [(self.players[self._turn].colors[0], PASS)]

    def has_legal_placement(self) -> bool:
        """Whether the player to move can place a tile; RacksUnknown without known racks."""
        if self._racks is None:
            raise RacksUnknown()
        targets, _ = self._targets()
        return any(
            FIT[tile] & targets
            for slot, _ in self._seat_slots[self._turn]
            if self._played_count[slot] < TILES_PLAYED_PER_COLOR
            for tile in self._racks[slot]
        )

    def _targets(self) -> tuple[int, int]:
        """Squares a tile of the player to move could go on (empty, or holding a capturable
        opponent tile), and the capturable ones among them."""
        occupied, masks, known_cuts = self._occupied, self._masks, self._cuts
        capturable = 0
        for slot in self._opponents[self._turn]:
            cuts = known_cuts[slot]
            if cuts == _UNKNOWN:
                cuts = self._cut_points(slot)
            capturable |= masks[slot] & ~cuts
        return (ALL_SQUARES ^ occupied) | capturable, capturable

    def _color_for(self, move: Move, player: Player) -> str:
        """The colour a move without a named colour is played with, or an IllegalMove."""
        if move.is_pass or len(player.colors) == 1:
            return player.colors[0]
        tile = move.tile
        holders = [
            c
            for c in player.colors
            if self.playable(c)
            and (
                tile in self._racks[self._slot[c]]
                if self._racks is not None
                else not self._played[self._slot[c]] >> tile & 1
            )
        ]
        if len(holders) > 1:
            raise IllegalMove(Reason.AMBIGUOUS_COLOR, gettext(
                "both {holders} could play {tile}: say which colour").format(
                holders=names_list(map(shown_color, holders)), tile=shown_tile(tile)))
        return holders[0] if holders else player.colors[0]

    def check(self, move: Move, color: str | None = None) -> str:
        """Raise IllegalMove when ``move`` (by ``color``, or the colour it must be) is illegal;
        return the colour it is played with otherwise (a pass counts as the player's first
        colour's, whichever colour names it). Never changes the game."""
        if self._over:
            raise IllegalMove(Reason.GAME_OVER, gettext("the game is over"))
        player = self.players[self._turn]
        if color is None:
            color = self._color_for(move, player)
        slot = self._slot.get(color)
        if slot is None:
            raise IllegalMove(Reason.UNKNOWN_COLOR, gettext("{color} does not play in this game").format(color=shown_color(color)))
        if self._seat[slot] != self._turn:
            raise IllegalMove(Reason.WRONG_TURN, gettext(
                "it is {name}'s turn ({colors}), not {color}'s").format(
                name=player.name, colors=", ".join(map(shown_color, player.colors)),
                color=shown_color(color)))
        if move.is_pass:
            if self._racks is not None and self.has_legal_placement():
                example_color, example = self.legal_moves()[0]
                raise IllegalMove(Reason.NOT_FORCED, gettext(
                    "{name} may not pass: {example_color} {example} is legal").format(
                    name=player.name, example_color=shown_color(example_color), example=example))
            return player.colors[0]
        tile, sq = move.tile, move.square
        if self._played_count[slot] >= TILES_PLAYED_PER_COLOR:
            raise IllegalMove(Reason.EXHAUSTED, gettext("{color} has played all its {count} tiles")
                                                .format(color=shown_color(color), count=TILES_PLAYED_PER_COLOR))
        if self._played[slot] >> tile & 1:
            raise IllegalMove(Reason.REUSED, gettext("{color}'s {tile} has already been played")
                                             .format(color=shown_color(color), tile=shown_tile(tile)))
        if self._racks is not None and tile not in self._racks[slot]:
            rack = " ".join(shown_tile(t) for t in self._racks[slot])
            raise IllegalMove(Reason.NOT_ON_RACK, gettext("{color} has no {tile} on its rack ({rack})")
                                                  .format(color=shown_color(color), tile=shown_tile(tile), rack=rack))
        if not FIT[tile] >> sq & 1:
            raise IllegalMove(Reason.WRONG_SQUARE, gettext(
                "{color} plays {name} on {sq}, but {name} goes in {tile}").format(
                color=shown_color(color), name=shown_tile(tile), sq=square_name(sq), tile=tile_fit_text(tile)))
        victim = self._color_at[sq]
        if victim != _EMPTY:
            if self._seat[victim] == self._turn:
                raise IllegalMove(Reason.OWN_TILE, gettext(
                    "{color} plays {tile} on {sq}, which holds {name}'s own {victim} {tile_at}"
                ).format(color=shown_color(color), tile=shown_tile(tile), sq=square_name(sq),
                         name=player.name, victim=shown_color(self._colors[victim]),
                         tile_at=shown_tile(self._tile_at[sq])))
            # Testing the one square is cheaper than finding all the victim's cut points.
            cuts = self._cuts[victim]
            splits = is_cut_point(sq, self._masks[victim]) if cuts == _UNKNOWN else cuts >> sq & 1
            if splits:
                raise IllegalMove(Reason.SPLIT, gettext(
                    "{color} may not capture {victim}'s {tile_at} on {sq}: it would split "
                    "{victim}'s group").format(color=shown_color(color),
                                               victim=shown_color(self._colors[victim]),
                                               tile_at=shown_tile(self._tile_at[sq]),
                                               sq=square_name(sq)))
        return color

    def is_legal(self, move: Move, color: str | None = None) -> bool:
        """Whether ``move`` (by ``color``, or the colour it must be) may be played now; ``check``
        says why not."""
        try:
            self.check(move, color)
        except IllegalMove:
            return False
        return True

    def canonical(self, move: Move) -> str:
        """``move`` in canonical notation on this board (the ``x`` set by whether it captures)."""
        if move.is_pass:
            return str(PASS)
        return str(tile_moves(move.tile)[move.square][self._color_at[move.square] != _EMPTY])

    def play(self, move: Move, color: str | None = None, stand_in: bool = False) -> Turn:
        """Play ``move`` for the player to move (``color`` picks the rack; it may be left out
        when only one of the player's colours could play the tile). Returns the Turn; an
        IllegalMove, the game unchanged, when the move is illegal. ``stand_in``: a pass written
        for a player out of time by another, allowed with tiles that could be placed."""
        if stand_in and move.is_pass and not self.finished:
            color = self.players[self._turn].colors[0]
        else:
            color = self.check(move, color)
        seat = self._turn
        player = self.players[seat]
        undo = (seat, self._passes)
        if move.is_pass:
            turn = Turn(len(self.history) + 1, player, color, PASS,
                        kind="stand-in" if stand_in else "move")
            self._passes += 1
            self._settle()
        else:
            tile, sq = move.tile, move.square
            slot = self._slot[color]
            victim = self._color_at[sq]
            captured: tuple[str, int] | None = None
            if victim != _EMPTY:
                captured = (self._colors[victim], self._tile_at[sq])
                self._take_off(victim, sq)
                self._captured[slot][victim] += 1
            self._put_down(slot, sq)
            self._occupied |= 1 << sq
            self._color_at[sq] = slot
            self._tile_at[sq] = tile
            self._played[slot] |= 1 << tile
            count = self._played_count[slot] = self._played_count[slot] + 1
            self._passes = 0
            if count == TILES_PLAYED_PER_COLOR:
                self._exhausted += 1
                self._settle()
            drawn = None
            if self._racks is not None:
                rack = self._racks[slot]
                rack.remove(tile)
                drawn_count = self._drawn[slot]
                if drawn_count < TILES_PER_COLOR:
                    drawn = self._bags[slot][drawn_count]
                    self._drawn[slot] = drawn_count + 1
                    insort(rack, drawn)
            if move.capture != (victim != _EMPTY):
                move = tile_moves(tile)[sq][victim != _EMPTY]
            turn = _new_turn(Turn, (len(self.history) + 1, player, color, move, captured, drawn, "move"))
        self.history.append(turn)
        self._undo.append(undo)
        self._turn = self._following[seat] if not self.forfeited else self._next(seat)
        return turn

    def forfeit(self) -> Turn:
        """The player to move forfeits (resigns, or is made to once out of time): their tiles
        stay, their turns are skipped from now on, and they rank last (``scoring.standings``).
        Returns the Turn, in the history as their pass; IllegalMove once the game is over."""
        if self.finished:
            raise IllegalMove(Reason.GAME_OVER, gettext("the game is over"))
        seat = self._turn
        player = self.players[seat]
        turn = Turn(len(self.history) + 1, player, player.colors[0], PASS, kind="forfeit")
        self._undo.append((seat, self._passes))
        self.history.append(turn)
        self.forfeited.append((player.name, turn.number))
        self._passes = 0
        self._settle()
        self._turn = self._next(seat)
        return turn

    def _next(self, seat: int) -> int:
        """The seat after ``seat`` whose player has not forfeited."""
        out = {name for name, _ in self.forfeited}
        following = (seat + 1) % len(self.players)
        while self.players[following].name in out and following != seat:
            following = (following + 1) % len(self.players)
        return following

    def redo(self, turn: Turn) -> Turn:
        """Play ``turn`` (one ``rewind`` took back) again as it was played."""
        return (self.forfeit() if turn.kind == "forfeit"
                else self.play(turn.move, turn.color, stand_in=turn.kind == "stand-in"))

    def play_text(self, text: str, color: str | None = None) -> Turn:
        """Play the move written as ``text`` (``sax E8``, ``4 xB4``, ``pass``: ``parse_move``),
        as ``play`` plays it."""
        return self.play(parse_move(text), color)

    def pop(self) -> Turn:
        """Take back the last move (or forfeit); returns its Turn."""
        if self.forfeited and self.forfeited[-1][1] == len(self.history):
            self.forfeited.pop()
        turn = self.history.pop()
        self._turn, self._passes = self._undo.pop()
        move = turn.move
        if not move.is_pass:
            self._take_back(turn, move)
        self._settle()
        return turn

    def _take_back(self, turn: Turn, move: Placement) -> None:
        """Undo on the board, the racks and the counts the placement ``move`` of ``turn``."""
        slot, tile, sq = self._slot[turn.color], move.tile, move.square
        if self._racks is not None:
            rack = self._racks[slot]
            if turn.drawn is not None:
                rack.remove(turn.drawn)
                self._drawn[slot] -= 1
            insort(rack, tile)
        self._played[slot] &= ~(1 << tile)
        if self._played_count[slot] == TILES_PLAYED_PER_COLOR:
            self._exhausted -= 1
        self._played_count[slot] -= 1
        self._take_off(slot, sq)
        if turn.captured is None:
            self._occupied &= ~(1 << sq)
            self._color_at[sq] = _EMPTY
        else:
            victim_color, victim_tile = turn.captured
            victim = self._slot[victim_color]
            self._put_down(victim, sq)
            self._captured[slot][victim] -= 1
            self._color_at[sq], self._tile_at[sq] = victim, victim_tile

    def rewind(self, ply: int = 0) -> list[Turn]:
        """Take the moves back to move ``ply`` (the start by default); returns the Turns taken
        back, in the order they were played (``redo`` plays each again)."""
        turns = []
        while len(self.history) > ply:
            turns.append(self.pop())
        turns.reverse()
        return turns

    def redealt(self, bags: Mapping[str, Sequence[int]] | None) -> Game:
        """This position (board, captures, history, turn) in a new game dealt ``bags`` (as
        ``Game`` takes them; None: racks unknown), without playing the moves again: each colour
        has drawn as many tiles as here and holds those it has not placed. Passes stay as
        played (a view of a hidden game keeps one no deal fits, ``analysis.deals``).
        SetupError when a bag had not drawn a tile its colour placed."""
        game = Game(self.players, bags, variant=self.variant)
        game._take_position(self)
        game.history = game._drawn_again(self.history)
        return game

    def _take_position(self, other: Game) -> None:
        """Set this game's board, captures, turn and undo list to copies of ``other``'s (a game
        of the same players): all but its history, racks and bags."""
        self._occupied, self._exhausted, self._turn, self._passes, self._over = (
            other._occupied, other._exhausted, other._turn, other._passes, other._over)
        self._masks, self._played, self._played_count, self._cuts, self._group_count = (
            other._masks[:], other._played[:], other._played_count[:], other._cuts[:],
            other._group_count[:])
        self._tile_at, self._color_at, self._undo = other._tile_at[:], other._color_at[:], other._undo[:]
        self._captured = [victims[:] for victims in other._captured]
        self.forfeited = other.forfeited[:]

    def _drawn_again(self, history: list[Turn]) -> list[Turn]:
        """``history`` with each tile drawn from this game's bags (None without), whose racks
        it sets."""
        bags = self._bags
        if self._racks is None:
            return [turn if turn.drawn is None else turn._replace(drawn=None)
                    for turn in history]
        placed = [0] * len(bags)
        turns = []
        for turn in history:
            move = turn.move
            if not move.is_pass:
                slot = self._slot[turn.color]
                bag, count = bags[slot], placed[slot]
                if move.tile not in bag[:RACK_SIZE + count]:
                    raise SetupError(gettext("{color}'s bag had not drawn {tile} by move {number}")
                                     .format(color=turn.color, tile=shown_tile(move.tile), number=turn.number))
                placed[slot] += 1
                drawn = bag[RACK_SIZE + count] if RACK_SIZE + count < TILES_PER_COLOR else None
                turn = turn if drawn == turn.drawn else turn._replace(drawn=drawn)
            turns.append(turn)
        self._drawn = [min(TILES_PER_COLOR, RACK_SIZE + n) for n in placed]
        self._racks = [sorted(t for t in bag[:drawn] if not played >> t & 1)
                       for bag, drawn, played in zip(bags, self._drawn, self._played)]
        return turns

    def _put_down(self, slot: int, sq: int) -> None:
        """Add ``sq`` to the squares of the colour in ``slot``, updating its cached cut points
        and group count."""
        before = self._masks[slot]
        self._masks[slot] = before | 1 << sq
        neighbours = NEIGHBOURS[sq] & before
        if not neighbours:
            if self._group_count[slot] != _UNKNOWN:
                self._group_count[slot] += 1
        elif neighbours & (neighbours - 1) == 0:
            # A new end of a chain: its one neighbour becomes a cut point unless it was alone.
            cuts = self._cuts[slot]
            if cuts != _UNKNOWN and NEIGHBOURS[neighbours.bit_length() - 1] & before:
                self._cuts[slot] = cuts | neighbours
        else:
            # Joining two or more tiles: the groups only stay as they were if those tiles
            # were already joined round ``sq``.
            self._cuts[slot] = _UNKNOWN
            if not joined_around(sq, before):
                self._group_count[slot] = _UNKNOWN

    def _take_off(self, slot: int, sq: int) -> None:
        """Take ``sq`` out of the squares of the colour in ``slot``, updating its cached cut
        points and group count."""
        after = self._masks[slot] & ~(1 << sq)
        self._masks[slot] = after
        neighbours = NEIGHBOURS[sq] & after
        if not neighbours:
            if self._group_count[slot] != _UNKNOWN:
                self._group_count[slot] -= 1
        elif neighbours & (neighbours - 1) == 0:
            # The end of a chain: only its one neighbour may stop being a cut point.
            cuts = self._cuts[slot]
            if cuts != _UNKNOWN:
                held = neighbours if is_cut_point(neighbours.bit_length() - 1, after) else 0
                self._cuts[slot] = (cuts & ~neighbours) | held
        else:
            # Leaving two or more tiles: the groups only stay as they were for certain if
            # those tiles are still joined round ``sq``.
            self._cuts[slot] = _UNKNOWN
            if not joined_around(sq, after):
                self._group_count[slot] = _UNKNOWN


_STATE = ("seed", "_occupied", "_exhausted", "_masks", "_tile_at", "_color_at", "_played",
          "_played_count", "_captured", "_bags", "_racks", "_drawn", "_turn", "_passes", "_over",
          "history", "forfeited", "_undo", "_cuts", "_group_count")
"""What ``Game.__reduce__`` carries besides the players and the variant: every attribute
``Game.__init__`` sets that does not follow from them."""


def _restored(players: list[Player], variant: str, state: dict[str, Any]) -> Game:
    """The game ``Game.__reduce__`` describes."""
    game = Game(players, variant=variant)
    for name, value in state.items():
        setattr(game, name, value)
    return game
