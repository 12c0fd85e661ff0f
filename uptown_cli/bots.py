"""Computer players: ``random``, ``greedy``, ``mc`` and ``sharp`` choose a move for the
player to move.

A bot knows only what its player may know: the board, the captures, the moves played, its
own racks and its own past draws, and so the tiles each opponent has not played yet. It never
reads an opponent's rack or the order of any bag, even in a seeded game where the engine knows
them. ``random`` and ``greedy`` need nothing else: the legal moves and the score after each
depend only on the board and the player's own racks. ``mc`` and ``sharp`` play on deals of the
hidden tiles drawn at random from the tiles the player cannot see (``sample_bags``;
``sample_view`` makes such a deal into a game).

``random`` plays any legal move. ``greedy`` plays the move that leaves its player the lowest
score (the fewest groups in the standard game), avoiding needless captures and keeping the
tiles that fit many squares. ``mc`` plays out the best few of greedy's candidates to the end
of the game in many sampled deals (``playout``) and keeps the one that did best. ``sharp``
searches the same way with more varied candidates (moves that keep an opponent's groups apart
too), a playout policy closer to greedy's, and a move rated by how often it won.
"""

import random
import time

from .game import RACK_SIZE, Game, IllegalMove
from .geometry import FIT, NEIGHBOURS, TILES_PER_COLOR, flood, joined_around, squares_of
from .notation import Move
from .playout import QUICK, SHARP, Playout

BOT_NAMES = ("random", "greedy", "mc", "sharp")

MC_PLAYOUTS = 16
"""How many sampled views ``mc`` plays each of its candidate moves out in, by default."""

MC_CANDIDATES = 6
"""How many of greedy's best moves ``mc`` plays out."""

BLOCKING_GREEDY = 4
"""How many of greedy's best moves ``sharp`` plays out."""

BLOCKING_EXTRA = 3
"""How many more moves ``sharp`` plays out among those that keep two opponent groups apart."""

_SAMPLE_ATTEMPTS = 1000

_UNFIT_LIMIT = 64
_unfit: set[tuple] = set()
"""The (tiles played, pass limits) of colours for which ``_sample_bag`` found no bag (a bot
samples the same position many times; each failure costs up to a second), at most
``_UNFIT_LIMIT`` of them."""


def choose_move(name, game, seed=None, **options):
    """``(colour, Move)`` that bot ``name`` plays for the player to move in ``game``.

    ``seed`` makes the choice reproducible. Options: ``variant`` (``standard`` or ``blockers``;
    ``greedy``, ``mc`` and ``sharp`` play to it), ``playouts`` (``mc``, ``sharp``: how many
    sampled views each candidate move is played out in) and ``seconds`` (``mc``, ``sharp``:
    think for this much CPU time instead, playing out as many views as it allows; the choice
    is then no longer reproducible); a bot ignores the options it has no use for.
    """
    if name not in _BOTS:
        raise ValueError(f"unknown bot {name!r} (the bots are {', '.join(BOT_NAMES)})")
    unknown = sorted(set(options) - {"variant", "playouts", "seconds"})
    if unknown:
        raise TypeError(f"unknown bot option {unknown[0]!r}")
    if game.finished:
        raise ValueError("the game is over")
    if not game.knows_racks:
        raise ValueError("the racks are unknown (a game without a seed), so a bot cannot play")
    bot, takes = _BOTS[name]
    return bot(game, random.Random(seed), **{k: v for k, v in options.items() if k in takes})


def _random_move(game, rng):
    # The legal moves depend only on the board and the mover's own racks: no view is needed.
    return rng.choice(game.legal_moves())


def _greedy_move(game, rng, variant="standard"):
    return rng.choice(greedy_choices(game, variant))


def greedy_choices(game, variant="standard"):
    """The moves greedy rates best for the player to move (any one of them is its choice)."""
    ranked = _rank_moves(game, variant)
    best = ranked[0][0]
    return [move for key, move in ranked if key == best]


def _rank_moves(game, variant):
    """``[(key, (colour, move))]`` for every legal move, best (lowest key) first: the player's
    score after the move, then whether it captures, then how widely the tile fits. Only the
    board, the captures and the mover's racks are used."""
    player = game.to_move
    ranked = []
    for color, move in game.legal_moves():
        if move.is_pass:
            key = (0, False, 0)
        else:
            key = (_score_after(game, player, color, move, variant), move.capture, _tile_reach(move.tile))
        ranked.append((key, (color, move)))
    ranked.sort(key=lambda pair: pair[0])
    return ranked


def _score_after(game, player, color, move, variant):
    """``player``'s score once ``color`` has played ``move`` (a placement): its groups (only
    ``color``'s change), plus in Blockers! the most tiles it has taken from one opponent."""
    sq = move.square
    score = game.player_groups(player) + 1 - _groups_touching(sq, game.mask(color))
    if variant == "blockers":
        victim = game.at(sq)
        taken = []
        for other in game.players:
            if other is not player:
                count = sum(game.captured(mine, theirs) for mine in player.colors for theirs in other.colors)
                if victim is not None and victim[0] in other.colors:
                    count += 1
                taken.append(count)
        score += max(taken)
    return score


def _groups_touching(sq, mask):
    """How many groups of the squares of ``mask`` lie edge to edge with ``sq``."""
    touching = NEIGHBOURS[sq] & mask
    if not touching:
        return 0
    if touching & (touching - 1) == 0 or joined_around(sq, mask):
        return 1
    count = 0
    while touching:
        touching &= ~flood(touching & -touching, mask)
        count += 1
    return count


def _tile_reach(tile):
    """How widely a tile fits: letters and numbers (a line of squares) 0, symbols 1, ``$`` 2."""
    return 0 if tile < 18 else 1 if tile < 27 else 2


def _margin(results, seat):
    """How well seat ``seat`` did by the ``(score, captures)`` of every seat: the best other
    score minus its own, and half a point more when it finished first (even shared)."""
    mine = results[seat]
    others = [r for i, r in enumerate(results) if i != seat]
    first = not any(other < mine for other in others)
    return min(score for score, _ in others) - mine[0] + (0.5 if first else 0.0)


def _win_value(results, seat):
    """1 when seat ``seat`` finished first (a share of it when tied), plus a hundredth of its
    margin over the best other seat."""
    mine = results[seat]
    others = [r for i, r in enumerate(results) if i != seat]
    if any(other < mine for other in others):
        first = 0.0
    else:
        first = 1.0 / (1 + sum(other == mine for other in others))
    return first + 0.01 * (min(score for score, _ in others) - mine[0])


def _shuffled_ranking(game, rng, variant):
    """``_rank_moves`` with equal moves in random order."""
    ranked = _rank_moves(game, variant)
    rng.shuffle(ranked)
    ranked.sort(key=lambda pair: pair[0])
    return ranked


def _greedy_candidates(game, rng, variant):
    """``mc``'s candidates: greedy's best ``MC_CANDIDATES`` moves."""
    return [move for _, move in _shuffled_ranking(game, rng, variant)[:MC_CANDIDATES]]


def _blocking_candidates(game, rng, variant):
    """Greedy's best few moves and the best few that also stand between two groups of an
    opponent colour (so that they cannot be joined there)."""
    ranked = _shuffled_ranking(game, rng, variant)
    chosen = [move for _, move in ranked[:BLOCKING_GREEDY]]
    me = game.to_move
    opponents = [c for c in game.colors if c not in me.colors]
    blocking = []
    for key, (color, move) in ranked[BLOCKING_GREEDY:]:
        if move.is_pass:
            continue
        blocked = sum(max(0, _groups_touching(move.square, game.mask(c)) - 1) for c in opponents)
        if blocked:
            blocking.append(((key[0] - blocked,) + key[1:], (color, move)))
    blocking.sort(key=lambda pair: pair[0])
    return chosen + [move for _, move in blocking[:BLOCKING_EXTRA]]


def _mc_move(game, rng, variant="standard", playouts=MC_PLAYOUTS, seconds=None, policy=QUICK,
             candidates=_greedy_candidates, value=_margin):
    """The best of a few ``candidates`` (greedy's best moves), each played out with ``policy``
    in the same sampled views (so that they are compared on the same deals): ``playouts`` views, or as many as ``seconds`` of CPU time
    allow; the move with the best total wins. ``sharp`` is the same search with other
    ``candidates``, ``policy`` and ``value``."""
    if playouts < 1:
        raise ValueError("playouts must be at least 1")
    candidates = candidates(game, rng, variant)
    if len(candidates) == 1:
        return candidates[0]
    seat = game.players.index(game.to_move)
    index = {color: i for i, color in enumerate(game.colors)}
    totals = [0.0] * len(candidates)
    playout_rng = random.Random()
    deadline = None if seconds is None else time.process_time() + seconds
    done = 0
    while done < playouts if deadline is None else (done == 0 or time.process_time() < deadline):
        playout = Playout(game, sample_bags(game, rng), variant)
        playout_seed = rng.getrandbits(64)
        for i, (color, move) in enumerate(candidates):
            playout.reset()
            playout.play(index[color], move.tile, move.square)
            playout_rng.seed(playout_seed)
            totals[i] += value(playout.run(policy, playout_rng), seat)
        done += 1
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best]


def _sharp_move(game, rng, variant="standard", playouts=MC_PLAYOUTS, seconds=None):
    """``mc`` with greedy's best four moves and the best three that block an opponent as
    candidates, the sharper playout policy, and a move rated by how often it won."""
    return _mc_move(game, rng, variant, playouts, seconds, SHARP, _blocking_candidates, _win_value)


_BOTS = {
    "random": (_random_move, ()),
    "greedy": (_greedy_move, ("variant",)),
    "mc": (_mc_move, ("variant", "playouts", "seconds")),
    "sharp": (_sharp_move, ("variant", "playouts", "seconds")),
}


# -- views ------------------------------------------------------------------------------


def sample_bags(game, rng):
    """Every colour's bag order as the player to move in ``game`` may imagine it: its own
    racks and past draws as they are, every opponent's rack and every bag's undrawn order drawn
    at random from the tiles that player has not seen (``{colour: 28 tiles}``, as ``Game``
    takes them). An opponent's passes that no bag fits (in a view of a hidden game where one
    was not forced) are set aside: that colour's bag fits its moves only."""
    return _sampled_bags(game, rng)[0]


def _sampled_bags(game, rng):
    """``sample_bags`` with the colours whose passes were set aside (see ``_bags``)."""
    me = game.to_move
    played = _played(game)
    own_draws = {color: [] for color in me.colors}
    for turn in game.history:
        if turn.color in own_draws and turn.drawn is not None:
            own_draws[turn.color].append(turn.drawn)
    racks = game.racks

    def own_bag(color):
        return _own_bag(played[color], own_draws[color], racks[color], rng)

    return _bags(game, me, own_bag, played, rng)


def _bags(game, me, own_bag, played, rng):
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
            except RuntimeError:
                if len(_unfit) >= _UNFIT_LIMIT:
                    _unfit.clear()
                _unfit.add(known)
        bags[color] = _sample_bag(played[color], {}, rng)
        set_aside.append(color)
    return bags, set_aside


def _set_aside_passes(game, me, colors):
    """The passes of ``game`` by the players (other than ``me``) of ``colors``."""
    return [turn for turn in game.history if turn.move.is_pass and turn.player != me
            and any(color in colors for color in turn.player.colors)]


def _replayed(game, bags, set_aside):
    """``game``'s moves played again in a new game with ``bags``, the passes ``set_aside``
    accepted unforced."""
    view = Game(game.players, bags)
    for turn in game.history:
        view.play(turn.move, turn.color, unforced=turn in set_aside)
    return view


def sample_view(game, rng):
    """A copy of ``game`` as its player to move may imagine it: the same players, moves, board,
    captures and own racks, with the hidden tiles dealt by ``sample_bags``."""
    bags, colors = _sampled_bags(game, rng)
    return _replayed(game, bags, _set_aside_passes(game, game.to_move, colors))


def imagined_game(game, me, own_bags, rng):
    """``(view, set_aside)``: ``game`` (whose racks may be unknown) replayed in a new game in
    which player ``me``'s colours have the bags ``own_bags`` (each its 28 tiles, in the order
    drawn) and every other colour a bag drawn at random to fit its moves and passes.
    ``set_aside`` lists the passes (``Turn``) no bag fits, so one of them was not forced:
    every pass of an opponent colour whose bag had to be drawn without them."""
    bags, colors = _bags(game, me, own_bags.__getitem__, _played(game), rng)
    set_aside = _set_aside_passes(game, me, colors)
    return _replayed(game, bags, set_aside), set_aside


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
