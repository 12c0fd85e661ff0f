"""Computer players: ``random``, ``greedy``, ``mc``, ``horizon`` and ``vista`` choose a move
for the player to move.

A bot knows only what its player may know: the board, the captures, the moves played, its
own racks and its own past draws, and so the tiles each opponent has not played yet. It never
reads an opponent's rack or the order of any bag, even in a seeded game where the engine knows
them. ``random`` and ``greedy`` need nothing else: the legal moves and the score after each
depend only on the board and the player's own racks. The others play on deals of
the hidden tiles drawn at random from the tiles the player cannot see (``sample_bags``;
``Game.redealt`` makes such a deal into a game).

``random`` plays any legal move. ``greedy`` plays the move that leaves its player the lowest
score (the fewest groups in the standard game), avoiding needless captures and keeping the
tiles that fit many squares. ``mc`` plays out the best few of greedy's candidates to the end
of the game in many sampled deals (``playout``) and keeps the one that did best.
``horizon`` plays greedy's best few out as ``mc`` does, in the same deals, but only for a few
moves of every player, and compares the scores there: a playout to the end is so noisy that
mc's few deals hardly tell its candidates apart, while a short one is cheap (many more deals
fit in the same time) and varies far less from deal to deal. With more than two players,
after a few deals it keeps playing out only the best three, and it counts a capture as a
fraction of a group (the fewest captures break a tie). ``vista`` searches as ``horizon`` does
but reads the end of each short playout with a learned evaluation (``value``): each seat's
final score foreseen from figures of its colours' positions, not the score as it stands there.

Every bot's randomness comes from the one ``random.Random`` that ``choose_move`` makes from
its ``seed``; sampled deals and playout seeds are drawn from it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from ..engine.game import Game
from ..engine.players import Player
from ..engine.geometry import NEIGHBOURS, flood, joined_around
from ..engine.notation import Move, Placement
from ..engine.playout import QUICK, MoveClass, Playout
from ..engine.scoring import win_share
from ..errors import SetupError
from ..i18n import _
from .deals import sample_bags

__all__ = ["choose_move", "greedy_choices"]

ColoredMove = tuple[str, Move]
"""A move with the colour it is played from."""
RankKey = tuple[int, bool, int]

BOT_NAMES = ("random", "greedy", "mc", "horizon", "vista")

MC_PLAYOUTS = 16
"""How many sampled views ``mc`` plays each of its candidate moves out in, by default."""

MC_CANDIDATES = 6
"""How many of greedy's best moves ``mc`` plays out."""

HORIZON_CANDIDATES = 8
"""How many of greedy's best moves ``horizon`` plays out."""

HORIZON_MOVES = 4
"""How many moves every player makes in a playout of ``horizon`` before the scores are read."""

HORIZON_CAPTURE_COST = 0.2
"""What each capture costs in ``horizon``'s reward, in groups: ties for the lowest score are
common, and the fewest captures break them."""

HORIZON_TRIAL_DEALS = 4
"""How many deals ``horizon`` plays all its candidates out in before it keeps only the best."""

HORIZON_FINALISTS = 3
"""How many of its candidates ``horizon`` keeps playing out after ``HORIZON_TRIAL_DEALS``."""


class Search(NamedTuple):
    """How widely and how far ahead ``vista`` looks: greedy's best ``candidates`` moves, each
    played out for ``moves`` moves of every player before the evaluation reads the position;
    with ``cut`` ``(deals, keep)``, only the ``keep`` best after ``deals`` deals are played on."""

    candidates: int
    moves: int
    cut: tuple[int, int] | None


VISTA_SEARCH = Search(8, 4, None)
"""``vista``'s search in a two-player game on a small budget."""

VISTA_DEEP_SEARCH = Search(16, 8, (16, 4))
"""``vista``'s search in a two-player game from ``DEEP_SECONDS`` of CPU time a move (or
``DEEP_PLAYOUTS`` deals): wider and twice as far ahead, the time going to the best four
after the first deals: with that much time the errors of the evaluation four moves ahead,
not the luck of the deals, decide (docs/ANALYSIS.md)."""

DEEP_SECONDS, DEEP_PLAYOUTS = 0.1, 128
"""The budget from which a two-player ``vista`` searches as ``VISTA_DEEP_SEARCH``."""

VISTA_MANY_PLAYERS_SEARCH = Search(8, 4, (HORIZON_TRIAL_DEALS, HORIZON_FINALISTS))
"""``vista``'s search with more than two players, whatever the budget (as ``horizon``'s)."""


def vista_search(players: int, playouts: int, seconds: float | None) -> Search:
    """The search ``vista`` makes in a game of ``players`` with ``playouts`` deals or
    ``seconds`` of CPU time a move."""
    if players > 2:
        return VISTA_MANY_PLAYERS_SEARCH
    deep = playouts >= DEEP_PLAYOUTS if seconds is None else seconds >= DEEP_SECONDS
    return VISTA_DEEP_SEARCH if deep else VISTA_SEARCH


def choose_move(name: str, game: Game, seed: object = None, **options: Any) -> ColoredMove:
    """``(colour, Move)`` that bot ``name`` plays for the player to move in ``game``.

    ``seed`` makes the choice reproducible. Options: ``variant`` (``standard`` or ``blockers``,
    the game's own by default; every bot but ``random`` plays to it), ``playouts`` (``mc``,
    ``horizon``, ``vista``: how many sampled views each candidate move is played out in),
    ``seconds`` (the same three: think for this much CPU time instead, playing out as many
    views as it allows; the choice is then no longer reproducible) and ``weights`` (``vista``:
    the path of a weights file, ``scripts/train_value.py``'s, to play with instead of the
    shipped one); a bot ignores the options it has no use for.
    """
    if name not in _BOTS:
        raise SetupError(_("unknown bot {name!r} (the bots are {bots})").format(
            name=name, bots=", ".join(BOT_NAMES)))
    unknown = sorted(set(options) - BOT_OPTIONS)
    if unknown:
        raise SetupError(_("unknown bot option {option!r}").format(option=unknown[0]))
    if game.finished:
        raise SetupError(_("the game is over"))
    if not game.knows_racks:
        raise SetupError(_("the racks are unknown (a game without a seed), so a bot cannot "
                           "play"))
    bot, takes = _BOTS[name]
    options = {"variant": game.variant, **options}
    return bot(game, random.Random(seed),  # type: ignore[arg-type]
               **{k: v for k, v in options.items() if k in takes})


def _random_move(game: Game, rng: random.Random) -> ColoredMove:
    # The legal moves depend only on the board and the mover's own racks: no view is needed.
    return rng.choice(game.legal_moves())


def _greedy_move(game: Game, rng: random.Random, variant: str = "standard") -> ColoredMove:
    return rng.choice(greedy_choices(game, variant))


def greedy_choices(game: Game, variant: str = "standard") -> list[ColoredMove]:
    """The moves greedy rates best for the player to move (any one of them is its choice)."""
    ranked = _rank_moves(game, variant)
    best = ranked[0][0]
    return [move for key, move in ranked if key == best]


def _rank_moves(game: Game, variant: str) -> list[tuple[RankKey, ColoredMove]]:
    """``[(key, (colour, move))]`` for every legal move, best (lowest key) first: the player's
    score after the move, then whether it captures, then how widely the tile fits. Only the
    board, the captures and the mover's racks are used."""
    player = game.to_move
    assert player is not None  # a bot plays only an unfinished game
    ranked = []
    for color, move in game.legal_moves():
        if move.is_pass:
            key = (0, False, 0)
        else:
            key = (_score_after(game, player, color, move, variant), move.capture,
                   _tile_reach(move.tile))
        ranked.append((key, (color, move)))
    ranked.sort(key=lambda pair: pair[0])
    return ranked


def _score_after(game: Game, player: Player, color: str, move: Placement, variant: str) -> int:
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


def _groups_touching(sq: int, mask: int) -> int:
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


def _tile_reach(tile: int) -> int:
    """How widely a tile fits: letters and numbers (a line of squares) 0, symbols 1, ``$`` 2."""
    return 0 if tile < 18 else 1 if tile < 27 else 2


def _margin(results: Sequence[tuple[float, int]], seat: int) -> float:
    """How well seat ``seat`` did by the ``(score, captures)`` of every seat: the best other
    score minus its own, and half a point more when it finished first (even shared)."""
    best_other = min(score for i, (score, _) in enumerate(results) if i != seat)
    return best_other - results[seat][0] + (0.5 if win_share(results[seat], results) else 0.0)


def _margin_counting_captures(results: Sequence[tuple[float, int]], seat: int) -> float:
    """``_margin`` with every seat's score raised by ``HORIZON_CAPTURE_COST`` per capture (and
    first place read from those scores)."""
    costs = [score + HORIZON_CAPTURE_COST * captures for score, captures in results]
    best_other = min(cost for i, cost in enumerate(costs) if i != seat)
    return best_other - costs[seat] + (0.5 if costs[seat] <= best_other else 0.0)


def _shuffled_ranking(game: Game, rng: random.Random, variant: str) -> list[tuple[RankKey, ColoredMove]]:
    """``_rank_moves`` with equal moves in random order."""
    ranked = _rank_moves(game, variant)
    rng.shuffle(ranked)
    ranked.sort(key=lambda pair: pair[0])
    return ranked


def mc_candidates(game: Game, rng: random.Random, variant: str,
                  count: int = MC_CANDIDATES) -> list[ColoredMove]:
    """``mc``'s candidates: greedy's best ``count`` moves (``MC_CANDIDATES``), equal ones in
    random order."""
    return [move for _, move in _shuffled_ranking(game, rng, variant)[:count]]


def _mc_move(game: Game, rng: random.Random, variant: str = "standard", playouts: int = MC_PLAYOUTS,
             seconds: float | None = None) -> ColoredMove:
    """The best of greedy's best ``MC_CANDIDATES`` moves, each played out to the end of the
    game (``_best_on_shared_deals``)."""
    candidates = mc_candidates(game, rng, variant)
    return _best_on_shared_deals(game, rng, candidates, variant, playouts, seconds)


def _horizon_move(game: Game, rng: random.Random, variant: str = "standard",
                  playouts: int = MC_PLAYOUTS, seconds: float | None = None) -> ColoredMove:
    """The best of greedy's best ``HORIZON_CANDIDATES`` moves, each played out for
    ``HORIZON_MOVES`` moves of every player (``_best_on_shared_deals``); with more than two
    players, only the ``HORIZON_FINALISTS`` best after ``HORIZON_TRIAL_DEALS`` deals, and rated
    by ``_margin_counting_captures`` (two-player games measured better without either)."""
    candidates = mc_candidates(game, rng, variant, HORIZON_CANDIDATES)
    plies = HORIZON_MOVES * len(game.players)
    cut, reward = ((None, _margin) if len(game.players) == 2 else
                   ((HORIZON_TRIAL_DEALS, HORIZON_FINALISTS), _margin_counting_captures))
    return _best_on_shared_deals(game, rng, candidates, variant, playouts, seconds, plies, cut,
                                 reward)


def _best_on_shared_deals(game: Game, rng: random.Random, candidates: list[ColoredMove],
                          variant: str, playouts: int, seconds: float | None,
                          plies: int | None = None,
                          cut: tuple[int, int] | None = None,
                          reward: Callable[[Sequence[tuple[Any, int]], int], float] = _margin,
                          read: Callable[[Playout], list[tuple[Any, int]]] | None = None,
                          ) -> ColoredMove:
    """The candidate with the best total ``reward`` once played out in the same sampled
    views with the same playout seeds (so that they are compared on the same deals):
    ``playouts`` views, or as many as ``seconds`` of CPU time allow; each playout to the end of
    the game, or for ``plies`` turns and the score read there. With ``cut`` ``(deals, keep)``,
    only the ``keep`` best after ``deals`` views are played out in the views that follow, so
    that the time goes to telling the likely best apart."""
    if playouts < 1:
        raise SetupError(_("playouts must be at least 1"))
    if len(candidates) == 1:
        return candidates[0]
    assert game.to_move is not None  # the game is not over
    seat = game.players.index(game.to_move)
    totals = [0.0] * len(candidates)
    playing = list(range(len(candidates)))
    for done, play_out in enumerate(shared_deals(game, rng, variant, playouts, seconds, QUICK, plies,
                                                 read), 1):
        for i in playing:
            totals[i] += reward(play_out(candidates[i]), seat)
        if cut is not None and done == cut[0]:
            playing = sorted(playing, key=lambda i: -totals[i])[:cut[1]]
    best = max(playing, key=lambda i: totals[i])
    return candidates[best]


def _vista_move(game: Game, rng: random.Random, variant: str = "standard",
                playouts: int = MC_PLAYOUTS, seconds: float | None = None,
                weights: str | None = None) -> ColoredMove:
    """``horizon``'s search with the position at the end of each short playout read by the
    learned evaluation (``value.foreseen_scores``: each seat's final score foreseen) instead
    of the scores as they are there; with more than two players the foreseen scores are
    rounded to whole groups, so that seats tie as often as they do at the end and the fewest
    captures decide among them. How widely and how far it looks grows with a two-player
    game's budget (``vista_search``). ``weights``: the path of the weights file to read (the
    shipped one by default)."""
    from .value import foreseen_scores, weights_for

    row = weights_for(len(game.players), weights)
    search = vista_search(len(game.players), playouts, seconds)
    candidates = mc_candidates(game, rng, variant, search.candidates)
    plies = search.moves * len(game.players)
    two = len(game.players) == 2

    def read(playout: Playout) -> list[tuple[Any, int]]:
        foreseen = foreseen_scores(playout, row)
        return foreseen if two else [(round(score), captures) for score, captures in foreseen]

    return _best_on_shared_deals(game, rng, candidates, variant, playouts, seconds, plies,
                                 search.cut, _margin if two else _margin_counting_captures, read)


PlayOut = Callable[[ColoredMove], list[tuple[Any, int]]]
"""A move played out in one sampled deal: every seat's ``(score, captures)`` at the end (a
score foreseen by the learned evaluation may be a float)."""


def shared_deals(game: Game, rng: random.Random, variant: str, deals: int, seconds: float | None,
                 policy: Sequence[MoveClass] = QUICK, plies: int | None = None,
                 read: Callable[[Playout], list[tuple[Any, int]]] | None = None,
                 ) -> Iterator[PlayOut]:
    """For each sampled deal of what the player to move cannot see (``deals`` of them, or as
    many as ``seconds`` of CPU time allow, at least one), a function that plays a move out in
    it with ``policy`` (to the end, or for ``plies`` turns) and gives what ``read`` reads of the
    position there (every seat's score and captures by default): every move asked of one deal
    is played out with the same playout seed, so that moves are compared on the same luck."""
    index = {color: i for i, color in enumerate(game.colors)}
    playout_rng = random.Random()
    deadline = None if seconds is None else time.process_time() + seconds
    done = 0
    while done < deals if deadline is None else (done == 0 or time.process_time() < deadline):
        playout = Playout(game, sample_bags(game, rng), variant)
        playout_seed = rng.getrandbits(64)

        def play_out(colored: ColoredMove, playout: Playout = playout,
                     playout_seed: int = playout_seed) -> list[tuple[int, int]]:
            color, move = colored
            playout.reset()
            if move.is_pass:
                playout.pass_turn()
            else:
                playout.play(index[color], move.tile, move.square)
            playout_rng.seed(playout_seed)
            if read is None:
                return playout.run(policy, playout_rng, plies)
            playout.advance(policy, playout_rng, plies)
            return read(playout)

        yield play_out
        done += 1


_BOTS: dict[str, tuple[Callable[..., ColoredMove], tuple[str, ...]]] = {
    "random": (_random_move, ()),
    "greedy": (_greedy_move, ("variant",)),
    "mc": (_mc_move, ("variant", "playouts", "seconds")),
    "horizon": (_horizon_move, ("variant", "playouts", "seconds")),
    "vista": (_vista_move, ("variant", "playouts", "seconds", "weights")),
}

BOT_OPTIONS = frozenset(option for _bot, takes in _BOTS.values() for option in takes)
"""Every option some bot takes: ``choose_move`` refuses any other."""


def bot_takes(name: str, option: str) -> bool:
    """Whether bot ``name`` has a use for ``option`` (``vista`` for ``weights``, say)."""
    return name in _BOTS and option in _BOTS[name][1]


def check_bot_options(name: str, options: Mapping[str, Any], players: int | None = None) -> None:
    """SetupError when ``options`` of bot ``name`` could not be played with (before a game, so
    that the mistake is one line at the start): a weights file it cannot read, or one with no
    weights for ``players`` players when that is known."""
    weights = options.get("weights")
    if weights is not None and bot_takes(name, "weights"):
        from .value import load_weights, weights_for

        if players is None:
            load_weights(weights)
        else:
            weights_for(players, weights)


PLAYOUT_BOTS = tuple(name for name, (_bot, takes) in _BOTS.items() if "playouts" in takes)
"""The bots that play moves out, and so take ``playouts`` and ``seconds``."""

