"""Why a move was marked, in words: what the better move a review found (``review``'s
``MoveReview.best``) changes against the move played, in the mover's groups, in what it
captures, and in what it leaves open to a capture by the next player, with the mover's chances
(``chances_text``) as the review measured them. Every figure comes from what the mover could
know: the squares left open are counted over deals of the tiles they could not see
(``deals.sample_bags``), never from the others' real racks.

``reason(game, review)`` gives one line, ``a better move: 5 E5, which joins two of your
groups; your move leaves green open to a capture on D4 (likely: 70%)``, in the language in
use; None for a move that was the best found.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..engine.game import Game
from ..engine.players import Player
from ..engine.geometry import shown_color, square_name
from ..errors import IllegalMove, NotationError, SetupError
from ..engine.notation import Move
from ..i18n import _, ngettext
from ..pictures.tile_names import captured_tile, written_move_label
from ..records.annotations import parse_line_move
from .deals import sample_bags
from .review import MoveReview

__all__ = ["EXPOSURE_DEALS", "LIKELY", "Outcome", "outcome", "reason", "chances_text"]

EXPOSURE_DEALS = 24
"""The deals of the unseen tiles over which a square's risk of capture is counted."""

LIKELY = 0.5
"""The least share of those deals in which the next player can capture a tile for it to be
said to be left open."""


class Outcome(NamedTuple):
    """What one move does for its mover: their ``groups`` after it, the tile it ``took`` (the
    victim's colour, the tile, the square; None), and the mover's squares the next player can
    capture with the share of deals in which they can (``open``, best first)."""

    groups: int
    took: tuple[str, int, int] | None
    open: tuple[tuple[int, float], ...]


def outcome(game: Game, color: str, move: Move, deals: list[Game]) -> Outcome:
    """What ``move`` from ``color`` does in ``game`` (left as it was); ``deals`` are the
    position redealt as the mover may imagine it (``_deals``)."""
    mover = game.to_move
    assert mover is not None  # a position with a move to play
    turn = game.play(move, color)
    try:
        groups = game.player_groups(mover)
        took = None if turn.captured is None else (*turn.captured, move.square)  # type: ignore[union-attr]
    finally:
        game.pop()
    return Outcome(groups, took, _open_squares(mover, color, move, deals))


def _deals(game: Game, rng: random.Random) -> list[Game]:
    """``game`` redealt ``EXPOSURE_DEALS`` times as its mover may imagine the tiles they cannot
    see (none when the racks are unknown, or no deal fits)."""
    if not game.knows_racks:
        return []
    try:
        return [game.redealt(sample_bags(game, rng)) for _ in range(EXPOSURE_DEALS)]
    except SetupError:
        return []


def _open_squares(mover: Player, color: str, move: Move,
                  deals: list[Game]) -> tuple[tuple[int, float], ...]:
    """The mover's squares the next player can capture after ``move``, each with the share
    of ``deals`` in which they can, when it is at least ``LIKELY``."""
    counts: dict[int, int] = {}
    for dealt in deals:
        dealt.play(move, color)
        try:
            taken = set()
            if dealt.to_move is not None and dealt.to_move != mover:
                for _color, reply in dealt.legal_moves():
                    if reply.is_pass:
                        continue
                    held = dealt.at(reply.square)
                    if held is not None and held[0] in mover.colors:
                        taken.add(reply.square)
        finally:
            dealt.pop()
        for sq in taken:
            counts[sq] = counts.get(sq, 0) + 1
    shares = {sq: n / len(deals) for sq, n in counts.items()}
    return tuple(sorted(((sq, share) for sq, share in shares.items() if share >= LIKELY),
                        key=lambda item: (-item[1], item[0])))


def reason(game: Game, review: MoveReview, seed: int = 0) -> str | None:
    """Why ``review``'s move (played in ``game``, the position before it, its racks known) was
    worse than the better move found, in one line; None when it was the best found or the
    better move cannot be played here."""
    if review.best is None:
        return None
    try:
        best_color, best = parse_line_move(review.best)
        played_color = game.check(_move(review.move), review.color)
        best_color = game.check(best, best_color)  # type: ignore[arg-type]
    except (NotationError, IllegalMove):
        return None
    deals = _deals(game, random.Random(seed))
    groups = game.player_groups(game.to_move) if game.to_move is not None else 0
    mine = outcome(game, played_color, _move(review.move), deals)
    better = outcome(game, best_color, best, deals)  # type: ignore[arg-type]
    why = _better_clause(game, groups, mine, better)
    yours = _played_clause(game, mine, better, review)
    move = written_move_label(review.best)
    if why is None:
        return _("a better move: {move}; {yours}").format(move=move, yours=yours)
    return _("a better move: {move}, {why}; {yours}").format(move=move, why=why, yours=yours)


def _move(text: str) -> Move:
    return parse_line_move(text)[1]  # type: ignore[return-value]


def _better_clause(game: Game, groups: int, mine: Outcome, better: Outcome) -> str | None:
    """What the better move does that the move played does not, or None."""
    if better.groups < mine.groups:
        if better.groups < groups:
            return _("which joins two of your groups")
        return ngettext("which keeps you at {count} group", "which keeps you at {count} groups",
                        better.groups).format(count=better.groups)
    if better.took is not None and mine.took is None:
        # TRANSLATORS: {tile} is the captured tile with its colour (the "captured tile" entries:
        # "que captura la G roja de Bo en B7")
        return _("which takes {victim}'s {tile} on {square}").format(
            **_tile_words(game, better.took))
    if not better.open and mine.open:
        return _("which leaves nothing of yours open to a capture")
    return None


def _played_clause(game: Game, mine: Outcome, better: Outcome, review: MoveReview) -> str:
    """What the move played does worse, or what it leaves of the mover's chances."""
    if mine.groups > better.groups:
        return ngettext("your move leaves you {count} group", "your move leaves you {count} groups",
                        mine.groups).format(count=mine.groups)
    exposed = [item for item in mine.open if item[0] not in dict(better.open)]
    if exposed:
        square, share = exposed[0]
        held = game.at(square)
        colour = shown_color(held[0] if held is not None else review.color)
        return _("your move leaves {colour} open to a capture on {square} (likely: "
                 "{percent}%)").format(colour=colour, square=square_name(square),
                                       percent=round(100 * share))
    if mine.took is not None and better.took is None and game.variant == "blockers":
        return _("your capture adds to your score (Blockers!)")
    return _("your move leaves you a {after}% chance to win, the better one {before}%").format(
        after=round(100 * review.after.win), before=round(100 * review.before.win))


def _tile_words(game: Game, took: tuple[str, int, int]) -> dict[str, str]:
    victim, tile, square = took
    return {"victim": game.owner(victim).name, "tile": captured_tile(victim, tile),
            "square": square_name(square)}


def chances_text(review: MoveReview) -> str:
    """The mover's chances before and after their move, saying whose knowledge they are
    computed from."""
    return _("{name}'s chance to win, from what {name} could know: {before}% before the move "
             "(with the best move found), {after}% after it.").format(
        name=review.player, before=round(100 * review.before.win),
        after=round(100 * review.after.win))
