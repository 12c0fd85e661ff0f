"""Club play by email: ``send``, ``receive``, ``status`` and ``ratings`` (the library is
``uptown_cli.club``)."""

import os
import sys
from collections.abc import Iterable

import click

from ..engine.game import VARIANTS
from .options import (
    Output,
    as_option,
    display_path,
    file_argument,
    game_path,
    json_option,
    listed_records,
    lock_notice,
    output_file_option,
    output_options,
    sendmail_option,
    write_output,
)

__all__: list[str] = []


def check_smtp_settings() -> None:
    """A UsageError when $UPTOWN_SMTP is not set (mail would have no way to go)."""
    from ..club.mail import SMTP_ENV

    if not os.environ.get(SMTP_ENV):
        raise click.UsageError(f"how should it go? set ${SMTP_ENV} (smtp://USER@HOST:587), "
                               "or give --sendmail or -o FILE.eml")


def send_after_move(path: str, as_name: str | None, sendmail: bool) -> str | None:
    """``move --send``: the game at ``path`` sent on; a failure says that the move is saved."""
    from ..errors import MailError, UptownError

    saved = f" (the move is saved: send it with uptown send {display_path(path)} --as {as_name})"
    try:
        return send_game(path, as_name, sendmail=sendmail)
    except click.ClickException as exc:
        raise click.ClickException(exc.message + saved) from None
    except UptownError as exc:
        raise MailError(f"{exc}{saved}") from None


def send_game(path: str, as_name: str | None = None, to: str | None = None,
              sendmail: bool = False, output: str | None = None) -> str | None:
    """Email the game at ``path`` (see ``club.mail``) by SMTP, sendmail, or into the file
    ``output``; returns the line saying what was sent (None for ``output``), or raises a
    one-line ClickException."""
    from ..club.mail import SMTP_ENV, GameFile, game_message, send_sendmail, send_smtp

    shown = display_path(path)
    url = os.environ.get(SMTP_ENV)
    if output is None and not sendmail:
        check_smtp_settings()
    game = GameFile.read(path, shown)
    message = game_message(game, as_name, to)
    if output is not None:
        write_output(message.as_string(), output, inputs=(path,))
        return None
    if sendmail:
        send_sendmail(message)
    else:
        send_smtp(message, url)  # type: ignore[arg-type]  # check_smtp_settings: set
    how = "sendmail" if sendmail else "SMTP"
    return f"Sent {shown} to {message['To']} ({how}): {game.subject()}"


@click.command()
@file_argument
@click.option("--to", metavar="NAME|all", help="Send to NAME, or to all the other players "
              "(default: the player to move or to join; everyone once the game is over).")
@as_option()
@sendmail_option
@output_file_option("move.eml")
def send(file: str | None, to: str | None, as_name: str | None, sendmail: bool,
         output: str | None) -> None:
    """Email the game file, attached as it is, to the player to move.

    The body shows the board and standings and the command the recipient runs next. Mail
    goes through $UPTOWN_SMTP (smtp://USER@HOST:587 with STARTTLS, or smtps://USER@HOST:465),
    the password from $UPTOWN_SMTP_PASSWORD or ~/.netrc; or through --sendmail; or -o
    writes the message to a file for any mail client. It is from the email of the player
    --as names in the record (default: $UPTOWN_FROM).

    \b
    Examples:
      uptown send club.yaml --as Ana
      uptown send club.yaml --to all --as Cy -o final.eml
    """
    path = game_path(file)
    if path == "-":
        raise click.UsageError("send reads a game file; give its name, not -")
    if not os.path.isfile(path):
        raise click.ClickException(f"{display_path(path)}: no such file")
    if output is not None and sendmail:
        raise click.UsageError("-o writes the message to a file; leave out --sendmail")
    sent = send_game(path, as_name, to, sendmail, output)
    if sent is not None:
        click.echo(sent)


@click.command()
@click.argument("message", required=False, metavar="[MESSAGE|-]")
@click.option("--into", metavar="FILE", help="The local copy of the game (default: the "
              "attachment's name in this folder); a new game is saved there.")
@click.option("--mbox", metavar="PATH", help="Read the newest message carrying the game from "
              "this mbox file.")
@click.option("--maildir", metavar="PATH", help="Read the newest message carrying the game "
              "from this Maildir folder.")
@json_option
def receive(message: str | None, into: str | None, mbox: str | None, maildir: str | None,
            as_json: bool) -> None:
    """Save the game attached to an email when it carries yours further.

    MESSAGE is an .eml file, or - (the default) for standard input, so that a mail client can
    pipe a message to it. The game is compared with the local copy: saved when it extends it,
    or when there is none yet (--into, after validating); refused when it rewrites the history
    or is another game, your copy unchanged and the received one kept beside it as
    NAME.received-N.yaml.
    """
    from ..club.inbox import (
        GAME_SUFFIXES,
        MAX_MESSAGE_BYTES,
        carries,
        message_game,
        newest_in_mailbox,
        receive as take,
    )
    from ..errors import MailError

    sources = [s for s in (message, mbox, maildir) if s is not None]
    if len(sources) > 1:
        raise click.UsageError("give one of MESSAGE, --mbox and --maildir")
    if (mbox or maildir) and into is None:
        raise click.UsageError("--mbox and --maildir need --into FILE (the game to look for)")
    if mbox or maildir:
        kind, path = ("mbox", mbox) if mbox else ("maildir", maildir)
        game = newest_in_mailbox(path, kind, carries(into))  # type: ignore[arg-type]  # both given
    elif message in (None, "-"):
        game = message_game(sys.stdin.buffer.read(MAX_MESSAGE_BYTES + 1), "<stdin>")
    else:
        game = message_game(_read_message(message), display_path(message))
    local = into
    if local is None:
        if game.name is None or not game.name.lower().endswith(GAME_SUFFIXES):
            raise MailError("the attached game has no .yaml file name: give --into FILE")
        local = game.name
        if not os.path.lexists(local):
            raise MailError(f"no local copy of {display_path(local)} in this folder: "
                            "give --into FILE to save a new game")
    result = take(game, local, display_path(local), lock_notice(local))
    if as_json:
        Output(True).json(result.to_json())
    else:
        click.echo(result.message)


def _read_message(path: str) -> bytes:
    """The bytes of the message file ``path`` (at most what a message may hold, plus one)."""
    from ..club.inbox import MAX_MESSAGE_BYTES
    from ..errors import MailError

    try:
        with open(path, "rb") as stream:
            return stream.read(MAX_MESSAGE_BYTES + 1)
    except OSError as exc:
        raise MailError(f"cannot read {display_path(path)}: {exc.strerror or exc}") from None


def games_listed(folders: Iterable[str]) -> tuple[list[str], int]:
    """``listed_records`` of ``folders`` without the received copies kept beside a game
    (``NAME.received-N.yaml``), which would count a game twice."""
    from ..club.inbox import KEPT_COPY

    files, unread = listed_records(folders)
    return [path for path in files if not KEPT_COPY.search(path)], unread


@click.command()
@click.argument("folders", nargs=-1, metavar="[FOLDER...]", type=click.Path(exists=True))
@as_option()
@json_option
def status(folders: tuple[str, ...], as_name: str | None, as_json: bool) -> None:
    """Every game in the folders (default: this one), one line each.

    Whose turn it is and since when (the file's time), or the winner, or the first problem of
    an invalid record; NAME's turns first, then the longest waiting.
    """
    import textwrap
    from datetime import datetime

    from ..club.status import game_status, order

    files, unread = games_listed(list(folders) or ["."])
    statuses = order([game_status(path, display_path(os.path.normpath(path))) for path in files],
                     as_name)
    if as_json:
        Output(True).json([s.to_json() for s in statuses])
    width = min(max([len(s.path) for s in statuses] + [4]), 30)
    for s in statuses if not as_json else ():
        since = datetime.fromtimestamp(s.since).strftime("%Y-%m-%d %H:%M")
        mark = "*" if s.waits_for(as_name) else " "
        path = s.path if len(s.path) <= width else "..." + s.path[-width + 3:]
        head = f"{mark} {path:<{width}}  {since}  "
        click.echo(head + textwrap.shorten(s.text(), 80 - len(head), placeholder="..."))
    if unread:
        sys.exit(1)


@click.command()
@click.argument("folders", nargs=-1, required=True, metavar="FOLDER...",
                type=click.Path(exists=True))
@click.option("--variant", type=click.Choice(VARIANTS), help="Only the games of this variant.")
@output_options
def ratings(folders: tuple[str, ...], variant: str | None, as_json: bool,
            table_format: str) -> None:
    """A rating for every player over the finished games, in date order.

    openskill's Plackett-Luce model; the rating is mu - 3 sigma, shown with sigma (its
    uncertainty). A game's date is its record's date, else the file's time.
    """
    from ..club.ratings import finished_games, rate

    files, unread = games_listed(folders)
    games, invalid = finished_games(files, variant)
    table = rate(games)
    out = Output(as_json, table_format)
    if as_json:
        out.json({"games": len(games), "skipped_invalid": [display_path(p) for p in invalid],
                  "ratings": [r.to_json() for r in table]})
        sys.exit(1 if unread else 0)
    rows = [[rank, r.name, f"{r.ordinal:.1f}", f"±{r.sigma:.1f}", r.games, r.wins]
            for rank, r in enumerate(table, 1)]
    out.table(rows, ["rank", "player", "rating", "sigma", "games", "wins"],
              title=f"Ratings over {len(games)} finished game{'' if len(games) == 1 else 's'} "
              "(openskill Plackett-Luce, mu - 3 sigma):")
    if invalid:
        click.echo(f"Left out {len(invalid)} invalid or unchecked record(s); see uptown validate.", err=True)
    if unread:
        sys.exit(1)


COMMANDS = {command.name: command for command in (send, receive, status, ratings)}
