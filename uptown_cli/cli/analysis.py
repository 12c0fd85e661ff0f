"""The analysis commands: ``selfplay``, ``analyze``, ``stats`` and ``export``.

They parse options, call ``analysis.selfplay``, ``analysis.review`` and ``analysis.corpus``, and print; the heavy modules
(bots among them) are imported inside the commands.
"""

import io
import itertools
import os
import secrets
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from ..engine.geometry import shown_color
from ..errors import RecordError, UptownError, display_path
from .exits import ExitStatus, signal_status
from ..turns.game_files import open_record
from .loading import game_path, PROGRESS_MIN_FILES, record_files, replay_valid
from .options import (
    VARIANT_CHOICE,
    BOT_NAMES,
    bot_list,
    check_jobs_or_cluster,
    cluster_option,
    MC_PLAYOUTS,
    output_file_option,
    output_options,
    playouts_option,
)
from .output import check_not_input, Output, percent, write_output
from ..i18n import _, figures, ngettext, system_reason
from ..pictures.tile_names import variant_label, written_move_label

if TYPE_CHECKING:
    from ..analysis.corpus import RecordedGame
    from ..analysis.review import Review
    from ..analysis.selfplay import GameResult
    from ..engine.game import Game
    from ..records.schema import Record

__all__: list[str] = []


@click.command()
@click.option("--players", type=click.IntRange(2, 5), default=2, show_default=True, help="Players per game.")
@click.option("--bots", required=True, callback=bot_list, metavar="A,B,...",
              help=f"The bots ({', '.join(BOT_NAMES)}), cycled to fill the seats; seats turn one place each game.")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True, help="Games to play.")
@click.option("--seed", help="Fixes every game and choice (default: a random one, printed).")
@click.option("--out", type=click.Path(file_okay=False), help="Write each game as a record into this folder.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to play in (the results do not depend on it).")
@cluster_option
@click.option("--variant", type=VARIANT_CHOICE, default="standard", show_default=True)
@playouts_option(default=MC_PLAYOUTS)
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="mc, horizon, vista: think S seconds of CPU time per move instead of --playouts "
                   "(equal time for every bot; the games then depend on the machine).")
@output_options
def selfplay(players: int, bots: list[str], games: int, seed: str | None, out: str | None,
             jobs: int, cluster: str | None, variant: str, playouts: int, seconds: float | None,
             as_json: bool, table_format: str) -> None:
    """Let bots play one another and compare them.

    Per bot: games, wins (a shared win counts as a fraction), win rate with its 95% interval,
    mean score and mean captures.

    \b
    Example:
      uptown selfplay --players 2 --bots mc,greedy --games 20 --seed 1 --jobs 2
    """
    from ..records.safe_file import create_record
    from ..analysis.selfplay import play_games, record_text

    check_jobs_or_cluster(cluster)
    seed = secrets.token_hex(4) if seed is None else seed
    paths: dict[int, str] = {}
    if out is not None:
        paths = {n: os.path.join(out, f"game-{n:04d}.yaml") for n in range(1, games + 1)}
        taken = next((p for p in paths.values() if os.path.exists(p)), None)
        if taken is not None:
            raise click.ClickException(_("{taken} already exists; choose another --out folder")
                                       .format(taken=display_path(taken)))
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as exc:
            raise click.ClickException(_("cannot create {out}: {value}")
                                       .format(out=display_path(out), value=system_reason(exc))) from None
    results = []
    hidden = not sys.stderr.isatty()
    interrupted = 0
    with click.progressbar(length=games, label=_("Playing"), file=sys.stderr, hidden=hidden) as bar:
        try:
            options: dict[str, object] = ({"playouts": playouts} if seconds is None
                                          else {"playouts": playouts, "seconds": seconds})
            for result in play_games(bots, players, games, seed, variant, jobs, options, cluster):
                if out is not None:
                    create_record(paths[result.number], record_text(result, variant))
                results.append(result)
                bar.update(1)
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (analysis.pool.Stopped)
            interrupted = signal_status(getattr(exc, "signum", 2))
    if interrupted:
        click.echo(ngettext("Interrupted: {done} of {count} game finished.",
                            "Interrupted: {done} of {count} games finished.", games)
                   .format(done=len(results), count=games), err=True)
    _print_selfplay(results, bots, players, variant, seed, out, as_json, table_format)
    if interrupted:
        sys.exit(interrupted)


def _print_selfplay(results: "list[GameResult]", bots: list[str], players: int, variant: str,
                    seed: str, folder: str | None, as_json: bool, table_format: str) -> None:
    """The results of the games played: a table, or JSON."""
    from ..analysis.selfplay import summarize

    games = len(results)
    summary = summarize(results, bots)
    out = Output(as_json, table_format)
    if as_json:
        out.json({
            "games": games, "players": players, "variant": variant, "seed": seed,
            "bots": [
                {"name": b.name, "games": b.games, "wins": b.wins, "win_rate": b.win_rate,
                 "interval": list(b.interval), "mean_score": b.mean_score, "mean_captures": b.mean_captures}
                for b in summary
            ],
        })
        return
    title = (ngettext("{count} game, {players} players, {variant}, seed {seed}",
                      "{count} games, {players} players, {variant}, seed {seed}", games)
             if folder is None else
             ngettext("{count} game, {players} players, {variant}, seed {seed}; records in "
                      "{folder}",
                      "{count} games, {players} players, {variant}, seed {seed}; records in "
                      "{folder}", games)).format(
        count=games, players=players, variant=variant_label(variant), seed=seed,
        folder=display_path(folder) if folder is not None else None)
    rows = [
        [b.name, b.games, f"{b.wins:g}", percent(b.win_rate),
         f"{percent(b.interval[0])}-{percent(b.interval[1])}", f"{b.mean_score:.2f}", f"{b.mean_captures:.2f}"]
        for b in summary
    ]
    headers = [_("bot"), _("games"), _("wins"), _("win rate"), _("95% interval"), _("mean score"),
               _("captures")]
    out.table(rows, headers, title=title)


EVALUATING_BOTS = ("vista", "mc")
"""The bots that can evaluate moves (``analysis.EVALUATORS``, named here so that help imports
no bots); the first is the default (``analysis.DEFAULT_EVALUATOR``)."""

DEFAULT_DEALS = 256
"""``analysis.DEFAULT_DEALS``, for the help."""


@click.command()
@click.argument("paths", nargs=-1, metavar="[FILE|FOLDER]...")
@click.option("--bot", type=click.Choice(EVALUATING_BOTS), default=EVALUATING_BOTS[0],
              show_default=True,
              help="The bot whose choice each move is measured against: vista, the move its "
                   "search chooses; mc, greedy's six best.")
@click.option("--iterations", type=click.IntRange(min=2), metavar="N",
              help=f"Deals the best move and the move played are measured in (vista chooses "
                   f"its move with half as many playouts as deals, mc its best in a quarter "
                   f"as many deals) [default: {DEFAULT_DEALS}].")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="Think S seconds of CPU time per move instead (the output then depends on "
                   "the machine).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to analyse in (the output does not depend on it).")
@cluster_option
@click.option("--seed", help="Fixes every deal (default: a random one, printed).")
@click.option("--variant", type=VARIANT_CHOICE, help="Judge moves this way instead of by the file's variant.")
@click.option("--annotate", is_flag=True, help="Write the record with the review under its moves.")
@output_file_option("annotated.yaml")
@output_options
def analyze(paths: tuple[str, ...], bot: str, iterations: int | None, seconds: float | None,
            jobs: int, cluster: str | None, seed: str | None, variant: str | None,
            annotate: bool, output: str | None, as_json: bool, table_format: str) -> None:
    """Review every move against a bot's choice, mark the mistakes.

    Each move is judged from its mover's point of view, with only what they could know: the
    chance to win and the expected final score before and after it, the best move found, the
    chance lost, and ?! (inaccuracy), ? (mistake) or ?? (blunder). Then per player: the mean
    loss, the marks and an accuracy. --annotate writes the record with all of it under its
    moves (-o FILE, or standard output). Several files or folders are reviewed one after
    another (--json: a list), their moves shared out by --jobs or --cluster; records that
    cannot be judged are reported and left out (exit 1).

    \b
    Example:
      uptown analyze game.yaml --seed 1 --jobs 2
      uptown analyze game.yaml --annotate -o annotated.yaml
      uptown analyze games/ --seed 1 --cluster tcp://scheduler:8786 --json
    """
    from ..analysis.pool import Stopped
    from ..analysis.review import Review, review_games, summarize, tasks

    check_jobs_or_cluster(cluster)
    if iterations is not None and seconds is not None:
        raise click.UsageError(_("give --iterations or --seconds, not both"))
    if output is not None and not annotate:
        raise click.UsageError(_("-o writes the annotated record: add --annotate"))
    check_not_input(output, paths, record=True)
    several = len(paths) > 1 or any(os.path.isdir(p) for p in paths)
    if annotate and several:
        raise click.UsageError(_("--annotate writes one record: give one FILE"))
    skipped: list[str] = []
    seed = secrets.token_hex(4) if seed is None else seed
    deals = None if seconds is not None else iterations or DEFAULT_DEALS
    games = []
    for record, game, bags in _judged_games(paths, several, skipped):
        games.append((record, game, tasks(game, bags, variant or record.variant, bot, seed, deals, seconds)))
    total = sum(len(work) for _, _, work in games)
    reviews = []
    try:  # SIGTERM and SIGHUP stop it as Ctrl-C does, the workers with it (analysis.pool)
        with click.progressbar(length=total, label=_("Analysing"), file=sys.stderr,
                               hidden=not sys.stderr.isatty()) as bar:
            for reviewed in review_games([work for _, _, work in games], jobs, cluster):
                reviews.append(reviewed)
                bar.update(1)
    except KeyboardInterrupt as exc:
        click.echo(ngettext("Interrupted after {count} move of {total}; nothing was written.",
                            "Interrupted after {count} moves of {total}; nothing was written.",
                            len(reviews)).format(count=len(reviews), total=total), err=True)
        if not isinstance(exc, Stopped):
            sys.exit(ExitStatus.INTERRUPTED)
        os.kill(os.getpid(), exc.signum)  # the workers are ended: now end as the signal would
        sys.exit(signal_status(exc.signum))  # (when something had set the signal a handler that returns)
    if annotate:
        from ..analysis.annotate import annotate as annotated_text

        record = games[0][0]
        write_output(annotated_text(record, reviews), output, [record.path], record=True)
        return
    out = Output(as_json, table_format)
    reports = []
    for record, game, work in games:
        own, reviews = reviews[:len(work)], reviews[len(work):]
        review = Review(variant or record.variant, bot, seed, deals, seconds, own,
                        summarize(own, game.players))
        reports.append(_review_report(out, record, game, review))
    if as_json:
        out.json(reports if several else reports[0])
    if skipped:
        sys.exit(ExitStatus.ERROR)


def _judged_games(paths: tuple[str, ...], several: bool,
                  skipped: list[str]) -> "Iterator[tuple[Record, Game, dict[str, list[int]]]]":
    """(record, game, bags) to analyse: of FILE (or the default game) alone, or of every record
    of the files and folders given, those that cannot be judged reported and added to
    ``skipped``."""
    if not several:
        record = open_record(game_path(paths[0] if paths else None))
        yield (record, *_known_game(record))
        return
    unreadable: list[tuple[str, str]] = []
    for path in record_files(paths, unreadable):
        try:
            record = open_record(path)
            yield (record, *_known_game(record))
        except UptownError as exc:
            click.echo(_("Error: {message} (skipped)").format(message=exc), err=True)
            skipped.append(path)
    for folder, reason in unreadable:
        click.echo(_("Error: {folder}: cannot read the folder ({reason}); its records were "
                     "not read (skipped)").format(folder=folder, reason=reason), err=True)
        skipped.append(folder)


def _review_report(out: Output, record: "Record", game: "Game",
                   review: "Review") -> dict[str, Any]:
    """One game's review: printed as text (unless --json), and as the JSON object returned
    (the library's, with the record's path)."""
    report = {"path": record.path, **review.to_json()}
    if out.as_json:
        return report
    state = _("finished") if game.finished else _("not finished")
    budget = (_("{count} deals a move").format(count=review.deals) if review.seconds is None
              else figures(_("{seconds} s a move").format(seconds=f"{review.seconds:g}")))
    out.text(ngettext("{path}: {variant}, {count} move, {state}",
                      "{path}: {variant}, {count} moves, {state}", game.ply).format(
        path=record.path, variant=variant_label(review.variant), count=game.ply, state=state))
    if review.measured_by == review.bot:
        judged = _("Evaluated by {bot}, {budget}, seed {seed}.")
    else:
        judged = _("Measured by {measure} against {bot}'s choice: {budget}, seed {seed}.")
    out.text(judged.format(bot=review.bot, measure=review.measured_by, budget=budget,
                           seed=review.seed))
    rows = [[m.number, m.player, written_move_label(m.move) + (m.mark or ""),
             f"{_pct(m.before.win)}->{_pct(m.after.win)}",
             f"{m.before.score:.1f}->{m.after.score:.1f}",
             written_move_label(m.best) if m.best else "",
             f"{_pct(m.loss)}" if m.loss >= 0.005 else ""]
            for m in review.moves]
    if rows:
        out.table(rows, ["#", _("player"), _("move"), _("win %"), _("score"), _("best"), _("loss")],
                  widths=[None, 10, 15, None, None, 18, None])
        out.text(_("win %: the mover's own chance to win, from what they could know, before\n"
                   "their move (with the best move found) and after it; from one mover to the\n"
                   "next, the chances are different players', each from their own view."))
    out.text()
    summary = [[p.name, " ".join(map(shown_color, p.colors)), p.moves,
                "" if p.mean_loss is None else _pct(p.mean_loss), p.inaccuracies, p.mistakes,
                p.blunders, "" if p.accuracy is None else f"{p.accuracy:.0f}"]
               for p in review.players]
    out.table(summary, [_("player"), _("colours"), _("moves"), _("mean\nloss"), "?!", "?", "??",
                        _("accuracy")],
              widths=[10, 11, None, None, None, None, None, None])
    return report


def _pct(rate: float) -> str:
    """A chance as a whole percentage: ``38``."""
    return f"{100 * rate:.0f}"


def _known_game(record: "Record") -> "tuple[Game, dict[str, list[int]]]":
    """(the game replayed with every rack known, its bags), or a one-line RecordError."""
    if record.seed is not None:
        game = replay_valid(record)
        from ..engine.bags import seeded_bags

        return game, seeded_bags(record.seed, record.colors)
    if record.hidden is not None:
        from ..fairplay.check import HiddenCheck
        from ..fairplay.replay import drawn_bags, replay

        check = HiddenCheck(record)
        result = replay(record, hidden=check)
        if result.errors:
            raise RecordError(_("{report_line} (the record is invalid)")
                              .format(report_line=result.errors[0].report_line()))
        bags = drawn_bags(check)
        if bags is not None:  # every key revealed and sound: replay dealt the game these bags
            return result.game, bags
    raise RecordError(
        _("{path}: the racks are unknown (a game without a seed, or with hidden "
          "racks not all revealed), so the moves cannot be judged from their "
          "players' view").format(path=record.path))


def _recorded_games(paths: tuple[str, ...], label: str,
                    skipped: list[str]) -> "Iterator[RecordedGame]":
    """Each readable, legal record under ``paths`` as a RecordedGame; the others are reported
    on standard error and added to the list ``skipped``."""
    from ..analysis.corpus import RecordedGame

    unreadable: list[tuple[str, str]] = []
    files = list(record_files(paths or [game_path(None)], unreadable))
    for folder, reason in unreadable:
        click.echo(_("Error: {folder}: cannot read the folder ({reason}); its records were "
                     "not read (skipped)").format(folder=folder, reason=reason), err=True)
        skipped.append(folder)
    hidden = len(files) < PROGRESS_MIN_FILES or not sys.stderr.isatty()
    with click.progressbar(files, label=label, file=sys.stderr, hidden=hidden) as bar:
        for path in bar:
            try:
                record = open_record(path)
                game = replay_valid(record)
            except UptownError as exc:
                click.echo(_("Error: {message} (skipped)").format(message=exc), err=True)
                skipped.append(path)
                continue
            yield RecordedGame(record.path, record.variant, game)


@click.command()
@click.argument("paths", nargs=-1, metavar="[FILE|FOLDER]...")
@output_options
def stats(paths: tuple[str, ...], as_json: bool, table_format: str) -> None:
    """Figures over many records (files or folders).

    Folders are searched for *.yaml: games by number of players and variant, results by seat,
    game length, final groups and captures, and how often the capture tie-break decided.
    Records that are not valid are reported and left out (exit 1).
    """
    from ..analysis.corpus import corpus_stats

    skipped: list[str] = []
    figures = corpus_stats(_recorded_games(paths, _("Reading"), skipped))
    out = Output(as_json, table_format)
    if as_json:
        out.json({**figures, "skipped": len(skipped)})
    else:
        from .stats_table import STATS_TITLES, header_text, stats_row

        for key, title in STATS_TITLES.items():
            rows = figures[key]
            if rows:
                cells = [stats_row(row) for row in rows]
                out.table([list(c.values()) for c in cells], [header_text(h) for h in cells[0]],
                          title=_(title))
            else:
                out.text(_("{title}\n(none)").format(title=_(title)))
            out.text()
        if skipped:
            out.text(ngettext("{count} record skipped as invalid", "{count} records skipped as invalid",
                              len(skipped)).format(count=len(skipped)))
    if skipped:
        sys.exit(ExitStatus.ERROR)


@click.command()
@click.argument("paths", nargs=-1, metavar="[FILE|FOLDER]...")
@click.option("--jsonl", is_flag=True, help="JSON lines (one object a move) instead of csv.")
@output_file_option("moves.csv")
def export(paths: tuple[str, ...], jsonl: bool, output: str | None) -> None:
    """Write one row per move of every record, as csv or JSON lines.

    Columns: game, move, player, colour, tile, square, capture, captured colour and tile, the
    player's groups after. Records that are not valid are reported and left out (exit 1).
    """
    from ..analysis.corpus import move_rows, write_rows

    skipped: list[str] = []
    rows = move_rows(_recorded_games(paths, _("Exporting"), skipped))
    first = next(rows, None)
    if first is None and skipped and output not in (None, "-"):
        sys.exit(ExitStatus.ERROR)  # nothing to export: an old output file stays as it was
    rows = itertools.chain([] if first is None else [first], rows)
    text = io.StringIO()
    write_rows(rows, text, "jsonl" if jsonl else "csv")
    write_output(text.getvalue(), output, paths)
    if skipped:
        sys.exit(ExitStatus.ERROR)


COMMANDS = {command.name: command for command in (selfplay, analyze, stats, export)}
