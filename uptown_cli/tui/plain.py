"""``uptown play --plain``: the game as lines, for screen readers, pipes and scripts. The board
as ``uptown show`` draws it, whose turn it is and the player's racks, then a prompt; one move
(or key) a line on standard input; the bots' answers as lines. The end of the input quits
(the file is written after every move, as ``uptown move`` writes it). ``uptown review
--plain``: every move's review as lines (``review_lines``)."""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.reasons import chances_text
from ..engine.scoring import standings
from ..errors import UptownError
from ..i18n import _, ngettext
from ..records.annotations import MARK_WORDS
from ..pictures.table import plain_table
from ..pictures.text import (board_text, rack_label, standings_rows, turn_text, wrap_line,
                             winner_text)
from ..pictures.tile_names import move_label, written_move_label
from ..engine.geometry import shown_color
from .session import BOT, HAND, OVER, Session, typed_move
from .studied import Study

__all__ = ["keys_text", "racks_line", "waiting_text", "thinking_text", "taken_text", "play_lines",
           "review_text", "review_lines"]

def keys_text() -> list[str]:
    """What can be typed, one line each, in the language in use."""
    return [_("A move: a tile and a square (7 B7), the rack first when both of yours hold "
              "the tile (red 7 B7), or pass."),
            _("h: a hint (what the strongest bot would play; nothing is written)."),
            _("u: take back your last move and the bots' answers (games against bots)."),
            _("?: these keys."),
            _("q: quit; the game is written after every move, and uptown play FILE goes on "
              "with it.")]


def racks_line(session: Session) -> str:
    """Whose turn it is here, with the racks shown to them."""
    mover = session.mover
    assert mover is not None  # asked while the game goes on
    racks = "; ".join(f"{shown_color(c)} {rack_label(tiles)}"
                      for c, tiles in session.racks().items())
    return _("{name} to move, rack: {racks}").format(name=mover.name, racks=racks)


def waiting_text(session: Session) -> str:
    """That the player to move is not one who plays here."""
    mover = session.mover
    assert mover is not None  # asked while the game goes on
    if session.as_name is not None:
        return _("{name} to move: the game waits for them (you play as {you}).").format(
            name=mover.name, you=session.opened.as_name)
    return _("{name} to move: nothing to play here (a game with hidden racks or by email is "
             "played with --as NAME).").format(name=mover.name)


def thinking_text(session: Session) -> str:
    """That the bot to move is choosing: ``horizon (horizon 512) is thinking...``."""
    mover = session.mover
    assert mover is not None  # asked at a bot's turn
    return _("{name} ({bot}) is thinking...").format(name=mover.name,
                                                     bot=session.bot_seat().written())


def taken_text(count: int) -> str:
    """What a takeback took back."""
    return ngettext("Taken back: the last move.", "Taken back: the last {count} moves.",
                    count).format(count=count)


def play_lines(session: Session, read_line: Callable[[str], str | None],
               say: Callable[[str], None]) -> None:
    """Play ``session`` as lines: ``say`` prints one, ``read_line(prompt)`` reads the next
    (None at the end of the input)."""
    shown = -1
    while True:
        turn, game = session.turn(), session.game
        if turn == OVER:
            say(board_text(game))
            rows, headers = standings_rows(session.standings(), session.opened.record.variant)
            say(plain_table(rows, headers))
            say(winner_text(session.standings()))
            return
        if turn == BOT:
            say(thinking_text(session))
            played = session.bot_turn()
            say(_("Move {number}: {text}").format(number=played.turn.number,
                                                  text=turn_text(played.turn)))
            continue
        if shown != game.ply:
            shown = game.ply
            say(board_text(game))
            if turn != HAND:
                say(waiting_text(session))
                return
            say("\n".join(wrap_line(racks_line(session))))
        line = read_line(_("Your move (? for the keys):"))
        if line is None or line.strip().lower() == "q":
            say(_("The game is in {path}; uptown play {path} goes on with it.").format(
                path=session.path))
            return
        _act(session, line.strip(), say)


def _act(session: Session, typed: str, say: Callable[[str], None]) -> None:
    """Do what the player typed: a key, or a move (its refusal said in one line)."""
    try:
        if typed == "?":
            for line in keys_text():
                say(line)
        elif typed.lower() == "h":
            hint = session.hint()
            say(_("{bot} suggests: {move}").format(
                bot=hint.bot, move=f"{shown_color(hint.rack)} {move_label(hint.move)}"))
        elif typed.lower() == "u":
            taken = session.take_back()
            say(taken_text(taken.taken))
        elif typed:
            rack, move = typed_move(typed)
            played = session.play(rack, move)
            say(_("Move {number}: {text}").format(number=played.turn.number,
                                                  text=turn_text(played.turn)))
    except UptownError as exc:
        say(_("Refused: {reason}").format(reason=exc))


def review_text(study: Study, number: int) -> list[str]:
    """What the review says of move ``number`` (from 1): the move and its mark, the mover's
    chances and whose knowledge they come from, why a marked move was worse, the best line."""
    review = study.reviews[number - 1]
    turn = study.game.history[number - 1]
    if review.mark:
        head = _("Move {number}: {text} {mark} ({mark_word})").format(
            number=number, text=turn_text(turn), mark=review.mark,
            mark_word=_(MARK_WORDS[review.mark]))
    else:
        head = _("Move {number}: {text}").format(number=number, text=turn_text(turn))
    lines = [head, chances_text(review)]
    if review.mark is not None:
        why = study.reason(number)
        if why is not None:
            lines.append(why[0].upper() + why[1:] + ".")
    if review.best is not None and review.variations:
        lines.append(_("Best line: {moves}").format(
            moves=", ".join(written_move_label(m) for m in review.variations[0])))
    return lines


def review_lines(study: Study, say: Callable[[str], None]) -> None:
    """The whole review as lines (analysing the game first when it was not)."""
    if not study.annotated:
        say(_("Analysing {count} moves from what each mover could know...").format(
            count=study.moves))
        for _reviewed in study.analyse():
            pass
    for number in range(1, study.moves + 1):
        for line in review_text(study, number):
            say(line)
    if study.game.finished:
        say(winner_text(standings(study.game, study.record.variant)))
