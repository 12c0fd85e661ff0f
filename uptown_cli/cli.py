"""The ``uptown`` command line: thin commands over the record layer, the engine and ``render``.

Start-up stays light: the record layer (PyYAML) and ``render`` (tabulate) are imported inside
the commands, so ``uptown --version`` and ``uptown --help`` load neither.
"""

import functools
import importlib
import json
import os
import sys

import click

from . import __version__
from .game import COLORS
from .scoring import VARIANTS

GAME_ENV = "UPTOWN_GAME"
DEFAULT_GAME = "game.yaml"
PROGRESS_MIN_FILES = 20
"""``validate`` shows a progress bar (on a terminal) from this many files on."""


COMMAND_MODULES = ("analysis_cli", "hidden_cli")
"""Modules whose ``COMMANDS`` join ``uptown``'s, when installed."""


@functools.cache
def module_commands():
    """The commands of ``COMMAND_MODULES`` by name, for the modules that are installed."""
    commands = {}
    for module_name in COMMAND_MODULES:
        name = f"{__package__}.{module_name}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        commands.update((command.name, command) for command in module.COMMANDS)
    return commands


class UptownGroup(click.Group):
    """The commands of ``uptown``, with those of ``COMMAND_MODULES`` that are installed."""

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *module_commands()})

    def get_command(self, ctx, name):
        return super().get_command(ctx, name) or module_commands().get(name)


@click.group(cls=UptownGroup)
@click.version_option(__version__, prog_name="uptown")
def main():
    """Records of the tile game Uptown (Board Game Arena rules): create and play games by
    email, show, replay, validate and score them.

    FILE defaults to game.yaml, or to $UPTOWN_GAME when it is set; "-" reads standard input
    for the commands that only read.
    """


# -- shared options ------------------------------------------------------------------------


def file_argument(command):
    return click.argument("file", required=False, metavar="[FILE]")(command)


def json_option(command):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(command)


def _check_format(ctx, param, value):
    from tabulate import tabulate_formats

    if value not in tabulate_formats:
        raise click.BadParameter(f"{value!r} is not a tabulate format ({', '.join(tabulate_formats)})")
    return value


def format_option(command):
    return click.option(
        "--format",
        "table_format",
        default="simple",
        show_default=True,
        callback=_check_format,
        metavar="FMT",
        help="Table format: any tabulate format (plain, github, grid, ...).",
    )(command)


def keys_option(command):
    return click.option(
        "--keys",
        metavar="DIR",
        help="Folder of your key files, for games with hidden racks (default: $UPTOWN_KEYS, "
        "else the uptown/keys folder in your config folder).",
    )(command)


def color_option(command):
    return click.option(
        "--no-color",
        is_flag=True,
        help="No ANSI colour (never used with NO_COLOR set or off a terminal).",
    )(command)


def use_color(no_color):
    """ANSI colour only on a terminal, and never with ``--no-color`` or ``NO_COLOR`` set."""
    return not no_color and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def plural(count, noun):
    return f"{count} {noun}{'' if count == 1 else 's'}"


def print_json(data):
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


# -- reading records -----------------------------------------------------------------------


def game_path(file):
    """FILE as given, else ``$UPTOWN_GAME``, else ``game.yaml``."""
    return file or os.environ.get(GAME_ENV) or DEFAULT_GAME


def problem_line(error):
    """``PATH:LINE: message`` (with the move number when there is one)."""
    where = ":".join(str(part) for part in (error.path, error.line) if part is not None)
    move = f"move {error.move}: " if error.move is not None else ""
    return f"{where}: {move}{error.message}"


def read_record(path):
    """The record at ``path`` ("-" for standard input), or a one-line ClickException."""
    from .record import load_record, load_record_text
    from .yamlsafe import MAX_BYTES, RecordError

    if path != "-" and not os.path.exists(path):
        raise click.ClickException(f"{path}: no such file (uptown new creates a game)")
    try:
        if path == "-":
            return load_record_text(sys.stdin.buffer.read(MAX_BYTES + 1), "<stdin>")
        return load_record(path)
    except RecordError as exc:
        more = len(exc.problems) - 1
        hint = f" (and {more} more; see uptown validate)" if more else ""
        raise click.ClickException(f"{exc}{hint}") from None


def replay_valid(record, upto=None):
    """The game after the record's moves (the first ``upto``), or a ClickException for the
    first illegal move."""
    from .record import replay

    result = replay(record, upto=upto)
    if result.errors:
        raise click.ClickException(f"{problem_line(result.errors[0])} (the record is invalid)")
    return result.game


# -- the commands --------------------------------------------------------------------------


def parse_player(text):
    """``NAME[:COLOR[,COLOR]]`` as (name, colours)."""
    name, sep, colors = text.rpartition(":")
    if not sep:
        return text, ()
    wanted = tuple(c.strip().lower() for c in colors.split(","))
    for color in wanted:
        if color not in COLORS:
            raise click.BadParameter(
                f"{text!r}: unknown colour {color!r} (the colours are {', '.join(COLORS)})",
                param_hint="--player",
            )
    return name, wanted


@main.command()
@file_argument
@click.option(
    "--player",
    "-p",
    "players",
    multiple=True,
    required=True,
    metavar="NAME[:COLOR[,COLOR]]",
    help="A player, in turn order (2 to 5); colours are dealt red, blue, green, yellow, "
    "orange when not named.",
)
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True)
@click.option("--seed", help="The seed that fixes every bag (default: a random one).")
@click.option("--hidden", is_flag=True,
              help="Hidden racks: no seed; each player joins with a secret key (uptown join).")
def new(file, players, variant, seed, hidden):
    """Create a new game record (never overwrites a file).

    \b
    Example:
      uptown new club.yaml --player Ana --player Bo --player Cy:orange
    """
    import secrets

    from .record import PlayerEntry, deal_colors, load_record_text
    from .record_writer import create_record, render_record
    from .render import to_move_text
    from .yamlsafe import RecordError

    path = game_path(file)
    if path == "-":
        raise click.UsageError("new writes a file; give its name, not -")
    if not 2 <= len(players) <= 5:
        raise click.UsageError(f"a game has 2 to 5 players; {len(players)} given with --player")
    entries = [PlayerEntry(*parse_player(text), line=0) for text in players]
    deal_colors(entries)
    if hidden:
        from .hidden_cli import create_hidden

        if seed is not None:
            raise click.UsageError(
                "--hidden and --seed exclude each other (a seed shows every rack)"
            )
        click.echo(create_hidden(path, entries, variant))
        return
    seed = secrets.token_hex(4) if seed is None else seed
    try:
        text = render_record(entries, variant=variant, seed=seed)
    except RecordError as exc:
        raise click.BadParameter(exc.message, param_hint="--player/--seed") from None
    try:
        create_record(path, text)
    except RecordError as exc:
        raise click.ClickException(exc.message) from None
    game = load_record_text(text, path).new_game()
    who = ", ".join(f"{p.name} ({' '.join(p.colors)})" for p in game.players)
    click.echo(f"Created {path}: {variant}, seed {seed}; {who}.")
    click.echo(to_move_text(game))


@main.command()
@file_argument
@click.option("--at", type=click.IntRange(min=0), metavar="N", help="Show the position after N moves.")
@click.option(
    "--as", "as_name", metavar="NAME", help="Hidden racks: show NAME's racks (from their key file)."
)
@keys_option
@json_option
@format_option
@color_option
def show(file, at, as_name, keys, as_json, table_format, no_color):
    """Show the board, the players and whose turn it is.

    The player to move's rack is shown when the racks are known (the game has a seed); in a
    game with hidden racks, the racks of the player named by --as.
    """
    from .render import board_text, players_table, position_data, to_move_text
    from .scoring import standings

    path = game_path(file)
    record = read_record(path)
    if at is not None and at > len(record.moves):
        raise click.BadParameter(f"{path} has {len(record.moves)} moves, not {at}", param_hint="--at")
    game = replay_valid(record, at)
    hidden_view = None
    if record.hidden is not None:
        from . import hidden_cli

        if as_name is not None:
            name = hidden_cli.player_name(record, as_name)
            key = hidden_cli.player_key(record, name, keys)
            hidden_view = hidden_cli.own_view(record, name, key, at)[1], name
    elif as_name is not None:
        raise click.UsageError("--as is for games with hidden racks; this game's racks are known")
    if as_json:
        data = position_data(game)
        if record.hidden is not None:
            data.update(hidden_cli.position_data(game, *(hidden_view or ())))
        print_json(data)
        return
    click.echo(f"{path}: {record.variant}, after {game.ply} of {plural(len(record.moves), 'move')}")
    click.echo(board_text(game, use_color(no_color)))
    click.echo()
    click.echo(players_table(game, standings(game, record.variant), table_format))
    click.echo()
    if record.hidden is not None:
        click.echo(hidden_cli.to_move_text(game, *(hidden_view or ())))
    else:
        click.echo(to_move_text(game))


@main.command()
@file_argument
@click.option(
    "--from", "first", type=click.IntRange(min=1), default=1, metavar="N", help="First move shown."
)
@click.option(
    "--to", "last", type=click.IntRange(min=1), metavar="N", help="Last move shown (default: the end)."
)
@color_option
def replay(file, first, last, no_color):
    """Show every position of a game in turn.

    Each position is headed by its move number, colour, player, move and what it captured.
    """
    from .render import board_text, legend_lines, turn_text

    path = game_path(file)
    record = read_record(path)
    count = len(record.moves)
    last = count if last is None else last
    if last > count:
        raise click.BadParameter(f"{path} has {count} moves, not {last}", param_hint="--to")
    if first > max(last, 1):
        raise click.BadParameter(f"{first} is after the last move shown ({last})", param_hint="--from")
    game = replay_valid(record, upto=last)
    played = list(game.history)
    while game.ply:
        game.pop()
    colored = use_color(no_color)
    click.echo("\n".join(legend_lines(game, colored)))
    if not played:
        click.echo("No moves yet.")
    for turn in played:
        game.play(turn.move, turn.color)
        if turn.number >= first:
            click.echo()
            click.echo(f"Move {turn.number}: {turn_text(turn)}")
            click.echo(board_text(game, colored, legend=False))


def record_files(paths):
    """The files named, with every ``*.yaml``/``*.yml`` under the folders named (sorted,
    hidden folders skipped)."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        found = []
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = [d for d in subfolders if not d.startswith(".")]
            found += [os.path.join(folder, n) for n in names if n.endswith((".yaml", ".yml"))]
        if not found:
            raise click.ClickException(f"{path} is a folder with no .yaml records in it")
        yield from sorted(found)


def validate_one(path, strict):
    from .record import validate_file, validate_text
    from .yamlsafe import MAX_BYTES

    if path == "-":
        return validate_text(sys.stdin.buffer.read(MAX_BYTES + 1), "<stdin>", strict)
    return validate_file(path, strict)


@main.command()
@click.argument("paths", nargs=-1, metavar="[FILE|FOLDER]...")
@click.option("--strict", is_flag=True, help="Also report moves not written in canonical notation.")
@json_option
def validate(paths, strict, as_json):
    """Check records and report every problem.

    Folders are searched for *.yaml. Each problem is one line, PATH:LINE: message, followed by
    a summary; the exit status is 0 only if every record is valid.
    """
    files = list(record_files(paths or [game_path(None)]))
    quiet = len(files) < PROGRESS_MIN_FILES or not sys.stderr.isatty()
    with click.progressbar(files, label="Validating", file=sys.stderr, hidden=quiet) as bar:
        results = [validate_one(path, strict) for path in bar]
    invalid = sum(not v.valid for v in results)
    if as_json:
        print_json([v.to_json() for v in results])
    else:
        for v in results:
            for error in v.errors:
                click.echo(problem_line(error))
            for note in v.unchecked:
                click.echo(f"{v.path}: not yet checkable: {note}")
        click.echo(
            f"{plural(len(results), 'record')}, {len(results) - invalid} valid, {invalid} invalid"
        )
    if invalid:
        sys.exit(1)


@main.command()
@click.argument("files", nargs=-1, metavar="[FILE]...")
@click.option(
    "--variant", type=click.Choice(VARIANTS), help="Score this way instead of the file's variant."
)
@json_option
@format_option
def score(files, variant, as_json, table_format):
    """Print the standings (lower scores are better).

    One table per file: rank, player, colours, groups, captures and score, under the file's
    variant or --variant.
    """
    from .render import standings_data, standings_table
    from .scoring import standings

    paths = files or (game_path(None),)
    scored = []
    for path in paths:
        try:
            record = read_record(path)
            game = replay_valid(record)
        except click.ClickException as exc:
            if len(paths) == 1:
                raise
            exc.show()
            continue
        scoring = variant or record.variant
        scored.append((path, game, scoring, standings(game, scoring)))
    if as_json:
        data = [
            {"path": path, **standings_data(game, rows, scoring)} for path, game, scoring, rows in scored
        ]
        print_json(data if len(paths) > 1 else data[0])
    else:
        for index, (path, game, scoring, rows) in enumerate(scored):
            state = "finished" if game.finished else f"not finished, after {plural(game.ply, 'move')}"
            if index:
                click.echo()
            click.echo(f"{path}: {scoring}, {state}")
            click.echo(standings_table(rows, table_format))
    if len(scored) < len(paths):
        sys.exit(1)


@main.command()
@file_argument
@click.option(
    "--as", "as_name", metavar="NAME", help="Hidden racks: you are NAME, the player to move."
)
@keys_option
@json_option
@format_option
def moves(file, as_name, keys, as_json, table_format):
    """List the legal moves of the player to move.

    The racks must be known, so the game needs a seed; in a game with hidden racks, the player
    to move gives --as with their name.
    """
    from .render import moves_data, moves_table

    path = game_path(file)
    record = read_record(path)
    game = replay_valid(record)
    if record.hidden is not None and not game.finished:
        from .hidden_cli import mover_view

        game = mover_view(record, game, as_name, keys)[0]
    if not game.finished and not game.knows_racks:
        raise click.ClickException(f"{path} has no seed, so the racks and legal moves are unknown")
    legal = [] if game.finished else game.legal_moves()
    if as_json:
        print_json(moves_data(game, legal))
    elif game.finished:
        click.echo("The game is over: there are no moves.")
    else:
        player = game.to_move
        click.echo(
            f"{player.name} to move ({', '.join(player.colors)}): {plural(len(legal), 'legal move')}"
        )
        click.echo(moves_table(legal, table_format))


def split_file(words):
    """(FILE, the move's words): the first word is FILE when it ends in .yaml/.yml or names an
    existing file."""
    first = words[0] if words else ""
    if first == "-" or first.lower().endswith((".yaml", ".yml")) or os.path.isfile(first):
        return words[0], words[1:]
    return game_path(None), words


def chosen_move(words, bot, game, variant):
    """(colour or None, Move) from the words typed or from the bot."""
    from .geometry import NotationError
    from .notation import parse_move

    if bot:
        from .bots import BOT_NAMES, choose_move

        if bot not in BOT_NAMES:
            raise click.BadParameter(f"{bot!r} is not a bot ({', '.join(BOT_NAMES)})", param_hint="--bot")
        try:
            return choose_move(bot, game, variant=variant)
        except (ValueError, RuntimeError) as exc:
            raise click.ClickException(str(exc)) from None
    try:
        return None, parse_move(" ".join(words))
    except NotationError as exc:
        raise click.ClickException(str(exc)) from None


@main.command()
@click.argument("words", nargs=-1, metavar="[FILE] MOVE")
@click.option("--as", "as_name", metavar="NAME", help="Refuse to play unless it is NAME's turn.")
@click.option("--color", type=click.Choice(COLORS), help="The rack to play from (two players).")
@click.option("--bot", metavar="NAME", help="Let a bot (random, greedy, mc) choose the move.")
@keys_option
@format_option
@color_option
def move(words, as_name, color, bot, keys, table_format, no_color):
    """Play a move and append it to FILE.

    MOVE is played for the player to move: 7 B7, or 7 and B7 as two words, or pass. The
    new board, the tile drawn and who is next are printed.

    \b
    Examples:
      uptown move 7 B7
      uptown move club.yaml sax xE8 --as Bo
      uptown move pass
    """
    from .game import IllegalMove
    from .record_writer import append_move
    from .render import board_text, drawn_text, standings_table, to_move_text, turn_text
    from .scoring import standings
    from .yamlsafe import RecordError

    path, words = split_file(words)
    if path == "-":
        raise click.UsageError("move writes to FILE; standard input cannot be used")
    if bot and (words or color):
        raise click.UsageError("--bot chooses the move and its colour: give no move and no --color")
    if not bot and not words:
        raise click.UsageError("which move? e.g. uptown move 7 B7 (or pass)")
    record = read_record(path)
    game = replay_valid(record)
    player = game.to_move
    if player is None:
        raise click.ClickException(f"the game in {path} is over; nothing was written")
    if as_name is not None and as_name.casefold() != player.name.casefold():
        names = [p.name for p in game.players]
        if as_name.casefold() not in (n.casefold() for n in names):
            raise click.ClickException(f"no player is named {as_name!r} (players: {', '.join(names)})")
        raise click.ClickException(f"it is {player.name}'s turn, not {as_name}'s; nothing was written")
    if color is not None and color not in player.colors:
        raise click.ClickException(f"{player.name} plays {' and '.join(player.colors)}, not {color}")
    link = None
    if record.hidden is not None:
        from . import hidden_cli

        game, link = hidden_cli.mover_view(record, game, as_name, keys)
    bot_color, chosen = chosen_move(words, bot, game, record.variant)
    try:
        turn = game.play(chosen, bot_color or color)
    except IllegalMove as exc:
        hint = " (use --color)" if exc.reason == "ambiguous_color" else ""
        raise click.ClickException(f"{exc}{hint}; nothing was written") from None
    try:
        append_move(path, turn.color, str(turn.move), record.text, link)
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Move {turn.number}: {turn_text(turn)}")
    click.echo(board_text(game, use_color(no_color)))
    if link is not None:
        click.echo(hidden_cli.drawn_text(turn))
        click.echo(hidden_cli.to_move_text(game))
    else:
        click.echo(drawn_text(game, turn))
        click.echo(to_move_text(game))
    if game.finished:
        click.echo("Final standings:")
        click.echo(standings_table(standings(game, record.variant), table_format))


@main.command()
@click.argument("file_a", metavar="A")
@click.argument("file_b", metavar="B")
@json_option
def diff(file_a, file_b, as_json):
    """Tell how two copies of a game relate: identical, one extends the other, diverging (at
    which move, on which lines) or not the same game.

    Exits 0 only when neither copy contradicts the other (identical, or one extends the
    other), so two players who both answered the same emailed position are caught.
    """
    from .compare import compare_records

    if file_a == file_b == "-":
        raise click.UsageError("standard input can be only one of A and B")
    result = compare_records(read_record(file_a), read_record(file_b))
    if as_json:
        print_json(result.to_json())
    else:
        click.echo(result.message())
    if not result.consistent:
        sys.exit(1)
