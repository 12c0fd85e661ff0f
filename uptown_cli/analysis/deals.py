"""What a player cannot see, sampled: bags and racks that fit everything the player knows."""

import random
from collections.abc import Callable, Mapping

from ..engine.game import RACK_SIZE, Game, Turn
from ..engine.players import Player
from ..engine.geometry import TILES_PER_COLOR
from ..errors import SetupError
from ..i18n import _ as gettext
from ..engine.passes import stuck_tiles

__all__ = ["sample_bags", "imagined_game"]

_SAMPLE_ATTEMPTS = 1000
_UNFIT_LIMIT = 64
_unfit: set[tuple[tuple[int, ...], tuple[tuple[int, frozenset[int]], ...]]] = set()
"""The (tiles played, pass limits) of colours for which ``_sample_bag`` found no bag (a bot
samples the same position many times; each failure costs up to a second), at most
``_UNFIT_LIMIT`` of them."""


def sample_bags(game: Game, rng: random.Random) -> dict[str, list[int]]:
    """Every colour's bag order as the player to move in ``game`` may imagine it: its own
    racks and past draws as they are, every opponent's rack and every bag's undrawn order drawn
    at random from the tiles that player has not seen (``{colour: 28 tiles}``, as ``Game``
    takes them). An opponent's passes that no bag fits (in a view of a hidden game where one
    was not forced) are set aside: that colour's bag fits its moves only."""
    me, racks = game.to_move, game.racks
    assert me is not None and racks is not None  # a game under way, its racks known
    played = _played(game)
    own_draws: dict[str, list[int]] = {color: [] for color in me.colors}
    for turn in game.history:
        if turn.color in own_draws and turn.drawn is not None:
            own_draws[turn.color].append(turn.drawn)

    def own_bag(color: str) -> list[int]:
        return _own_bag(played[color], own_draws[color], racks[color], rng)

    return _bags(game, me, own_bag, played, rng)[0]


def _bags(game: Game, me: Player, own_bag: Callable[[str], list[int]],
          played: dict[str, list[int]],
          rng: random.Random) -> tuple[dict[str, list[int]], list[str]]:
    """``(bags, set_aside)``: every colour's bag, ``own_bag(colour)`` for ``me``'s colours,
    bags drawn at random to fit the moves and passes for the others (made in colour order, so
    that a seed always gives the same bags). ``set_aside`` lists the colours whose passes no
    bag fits (one of them was not forced): their bags fit the moves only."""
    passes = _pass_limits(game, me)
    bags = {}
    set_aside = []
    for color in game.colors:
        if color in me.colors:
            bags[color] = own_bag(color)
            continue
        limits = passes.get(color, {})
        known = (tuple(played[color]), tuple(sorted(limits.items())))
        if known not in _unfit:
            try:
                bags[color] = _sample_bag(played[color], limits, rng)
                continue
            except SetupError:
                if len(_unfit) >= _UNFIT_LIMIT:
                    _unfit.clear()
                _unfit.add(known)
        bags[color] = _sample_bag(played[color], {}, rng)
        set_aside.append(color)
    return bags, set_aside


def imagined_game(game: Game, me: Player, own_bags: Mapping[str, list[int]],
                  rng: random.Random) -> tuple[Game, list[Turn]]:
    """``(view, set_aside)``: ``game`` (whose racks may be unknown) re-dealt (``Game.redealt``,
    without playing its moves again) so that player ``me``'s colours have the bags
    ``own_bags`` (each its 28 tiles, in the order drawn) and every other colour a bag drawn at
    random to fit its moves and passes. ``set_aside`` lists the passes (``Turn``) no bag fits,
    so one of them was not forced: every pass of an opponent colour whose bag had to be drawn
    without them (the view keeps them as played)."""
    bags, colors = _bags(game, me, own_bags.__getitem__, _played(game), rng)
    return game.redealt(bags), _set_aside_passes(game, me, colors)


def _played(game: Game) -> dict[str, list[int]]:
    """``{colour: the tiles it played, in order}``."""
    played: dict[str, list[int]] = {color: [] for color in game.colors}
    for turn in game.history:
        if not turn.move.is_pass:
            played[turn.color].append(turn.move.tile)
    return played


def _own_bag(played: list[int], draws: list[int], rack: list[int],
             rng: random.Random) -> list[int]:
    """The player's own bag: what it has drawn, in order, then the rest shuffled."""
    seen = sorted((set(played) | set(rack)) - set(draws)) + draws
    rest = [tile for tile in range(TILES_PER_COLOR) if tile not in seen]
    rng.shuffle(rest)
    return seen + rest


def _sample_bag(played: list[int], limits: dict[int, frozenset[int]],
                rng: random.Random) -> list[int]:
    """A random bag under which an opponent colour could have played ``played`` in turn and,
    after ``j`` plays, had a rack within ``limits[j]`` (the tiles that could not be placed
    when its player had to pass).

    The bag is drawn tile by tile: a tile about to be played that is not on the rack yet is
    the next draw; every other draw is a random unseen tile that fits the limits for as long
    as it stays on the rack. Passes are rare; when a draw finds no such tile, start again.
    """
    leaves = {tile: step for step, tile in enumerate(played)}

    def allowed(tile: int, step: int) -> bool:
        last = leaves.get(tile, len(played))
        return all(tile in tiles for j, tiles in limits.items() if step <= j <= last)

    for _attempt in range(_SAMPLE_ATTEMPTS):
        bag = _draw_bag(played, allowed if limits else None, rng)
        if bag is not None:
            return bag
    raise SetupError(gettext("no bag fits the moves and passes of this game"))


def _draw_bag(played: list[int], allowed: Callable[[int, int], bool] | None,
              rng: random.Random) -> list[int] | None:
    """One try of ``_sample_bag``: a bag, or None when a draw found no allowed tile
    (``allowed`` None: every tile is)."""
    drawn: list[int] = []
    taken = 0  # the tiles of ``drawn``, as bits
    for step in range(len(played) + 1):
        quota = min(TILES_PER_COLOR, RACK_SIZE + step)
        if step < len(played) and not taken >> played[step] & 1:
            drawn.append(played[step])
            taken |= 1 << played[step]
        while len(drawn) < quota:
            choices = [t for t in range(TILES_PER_COLOR)
                       if not taken >> t & 1 and (allowed is None or allowed(t, step))]
            if not choices:
                return None
            tile = rng.choice(choices)
            drawn.append(tile)
            taken |= 1 << tile
    rest = [tile for tile in range(TILES_PER_COLOR) if not taken >> tile & 1]
    rng.shuffle(rest)
    return drawn + rest


def _own_pass(turn: Turn, me: Player) -> bool:
    """Whether ``turn`` is a pass an opponent of ``me`` made themselves: a pass written for a
    late player by another (a stand-in) and a forfeit (whoever wrote it) say nothing of their
    rack."""
    return turn.move.is_pass and turn.player != me and turn.kind == "move"


def _pass_limits(game: Game, me: Player) -> dict[str, dict[int, frozenset[int]]]:
    """``{colour: {plays so far: tiles that fit no square}}`` for the colours of every
    opponent at each of their own forced passes: their racks then held only such tiles."""
    first = next((ply for ply, turn in enumerate(game.history) if _own_pass(turn, me)), None)
    if first is None:
        return {}
    board = game.redealt(None)  # taken back to each pass, from the last
    limits: dict[str, dict[int, frozenset[int]]] = {}
    while board.ply > first:
        turn = board.pop()
        if _own_pass(turn, me):
            for color, (_, stuck) in stuck_tiles(board, turn.player).items():
                steps = limits.setdefault(color, {})
                step = board.played_count(color)
                steps[step] = steps.get(step, stuck) & stuck
    return limits


def _set_aside_passes(game: Game, me: Player, colors: list[str]) -> list[Turn]:
    """The passes of ``game`` the players (other than ``me``) of ``colors`` made themselves."""
    return [turn for turn in game.history if _own_pass(turn, me)
            and any(color in colors for color in turn.player.colors)]
