"""The player to move: who they are (``player_to_move``), what they see of a game with hidden
racks (``OwnTurn``: their racks, the others' imagined, the link they write), the move a bot
chooses for them (``bot_move``), and their move played with that link (``take_turn``).

Errors are ``ViewerError`` (not this player's turn, not joined), ``IllegalMove``,
``NotationError`` and ``KeyFileError``, each one line.

An open game's move needs none of the hidden racks' modules nor the bots: they are loaded by
the functions that use them, so that ``move`` and ``moves`` start as fast as they did before
them (docs/PERFORMANCE.md, start-up).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from ..engine.game import RACK_SIZE, Game, Turn
from ..engine.players import Player
from ..engine.geometry import square_name
from ..engine.notation import Move
from ..engine.sha256 import sha256
from ..errors import IllegalMove, NotationError, Reason, ViewerError
from ..i18n import _, names_list, ngettext
from ..pictures.tile_names import written_move_label
from ..records.names import player_named
from ..records.schema import Record

if TYPE_CHECKING:
    from ..fairplay.check import HiddenCheck
    from ..fairplay.viewer import HiddenView
    from ..records.hidden_fields import HiddenFields

__all__ = ["OwnTurn", "player_to_move", "own_turn", "seen_at_turn", "secret_seed", "bot_move",
           "unstamped", "take_turn", "suspect_warning"]


class OwnTurn:
    """The player to move in a game with hidden racks, as their own key shows it: ``game``
    knows their racks (the others' drawn at random to fit the moves, as a bot's view),
    ``link(colour, move_text, stamp)`` is what they write with their move, and ``bot_seed``
    seeds a bot from their secret key and the record (``secret_seed``). ``warning`` names the
    passes set aside because no deal fits them, and a change the seals prove (None when there
    is neither)."""

    __slots__ = ("record", "name", "key", "check", "game", "warning", "bot_seed")

    def __init__(self, record: Record, name: str, key: bytes, check: HiddenCheck, game: Game,
                 warning: str | None = None) -> None:
        self.record, self.name, self.key, self.check, self.game = record, name, key, check, game
        self.warning = warning
        self.bot_seed = secret_seed(key, record)

    def view_after(self, turn: Turn, link: str) -> HiddenView:
        """What the mover sees once their move (``turn``, written with ``link``) is played:
        their racks, with the draw still to come."""
        from ..fairplay.viewer import HiddenView

        self.check.deal.act(turn.player, turn.color, turn.move, bytes.fromhex(link[:64]))
        return HiddenView(self.record, self.name, self.check.deal)

    def link(self, color: str, move_text: str, stamp: Mapping[str, str]) -> str:
        """The link the mover writes with their move ``move_text`` from rack ``color``, and
        ``stamp`` (``at``...) under it: the seal covers the stamp as it is written."""
        from ..fairplay.check import own_link

        turn = self.check.deal.turns[self.name] + 1
        digest, previous_seal = self.check.history()  # with the pauses since the last move
        return own_link(self.record, self.name, self.key, turn, color, move_text,
                        digest, previous_seal, stamp)


def player_to_move(game: Game, as_name: str | None, path: str, writes: bool = True) -> Player:
    """The player to move, refusing a finished game and acting for someone else (``as_name``,
    when given); ``writes`` says whether the command would have written the file."""
    player = game.to_move
    if player is None:
        raise ViewerError((_("the game in {path} is over; nothing was written") if writes else
                           _("the game in {path} is over")).format(path=path))
    if as_name is None:
        return player
    if player_named(game.players, as_name) != player.name:
        raise ViewerError((_("it is {name}'s turn, not {as_name}'s; nothing was written")
                           if writes else _("it is {name}'s turn, not {as_name}'s"))
                          .format(name=player.name, as_name=as_name))
    return player


def secret_seed(key: bytes, record: Record) -> str:
    """What seeds a bot for the holder of ``key`` in the game of ``record``: their secret key
    with the record, so that nobody can replay the bot's choices from the public file."""
    return sha256(key + record.text.encode("utf-8")).hexdigest()


def own_turn(record: Record, game: Game, as_name: str | None, keys: str | None) -> OwnTurn:
    """The ``OwnTurn`` of a game with hidden racks, for the player to move, who gives their
    name (``as_name``) and whose key is in ``keys`` (default: their key folder)."""
    import random

    from ..analysis.deals import imagined_game
    from ..fairplay.check import not_started
    from ..fairplay.draws import bags_from_draws
    from ..fairplay.viewer import own_view, player_key, seal_alert

    player = cast("Player", game.to_move)
    waiting = [p.name for p in record.players
               if p.name not in cast("HiddenFields", record.hidden).joined()]
    if waiting:
        raise ViewerError(not_started(waiting))
    if as_name is None:
        raise ViewerError(_("{path} has hidden racks: run it with --as {name} (your key file "
                            "proves who you are)").format(path=record.path, name=player.name))
    name = player_named(record.players, as_name)
    if name != player.name:
        raise ViewerError(_("it is {name}'s turn, not {as_name}'s")
                          .format(name=player.name, as_name=name))
    key = player_key(record, name, keys)
    _game, check = own_view(record, name, key)
    own_bags = _fitted(bags_from_draws(check.deal.drawn, player.colors), game)
    view, suspects = imagined_game(game, player, own_bags, random.Random())
    alert = seal_alert(record, check, name)
    lines = [suspect_warning(suspects)] + ([_("Warning: {alert}").format(alert=alert)] if alert
                                           else [])
    return OwnTurn(record, name, key, check, view, "\n".join(filter(None, lines)) or None)


def seen_at_turn(record: Record, game: Game, as_name: str | None,
                 keys: str | None) -> tuple[Game, OwnTurn | None]:
    """(the game as the player to move sees it, their ``OwnTurn``) in a game with hidden racks;
    (``game``, None) in an open game, where ``as_name`` (when given) must name the player to
    move."""
    if record.hidden is None:
        player_to_move(game, as_name, record.path, writes=False)
        return game, None
    seen = own_turn(record, game, as_name, keys)
    return seen.game, seen


def _fitted(bags: dict[str, list[int]], game: Game) -> dict[str, list[int]]:
    """``bags`` in which every tile placed on the board is drawn by then: a move changed after
    its mover played it (the seals prove it, and the view says so) may show a tile its mover
    never drew. That tile takes the place of the last one drawn before it, which comes next;
    the tile the mover did play stays on their rack. Unchanged when nothing was changed."""
    fitted = {color: list(bag) for color, bag in bags.items()}
    placed = dict.fromkeys(fitted, 0)
    for turn in game.history:
        if turn.move.is_pass or turn.color not in fitted:
            continue
        bag, count = fitted[turn.color], placed[turn.color]
        if turn.move.tile not in bag[:RACK_SIZE + count]:
            bag.remove(turn.move.tile)
            bag.insert(RACK_SIZE + count - 1, turn.move.tile)
        placed[turn.color] += 1
    return fitted


def suspect_warning(suspects: list[Turn]) -> str | None:
    """One line naming the passes (``Turn``) that no deal of the other racks fits, and whose
    they are; None when there are none. The mover's own moves do not depend on them."""
    if not suspects:
        return None
    owners: dict[str, list[str]] = {}
    for turn in suspects:
        owners.setdefault(turn.player.name, []).append(str(turn.number))
    parts = [_("{name}'s pass at move {number}").format(name=name, number=numbers[0])
             if len(numbers) == 1 else
             _("one of {name}'s passes (moves {numbers})").format(name=name,
                                                                  numbers=", ".join(numbers))
             for name, numbers in owners.items()]
    return ngettext("Warning: {passes} looks unforced; checked when {who} reveals",
                    "Warning: {passes} look unforced; checked when {who} reveal",
                    len(owners)).format(passes=names_list(parts), who=names_list(owners))


def bot_move(bot: str, game: Game, record: Record, playouts: int | None,
             seen_by: OwnTurn | None = None) -> tuple[str, Move]:
    """(colour, Move) that ``bot`` plays in the game of ``record``. In an open game (every
    rack public) the same record gives the same move; with hidden racks the bot is seeded
    from the player's secret key with the record (``secret_seed``), so the public file does
    not tell what it drew."""
    from ..analysis.bots import choose_move

    options = {"playouts": playouts} if playouts else {}
    seed = unstamped(record.text) if seen_by is None else seen_by.bot_seed
    return choose_move(bot, game, seed=seed, variant=record.variant, **options)


def unstamped(text: str) -> str:
    """A record's text without its game id and the times (and stand-ins' names, signatures)
    under its moves: what seeds a bot in an open game, so that neither when a move was made,
    nor which of two games dealt alike by one seed it is, changes the bot's choice."""
    if "at:" not in text and "game:" not in text:
        return text
    return re.sub(r"(?m)^(?:[ \t]+(?:at|by|bot|sig)|game):[^\n]*\n", "", text)


def take_turn(game: Game, chosen: Move, rack: str | None, seen_by: OwnTurn | None = None,
              stamp: Mapping[str, str] | None = None) -> tuple[Turn, str | None]:
    """(the Turn, the link its mover writes with ``stamp`` under the move, None in an open
    game): ``chosen`` played on ``game`` from ``rack`` (None: the player's only rack, or the
    one the move fits). A capture
    marked on an empty square (a ``NotationError``), and a move two racks could play, are
    refused with the way to write them."""
    if not chosen.is_pass and chosen.capture and game.at(chosen.square) is None:
        raise NotationError(_(
            "{chosen} marks a capture, but {square} is empty (write {chosen2})").format(
            chosen=chosen, square=square_name(chosen.square), chosen2=game.canonical(chosen)))
    try:
        turn = game.play(chosen, rack)
    except IllegalMove as exc:
        if exc.reason is not Reason.AMBIGUOUS_COLOR:
            raise
        raise IllegalMove(exc.reason, _("{exc} (name the rack: {example}, or --rack)")
                          .format(exc=exc, example=written_move_label("red 7 B7"))) from None
    link = None if seen_by is None else seen_by.link(turn.color, str(turn.move), stamp or {})
    return turn, link
