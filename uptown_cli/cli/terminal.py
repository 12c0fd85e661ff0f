"""The game at the terminal: ``play`` (a board to click, or lines with ``--plain``) and
``review`` (step through an analysed game). Textual is imported by these two alone, and only
for the full-screen board (``uptown_cli.tui``)."""

import os
import sys

import click

from ..i18n import _
from .loading import game_path
from .options import BOT_NAMES, VARIANT_CHOICE, as_option, bot_list, file_argument, keys_option

__all__: list[str] = []

NEW_GAME_OPTIONS = ("against", "players", "seed", "variant", "level", "name")


def _interactive() -> bool:
    """Whether both ends are a terminal (else the game is played as lines)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _read_line(prompt: str) -> str | None:
    """A line of standard input after ``prompt``, a line of its own (None at its end)."""
    click.echo(prompt)
    return sys.stdin.readline() or None


def _full_screen() -> None:
    """Refuse the full-screen board, with the way out, when Textual is not installed."""
    try:
        import textual  # noqa: F401  (only whether it is there)
    except ImportError:
        raise click.ClickException(_("the full-screen board needs Textual (pip install "
                                     "textual), or play the game as lines: --plain")) from None


@click.command()
@file_argument
@click.option("--against", metavar="BOT[,BOT...]", callback=bot_list,
              help=f"A new game against these bots, one a seat ({', '.join(BOT_NAMES)}) "
                   "[default: the level's bot].")
@click.option("--players", type=click.IntRange(2, 5), help="Players in a new game, you "
              "included [default: one more than the bots].")
@click.option("--seed", help="The seed of a new game (default: a random one).")
@click.option("--variant", type=VARIANT_CHOICE, help="A new game's variant [default: "
              "standard].")
@click.option("--level", type=click.IntRange(1, 5), help="How strongly the bots of a new game "
              "play, 1 to 5 [default: 5, an answer within a second].")
@click.option("--name", help="Your name in a new game [default: You].")
@as_option()
@keys_option
@click.option("--plain", is_flag=True, help="Play as lines (the default when input or output "
              "is not a terminal): for screen readers and scripts.")
@click.option("--review", is_flag=True, help="Review the game instead (as uptown review).")
def play(file: str | None, against: list[str] | None, players: int | None, seed: str | None,
         variant: str | None, level: int | None, name: str | None, as_name: str | None,
         keys: str | None, plain: bool, review: bool) -> None:
    """Play at the terminal: on a board to click, or as lines (--plain).

    Without FILE, or with a FILE that is not there yet, a new game against the computer
    (--against, --players, --level...); an existing FILE goes on where it stands, written
    after every move as uptown move writes it. Keys: h hint, u take back, ? keys, q quit. A
    game with hidden racks or by email is played with --as NAME (and only watched without).

    \b
    Examples:
      uptown play
      uptown play club.yaml --against greedy,mc --players 3
      uptown play game.yaml --plain < moves.txt
    """
    path = game_path(file)
    if review:
        _review(path, plain)
        return
    if path == "-":
        raise click.UsageError(_("uptown play writes the game to FILE after every move: name a "
                                 "file, not - (standard input)"))
    given = [o for o, v in zip(NEW_GAME_OPTIONS, (against, players, seed, variant, level, name))
             if v is not None]
    if os.path.lexists(path) and given:
        raise click.UsageError(_("{path} is a game already: --{option} starts a new one (name "
                                 "a new FILE)").format(path=path, option=given[0]))
    if not os.path.lexists(path):
        _new_game(path, against, players, seed, variant, level, name)
    if plain or not _interactive():
        from ..tui.plain import play_lines
        from ..tui.session import Session

        play_lines(Session(path, as_name, keys), _read_line, click.echo)
        return
    _full_screen()
    _play_board(path, as_name, keys)


def _new_game(path: str, against: list[str] | None, players: int | None, seed: str | None,
              variant: str | None, level: int | None, name: str | None) -> None:
    """A new game at ``path`` of the player against bots (``play``'s options)."""
    import secrets

    from ..turns.bot_games import DEFAULT_LEVEL, LEVELS, level_seat, new_game_against

    level = level or DEFAULT_LEVEL
    bots = against or [LEVELS[level].bot]
    count = players or len(bots) + 1
    if len(bots) == 1:
        bots = bots * (count - 1)
    if len(bots) != count - 1:
        raise click.UsageError(_("{players} players are you and {bots} bots, but --against "
                                 "names {named}").format(players=count, bots=count - 1,
                                                         named=len(bots)))
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise click.ClickException(_("{folder}: no such folder; create it first").format(
            folder=folder))
    seats = [level_seat(bot, level) for bot in bots]
    new_game_against(path, name or _("You"), seats, seed=seed or secrets.token_hex(4),
                     variant=variant or "standard")


def _review(path: str, plain: bool) -> None:
    """``review``: the analysed game at ``path``, full-screen or as lines; a game played on
    from one of its positions ("play from here") is then played."""
    from ..tui.studied import Study

    study = Study.open(path)
    if plain or not _interactive():
        from ..tui.plain import review_lines

        review_lines(study, click.echo)
        return
    _full_screen()
    from ..tui.review import ReviewApp

    following = ReviewApp(study).run()
    if following is not None:
        click.echo(_("Playing on from there in {path}.").format(path=following))
        _play_board(following, None, None)


def _play_board(path: str, as_name: str | None, keys: str | None) -> None:
    """The game at ``path`` on the full-screen board."""
    from ..tui.app import PlayApp
    from ..tui.session import Session

    PlayApp(Session(path, as_name, keys)).run()
    click.echo(_("The game is in {path}; uptown play {path} goes on with it.").format(path=path))


@click.command()
@file_argument
@click.option("--plain", is_flag=True, help="The review as lines (the default when output is "
              "not a terminal).")
def review(file: str | None, plain: bool) -> None:
    """Step through an analysed game: the chances, the marks and why.

    A game annotated by uptown analyze --annotate is read as it is; any other finished game
    is analysed first (a few seconds). Keys: left and right step, b the better move's board,
    p play from here against a bot, q quit.
    """
    _review(game_path(file), plain)


COMMANDS = {command.name: command for command in (play, review)}
