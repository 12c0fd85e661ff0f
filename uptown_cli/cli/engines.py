"""The engine commands: ``engine`` (uptown's bots over the engine protocol) and
``tournament`` (engines and bots played against one another, with honest statistics).

The protocol is docs/ENGINE_PROTOCOL.md; tournaments are docs/TOURNAMENTS.md. The heavy
modules are imported inside the commands.
"""

import os
import shlex
import signal
import sys
from typing import TYPE_CHECKING, Any

import click

from .. import __version__
from .exits import ExitStatus, converted, signal_status
from .options import (
    VARIANT_CHOICE,
    BOT_NAMES,
    check_jobs_or_cluster,
    cluster_option,
    MC_PLAYOUTS,
    output_options,
    playouts_option,
)
from .output import Output
from ..i18n import _ as gettext, ngettext

if TYPE_CHECKING:
    from ..analysis.match import Entrant
    from ..analysis.tournament import Settings, Tournament

__all__: list[str] = []


@click.command()
@click.option("--bot", type=click.Choice(BOT_NAMES), default="horizon", show_default=True,
              help="The bot that chooses the moves.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="mc, horizon, vista: think S seconds of CPU time per move (within the clock the "
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
    """An entrant from the command line: a bot's name, NAME=BOT (a bot under a name of its
    own), or NAME=COMMAND (a bot program, an "engine")."""
    from ..analysis.match import Entrant

    name, equals, command = text.partition("=")
    name = name.strip()
    if not equals:
        if name not in BOT_NAMES:
            raise click.BadParameter(gettext("{text!r} is neither a bot ({BOT_NAMES}) nor NAME=BOT or "
                                             "NAME=COMMAND (a bot, or an engine program, under a name "
                                             "of its own)")
                                     .format(text=text, BOT_NAMES=', '.join(BOT_NAMES)))
        return Entrant(name, bot=name)
    with converted("{text!r}: {error}", text=text, usage=True, catch=ValueError):
        words = tuple(shlex.split(command))
    if not name or not words or not name.isprintable() or len(name) > 40:
        raise click.BadParameter(gettext("{text!r}: give NAME=COMMAND, a short name and the command that starts "
                                   "the engine").format(text=text))
    if len(words) == 1 and words[0] in BOT_NAMES:
        return Entrant(name, bot=words[0])
    return Entrant(name, command=words)


def _with_options(entrants: list["Entrant"], settings: tuple[str, ...]) -> list["Entrant"]:
    """The entrants with the options of ``--option NAME.KEY=VALUE`` (the values as given,
    typed as the entrant declares them when they are set; a bot's weights file by its full
    path)."""
    options: dict[str, dict[str, str]] = {}
    for setting in settings:
        target, equals, value = setting.partition("=")
        name, dot, key = target.rpartition(".")
        if not equals or not dot or not key:
            raise click.BadParameter(gettext("{setting!r}: give ENTRANT.OPTION=VALUE")
                                     .format(setting=setting), param_hint="--option")
        options.setdefault(name, {})[key] = value
    unknown = sorted(set(options) - {e.name for e in entrants})
    if unknown:
        raise click.BadParameter(gettext("{unknown!r} is not an entrant of this tournament")
                                 .format(unknown=unknown[0]), param_hint="--option")
    return [e._replace(options=tuple(sorted(_full_paths(e, options.get(e.name, {})).items())))
            for e in entrants]


def _full_paths(entrant: "Entrant", options: dict[str, str]) -> dict[str, str]:
    """``options`` with a bot's weights file named by its full path (``~`` for the home
    folder read too), so that ``--resume`` from another folder reads the same file."""
    from ..analysis.bots import bot_takes

    if entrant.bot is not None and bot_takes(entrant.bot, "weights") and options.get("weights"):
        return options | {"weights": os.path.abspath(os.path.expanduser(options["weights"]))}
    return options


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
    from ..analysis.sprt import Sprt

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
@click.option("--variant", type=VARIANT_CHOICE, default="standard", show_default=True)
@click.option("--move-time", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="Engines: S seconds a move [default: 10, unless --game-time].")
@click.option("--game-time", callback=_game_time, metavar="S[+INC]",
              help="Engines: S seconds for the whole game, INC more after each move.")
@click.option("--margin", type=click.FloatRange(min=0), default=1.0, show_default=True, metavar="S",
              help="Seconds past its time before an engine loses on time.")
@click.option("--start-time", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, metavar="S", help="Seconds an engine has to start and answer a ping.")
@click.option("--option", multiple=True, metavar="ENTRANT.KEY=VALUE",
              help="Set an option an engine's handshake offers, or a bot's (playouts, seconds; "
                   "vista's weights: a weights file), for the entrant of that name (repeatable).")
@playouts_option(default=None)
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="uptown's mc, horizon and vista entrants: S seconds of CPU time a move.")
@click.option("--sprt", callback=_sprt, metavar="ELO0,ELO1[,A,B]",
              help="A match of two: stop once the SPRT decides (alpha, beta 0.05 by default).")
@click.option("--rating-interval", type=click.IntRange(min=0), default=0, metavar="N",
              help="Print the standings on standard error every N games (0: only at the end).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games played at once (the results do not depend on it).")
@cluster_option
@output_options
def tournament(entrants: tuple[str, ...], out: str, resume: bool, gauntlet: bool, seats: int,
               deals: int, seed: str | None, variant: str, move_time: float | None,
               game_time: tuple[float, float] | None, margin: float, start_time: float,
               option: tuple[str, ...], playouts: int | None, seconds: float | None, sprt: Any,
               rating_interval: int, jobs: int, cluster: str | None, as_json: bool,
               table_format: str) -> None:
    """Play engines and bots against one another and rate them.

    ENTRANT is a bot (random, greedy, mc, horizon, vista), NAME=BOT (a bot under a name of
    its own, as often as you like) or NAME=COMMAND, an engine program speaking
    docs/ENGINE_PROTOCOL.md. Every table plays every deal from every seat; every game is
    written as a record in --out, with one line of results, so --resume continues a stopped
    run exactly. An engine that cannot start loses its games; the run goes on. Per entrant:
    games, first places, forfeits, mean score; with two seats wins/draws/losses and Elo with
    its 95% error bar; with more, openskill's mu and sigma; per pairing, cutechess's score
    line with LOS and the draw ratio.

    \b
    Examples:
      uptown tournament horizon 'mine=node bot.js' --deals 50 --out runs/mine
      uptown tournament mine=./bot horizon --sprt 0,20 --deals 500 --out runs/sprt
      uptown tournament fast=mc slow=mc --option fast.playouts=8 --out runs/mc
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
        if len(run.results) < run.games() and run.decided() is None:
            _try_entrants(run.settings, cluster)
    else:
        if move_time is not None and game_time is not None:
            raise click.UsageError(gettext("give --move-time or --game-time, not both"))
        settings = _settings(entrants, gauntlet, seats, deals, seed, variant, move_time, game_time,
                             margin, start_time, option, playouts, seconds, sprt)
        with converted(param_hint="ENTRANT"):  # settings that make no tournament: a usage error
            settings.check()
        _try_entrants(settings, cluster)  # before the folder is made: a refusal leaves none
        run = Tournament.create(out, settings)
    _play(run, jobs, cluster, rating_interval, as_json, table_format)


def _settings(entrants: tuple[str, ...], gauntlet: bool, seats: int, deals: int, seed: str | None,
              variant: str, move_time: float | None, game_time: tuple[float, float] | None,
              margin: float, start_time: float, option: tuple[str, ...], playouts: int | None,
              seconds: float | None, sprt: Any) -> "Settings":
    """The tournament's ``Settings`` from the command line."""
    import secrets

    from ..analysis.match import Limits
    from ..analysis.tournament import Settings

    if len(entrants) < 2:
        raise click.UsageError(gettext("name two or more entrants (bots, or NAME=COMMAND engines)"))
    players = _with_options([_entrant(text) for text in entrants], option)
    bot_options = {k: v for k, v in (("playouts", playouts), ("seconds", seconds)) if v is not None}
    limits = Limits(move=None if game_time else move_time or 10.0,
                    game=game_time[0] if game_time else None,
                    increment=game_time[1] if game_time else 0.0, margin=margin,
                    start=start_time, bot_options=tuple(sorted(bot_options.items())))
    return Settings(tuple(players), "gauntlet" if gauntlet else "round-robin", seats, deals,
                    secrets.token_hex(4) if seed is None else seed, variant, limits, sprt)


def _try_entrants(settings: "Settings", cluster: str | None) -> None:
    """Try each entrant before the first game (``tournament.trial``; a program where its games
    are played: here, or on a worker of the cluster): one line and exit 1 for an option it
    does not take or a weights file it cannot play with, a warning for a program that cannot
    start (it loses its games, and the run goes on)."""
    import functools

    from ..analysis.pool import in_pool
    from ..analysis.tournament import trial
    from ..errors import SetupError

    bots = [e for e in settings.entrants if e.bot is not None]
    programs = [e for e in settings.entrants if e.bot is None]
    failures = [trial(entrant, settings.limits, settings.seats) for entrant in bots]
    try:
        if programs:
            failures += in_pool(functools.partial(trial, limits=settings.limits, seats=settings.seats),
                                programs, 1, cluster)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (analysis.pool.Stopped)
        sys.exit(signal_status(getattr(exc, "signum", signal.SIGINT)))
    refused = [failure for failure in failures if isinstance(failure, SetupError)]
    if refused:
        raise refused[0]
    for entrant, failure in zip(bots + programs, failures):
        if failure is not None:
            click.echo(gettext("Warning: engine {name} cannot play ({reason}): it loses "
                               "its games by forfeit.").format(name=entrant.name, reason=failure),
                       err=True)


def _play(run: "Tournament", jobs: int, cluster: str | None, rating_interval: int, as_json: bool,
          table_format: str) -> None:
    """Play the games left with a progress bar (on a terminal) and the standings every
    ``rating_interval`` games on standard error, then print them."""
    from .standings import print_standings, standings_lines

    total = run.games()
    interrupted = 0
    with click.progressbar(length=total, label=gettext("Playing"), file=sys.stderr,
                           hidden=not sys.stderr.isatty()) as bar:
        bar.update(len(run.results))
        try:
            for _ in run.run(jobs, cluster):
                bar.update(1)
                if rating_interval and len(run.results) % rating_interval == 0:
                    if not bar.hidden:
                        click.echo("\r\033[K", nl=False, err=True)  # the bar's line, cleared
                    click.echo("\n".join(standings_lines(run)), err=True)
                    bar.render_progress()
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (analysis.pool.Stopped)
            interrupted = signal_status(getattr(exc, "signum", 2))
    if interrupted:
        click.echo(ngettext("Interrupted: {done} of {count} game played; uptown tournament "
                            "--resume --out {folder} continues.",
                            "Interrupted: {done} of {count} games played; uptown tournament "
                            "--resume --out {folder} continues.", total)
                   .format(done=len(run.results), count=total, folder=shlex.quote(run.folder)), err=True)
    print_standings(run, Output(as_json, table_format))
    if interrupted:
        sys.exit(interrupted)


COMMANDS = {command.name: command for command in (engine, tournament)}
