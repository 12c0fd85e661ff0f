"""Commands that look at records: ``show``, ``replay``, ``score``, ``validate`` and ``diff``."""

import itertools
import os
import sys
from typing import TYPE_CHECKING

import click

from .exits import ExitStatus
from ..errors import display_path
from ..i18n import _, names_list, ngettext
from .loading import (
    game_path,
    listed_records,
    PROGRESS_MIN_FILES,
    read_game,
    record_files,
    replay_valid,
)
from .options import (
    VARIANT_CHOICE,
    as_option,
    color_options,
    file_argument,
    json_option,
    keys_option,
    output_options,
)
from .output import Output, page, use_color
from ..turns.game_files import NO_SUCH_FILE, open_record

if TYPE_CHECKING:
    from datetime import datetime

    from ..turns.validation import Validation
    from ..records.schema import Record
    from ..fairplay.viewer import HiddenView

__all__: list[str] = []


@click.command()
@file_argument
@click.option("--at", type=click.IntRange(min=0), metavar="N", help="Show the position after N moves.")
@as_option()
@keys_option
@output_options
@color_options
def show(file: str | None, at: int | None, as_name: str | None, keys: str | None, as_json: bool,
         table_format: str, color: str, no_color: bool) -> None:
    """Show the board, the players and whose turn it is.

    The player to move's rack is shown when the racks are known (the game has a seed); in a
    game with hidden racks, the racks of the player named by --as.
    """
    from ..engine.notation import FORFEIT
    from ..pictures.text import board_text, players_rows, position_data, to_move_text, turn_text
    from ..pictures.tile_names import variant_label
    from ..engine.scoring import standings

    _path, record, game = read_game(file, at, as_name, keys)
    view = _hidden_view(record, as_name, keys, at)
    if game.knows_racks:  # an open game, or every key revealed: all is public
        view = None
    out = Output(as_json, table_format)
    timing = record.timing
    if as_json:
        data = position_data(game, view)
        if timing is not None:
            from ..records.times import clock_json

            data.update(clock_json(timing.written))
        out.json(data)
        return
    out.text(ngettext("{path}: {variant}, after {ply} of {count} move",
                      "{path}: {variant}, after {ply} of {count} moves", len(record.moves)).format(
        path=record.path, variant=variant_label(record.variant), ply=game.ply,
        count=len(record.moves)))
    clock_line = timing.describe() if timing is not None else None
    if clock_line is not None:
        out.text(clock_line)
        if record.joins is None or record.joins.judge is None:
            out.text(_("Its times are its players' own word: no club judge keeps them "
                       "(docs/DEADLINES.md#disputes)."))
    notes = record.moves[game.ply - 1].notes if game.ply else None
    if notes is not None:  # an annotated move
        from ..records.annotations import notes_lines

        for line in notes_lines(notes):
            out.text(_("Move {number}: {text}").format(number=game.ply, text=line))
    last = record.moves[game.ply - 1] if game.ply else None
    if last is not None and last.by is not None and last.text != FORFEIT:  # not their own play
        out.text(_("Move {number}: {text}").format(
            number=game.ply, text=turn_text(game.history[-1], last.by, last.bot)))
    colored = use_color(color, no_color)
    out.text(board_text(game, colored), color=colored)
    out.text()
    out.table(*players_rows(game, standings(game, record.variant)))
    for name, ply in game.forfeited:
        by = record.moves[ply - 1].by if ply <= len(record.moves) else None
        out.text((_("{name} forfeited at move {number} (out of time; {by} wrote it)") if by else
                  _("{name} forfeited at move {number}")).format(name=name, number=ply, by=by))
    out.text()
    out.text(to_move_text(game, view))
    if as_name is not None:
        from ..records.names import player_named
        from ..records.disputes import claims_against

        for claim in claims_against(record, player_named(record.players, as_name)):
            out.text(claim)


def _hidden_view(record: "Record", as_name: str | None, keys: str | None,
                 at: int | None) -> "HiddenView | None":
    """What the viewer knows of a game with hidden racks (``fairplay.viewer.HiddenView``):
    NAME's own racks with ``--as NAME``, no rack without; None for an open game, where
    ``--as`` names a player as it does for moves, hint and move (every rack is shown)."""
    if record.hidden is None:
        if as_name is not None:
            from ..records.names import player_named

            player_named(record.players, as_name)
        return None
    from ..fairplay.viewer import HiddenView, player_view, remember


    if as_name is None:
        return HiddenView(record)
    view = player_view(record, as_name, keys, at)
    if view.alert is not None:  # (what the public replay proves, and what NAME's key adds)
        click.echo(_("Warning: {alert}").format(alert=view.alert), err=True)
    remember(record, view.name, keys)
    return view


@click.command()
@file_argument
@click.option("--from", "first", type=click.IntRange(min=1), default=1, metavar="N", help="First move shown.")
@click.option("--to", "last", type=click.IntRange(min=1), metavar="N", help="Last move shown (default: the end).")
@json_option
@color_options
def replay(file: str | None, first: int, last: int | None, as_json: bool, color: str,
           no_color: bool) -> None:
    """Show every position of a game in turn.

    Each position is headed by its move number, colour, player, move and what it captured. On a
    terminal the boards go through the pager ($PAGER, else less).
    """
    from ..pictures.text import board_text, legend_lines, turn_data, turn_text

    record = open_record(game_path(file))
    count = len(record.moves)
    last = count if last is None else last
    if last > count:
        raise click.BadParameter(ngettext("{path} has {count} move, not {last}",
                                          "{path} has {count} moves, not {last}", count)
                                 .format(path=record.path, count=count, last=last), param_hint="--to")
    if first > max(last, 1):
        raise click.BadParameter(_("{first} is after the last move shown ({last})")
                                 .format(first=first, last=last), param_hint="--from")
    game = replay_valid(record, upto=last)
    played = game.rewind()
    if as_json:
        from ..records.annotations import notes_data

        Output(as_json).json([turn_data(turn) | notes_data(record.moves[turn.number - 1].notes)
                              for turn in played if turn.number >= first])
        return
    from ..records.annotations import notes_lines

    colored = use_color(color, no_color)
    lines = legend_lines(game, colored)
    if not played:
        lines.append(_("No moves yet."))
    for turn in played:
        game.redo(turn)
        if turn.number >= first:
            entry = record.moves[turn.number - 1]
            lines += ["", _("Move {number}: {text}").format(
                number=turn.number, text=turn_text(turn, entry.by, entry.bot))]
            lines += notes_lines(record.moves[turn.number - 1].notes)
            lines.append(board_text(game, colored, legend=False))
    page("\n".join(lines), color=colored)


@click.command()
@click.argument("files", nargs=-1, metavar="[FILE|FOLDER]...", type=click.Path(readable=False))
@click.option("--variant", type=VARIANT_CHOICE, help="Score this way instead of the file's variant.")
@output_options
def score(files: tuple[str, ...], variant: str | None, as_json: bool, table_format: str) -> None:
    """Print the standings (lower scores are better).

    One table per file: rank, player, colours, groups, captures and score, under the file's
    variant or --variant. Under Blockers! the table also shows what is added to the groups: the
    most tiles taken from any one opponent. When a player forfeited, a forfeit column says at
    which move, or "not revealed" for a player of a finished hidden game past their reveal
    deadline (ranked last). Folders are searched for *.yaml, as by validate.
    """
    from ..pictures.text import standings_data, standings_rows, winner_text
    from ..pictures.tile_names import variant_label
    from ..engine.scoring import standings
    from ..errors import UptownError
    from ..records.entries import forfeits
    from ..turns.validation import settled_players
    from .timing import now

    moment = now()
    paths, unread = listed_records(files or (game_path(None),))
    out = Output(as_json, table_format)
    scored = []
    for path in paths:
        try:
            record = open_record(path)
            game = replay_valid(record)
        except UptownError as exc:
            if len(paths) == 1:
                raise
            click.echo(_("Error: {message}").format(message=exc), err=True)
            continue
        scoring = variant or record.variant
        settled = settled_players(record, game, moment)
        reasons: dict[str, str] = {}
        for forfeit in forfeits(record.moves, record.owners, settled):  # a forfeit in the game before a reveal not made
            reasons.setdefault(str(forfeit["name"]), str(forfeit["reason"]))
        scored.append((display_path(path), game, scoring,
                       standings(game, scoring, list(settled)), reasons))
    if as_json:
        data = [{"path": path, **standings_data(game, rows, scoring, reasons)}
                for path, game, scoring, rows, reasons in scored]
        out.json(data if len(paths) > 1 else data[0])
    else:
        for index, (path, game, scoring, rows, reasons) in enumerate(scored):
            state = _("finished") if game.finished else ngettext(
                "not finished, after {count} move", "not finished, after {count} moves",
                game.ply).format(count=game.ply)
            if index:
                out.text()
            out.table(*standings_rows(rows, scoring, reasons),
                      title=f"{path}: {variant_label(scoring)}, {state}")
            if game.finished:
                out.text(winner_text(rows))
    if len(scored) < len(paths) or unread:
        sys.exit(ExitStatus.ERROR)


def _validate_one(path: str, strict: bool, moment: "datetime") -> "Validation":
    from ..records.reading import read_standard_input
    from ..turns.validation import Validation, validate_file, validate_text
    from ..errors import RecordError

    if path == "-":
        try:
            data = read_standard_input()
        except RecordError as exc:
            return Validation("<stdin>", None, [exc], 0)
        return validate_text(data, "<stdin>", strict, moment)
    shown = display_path(path)
    if not os.path.lexists(path):
        return Validation(shown, None, [RecordError(_(NO_SUCH_FILE), path=shown)], 0)
    return validate_file(path, strict, shown, moment)


def _bad_reveals(result: "Validation") -> list[str]:
    """The sentences of ``fairplay.check.bad_reveals`` for a validated hidden game."""
    from ..fairplay.check import bad_reveals

    return [note for _, note in bad_reveals(result.record)] if result.record else []


@click.command()
@click.argument("paths", nargs=-1, metavar="[FILE|FOLDER]...")
@click.option("--strict", is_flag=True, help="Also report moves not written in canonical notation.")
@json_option
def validate(paths: tuple[str, ...], strict: bool, as_json: bool) -> None:
    """Check records and report every problem.

    Folders are searched for *.yaml. Each problem is one line, PATH:LINE: message, followed by
    a summary. A note under a move (best, variations, eval, comment) that does not fit the
    rules or the racks is a warning, PATH:LINE: warning: message, and never makes a record
    invalid. Exit status: 0 every record valid; 1 a record invalid; 3 none invalid, but a
    finished game with hidden racks whose draws stay unchecked (a key not revealed). A game
    with a clock whose missing keys are past their reveal deadline is settled: valid (exit 0),
    those who did not reveal ranked last; so is a finished game with a forfeit in its moves
    (exit 0, PATH: settled: NAME forfeited at move N).
    """
    from ..engine.moments import parse_time, show_time
    from ..turns.validation import Status, Validation
    from ..errors import RecordError
    from .timing import now

    moment = now()
    unreadable: list[tuple[str, str]] = []
    files = list(record_files(paths or [game_path(None)], unreadable))
    quiet = len(files) < PROGRESS_MIN_FILES or not sys.stderr.isatty()
    invalid = unchecked = warned = settled = 0
    out = Output(as_json)
    folders = [Validation(folder, None, [RecordError(_("cannot read the folder ({reason}); its records were not read")
                                                     .format(reason=reason), path=folder)], 0)
               for folder, reason in unreadable]
    if as_json:
        click.echo("[")
    with click.progressbar(files, label=_("Validating"), file=sys.stderr, hidden=quiet) as bar:
        results = (_validate_one(path, strict, moment) for path in bar)
        for index, result in enumerate(itertools.chain(folders, results)):
            invalid += result.status == Status.INVALID
            unchecked += result.status == Status.UNCHECKED
            settled += result.status == Status.SETTLED
            warned += len(result.warnings)
            if as_json:
                import json

                text = json.dumps(result.to_json(), indent=2, ensure_ascii=False)
                last = index == len(folders) + len(files) - 1
                click.echo("  " + text.replace("\n", "\n  ") + ("" if last else ","))
            else:
                for error in result.errors:
                    click.echo(error.report_line())
                for warning in result.warnings:
                    click.echo(warning.report_line(warning=True))
                if result.status == Status.SETTLED:
                    for forfeit in result.forfeits_in_moves():
                        click.echo((_("{path}: settled: {name} forfeited at move {number} (out of time)")
                                    if forfeit["reason"] == "out of time" else
                                    _("{path}: settled: {name} forfeited at move {number} (resigned)"))
                                   .format(path=result.path, name=forfeit["name"],
                                           number=forfeit["move"]))
                    for name, deadline in result.settled.items():  # a time people read
                        click.echo(_("{path}: settled: {name} did not reveal by {deadline} and "
                                     "ranks last; {name}'s draws are unchecked").format(
                            path=result.path, name=name,
                            deadline=show_time(parse_time(deadline))))
                elif result.status == Status.VOID:
                    click.echo(_("{path}: void: {reason}, as the club judge ruled").format(
                        path=result.path, reason=result.void_text()))
                elif result.unrevealed:
                    for note in _bad_reveals(result):
                        click.echo(f"{result.path}: {note}")
                    click.echo(_("{path}: the game is over, but the draws of {names} are "
                                 "unchecked: each must run uptown reveal {path} --as NAME").format(
                        path=result.path, names=names_list(result.unrevealed)))
                else:
                    for note in result.unchecked:
                        click.echo(_("{path}: not yet checkable: {note}")
                                   .format(path=result.path, note=note))
    if as_json:
        click.echo("]")
    else:
        bad = invalid - len(folders)
        valid = len(files) - bad - unchecked
        out.text(validate_summary(len(files), valid, settled, bad, unchecked, warned, len(folders)))
    if invalid:
        sys.exit(ExitStatus.ERROR)
    if unchecked:
        sys.exit(ExitStatus.UNCHECKED)


def validate_summary(count: int, valid: int, settled: int, invalid: int, unchecked: int,
                     warned: int, unread: int) -> str:
    """validate's last line: ``3 records, 2 valid (1 settled), 1 invalid, 1 warning; 1
    folder not read`` (the counts that are not 0, past the first three): each count a phrase
    of its own, with the plural form its number takes in the language in use."""
    # TRANSLATORS: validate's summary is a list of counts; each takes its own plural form
    # ("0 válidos", "1 no válido"), so that the words agree with every number
    counts = [ngettext("{count} record", "{count} records", count).format(count=count),
              (ngettext("{count} valid ({settled})", "{count} valid ({settled})", valid)
               if settled else ngettext("{count} valid", "{count} valid", valid)).format(
                  count=valid, settled=ngettext("{count} settled", "{count} settled", settled)
                  .format(count=settled)),
              ngettext("{count} invalid", "{count} invalid", invalid).format(count=invalid)]
    if unchecked:
        counts.append(ngettext("{count} unchecked", "{count} unchecked", unchecked)
                      .format(count=unchecked))
    if warned:
        counts.append(ngettext("{count} warning", "{count} warnings", warned).format(count=warned))
    summary = ", ".join(counts)
    return ngettext("{summary}; {count} folder not read", "{summary}; {count} folders not read",
                    unread).format(summary=summary, count=unread) if unread else summary


@click.command()
@click.argument("file_a", metavar="A")
@click.argument("file_b", metavar="B")
@json_option
def diff(file_a: str, file_b: str, as_json: bool) -> None:
    """Tell how two copies of a game relate.

    Identical, one extends the other (legally or not), diverging (at which move, on which
    lines) or not the same game. Exits 0 only when neither copy contradicts the other
    (identical, or one legally extends the other), so two players who both answered the same
    emailed position are caught.
    """
    from ..fairplay.copies import compare_records

    if file_a == file_b == "-":
        raise click.UsageError(_("standard input can be only one of A and B"))
    result = compare_records(open_record(file_a), open_record(file_b))
    if as_json:
        Output(as_json).json(result.to_json())
    else:
        click.echo(result.message())
    if not result.consistent:
        sys.exit(ExitStatus.ERROR)


COMMANDS = {command.name: command for command in (show, replay, score, validate, diff)}
