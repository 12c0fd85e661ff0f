"""The engine commands: ``engine`` (uptown's bots over the engine protocol) and
``tournament`` (engines and bots played against one another, with honest statistics).

The protocol is docs/ENGINE_PROTOCOL.md; tournaments are docs/TOURNAMENTS.md. The heavy
modules are imported inside the commands.
"""

import json
import shlex
import sys
from typing import TYPE_CHECKING, Any

import click

from .. import __version__
from ..engine.game import VARIANTS
from .exits import ExitStatus, converted, signal_status
from .options import (
    BOT_NAMES,
    check_jobs_or_cluster,
    cluster_option,
    MC_PLAYOUTS,
    output_options,
    playouts_option,
)
from .output import Output
from ..errors import display_path
from ..i18n import _ as gettext, ngettext
from ..i18n import figures as decimals

if TYPE_CHECKING:
    from ..analysis.match import Entrant
    from ..analysis.tournament import Tournament

__all__: list[str] = []


@click.command()
@click.option("--bot", type=click.Choice(BOT_NAMES), default="horizon", show_default=True,
              help="The bot that chooses the moves.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="mc, horizon: think S seconds of CPU time per move (within the clock the "
                   "host gives) instead of by playouts.")
@playouts_option(default=MC_PLAYOUTS)
def engine(bot: str, seconds: float | None, playouts: int) -> None:
    """Serve a bot over the engine protocol on standard input and output.

    One JSON message a line (docs/ENGINE_PROTOCOL.md, protocol uptown-engine-1): hello,
    ping, option, move, quit. Any program can play against uptown's bots this way, and
    `uptown tournament` runs engines so.

    \b
    Example:
      echo '{"type":"hello","protocol":"uptown-engine-1"}' | uptown engine --bot greedy
    """
    from ..analysis.bot_server import serve
    from ..i18n import use_language

    if sys.stdin is None:
        raise click.ClickException(gettext("standard input is closed: the engine reads its "
                                           "messages there (pipe them to it)"))
    use_language("en")  # the protocol's messages are read by programs: English, as JSON's words
    try:
        serve(bot, sys.stdin.buffer, sys.stdout.buffer, seconds, playouts, version=__version__)
    except KeyboardInterrupt:
        sys.exit(ExitStatus.INTERRUPTED)


def _entrant(text: str) -> "Entrant":
    """An entrant from the command line: a bot's name, or NAME=COMMAND."""
    from ..analysis.match import Entrant

    name, equals, command = text.partition("=")
    name = name.strip()
    if not equals:
        if name not in BOT_NAMES:
            raise click.BadParameter(gettext("{text!r} is neither a bot ({BOT_NAMES}) nor NAME=COMMAND (an engine "
                                       "program)")
                                     .format(text=text, BOT_NAMES=', '.join(BOT_NAMES)))
        return Entrant(name, bot=name)
    with converted(prefix=f"{text!r}: ", usage=True, catch=ValueError):
        words = tuple(shlex.split(command))
    if not name or not words or not name.isprintable() or len(name) > 40:
        raise click.BadParameter(gettext("{text!r}: give NAME=COMMAND, a short name and the command that starts "
                                   "the engine").format(text=text))
    return Entrant(name, command=words)


def _served_options(entrants: list["Entrant"], settings: tuple[str, ...]) -> list["Entrant"]:
    """The entrants with the engine options of ``--option NAME.KEY=VALUE`` set."""
    options: dict[str, dict[str, Any]] = {}
    for setting in settings:
        target, equals, value = setting.partition("=")
        name, dot, key = target.rpartition(".")
        if not equals or not dot or not key:
            raise click.BadParameter(gettext("{setting!r}: give ENGINE.OPTION=VALUE")
                                     .format(setting=setting), param_hint="--option")
        try:
            options.setdefault(name, {})[key] = json.loads(value)
        except ValueError:
            options.setdefault(name, {})[key] = value
    engines = {e.name: e for e in entrants if e.bot is None}
    unknown = sorted(set(options) - set(engines))
    if unknown:
        raise click.BadParameter(gettext("{unknown!r} is not an engine of this tournament")
                                 .format(unknown=unknown[0]), param_hint="--option")
    return [e._replace(options=tuple(sorted(options.get(e.name, {}).items())))
            if e.bot is None else e for e in entrants]


def _game_time(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[float, float] | None:
    """``S`` or ``S+INC`` as (seconds, increment)."""
    if value is None:
        return None
    total, _, increment = value.partition("+")
    try:
        pair: tuple[float, float] | None = float(total), float(increment or 0)
    except ValueError:
        pair = None
    if pair is None:
        raise click.BadParameter(gettext("{value!r}: give seconds, or seconds+increment (60+0.5)")
                                 .format(value=value))
    if pair[0] <= 0 or pair[1] < 0:
        raise click.BadParameter(gettext("{value!r}: the time must be positive").format(value=value))
    return pair


def _sprt(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """``ELO0,ELO1[,ALPHA,BETA]`` as an Sprt."""
    if value is None:
        return None
    from ..analysis.rating import Sprt

    try:
        numbers = [float(x) for x in value.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) not in (2, 4) or numbers[0] >= numbers[1] or (
            len(numbers) == 4 and not all(0 < x < 0.5 for x in numbers[2:])):
        raise click.BadParameter(gettext("{value!r}: give ELO0,ELO1 (ELO0 < ELO1) or ELO0,ELO1,ALPHA,BETA (each "
                                   "under 0.5)").format(value=value))
    return Sprt(*numbers)


SETUP_OPTIONS = ("entrants", "gauntlet", "seats", "deals", "seed", "variant", "move_time",
                 "game_time", "margin", "start_time", "playouts", "seconds", "sprt", "option")
"""The options that set a tournament up (``--resume`` takes them from its folder)."""


@click.command()
@click.argument("entrants", nargs=-1, metavar="ENTRANT...")
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="The tournament's folder: settings, results, records, engine logs.")
@click.option("--resume", is_flag=True, help="Continue the tournament in --out where it stopped.")
@click.option("--gauntlet", is_flag=True, help="The first entrant against each other one (who "
              "fills the other seats), instead of a round-robin.")
@click.option("--seats", type=click.IntRange(2, 5), default=2, show_default=True, help="Players per game.")
@click.option("--deals", type=click.IntRange(min=1), default=10, show_default=True,
              help="Deals per table, each played from every seat (DEALS x SEATS games a table).")
@click.option("--seed", help="Fixes every deal (default: a random one, printed).")
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True)
@click.option("--move-time", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="Engines: S seconds a move [default: 10, unless --game-time].")
@click.option("--game-time", callback=_game_time, metavar="S[+INC]",
              help="Engines: S seconds for the whole game, INC more after each move.")
@click.option("--margin", type=click.FloatRange(min=0), default=1.0, show_default=True, metavar="S",
              help="Seconds past its time before an engine loses on time.")
@click.option("--start-time", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, metavar="S", help="Seconds an engine has to start and answer a ping.")
@click.option("--option", multiple=True, metavar="ENGINE.KEY=VALUE",
              help="Set an option an engine's handshake offers (repeatable).")
@playouts_option(default=None)
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="uptown's mc and horizon entrants: S seconds of CPU time a move.")
@click.option("--sprt", callback=_sprt, metavar="ELO0,ELO1[,A,B]",
              help="A match of two: stop once the SPRT decides (alpha, beta 0.05 by default).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games played at once (the results do not depend on it).")
@cluster_option
@output_options
def tournament(entrants: tuple[str, ...], out: str, resume: bool, gauntlet: bool, seats: int,
               deals: int, seed: str | None, variant: str, move_time: float | None,
               game_time: tuple[float, float] | None, margin: float, start_time: float,
               option: tuple[str, ...], playouts: int | None, seconds: float | None, sprt: Any,
               jobs: int, cluster: str | None, as_json: bool, table_format: str) -> None:
    """Play engines and bots against one another and rate them.

    ENTRANT is a bot (random, greedy, mc, horizon) or NAME=COMMAND, an engine program
    speaking docs/ENGINE_PROTOCOL.md. Every table plays every deal from every seat; every
    game is written as a record in --out, with one line of results, so --resume continues
    a stopped run exactly. Per entrant: games, first places, mean score; with two seats
    wins/draws/losses and Elo with its 95% error bar; with more, openskill's mu and sigma.

    \b
    Examples:
      uptown tournament horizon 'mine=node bot.js' --deals 50 --out runs/mine
      uptown tournament mine=./bot horizon --sprt 0,20 --deals 500 --out runs/sprt
      uptown tournament --resume --out runs/mine --jobs 2
    """
    from ..analysis.tournament import Tournament

    check_jobs_or_cluster(cluster)
    ctx = click.get_current_context()
    if resume:
        given = [name for name in SETUP_OPTIONS
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise click.UsageError(gettext("--resume continues the tournament as it was set up: drop {value}")
                                   .format(value='the entrants' if given[0] == 'entrants' else '--' + given[0].replace('_', '-')))
        run = Tournament.resume(out)
    else:
        if move_time is not None and game_time is not None:
            raise click.UsageError(gettext("give --move-time or --game-time, not both"))
        run = Tournament.create(out, _settings(entrants, gauntlet, seats, deals, seed, variant,
                                               move_time, game_time, margin, start_time, option,
                                               playouts, seconds, sprt))
    _play(run, jobs, cluster, as_json, table_format)


def _settings(entrants: tuple[str, ...], gauntlet: bool, seats: int, deals: int, seed: str | None,
              variant: str, move_time: float | None, game_time: tuple[float, float] | None,
              margin: float, start_time: float, option: tuple[str, ...], playouts: int | None,
              seconds: float | None, sprt: Any) -> Any:
    """The tournament's ``Settings`` from the command line."""
    import secrets

    from ..analysis.match import Limits
    from ..analysis.tournament import Settings

    if len(entrants) < 2:
        raise click.UsageError(gettext("name two or more entrants (bots, or NAME=COMMAND engines)"))
    players = _served_options([_entrant(text) for text in entrants], option)
    bot_options = {k: v for k, v in (("playouts", playouts), ("seconds", seconds)) if v is not None}
    limits = Limits(move=None if game_time else move_time or 10.0,
                    game=game_time[0] if game_time else None,
                    increment=game_time[1] if game_time else 0.0, margin=margin,
                    start=start_time, bot_options=tuple(sorted(bot_options.items())))
    return Settings(tuple(players), "gauntlet" if gauntlet else "round-robin", seats, deals,
                    secrets.token_hex(4) if seed is None else seed, variant, limits, sprt)


def _check_engines(run: "Tournament") -> None:
    """Start each engine once and shake hands: one clear line, before any game, for an
    engine that cannot play at all."""
    from ..analysis.bot_programs import BotProgram, program_signals
    from ..analysis.pool import stopped_by_signals

    with stopped_by_signals(), program_signals():
        for entrant in run.settings.entrants:
            if entrant.bot is None:
                with converted(prefix=gettext("engine {name}: ").format(name=entrant.name)), \
                        BotProgram(entrant.command) as process:
                    process.handshake(run.settings.limits.start, dict(entrant.options))


def _play(run: "Tournament", jobs: int, cluster: str | None, as_json: bool, table_format: str) -> None:
    """Check the engines (here, without a cluster) and play the games left with a progress bar
    (on a terminal), then print the table."""
    total = run.games()
    interrupted = 0
    with click.progressbar(length=total, label=gettext("Playing"), file=sys.stderr,
                           hidden=not sys.stderr.isatty()) as bar:
        bar.update(len(run.results))
        try:
            if cluster is None:
                _check_engines(run)
            for _ in run.run(jobs, cluster):
                bar.update(1)
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (analysis.pool.Stopped)
            interrupted = signal_status(getattr(exc, "signum", 2))
    if interrupted:
        click.echo(ngettext("Interrupted: {done} of {count} game played; uptown tournament "
                            "--resume --out {folder} continues.",
                            "Interrupted: {done} of {count} games played; uptown tournament "
                            "--resume --out {folder} continues.", total)
                   .format(done=len(run.results), count=total, folder=shlex.quote(run.folder)), err=True)
    _print_table(run, total, as_json, table_format)
    if interrupted:
        sys.exit(interrupted)


def _print_table(run: "Tournament", total: int, as_json: bool, table_format: str) -> None:
    from ..analysis.rating import figures, results_of, sprt_llr

    settings = run.settings
    names = [e.name for e in settings.entrants]
    table = figures(run.results, names, settings.seats)
    forfeits = {name: sum(s.forfeit is not None for o in run.results for s in o.seats if s.entrant == name)
                for name in names}
    sprt = None
    if settings.sprt is not None:
        test = settings.sprt
        llr = sprt_llr(*results_of(run.results, names[0]), test.elo0, test.elo1)
        sprt = {**test._asdict(), "llr": round(llr, 3), "bounds": [round(b, 3) for b in test.bounds()],
                "decision": run.decided()}
    out = Output(as_json, table_format)
    if as_json:
        out.json({"folder": run.folder, "games": len(run.results), "scheduled": total,
                  "mode": settings.mode, "seats": settings.seats, "seed": settings.seed,
                  "variant": settings.variant,
                  "entrants": [f.to_json() | {"forfeits": forfeits[f.name]} for f in table],
                  "sprt": sprt})
        return
    title = ngettext("{count} game of {total}, {mode}, {seats} seats, {variant}, seed {seed}; "
                     "records in {folder}",
                     "{count} games of {total}, {mode}, {seats} seats, {variant}, seed {seed}; "
                     "records in {folder}", len(run.results)).format(
        count=len(run.results), total=total, mode=settings.mode, seats=settings.seats,
        variant=settings.variant, seed=settings.seed, folder=display_path(run.folder))
    if settings.seats == 2:
        headers = [gettext("entrant"), gettext("games"), gettext("firsts"), gettext("mean\nscore"),
                   gettext("W-D-L"), "Elo", "95%\n+-", gettext("forfeits")]
        rows = [[f.name, f.games, f"{f.firsts:g}", f"{f.mean_score:.2f}", f"{f.wins}-{f.draws}-{f.losses}",
                 _elo(f.elo, f.wins, f.games), _number(f.elo_error), forfeits[f.name]] for f in table]
    else:
        headers = [gettext("entrant"), gettext("games"), gettext("firsts"), gettext("mean\nscore"),
                   "mu", "sigma", gettext("forfeits")]
        rows = [[f.name, f.games, f"{f.firsts:g}", f"{f.mean_score:.2f}", _number(f.mu, 2),
                 _number(f.sigma, 2), forfeits[f.name]] for f in table]
    out.table(rows, headers, title=title)
    if sprt is not None:
        verdict = {"H1": gettext("H1 accepted: {name} is the stronger by {elo:g} Elo").format(
                       name=names[0], elo=sprt["elo1"]),
                   "H0": gettext("H0 accepted: {name} is not stronger by more than {elo:g} Elo")
                   .format(name=names[0], elo=sprt["elo0"]),
                   None: gettext("undecided")}[sprt["decision"]]
        out.text(decimals(f"SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} "
                         f"beta={sprt['beta']:g}: LLR {sprt['llr']:.2f} "
                         f"({sprt['bounds'][0]:.2f}, {sprt['bounds'][1]:.2f}), {verdict}"))


def _number(value: float | None, digits: int = 1) -> str:
    """A figure, ``inf`` for None (a bound out of reach)."""
    return "inf" if value is None else f"{value + 0.0:.{digits}f}"


def _elo(elo: float | None, wins: int | None, games: int) -> str:
    """The Elo difference; ``+inf`` or ``-inf`` when every game was won or lost."""
    if elo is None:
        return "" if not games else "+inf" if wins else "-inf"
    return f"{elo + 0.0:.1f}" if round(elo, 1) else "0.0"


COMMANDS = {command.name: command for command in (engine, tournament)}
