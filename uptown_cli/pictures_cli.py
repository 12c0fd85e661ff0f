"""The picture commands: ``uptown svg`` (a board as SVG) and ``uptown html`` (a replay page).

``cli`` registers the commands of ``COMMANDS``. They read the record with cli's helpers and
hand the game to ``svg_board`` or ``html_replay``; the file is written whole or not at all.
"""

import os

import click

from .cli import file_argument, game_path, read_record, replay_valid


def record_title(record, path):
    """The event named in the record, else the file's name."""
    return record.fields.get("event") or os.path.basename(path) or "Uptown"


def file_mode(path):
    """The mode to write ``path`` with: its own when it exists, else the umask's default."""
    try:
        return os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_output(text, output):
    """``text`` to standard output, or to the file ``output`` atomically (so a failure leaves
    no half-written file)."""
    from .record_writer import _atomic_write

    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    data = text.encode("utf-8")
    real = os.path.realpath(output)
    if os.path.isdir(real):
        raise click.ClickException(f"{output} is a folder; give a file name")
    try:
        _atomic_write(real, data, file_mode(real))
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None
    click.echo(f"Wrote {output} ({len(data):,} bytes).", err=True)


def output_option(default_name):
    return click.option(
        "-o",
        "--output",
        metavar="OUT",
        help=f"Write to OUT (e.g. {default_name}) instead of standard output.",
    )


@click.command()
@file_argument
@click.option("--at", type=click.IntRange(min=0), metavar="N", help="The position after N moves.")
@output_option("board.svg")
def svg(file, at, output):
    """Draw the board as an SVG picture.

    Regions with their symbols, every tile with its face and a shape for its colour (so it
    reads in print and for colour-blind eyes), the last move framed, the last capture marked,
    and each player's groups, captures and score beside the board.
    """
    from .svg_board import board_svg

    path = game_path(file)
    record = read_record(path)
    if at is not None and at > len(record.moves):
        raise click.BadParameter(f"{path} has {len(record.moves)} moves, not {at}", param_hint="--at")
    game = replay_valid(record, at)
    write_output(board_svg(game, record.variant, record_title(record, path)) + "\n", output)


@click.command()
@file_argument
@output_option("game.html")
def html(file, output):
    """Make one self-contained HTML page that replays the game.

    Step with the buttons, the arrow keys (Home and End for the first and last position) or
    the move list; #move=N in the address opens position N. The page needs no network and no
    other file, so it can be sent as an email attachment.
    """
    from .html_replay import replay_html

    path = game_path(file)
    record = read_record(path)
    game = replay_valid(record)
    write_output(replay_html(game, record, record_title(record, path)), output)


COMMANDS = [svg, html]
