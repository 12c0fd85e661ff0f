"""Review of one game by an engine: every move evaluated from its mover's point of view,
the best move found, the loss, a mark, and a summary per player.

An *evaluation* is the mover's expected final score under the game's variant and their chance
to finish first (a shared first place counts as a share), both estimated by playing the game
out to the end in many deals of the tiles the mover could not see (``views.sample_bags``: their
own racks and draws as they were, everything else drawn at random). Every candidate move of
one position is played out in the same deals with the same playout seeds (common random
numbers), so that the luck of the deal cancels out of their differences.

A position is evaluated in two rounds. In the first, the evaluator's candidates and the move
played are compared, and the best is chosen; in the second, on fresh and more deals, the best
and the move played are evaluated again, and these are the figures reported. Choosing on one
set of deals and measuring on another keeps the noise of the first from making the best look
better than it is (the "winner's curse"), which would mark good moves as mistakes. With one
candidate or none besides the move played there is nothing to choose: only the second round
is played. The default evaluator, ``vista``, has one: the move its search chooses, which the
playouts to the end then measure beside the move played (``SearchingEvaluator``).

The chances reported are calibrated (``calibration``: the share of playouts won mapped to the
rate at which such positions were won in self-play), except after a move that ends the game.
The *loss* of a move is the drop in the mover's calibrated chance to win, from the best move's
to the move played (never below 0). Marks and accuracy follow lichess (see docs/ANALYSIS.md, "Reviewing
a game"): ``?!`` from ``INACCURACY``, ``?`` from ``MISTAKE``, ``??`` from ``BLUNDER``.

Any bot that can evaluate moves plugs in through ``EVALUATORS``: an object with
``measured_by`` (the bot whose playouts measure), ``candidates(game, rng, variant, playouts,
seconds)`` (the moves worth comparing, found with that budget if a search finds them) and
``evaluate(game, moves, rng, variant, deals, seconds)`` (one ``Evaluation`` per move, on
shared deals).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

from .bots import ColoredMove, choose_move, greedy_choices, mc_candidates, shared_deals
from .calibration import load_calibration
from .pool import in_pool, stopped_by_signals
from ..engine.game import Game
from ..engine.players import Player
from ..engine.notation import Move, parse_move
from ..engine.playout import QUICK, MoveClass
from ..engine.scoring import win_share
from ..engine.sha256 import sha256
from ..errors import SetupError
from ..i18n import _ as gettext

__all__ = ["MoveReview", "tasks", "review_games", "summarize", "mark", "loss_percent"]

INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15
"""The least drop in the chance to win (0 to 1) marked ``?!``, ``?`` and ``??``."""

CLEAR_OF_NOISE = 2.0
"""How many standard errors of its measure a move's loss must exceed to be marked: a loss the
luck of the deals could have made is not a mistake the review can tell."""

DEFAULT_DEALS = 256
"""The deals the best move and the move played are measured in, by default."""

CHOOSING_SHARE = 4
"""The candidates are compared in a quarter as many deals as the two moves are measured in
(they are several, and a best move chosen a little wrong only makes the loss smaller)."""

SEARCH_SHARE = 2
"""The candidates are found (by a search that finds them: vista's) with half as many
playouts as the deals the moves are measured in (vista's wider search from 256 deals: a review
then takes a little less time than mc's, docs/ANALYSIS.md)."""

VARIATION_REPLIES = 2
"""How many moves (greedy's, on the real racks) follow the first move of a variation."""



class Evaluation(NamedTuple):
    """A position or move as its mover sees it: the expected final score (lower is better)
    and the chance to win (0 to 1); ``shares`` holds the mover's share of first place in each
    deal that measured it, in the order of the deals (for the noise of a difference between
    two moves measured on the same deals; not shown)."""

    score: float
    win: float
    shares: tuple[float, ...] = ()

    def key(self) -> float:
        """What ranks evaluations (higher is better): the chance to win, then the score."""
        return self.win - self.score / 1000


class Evaluator(Protocol):
    """What ``analyze`` needs of a bot."""

    @property
    def measured_by(self) -> str:
        """The bot whose playouts measure the moves (and so give the chances shown)."""

    def candidates(self, game: Game, rng: random.Random, variant: str, playouts: int | None,
                   seconds: float | None) -> list[ColoredMove]:
        """The moves of the player to move worth comparing, found (if a search finds them)
        with ``playouts`` deals or ``seconds`` of CPU time."""

    def evaluate(self, game: Game, moves: Sequence[ColoredMove], rng: random.Random,
                 variant: str, deals: int | None, seconds: float | None) -> list[Evaluation]:
        """Each move's evaluation, all on the same ``deals`` (or as many as ``seconds`` of CPU
        time allow)."""


class PlayoutEvaluator(NamedTuple):
    """Bot ``measured_by``'s evaluation: moves measured by fast playouts to the end with
    ``policy``, ``choose``'s moves compared."""

    measured_by: str
    choose: Callable[[Game, random.Random, str], list[ColoredMove]]
    policy: Sequence[MoveClass]

    def candidates(self, game: Game, rng: random.Random, variant: str, playouts: int | None,
                   seconds: float | None) -> list[ColoredMove]:
        return self.choose(game, rng, variant)

    def evaluate(self, game: Game, moves: Sequence[ColoredMove], rng: random.Random,
                 variant: str, deals: int | None, seconds: float | None) -> list[Evaluation]:
        mover = game.to_move
        assert mover is not None
        seat = game.players.index(mover)
        scores = [0.0] * len(moves)
        shares: list[list[float]] = [[] for _ in moves]
        for play_out in shared_deals(game, rng, variant, deals or 1, seconds, self.policy):
            for i, colored in enumerate(moves):
                score, win = outcome(play_out(colored), seat)
                scores[i] += score
                shares[i].append(win)
        return [Evaluation(score / len(won), sum(won) / len(won), tuple(won))
                for score, won in zip(scores, shares)]


class SearchingEvaluator(NamedTuple):
    """The one candidate is the move ``bot``'s search chooses, and ``measure`` measures it
    beside the move played: a move is marked only when the stronger search would have played
    another and the playouts to the end find that other better by enough."""

    bot: str
    measure: Evaluator

    @property
    def measured_by(self) -> str:
        return self.measure.measured_by

    def candidates(self, game: Game, rng: random.Random, variant: str, playouts: int | None,
                   seconds: float | None) -> list[ColoredMove]:
        budget = {"playouts": playouts} if seconds is None else {"seconds": seconds}
        return [choose_move(self.bot, game, rng.getrandbits(64), variant=variant, **budget)]

    def evaluate(self, game: Game, moves: Sequence[ColoredMove], rng: random.Random,
                 variant: str, deals: int | None, seconds: float | None) -> list[Evaluation]:
        return self.measure.evaluate(game, moves, rng, variant, deals, seconds)


MC_EVALUATOR = PlayoutEvaluator("mc", mc_candidates, QUICK)
"""mc's: greedy's best six compared, every move measured by mc's playouts to the end."""

EVALUATORS: dict[str, Evaluator] = {
    "vista": SearchingEvaluator("vista", MC_EVALUATOR),
    "mc": MC_EVALUATOR,
}
"""The bots that can evaluate moves, by name, the default first."""

DEFAULT_EVALUATOR = next(iter(EVALUATORS))


def outcome(results: Sequence[tuple[int, int]], seat: int) -> tuple[int, float]:
    """Seat ``seat``'s final score and share of first place, from every seat's ``(score,
    captures)`` (ties broken by fewer captures, as ``scoring.standings`` ranks)."""
    return results[seat][0], win_share(results[seat], results)


def loss_percent(loss: float) -> int:
    """``loss`` (0 to 1) as the whole percentage printed (``analyze``, the annotated comment)."""
    return int(f"{100 * loss:.0f}")


def mark(loss: float, noise: float = 0.0) -> str | None:
    """The mark of a move that lost ``loss`` of its mover's chance to win (0 to 1), from the
    whole percentage printed (``loss_percent``): a loss shown as 15 is a blunder, whatever
    the decimals behind it; none when the loss is not more than ``CLEAR_OF_NOISE`` times
    ``noise``, the standard error of its measure."""
    if loss <= CLEAR_OF_NOISE * noise:
        return None
    shown = loss_percent(loss)
    for threshold, sign in ((BLUNDER, "??"), (MISTAKE, "?"), (INACCURACY, "?!")):
        if shown >= round(100 * threshold):
            return sign
    return None


def difference_error(first: Sequence[float], second: Sequence[float]) -> float:
    """The standard error of the mean of ``first`` less ``second``, deal by deal (two moves
    measured on the same deals); 0 for fewer than two deals."""
    count = len(first)
    if count < 2:
        return 0.0
    differences = [a - b for a, b in zip(first, second)]
    mean = sum(differences) / count
    return math.sqrt(sum((d - mean) ** 2 for d in differences) / (count - 1) / count)


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0 to 100, from the drop in the chance to win (lichess's formula, on
    percentage points): 100 when nothing is lost."""
    drop = 100 * max(0.0, loss)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669 + 1))


def game_accuracy(wins: Sequence[float], losses: Sequence[float]) -> float | None:
    """A player's accuracy over a game (lichess's): the mean of their moves' accuracies
    weighted by how much their chance to win was moving around each (the spread of the last
    few chances, ``wins`` being the chance before each move), and their harmonic mean (each
    move counted as at least 1), averaged. None without moves."""
    if not losses:
        return None
    accuracies = [move_accuracy(loss) for loss in losses]
    size = max(2, min(8, len(losses) // 10))
    weights = []
    for i in range(len(losses)):
        window = [100 * w for w in wins[max(0, i + 1 - size):i + 1]]
        mean = sum(window) / len(window)
        spread = math.sqrt(sum((w - mean) ** 2 for w in window) / len(window))
        weights.append(max(0.5, min(12.0, spread)))
    weighted = sum(a * w for a, w in zip(accuracies, weights)) / sum(weights)
    harmonic = len(accuracies) / sum(1 / max(1.0, a) for a in accuracies)
    return (weighted + harmonic) / 2


class MoveReview(NamedTuple):
    """One move as the engine saw it, from its mover's point of view."""

    number: int
    player: str
    color: str
    move: str
    before: Evaluation
    """The position before the move: the best move's evaluation."""
    after: Evaluation
    """The position after the move played."""
    best: str | None
    """The best move found, as ``uptown move`` takes it (``red 7 B7`` when the player has two
    colours), or None when it is the move played."""
    loss: float
    mark: str | None
    forced: bool
    """Whether the move was the only legal one (left out of the summary)."""
    variations: tuple[tuple[str, ...], ...] = ()
    """Other lines from the position before the move: the other moves compared (vista's choice;
    mc's best two of its six), each followed by greedy's replies on the real racks."""
    noise: float = 0.0
    """The standard error of ``loss``: how much the luck of the deals that measured it could
    move it (a loss not above ``CLEAR_OF_NOISE`` times it is not marked)."""

    def to_json(self) -> dict[str, Any]:
        """The move's review as JSON data."""
        return {**self._asdict(), "before": _evaluation_json(self.before),
                "after": _evaluation_json(self.after),
                "variations": [list(line) for line in self.variations]}


def _evaluation_json(evaluation: Evaluation) -> dict[str, float]:
    return {"score": evaluation.score, "win": evaluation.win}


class PlayerReview(NamedTuple):
    """One player's game in figures (forced moves left out)."""

    name: str
    colors: tuple[str, ...]
    moves: int
    mean_loss: float | None
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float | None


class Review(NamedTuple):
    variant: str
    bot: str
    seed: str
    deals: int | None
    seconds: float | None
    moves: list[MoveReview]
    players: list[PlayerReview]

    @property
    def measured_by(self) -> str:
        """The bot whose playouts measured the moves (``bot`` itself, or the one that measures
        its choice)."""
        return EVALUATORS[self.bot].measured_by

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "bot": self.bot, "measured_by": self.measured_by,
            "seed": self.seed, "deals": self.deals,
            "seconds": self.seconds,
            "moves": [m.to_json() for m in self.moves],
            "players": [p._asdict() for p in self.players],
        }


def move_seed(seed: str, number: int) -> int:
    """The seed of move ``number``'s evaluation in a review with seed ``seed``."""
    digest = sha256(f"uptown-analyze\n{seed}\n{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def move_text(game: Game, color: str, move: Move) -> str:
    """``move`` as ``uptown move`` takes it: the colour first when the player has two."""
    mover = game.to_move
    text = game.canonical(move)
    return f"{color} {text}" if mover is not None and len(mover.colors) > 1 and not move.is_pass else text


class Task(NamedTuple):
    """What a worker needs to review one move: the game's players and bags, the moves before
    it and the move itself, and the evaluation's settings."""

    players: tuple[tuple[str, tuple[str, ...]], ...]
    bags: dict[str, list[int]]
    moves: tuple[tuple[str, str], ...]
    number: int
    seed: str
    bot: str
    variant: str
    deals: int | None
    seconds: float | None


def review_move(task: Task, game: Game | None = None) -> MoveReview:
    """Review move ``task.number`` (from 1) of the game: on ``game``, that game at an earlier
    position, played on to the move, when given; else from the start."""
    if game is None or game.ply >= task.number:
        game = Game(task.players, task.bags)
    for color, text in task.moves[game.ply:task.number - 1]:
        game.play(parse_move(text), color)
    color, text = task.moves[task.number - 1]
    return review_position(game, color, parse_move(text), task.number, task.seed, task.bot,
                           task.variant, task.deals, task.seconds)


def review_position(game: Game, color: str | None, played: Move, number: int, seed: str,
                    bot: str = DEFAULT_EVALUATOR, variant: str = "standard",
                    deals: int | None = DEFAULT_DEALS, seconds: float | None = None) -> MoveReview:
    """Review ``played`` (by ``color``) as move ``number`` of ``game``, the position before it,
    whose racks are known; ``game`` is left as it was."""
    mover = game.to_move
    assert mover is not None
    played_color = game.check(played, color)
    played = parse_move(game.canonical(played))
    evaluator = EVALUATORS[bot]
    rng = random.Random(move_seed(seed, number))
    legal = game.legal_moves()
    third = None if seconds is None else seconds / 3  # to find the candidates, or to choose
    finding = None if deals is None else max(1, deals // SEARCH_SHARE)
    candidates = evaluator.candidates(game, rng, variant, finding, third)
    moves = [(played_color, played)] + [m for m in candidates if m != (played_color, played)]
    if len(moves) <= 2:  # one move to compare or none: nothing to choose, no winner's curse
        ranked = list(range(len(moves)))[::-1]
    else:
        choosing = None if deals is None else max(1, deals // CHOOSING_SHARE)
        first = evaluator.evaluate(game, moves, rng, variant, choosing, third)
        ranked = sorted(range(len(moves)), key=lambda i: -first[i].key())
    best = ranked[0]
    measuring = None if seconds is None else 2 * seconds / 3
    if best == 0:
        after = before = evaluator.evaluate(game, moves[:1], rng, variant, deals, measuring)[0]
    else:
        after, before = evaluator.evaluate(game, [moves[0], moves[best]], rng, variant,
                                           deals, measuring)
        if after.key() >= before.key():
            best, before = 0, after
    measured = before.win - after.win
    error = difference_error(before.shares, after.shares)
    after = calibrated(game, moves[0], after)._replace(shares=())
    before = after if best == 0 else calibrated(game, moves[best], before)._replace(shares=())
    loss = max(0.0, before.win - after.win)
    # the noise in the calibrated chance's units (a move that ends the game is not calibrated)
    noise = error * loss / measured if loss > 0 and measured > 0 else error
    variations = tuple(_line(game, *moves[i]) for i in ranked if i != 0)[:2]
    return MoveReview(
        number=number, player=mover.name, color=played_color, move=str(played),
        before=before, after=after,
        best=None if best == 0 else move_text(game, *moves[best]),
        loss=loss, mark=mark(loss, noise), forced=len(legal) == 1, variations=variations,
        noise=noise,
    )


def calibrated(game: Game, colored: ColoredMove, evaluation: Evaluation) -> Evaluation:
    """``evaluation`` of ``colored`` in ``game`` with its chance to win calibrated
    (``calibration.load_calibration``), or as it is when the move ends the game (the playouts
    then tell the result itself)."""
    color, move = colored
    game.play(move, color)
    over = game.finished
    game.pop()
    if over:
        return evaluation
    return evaluation._replace(win=load_calibration()(evaluation.win, len(game.players)))


def _line(game: Game, color: str, move: Move) -> tuple[str, ...]:
    """``move`` and greedy's replies after it (on the game's real racks), as text."""
    line = [move_text(game, color, move)]
    game.play(move, color)
    played = 1
    try:
        while played <= VARIATION_REPLIES and not game.finished:
            reply_color, reply = greedy_choices(game)[0]
            line.append(move_text(game, reply_color, reply))
            game.play(reply, reply_color)
            played += 1
    finally:
        for _ in range(played):
            game.pop()
    return tuple(line)


def tasks(game: Game, bags: dict[str, list[int]], variant: str, bot: str, seed: str,
          deals: int | None = DEFAULT_DEALS, seconds: float | None = None) -> list[Task]:
    """One task per move of ``game`` (played with ``bags``)."""
    if bot not in EVALUATORS:
        raise SetupError(gettext("{bot!r} cannot evaluate moves (those that can: {bots})").format(
            bot=bot, bots=", ".join(EVALUATORS)))
    players = tuple((p.name, p.colors) for p in game.players)
    moves = tuple((turn.color, str(turn.move)) for turn in game.history)
    return [Task(players, bags, moves, n, seed, bot, variant, deals, seconds)
            for n in range(1, len(moves) + 1)]


def review_moves(work: Sequence[Task], jobs: int = 1,
                 cluster: str | None = None) -> Iterator[MoveReview]:
    """Each move's review, in order (the same for any ``jobs``, or on the Dask scheduler at
    ``cluster``), of one game's tasks in turn (as ``tasks`` makes them): with one job, the
    game is played once, move by move."""
    if cluster is None and (jobs <= 1 or len(work) <= 1):
        game = Game(work[0].players, work[0].bags) if work else None
        with stopped_by_signals():  # as in_pool stops: SIGTERM or SIGHUP raise Stopped
            for task in work:  # one game's moves in turn: each played once
                yield review_move(task, game)
        return
    yield from in_pool(review_move, work, jobs, cluster)


def review_games(games: Sequence[Sequence[Task]], jobs: int = 1,
                 cluster: str | None = None) -> Iterator[MoveReview]:
    """Every move's review of several games (each its ``tasks``), game after game, in order:
    with one job each game as ``review_moves`` reviews it; with more, or on a cluster, the
    moves of all the games shared out at once."""
    if cluster is None and jobs <= 1:
        for work in games:
            yield from review_moves(work)
        return
    yield from in_pool(review_move, [task for work in games for task in work], jobs, cluster)


def summarize(moves: Sequence[MoveReview], players: Sequence[Player]) -> list[PlayerReview]:
    """Every player's figures over their moves that had a choice."""
    out = []
    for p in players:
        own = [m for m in moves if m.player == p.name and not m.forced]
        losses = [m.loss for m in own]
        out.append(PlayerReview(
            name=p.name, colors=p.colors, moves=len(own),
            mean_loss=sum(losses) / len(losses) if losses else None,
            inaccuracies=sum(m.mark == "?!" for m in own),
            mistakes=sum(m.mark == "?" for m in own),
            blunders=sum(m.mark == "??" for m in own),
            accuracy=game_accuracy([m.before.win for m in own], losses),
        ))
    return out


def review(game: Game, bags: dict[str, list[int]], variant: str = "standard",
           bot: str = DEFAULT_EVALUATOR, seed: str = "0", deals: int | None = DEFAULT_DEALS,
           seconds: float | None = None, jobs: int = 1) -> Review:
    """The whole review of ``game`` (played with ``bags``), all at once."""
    moves = list(review_moves(tasks(game, bags, variant, bot, seed, deals, seconds), jobs))
    return Review(variant, bot, seed, deals if seconds is None else None, seconds, moves,
                  summarize(moves, game.players))
