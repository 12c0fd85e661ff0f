"""The picture commands: ``svg`` (a board as an SVG picture) and ``html`` (a replay page).

They hand the replayed game to ``svg_board`` or ``html_replay`` and write the text whole or not
at all (``options.write_output``).
"""

import click

from .loading import read_game
from .options import file_argument, output_file_option
from .output import write_output

__all__: list[str] = []


@click.command()
@file_argument
@click.option("--at", type=click.IntRange(min=0), metavar="N", help="The position after N moves.")
@output_file_option("board.svg")
def svg(file: str | None, at: int | None, output: str | None) -> None:
    """Draw the board as an SVG picture.

    Regions with their symbols, every tile with its face and a shape for its colour (so it
    reads in print and for colour-blind eyes), the last move framed, the last capture marked,
    and each player's groups, captures and score beside the board.
    """
    from ..pictures.svg import board_svg, game_title

    path, record, game = read_game(file, at)
    write_output(board_svg(game, record.variant, game_title(record)) + "\n", output, [path])


@click.command()
@file_argument
@output_file_option("game.html")
def html(file: str | None, output: str | None) -> None:
    """Make one self-contained HTML page that replays the game.

    Step with the buttons, the arrow keys (Home and End for the first and last position) or
    the move list; #move=N in the address opens position N. The page needs no network and no
    other file, so it can be sent as an email attachment.
    """
    from ..pictures.html import replay_html
    from ..pictures.svg import game_title

    path, record, game = read_game(file)
    write_output(replay_html(game, record, game_title(record)), output, [path])


COMMANDS = {command.name: command for command in (svg, html)}
