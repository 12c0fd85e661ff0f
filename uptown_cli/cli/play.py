"""Commands of a game in play: ``move``, ``moves`` and ``hint``."""

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ..engine.geometry import shown_color
from ..engine.notation import FORFEIT, PASS
from .loading import game_path, read_game, warn
from ..i18n import _, ngettext
from .options import (
    COLOR_CHOICE,
    as_option,
    BOT_NAMES,
    check_playouts,
    color_options,
    F,
    file_argument,
    json_option,
    keys_option,
    output_options,
    playouts_option,
    sendmail_option,
)
from .output import lock_notice, Output, use_color
from ..errors import display_path

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.notation import Move
    from ..records.schema import Record

__all__: list[str] = []


def seen_at_turn(record: "Record", game: "Game", as_name: str | None,
                 keys: str | None) -> "Game":
    """The game as the player to move sees it (``turns.own_turn.seen_at_turn``), their
    warning (passes set aside, a change the seals prove) on standard error."""
    from ..turns.own_turn import seen_at_turn as seen

    game, own = seen(record, game, as_name, keys)
    warn([own.warning] if own is not None and own.warning else [])
    return game


# -- move ------------------------------------------------------------------------------------


def split_file(words: Sequence[str]) -> tuple[str, Sequence[str]]:
    """(FILE, the move's words): the first word is FILE when it ends in .yaml/.yml or names an
    existing file (a folder named like a tile, ``H``, stays part of the move)."""
    first = words[0] if words else ""
    if first == "-" or first.lower().endswith((".yaml", ".yml")) or os.path.isfile(first):
        return words[0], words[1:]
    return game_path(None), words


def bot_option(command: F) -> F:
    command = playouts_option()(command)
    return click.option("--bot", type=click.Choice(BOT_NAMES), help="Let a bot choose the move.")(command)


def typed_move(words: Sequence[str]) -> "Move":
    """The Move written as ``words``, or a one-line ClickException."""
    from ..engine.notation import parse_move
    from ..pictures.tile_names import canonical_move

    return parse_move(canonical_move(" ".join(words)))


def _fold(text: str) -> str:
    """``text`` as completion compares it: case folded (and, past ASCII, without accents)."""
    if text.isascii():
        return text.lower()
    from ..pictures.tile_names import fold

    return fold(text)


def complete_move(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for ``uptown move``: the tiles, then the squares, of the legal moves of
    the player to move (with hidden racks, of the player ``--as`` names, from their key)."""
    from ..fairplay.replay import replay
    from ..records.reading import load_record
    from ..turns.own_turn import seen_at_turn as seen

    from .options import completed_files

    path, words = split_file(list(ctx.params.get("words") or ()))
    files = completed_files(incomplete) if incomplete and not ctx.params.get("words") else []
    if not os.path.isfile(path):
        return files
    try:
        record = load_record(path)
        game = replay(record).game
        if record.hidden is not None and not game.finished and not game.knows_racks:
            game = seen(record, game, ctx.params.get("as_name"), ctx.params.get("keys"))[0]
        legal = [] if game.finished or not game.knows_racks else game.legal_moves()
    except (ValueError, click.ClickException):  # every UptownError is a ValueError
        return files
    from ..pictures.tile_names import canonical_move, move_label, rack_named

    rack, words = rack_named(words)
    texts = [str(move).split() for color, move in legal if rack in (None, color)]
    if not words:  # the tiles by their names in the language in use (English: the notation)
        shown = {move_label(move).split()[0] for color, move in legal if rack in (None, color)}
        return files + sorted(c for c in shown if _fold(c).startswith(_fold(incomplete)))
    tile = canonical_move(f"{words[0]} A1").split()[0].lower()  # a Spanish name, or the notation's
    choices = {text[1] for text in texts if len(text) == 2 and text[0].lower() == tile}
    return files + sorted(c for c in choices if c.lower().startswith(incomplete.lower()))


@click.command()
@click.argument("words", nargs=-1, metavar="[FILE] MOVE", shell_complete=complete_move)
@as_option()
@click.option("--rack", type=COLOR_CHOICE, help="The rack to play from (two players).")
@click.option("--for", "for_name", metavar="NAME", help="Write NAME's turn for them, once they "
              "are out of time, as the game's late policy allows: MOVE is pass or forfeit "
              "(needs --as ME).")
@bot_option
@click.option("--dry-run", is_flag=True, help="Show what the move would do; write nothing.")
@click.option("--send", is_flag=True, help="Then email the game to the next player "
              "(as uptown send does).")
@sendmail_option
@keys_option
@output_options
@color_options
def move(words: Sequence[str], as_name: str | None, rack: str | None, for_name: str | None,
         bot: str | None, playouts: int | None, dry_run: bool, send: bool, sendmail: bool,
         keys: str | None, as_json: bool, table_format: str, color: str, no_color: bool) -> None:
    """Play a move and append it to FILE.

    MOVE is played for the player to move: 7 B7, or 7 and B7 as two words, or pass; with two
    players it may start with the rack (red 7 B7); forfeit resigns. The new board, the tile
    drawn and who is next are printed. With --as NAME, it is refused unless it is NAME's turn.
    With --for NAME, another player writes a pass or a forfeit for NAME once NAME is out of
    time, as the game's clock and late policy allow (docs/DEADLINES.md).

    \b
    Examples:
      uptown move 7 B7
      uptown move club.yaml sax xE8 --as Bo
      uptown move --dry-run pass
    """
    from ..engine.scoring import standings
    from ..pictures.text import (
        board_text,
        drawn_text,
        standings_rows,
        to_move_text,
        turn_data,
        turn_text,
    )
    from ..turns.acts import play_move, seat_to_move
    from ..turns.game_files import open_game
    from ..pictures.tile_names import rack_named
    from ..turns.own_turn import bot_move
    from .timing import now

    path, words = split_file(words)
    # One word or several: "red 7 B7" (as `moves --json` writes it) is red 7 B7.
    typed_rack, words = rack_named(" ".join(words).split())
    if path == "-":
        raise click.UsageError(_("move writes to FILE; standard input cannot be used"))
    if typed_rack and rack and typed_rack != rack:
        raise click.UsageError(_("the move names the {typed_rack} rack, but --rack says {rack}")
                               .format(typed_rack=shown_color(typed_rack),
                                       rack=shown_color(rack)))
    rack = rack or typed_rack
    if bot and (words or rack):
        raise click.UsageError(_("--bot chooses the move and its rack: give no move and no --rack"))
    check_playouts(playouts, bot)
    if sendmail and not send:
        raise click.UsageError(_("--sendmail goes with --send"))
    if send and dry_run:
        raise click.UsageError(_("--dry-run writes nothing, so there is nothing to --send"))
    if send:
        from .club import check_mail_settings

        check_mail_settings(sendmail)
    if words:  # pass and forfeit as typed in the language in use (pasar, abandonar)
        from ..pictures.tile_names import canonical_move

        words = canonical_move(" ".join(words)).split()
    if for_name is not None or (not bot and [w.lower() for w in words] == [FORFEIT]):
        write_turn_for(path, ["bot"] if bot else words, as_name, for_name, keys, dry_run, send,
                       sendmail, as_json, bot)
        return
    if not bot and not words:
        raise click.UsageError(_("which move? e.g. uptown move 7 B7 (or pass)"))
    moment = now()
    opened = open_game(path, as_name, keys, now=moment)  # with --as, NAME's view warns
    warn(opened.warnings)
    seat = seat_to_move(opened, rack, bot)
    warn([seat.own.warning] if seat.own is not None and seat.own.warning else [])
    rack, chosen = (bot_move(bot, seat.game, opened.record, playouts, seat.own) if bot
                    else (rack, typed_move(words)))
    played = play_move(opened, seat, chosen, rack, now=moment, dry_run=dry_run,
                       on_wait=lock_notice(path))
    turn, game = played.turn, played.game
    out = Output(as_json, table_format)
    if as_json:
        data = turn_data(turn)
        if played.link is not None:
            data["drawn"] = None  # known to the player only once the next player has moved
        out.json({**data, "written": not dry_run, "finished": game.finished,
                  "to_move": None if game.to_move is None else game.to_move.name})
        if send:
            click.echo(_send_on(path, as_name or seat.player.name, sendmail), err=True)
        return
    out.text((_("Move {number}: {text} (dry run: nothing was written)") if dry_run else
              _("Move {number}: {text}")).format(number=turn.number, text=turn_text(turn)))
    colored = use_color(color, no_color)
    out.text(board_text(game, colored), color=colored)
    out.text(drawn_text(game, turn, played.view))
    out.text(to_move_text(game, played.view))
    if game.finished:
        out.table(*standings_rows(standings(game, opened.record.variant), opened.record.variant),
                  title=_("Final standings:"))
    if send:
        click.echo(_send_on(path, as_name or seat.player.name, sendmail))


def write_turn_for(path: str, words: Sequence[str], as_name: str | None, for_name: str | None,
                   keys: str | None, dry_run: bool, send: bool, sendmail: bool,
                   as_json: bool, bot: str | None = None) -> None:
    """``move forfeit`` (resign at one's turn) and ``move --for NAME pass|forfeit|--bot`` (for
    a player out of time: ``turns.acts.resign``, ``stand_in``)."""
    from ..turns.acts import resign, said_action, stand_in
    from ..turns.game_files import open_game
    from .timing import now

    action = " ".join(words).lower()
    if action not in (str(PASS), FORFEIT) and not (bot and for_name):
        raise click.UsageError(_("with --for, MOVE is pass or forfeit, or --bot"))
    if for_name is not None and as_name is None:
        raise click.UsageError(_("--for needs --as ME: the record says who wrote it"))
    moment = now()
    opened = open_game(path, as_name, keys, now=moment, alerts=True)
    warn(opened.warnings)
    if for_name is None:
        done = resign(opened, now=moment, dry_run=dry_run, on_wait=lock_notice(path))
    else:
        done = stand_in(opened, for_name, action, now=moment, bot=bot, dry_run=dry_run,
                        on_wait=lock_notice(path))
    finished, nxt = done.game.finished, done.game.to_move
    if as_json:
        Output(True).json({"number": done.number, "player": done.player.name,
                           "action": done.action, "by": done.by, "written": not dry_run,
                           "finished": finished, "to_move": None if nxt is None else nxt.name})
    else:
        move = _("Move {number}: {colour} ({name}) {action}").format(
            number=done.number, colour=shown_color(done.color), name=done.player.name,
            action=said_action(done.action))
        if done.bot is not None:
            move = _("Move {number}: {colour} ({name}) {action}, played by {bot} for {name}, out "
                     "of time ({writer} asked)").format(
                number=done.number, colour=shown_color(done.color), name=done.player.name,
                action=said_action(done.action), bot=done.bot, writer=done.by)
        elif done.by is not None:
            move = _("Move {number}: {colour} ({name}) {action}, written by {writer} for {name} "
                     "(out of time)").format(
                number=done.number, colour=shown_color(done.color), name=done.player.name,
                action=said_action(done.action), writer=done.by)
        click.echo(_("{line} (dry run: nothing was written)").format(line=move) if dry_run
                   else move)
        if finished:
            from ..engine.scoring import standings
            from ..pictures.text import standings_rows

            variant = opened.record.variant
            Output(False).table(*standings_rows(standings(done.game, variant), variant),
                                title=_("Final standings:"))
        elif nxt is not None:
            click.echo(_("{name} to move.").format(name=nxt.name))
    if send:
        from .club import send_after_move

        line = send_after_move(path, done.by or done.player.name, sendmail)
        if line:
            click.echo(line, err=as_json)


def _send_on(path: str, as_name: str, sendmail: bool) -> str | None:
    """``move --send``: ``cli.club.send_after_move`` (the club's modules loaded only then)."""
    from .club import send_after_move

    return send_after_move(path, as_name, sendmail)


# -- moves and hint --------------------------------------------------------------------------


@click.command()
@file_argument
@as_option()
@keys_option
@output_options
def moves(file: str | None, as_name: str | None, keys: str | None, as_json: bool,
          table_format: str) -> None:
    """List the legal moves of the player to move.

    The racks must be known: the game needs a seed, or, with hidden racks, the player to move
    gives --as with their name. With --json, every move is written so that uptown move takes it
    as it is (with its rack first where both racks could play it).
    """
    from ..pictures.text import moves_data, moves_rows
    from ..turns.game_files import remember_seen

    path, record, game = read_game(file, as_name=as_name, keys=keys)
    if not game.finished:
        game = seen_at_turn(record, game, as_name, keys)
    remember_seen(record, as_name, keys)
    if not game.finished and not game.knows_racks:
        raise click.ClickException(_("{path} has no seed, so the racks and legal moves are unknown")
                                   .format(path=display_path(path)))
    legal = [] if game.finished else game.legal_moves()
    out = Output(as_json, table_format)
    if as_json:
        out.json(moves_data(game, legal))
    elif game.finished:
        out.text(_("The game is over: there are no moves."))
    else:
        player = game.to_move
        assert player is not None  # a game not finished has a player to move
        title = ngettext("{name} to move ({colours}): {count} legal move",
                         "{name} to move ({colours}): {count} legal moves", len(legal)).format(
            name=player.name, colours=", ".join(map(shown_color, player.colors)), count=len(legal))
        rows, headers = moves_rows(legal)
        out.table(out.wrapped(rows, 2, 56), headers, title=title)


@click.command()
@file_argument
@click.option("--bot", type=click.Choice(BOT_NAMES),
              help="The bot asked [default: the strongest, as h in uptown play asks].")
@playouts_option()
@as_option()
@keys_option
@json_option
def hint(file: str | None, bot: str | None, playouts: int | None, as_name: str | None,
         keys: str | None, as_json: bool) -> None:
    """Suggest a move for the player to move (nothing is written).

    The bot sees only what the player to move may know.
    """
    if bot is None:
        from ..turns.bot_games import DEFAULT_LEVEL, LEVELS

        bot, playouts = LEVELS[DEFAULT_LEVEL].bot, playouts or LEVELS[DEFAULT_LEVEL].playouts
    check_playouts(playouts, bot)
    path, record, game = read_game(file, as_name=as_name, keys=keys)
    from ..turns.game_files import remember_seen
    from ..turns.own_turn import bot_move, player_to_move, seen_at_turn as seen

    player = player_to_move(game, None, record.path, writes=False)
    game, own = seen(record, game, as_name, keys)
    warn([own.warning] if own is not None and own.warning else [])
    rack, chosen = bot_move(bot, game, record, playouts, own)
    remember_seen(record, as_name, keys)
    text = f"{rack} {chosen}" if len(player.colors) > 1 else str(chosen)
    if as_json:
        Output(as_json).json({"to_move": player.name, "bot": bot, "color": rack, "move": text})
        return
    from ..pictures.tile_names import move_label, written_move_label

    shown = f"{shown_color(rack)} {move_label(chosen)}" if len(player.colors) > 1 else move_label(chosen)
    click.echo(_("{bot} suggests for {name}: {move}").format(bot=bot, name=player.name, move=shown))
    who = f" --as {player.name}" if record.hidden is not None else ""
    click.echo(_("To play it: {command}").format(
        command=f"uptown move {display_path(path)} {written_move_label(text)}{who}"))


COMMANDS = {command.name: command for command in (move, moves, hint)}
