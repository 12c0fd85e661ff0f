"""The analysis commands of ``uptown``: ``selfplay``, ``analyze``, ``stats`` and ``export``.

``cli`` registers the commands of ``COMMANDS``. They parse options, call ``selfplay``,
``analysis`` and ``corpus``, and print; the heavy modules are imported inside the commands.
"""

import os
import secrets
import sys

import click

from .cli import (
    PROGRESS_MIN_FILES,
    file_argument,
    format_option,
    game_path,
    json_option,
    print_json,
    read_record,
    record_files,
    replay_valid,
)
from .bots import MC_PLAYOUTS
from .scoring import VARIANTS


def _bot_list(ctx, param, value):
    from .selfplay import check_bots

    bots = [name.strip() for name in value.split(",") if name.strip()]
    try:
        check_bots(bots)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return bots


def _percent(rate):
    return f"{100 * rate:.1f}%"


@click.command()
@click.option("--players", type=click.IntRange(2, 5), default=2, show_default=True, help="Players per game.")
@click.option("--bots", required=True, callback=_bot_list, metavar="A,B,...",
              help="The bots (random, greedy, mc, sharp), cycled to fill the seats; seats turn one place each game.")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True, help="Games to play.")
@click.option("--seed", help="Fixes every game and choice (default: a random one, printed).")
@click.option("--out", type=click.Path(file_okay=False), help="Write each game as a record into this folder.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to play in (the results do not depend on it).")
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True)
@click.option("--playouts", type=click.IntRange(min=1), default=MC_PLAYOUTS, show_default=True,
              help="mc, sharp: how many sampled deals each candidate move is played out in.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="mc, sharp: think S seconds of CPU time per move instead of --playouts "
                   "(equal time for every bot; the games then depend on the machine).")
@json_option
@format_option
def selfplay(players, bots, games, seed, out, jobs, variant, playouts, seconds, as_json, table_format):
    """Let bots play one another and compare them: per bot, games, wins (a shared win counts
    as a fraction), win rate with its 95% interval, mean score and mean captures.

    \b
    Example:
      uptown selfplay --players 2 --bots mc,greedy --games 20 --seed 1 --jobs 2
    """
    from tabulate import tabulate

    from .record_writer import create_record
    from .selfplay import play_games, record_text, summarize
    from .yamlsafe import RecordError

    seed = secrets.token_hex(4) if seed is None else seed
    paths = {}
    if out is not None:
        paths = {n: os.path.join(out, f"game-{n:04d}.yaml") for n in range(1, games + 1)}
        taken = next((p for p in paths.values() if os.path.exists(p)), None)
        if taken is not None:
            raise click.ClickException(f"{taken} already exists; choose another --out folder")
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as exc:
            raise click.ClickException(f"cannot create {out}: {exc.strerror or exc}") from None
    results = []
    hidden = not sys.stderr.isatty()
    with click.progressbar(length=games, label="Playing", file=sys.stderr, hidden=hidden) as bar:
        options = {"playouts": playouts} if seconds is None else {"playouts": playouts, "seconds": seconds}
        for result in play_games(bots, players, games, seed, variant, jobs, options):
            if out is not None:
                try:
                    create_record(paths[result.number], record_text(result, variant))
                except RecordError as exc:
                    raise click.ClickException(str(exc)) from None
            results.append(result)
            bar.update(1)
    summary = summarize(results, bots)
    if as_json:
        print_json({
            "games": games, "players": players, "variant": variant, "seed": seed,
            "bots": [
                {"name": b.name, "games": b.games, "wins": b.wins, "win_rate": b.win_rate,
                 "interval": list(b.interval), "mean_score": b.mean_score, "mean_captures": b.mean_captures}
                for b in summary
            ],
        })
        return
    click.echo(f"{games} games, {players} players, {variant}, seed {seed}"
               + (f"; records in {out}" if out is not None else ""))
    rows = [
        [b.name, b.games, f"{b.wins:g}", _percent(b.win_rate),
         f"{_percent(b.interval[0])}-{_percent(b.interval[1])}", f"{b.mean_score:.2f}", f"{b.mean_captures:.2f}"]
        for b in summary
    ]
    headers = ["bot", "games", "wins", "win rate", "95% interval", "mean score", "mean captures"]
    click.echo(tabulate(rows, headers, tablefmt=table_format))


@click.command()
@file_argument
@click.option("--variant", type=click.Choice(VARIANTS), help="Judge moves this way instead of by the file's variant.")
@json_option
@format_option
def analyze(file, variant, as_json, table_format):
    """Review a game move by move (the player's groups before and after, what was captured and,
    when the racks are known, greedy's choice and the groups lost against it), then a summary
    per player."""
    from tabulate import tabulate

    from .analysis import review

    path = game_path(file)
    record = read_record(path)
    game = replay_valid(record)
    variant = variant or record.variant
    result = review(game, variant)
    if as_json:
        print_json({"path": path, "variant": variant, **result.to_json()})
        return
    known = result.racks_known
    headers = ["#", "player", "colour", "move", "groups", "captured"]
    if known:
        headers += ["greedy", "lost"]
    rows = []
    for m in result.moves:
        row = [m.number, m.player, m.color, m.move, f"{m.groups_before} -> {m.groups_after}", m.captured or ""]
        if known:
            greedy = m.greedy if m.greedy_color == m.color else f"{m.greedy_color} {m.greedy}"
            row += ["same" if m.matched else greedy, m.lost or ""]
        rows.append(row)
    state = "finished" if game.finished else "not finished"
    click.echo(f"{path}: {variant}, {game.ply} moves, {state}")
    if not known:
        click.echo("No seed: the racks are unknown, so moves are not compared with greedy's.")
    if rows:
        click.echo(tabulate(rows, headers, tablefmt=table_format))
    click.echo()
    summary_headers = ["player", "colours", "moves"]
    if known:
        summary_headers += ["as greedy", "worse than greedy"]
    summary_headers += ["captures made", "captures suffered", "most groups", "final groups"]
    summary = []
    for p in result.players:
        row = [p.name, " ".join(p.colors), p.moves]
        if known:
            row += [p.matched, p.lost_moves]
        row += [p.captures_made, p.captures_suffered, p.most_groups, p.final_groups]
        summary.append(row)
    click.echo(tabulate(summary, summary_headers, tablefmt=table_format))


def _recorded_games(paths, label, skipped):
    """Each readable, legal record under ``paths`` as a RecordedGame; the others are reported
    on standard error and added to the list ``skipped``."""
    from .corpus import RecordedGame

    files = list(record_files(paths or [game_path(None)]))
    hidden = len(files) < PROGRESS_MIN_FILES or not sys.stderr.isatty()
    with click.progressbar(files, label=label, file=sys.stderr, hidden=hidden) as bar:
        for path in bar:
            try:
                record = read_record(path)
                game = replay_valid(record)
            except click.ClickException as exc:
                click.echo(f"Error: {exc.message} (skipped)", err=True)
                skipped.append(path)
                continue
            yield RecordedGame(path, record.variant, game)


STATS_TITLES = {
    "games": "Games",
    "seats": "Results by seat (finished games)",
    "tables": "Finished games (moves per game; groups and captures per player, on average)",
}
STATS_HEADERS = {
    "win_rate": "win rate",
    "mean_score": "mean score",
    "mean_moves": "moves",
    "min_moves": "fewest",
    "max_moves": "most",
    "mean_final_groups": "groups",
    "mean_captures": "captures",
    "tiebreak_decided": "won on tie-break",
    "shared_wins": "shared wins",
}


@click.command()
@click.argument("paths", nargs=-1, metavar="[FILE|FOLDER]...")
@json_option
@format_option
def stats(paths, as_json, table_format):
    """Figures over many records (folders are searched for *.yaml): games by number of players
    and variant, results by seat, game length, final groups and captures, and how often the
    capture tie-break decided. Records that are not valid are reported and left out (exit 1)."""
    from tabulate import tabulate

    from .corpus import corpus_stats

    skipped = []
    figures = corpus_stats(_recorded_games(paths, "Reading", skipped))
    if as_json:
        print_json({**figures, "skipped": len(skipped)})
    else:
        for key, title in STATS_TITLES.items():
            click.echo(f"{title}:")
            rows = figures[key]
            if rows:
                headers = {name: STATS_HEADERS.get(name, name) for name in rows[0]}
                click.echo(tabulate(rows, headers, tablefmt=table_format, floatfmt=".2f"))
            else:
                click.echo("(none)")
            click.echo()
        if skipped:
            click.echo(f"{len(skipped)} record(s) skipped as invalid")
    if skipped:
        sys.exit(1)


@click.command()
@click.argument("paths", nargs=-1, metavar="[FILE|FOLDER]...")
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl"]), default="csv", show_default=True)
def export(paths, fmt):
    """Write one row per move of every record (game, move, player, colour, tile, square,
    capture, captured colour and tile, the player's groups after) to standard output, as csv or
    JSON lines. Records that are not valid are reported and left out (exit 1)."""
    from .corpus import move_rows, write_rows

    skipped = []
    write_rows(move_rows(_recorded_games(paths, "Exporting", skipped)), sys.stdout, fmt)
    if skipped:
        sys.exit(1)


COMMANDS = [selfplay, analyze, stats, export]
