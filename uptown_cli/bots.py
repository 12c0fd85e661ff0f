"""Computer players: ``random``, ``greedy`` and ``mc`` choose a move for the player to move.

A bot knows only what its player may know: the board, the captures, the moves played, its
own racks and its own past draws, and so the tiles each opponent has not played yet. It never
reads an opponent's rack or the order of any bag, even in a seeded game where the engine knows
them: it plays on a *view*, a new game with the same players and moves in which every bag's
undrawn order and every opponent's rack are drawn at random from the tiles the player cannot
see (``sample_view``).

``random`` plays any legal move. ``greedy`` plays the move that leaves its player the lowest
score (the fewest groups in the standard game), avoiding needless captures and keeping the
tiles that fit many squares. ``mc`` plays out the best few of greedy's candidates to the end
of the game in many sampled views and keeps the one that did best.
"""

import random

from .game import RACK_SIZE, Game, IllegalMove
from .geometry import FIT, NEIGHBOURS, TILES_PER_COLOR, WILD, squares_of
from .notation import Move
from .scoring import standings

BOT_NAMES = ("random", "greedy", "mc")

MC_PLAYOUTS = 16
"""How many sampled views ``mc`` plays each of its candidate moves out in, by default."""

MC_CANDIDATES = 6
"""How many of greedy's best moves ``mc`` plays out."""

_SAMPLE_ATTEMPTS = 1000


def choose_move(name, game, seed=None, **options):
    """``(colour, Move)`` that bot ``name`` plays for the player to move in ``game``.

    ``seed`` makes the choice reproducible. Options: ``variant`` (``standard`` or ``blockers``;
    ``greedy`` and ``mc`` play to it) and ``playouts`` (``mc``: how many sampled views each of
    its candidate moves is played out in); a bot ignores the options it has no use for.
    """
    if name not in _BOTS:
        raise ValueError(f"unknown bot {name!r} (the bots are {', '.join(BOT_NAMES)})")
    unknown = sorted(set(options) - {"variant", "playouts"})
    if unknown:
        raise TypeError(f"unknown bot option {unknown[0]!r}")
    if game.finished:
        raise ValueError("the game is over")
    if not game.knows_racks:
        raise ValueError("the racks are unknown (a game without a seed), so a bot cannot play")
    bot, takes = _BOTS[name]
    return bot(game, random.Random(seed), **{k: v for k, v in options.items() if k in takes})


def _random_move(game, rng):
    return rng.choice(sample_view(game, rng).legal_moves())


def _greedy_move(game, rng, variant="standard"):
    return rng.choice(greedy_choices(sample_view(game, rng), variant))


def greedy_choices(game, variant="standard"):
    """The moves greedy rates best for the player to move (any one of them is its choice)."""
    ranked = _rank_moves(game, variant)
    best = ranked[0][0]
    return [move for key, move in ranked if key == best]


def _rank_moves(game, variant):
    """``[(key, (colour, move))]`` for every legal move, best (lowest key) first: the player's
    score after the move, then whether it captures, then how widely the tile fits."""
    player = game.to_move
    seat = game.players.index(player)
    ranked = []
    for color, move in game.legal_moves():
        if not move.is_pass:
            game.play(move, color)
            score = standings(game, variant)[seat].score
            game.pop()
            key = (score, move.capture, _tile_reach(move.tile))
        else:
            key = (0, False, 0)
        ranked.append((key, (color, move)))
    ranked.sort(key=lambda pair: pair[0])
    return ranked


def _tile_reach(tile):
    """How widely a tile fits: letters and numbers (a line of squares) 0, symbols 1, ``$`` 2."""
    return 0 if tile < 18 else 1 if tile < 27 else 2


def _mc_move(game, rng, variant="standard", playouts=MC_PLAYOUTS):
    """Greedy's best few moves, each played out in the same ``playouts`` sampled views (so
    that they are compared on the same deals); the one with the best total wins."""
    if playouts < 1:
        raise ValueError("playouts must be at least 1")
    ranked = _rank_moves(sample_view(game, rng), variant)
    rng.shuffle(ranked)
    ranked.sort(key=lambda pair: pair[0])  # equal moves in random order
    candidates = [move for _, move in ranked[:MC_CANDIDATES]]
    if len(candidates) == 1:
        return candidates[0]
    seat = game.players.index(game.to_move)
    totals = [0.0] * len(candidates)
    for _ in range(playouts):
        view = sample_view(game, rng)
        playout_seed = rng.getrandbits(64)
        for index, (color, move) in enumerate(candidates):
            view.play(move, color)
            totals[index] += _playout(view, seat, variant, random.Random(playout_seed))
            while view.ply > game.ply:
                view.pop()
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best]


_BOTS = {
    "random": (_random_move, ()),
    "greedy": (_greedy_move, ("variant",)),
    "mc": (_mc_move, ("variant", "playouts")),
}


def _playout(game, seat, variant, rng):
    """Play ``game`` to its end with the quick policy; how well seat ``seat`` did: the best
    other score minus its own, and half a point more when it finished first (even shared)."""
    while not game.finished:
        color, move = _quick_move(game, rng)
        game.play(move, color)
    table = standings(game, variant)
    mine = table[seat]
    others = [s for i, s in enumerate(table) if i != seat]
    best_other = min(s.score for s in others)
    return best_other - mine.score + (0.5 if mine.rank == 1 else 0.0)


def _quick_move(game, rng):
    """A cheap stand-in for greedy: a move that joins the player's own tiles when there is
    one, avoiding captures and ``$``."""
    best_key = None
    best = []
    for color, move in game.legal_moves():
        if move.is_pass:
            return color, move
        key = (
            not NEIGHBOURS[move.square] & game.mask(color),
            move.capture,
            move.tile == WILD,
        )
        if best_key is None or key < best_key:
            best_key, best = key, [(color, move)]
        elif key == best_key:
            best.append((color, move))
    return rng.choice(best)


# -- views ------------------------------------------------------------------------------


def sample_view(game, rng):
    """A copy of ``game`` as its player to move may imagine it: the same players, moves, board,
    captures and own racks, with every bag's undrawn order and every opponent's rack drawn at
    random from the tiles that player has not seen."""
    me = game.to_move
    played = _played(game)
    own_draws = {color: [] for color in me.colors}
    for turn in game.history:
        if turn.color in own_draws and turn.drawn is not None:
            own_draws[turn.color].append(turn.drawn)
    def own_bag(color):
        return _own_bag(played[color], own_draws[color], game.racks[color], rng)

    return _view(game, me, own_bag, rng)


def imagined_game(game, me, own_bags, rng):
    """``game`` (whose racks may be unknown) replayed in a new game in which player ``me``'s
    colours have the bags ``own_bags`` (each its 28 tiles, in the order drawn) and every other
    colour a bag drawn at random to fit its moves and passes."""
    return _view(game, me, own_bags.__getitem__, rng)


def _view(game, me, own_bag, rng):
    """``game`` replayed with ``own_bag(colour)`` for ``me``'s colours and sampled bags for the
    others (made in colour order, so that a seed always gives the same view)."""
    played = _played(game)
    passes = _pass_limits(game, me)
    bags = {}
    for color in game.colors:
        if color in me.colors:
            bags[color] = own_bag(color)
        else:
            bags[color] = _sample_bag(played[color], passes.get(color, {}), rng)
    view = Game(game.players, bags)
    for turn in game.history:
        view.play(turn.move, turn.color)
    return view


def _played(game):
    """``{colour: the tiles it played, in order}``."""
    played = {color: [] for color in game.colors}
    for turn in game.history:
        if not turn.move.is_pass:
            played[turn.color].append(turn.move.tile)
    return played


def _own_bag(played, draws, rack, rng):
    """The player's own bag: what it has drawn, in order, then the rest shuffled."""
    seen = sorted((set(played) | set(rack)) - set(draws)) + draws
    rest = [tile for tile in range(TILES_PER_COLOR) if tile not in seen]
    rng.shuffle(rest)
    return seen + rest


def _sample_bag(played, limits, rng):
    """A random bag under which an opponent colour could have played ``played`` in turn and,
    after ``j`` plays, had a rack within ``limits[j]`` (the tiles that could not be placed
    when its player had to pass).

    The bag is drawn tile by tile: a tile about to be played that is not on the rack yet is
    the next draw; every other draw is a random unseen tile that fits the limits for as long
    as it stays on the rack. Passes are rare; when a draw finds no such tile, start again.
    """
    leaves = {tile: step for step, tile in enumerate(played)}

    def allowed(tile, step):
        last = leaves.get(tile, len(played))
        return all(tile in tiles for j, tiles in limits.items() if step <= j <= last)

    for _ in range(_SAMPLE_ATTEMPTS):
        bag = _draw_bag(played, allowed, rng)
        if bag is not None:
            return bag
    raise RuntimeError("no bag fits the moves and passes of this game")


def _draw_bag(played, allowed, rng):
    """One try of ``_sample_bag``: a bag, or None when a draw found no allowed tile."""
    drawn = []
    for step in range(len(played) + 1):
        quota = min(TILES_PER_COLOR, RACK_SIZE + step)
        if step < len(played) and played[step] not in drawn:
            drawn.append(played[step])
        while len(drawn) < quota:
            choices = [t for t in range(TILES_PER_COLOR) if t not in drawn and allowed(t, step)]
            if not choices:
                return None
            drawn.append(rng.choice(choices))
    rest = [tile for tile in range(TILES_PER_COLOR) if tile not in drawn]
    rng.shuffle(rest)
    return drawn + rest


def _pass_limits(game, me):
    """``{colour: {plays so far: tiles that fit no square}}`` for the colours of every
    opponent at each of their forced passes: their racks then held only such tiles."""
    if not any(turn.move.is_pass and turn.player != me for turn in game.history):
        return {}
    board = Game(game.players)
    limits = {}
    for turn in game.history:
        if turn.move.is_pass and turn.player != me:
            for color in turn.player.colors:
                if board.playable(color):
                    stuck = frozenset(
                        tile for tile in board.unplayed_tiles(color) if not _fits(board, color, tile)
                    )
                    steps = limits.setdefault(color, {})
                    step = board.played_count(color)
                    steps[step] = steps.get(step, stuck) & stuck
        board.play(turn.move, turn.color)
    return limits


def _fits(game, color, tile):
    """Whether ``color`` could place ``tile`` somewhere now (its rack aside)."""
    for square in squares_of(FIT[tile]):
        try:
            game.check(Move(tile, square), color)
            return True
        except IllegalMove:
            pass
    return False
