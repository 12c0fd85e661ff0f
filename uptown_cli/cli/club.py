"""Club play by email: ``send``, ``receive``, ``status``, ``ratings`` and the club's web page,
``club page`` (the library is ``uptown_cli.club``)."""

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from .exits import ExitStatus
from ..i18n import _, names_list, ngettext
from ..errors import display_path
from .loading import game_path, listed_records
from .options import (
    VARIANT_CHOICE,
    as_option,
    file_argument,
    json_option,
    keys_option,
    output_file_option,
    output_options,
    sendmail_option,
)
from .output import Output, lock_notice, write_output

if TYPE_CHECKING:
    from ..club.mime import Attached
    from ..records.schema import Record

__all__: list[str] = []


def check_smtp_settings() -> None:
    """A UsageError when $UPTOWN_SMTP is not set (mail would have no way to go)."""
    from ..club.transport import SMTP_ENV

    if not os.environ.get(SMTP_ENV):
        raise click.UsageError(_("how should it go? set ${SMTP_ENV} (smtp://USER@HOST:587, or "
                                 "smtp://localhost:PORT for a server on this computer), or give "
                                 "--sendmail or -o FILE.eml").format(SMTP_ENV=SMTP_ENV))


def check_mail_settings(sendmail: bool, move: bool = True) -> None:
    """For ``move --send`` (``pause --send``: not ``move``), before anything is written:
    ``check_smtp_settings``, then the settings read as sending will read them
    (``club.transport.check_settings``); a MailError (one line) that says nothing was
    written."""
    from ..club.transport import SMTP_ENV, check_settings
    from ..errors import MailError

    if not sendmail:
        check_smtp_settings()
    try:
        check_settings(os.environ.get(SMTP_ENV), sendmail)
    except MailError as exc:
        unwritten = (_("{reason}; nothing was written (the move is not played)") if move
                     else _("{reason}; nothing was written"))
        raise MailError(unwritten.format(reason=exc.reason)) from None


def send_after_move(path: str, as_name: str | None, sendmail: bool) -> str | None:
    """``move --send``: the game at ``path`` sent on; a failure says that the move is saved."""
    from ..errors import MailError, NotAllSent, UptownError

    def saved(problem: object) -> str:
        return _("{problem} (the move is saved: send it with uptown send {path} --as {name})"
                 ).format(problem=problem, path=display_path(path), name=as_name)

    try:
        return send_game(path, as_name, sendmail=sendmail)
    except click.ClickException as exc:
        raise click.ClickException(saved(exc.message)) from None
    except NotAllSent:
        raise
    except UptownError as exc:
        raise MailError(saved(exc)) from None


def send_game(path: str, as_name: str | None = None, to: str | None = None,
              sendmail: bool = False, output: str | None = None) -> str | None:
    """Email the game at ``path`` (see ``club.mail``) by SMTP, sendmail, or into the file
    ``output``; returns the line saying what was sent (None for ``output``), or raises a
    one-line error (``NotAllSent`` when some recipients were refused, or a message in another
    language failed after one went: those who got theirs are named)."""
    from ..club.mail import GameFile, game_messages, wire_bytes
    from ..club.transport import SMTP_ENV, send_sendmail, send_smtp
    from ..errors import MailError, NotAllSent, one_line

    shown = display_path(path)
    url = os.environ.get(SMTP_ENV)
    if output is None and not sendmail:
        check_smtp_settings()
    game = GameFile.read(path, shown)
    messages = game_messages(game, as_name, to)  # one for each language the recipients read
    if output is not None:
        write_output("\n".join(wire_bytes(outgoing.message).replace(b"\r\n", b"\n").decode("utf-8")
                               for outgoing in messages), output, inputs=(path,))
        return None
    how = "sendmail" if sendmail else "SMTP"
    lines: list[str] = []
    refusals: list[str] = []
    for outgoing in messages:
        data = wire_bytes(outgoing.message)
        refused: dict[str, str] = {}
        try:
            if sendmail:
                send_sendmail(data, outgoing.addresses)
            else:
                refused = send_smtp(data, outgoing.sender, outgoing.addresses, url or "").refused
        except MailError as exc:
            if not lines:  # nothing went yet: the error says so
                raise
            refused = dict.fromkeys(outgoing.addresses, exc.reason)  # the others got theirs
        sent = [a for a in outgoing.addresses if a not in refused]
        if sent:
            lines.append(one_line(_("Sent {path} to {names} ({how}): {subject}").format(
                path=shown, names=outgoing.named(sent), how=how, subject=game.subject())))
        refusals += [f"{outgoing.named([a])} ({why})" for a, why in refused.items()]
    line = "\n".join(lines)
    if refusals:
        raise NotAllSent((_("{line}; but the server refused {whom}: not sent to them (send it "
                            "with uptown send {shown} --to NAME --as {name})") if as_name else
                          _("{line}; but the server refused {whom}: not sent to them (send it "
                            "with uptown send {shown} --to NAME)"))
                         .format(line=line, whom="; ".join(refusals), shown=shown, name=as_name))
    return line


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

    The body shows the board, the recipient's rack (open games), the standings and the
    command the recipient runs next. Mail goes through $UPTOWN_SMTP (smtp://USER@HOST:587
    with STARTTLS, smtps://USER@HOST:465, or smtp://localhost:PORT for a server on this
    computer), the password from $UPTOWN_SMTP_PASSWORD or ~/.netrc; or through --sendmail;
    or -o writes the message to a file for any mail client. It is from the email of the
    player --as names in the record (default: $UPTOWN_FROM). A record that does not validate
    is not sent. Exit status 1 when it was not sent to everyone (each recipient the server
    refused is named).

    \b
    Examples:
      uptown send club.yaml --as Ana
      uptown send club.yaml --to all --as Cy -o final.eml
    """
    path = game_path(file)
    if path == "-":
        raise click.UsageError(_("send reads a game file; give its name, not -"))
    if not os.path.isfile(path):
        raise click.ClickException(_("{path}: no such file").format(path=display_path(path)))
    if output is not None and sendmail:
        raise click.UsageError(_("-o writes the message to a file; leave out --sendmail"))
    sent = send_game(path, as_name, to, sendmail, output)
    if sent is not None:
        click.echo(sent)


@click.command()
@click.argument("message", required=False, metavar="[MESSAGE|-]")
@click.option("--into", metavar="FILE", help="The local copy of the game (default: the "
              "attachment's name in this folder); a new game is saved there.")
@click.option("--mbox", metavar="PATH", help="Take the copy of the game that carries yours "
              "furthest from the messages of this mbox file.")
@click.option("--maildir", metavar="PATH", help="The same, from this Maildir folder.")
@keys_option
@json_option
def receive(message: str | None, into: str | None, mbox: str | None, maildir: str | None,
            keys: str | None, as_json: bool) -> None:
    """Save the game attached to an email when it carries yours further.

    MESSAGE is an .eml file, or - (the default) for standard input, so that a mail client can
    pipe a message to it. The game is compared with the local copy: saved when it extends it,
    or when there is none yet (under --into FILE, or the attachment's name in this folder,
    after validating; never over a file); refused when it rewrites the history or is another
    game, your copy unchanged and the received one kept beside it as NAME.received-N.yaml.
    From a mailbox, the copy that carries yours furthest is taken (never by its Date); each
    message that cannot be read is passed by with one line, and two copies that carry it on
    differently are both refused. A warning says when the message is not from the player who
    made the newest move (or join, or key revealed).
    """
    from ..club.boxes import best_copy, maildir_messages, mbox_messages, read_message_file
    from ..club.inbox import receive as take
    from ..club.mime import MAX_MESSAGE_BYTES, message_game
    from ..errors import MailError, one_line

    out = Output(as_json)  # before any message is made: JSON's are English
    sources = [s for s in (message, mbox, maildir) if s is not None]
    if len(sources) > 1:
        raise click.UsageError(_("give one of MESSAGE, --mbox and --maildir"))
    if (mbox or maildir) and into is None:
        raise click.UsageError(_("--mbox and --maildir need --into FILE (the game to look for)"))
    skipped: list[str] = []
    received: "Record | None" = None
    if mbox or maildir:
        letters = mbox_messages(mbox) if mbox else maildir_messages(maildir)  # type: ignore[arg-type]
        try:
            # into: not None, checked above
            game, received = best_copy(letters, into, skipped)  # type: ignore[arg-type]
        finally:
            for line in skipped:
                click.echo(_("Skipped {what}").format(what=line), err=True)
    elif message in (None, "-"):
        if sys.stdin is None:
            raise MailError(_("standard input is closed: give the message's file (uptown receive "
                              "FILE.eml)"))
        if sys.stdin.isatty():
            raise click.UsageError(_("pipe a message to uptown receive, or give its file"))
        game = message_game(sys.stdin.buffer.read(MAX_MESSAGE_BYTES + 1), "<stdin>")
    else:
        game = message_game(read_message_file(message), display_path(message))
    received = _refuse_future(game, received)  # the record read once, checked once
    local = into or game.file_name
    if local is None:
        raise MailError(_("{name}: give --into FILE; nothing was written")
                        .format(name=game.unnamed()))
    result = take(game, local, display_path(local), lock_notice(local), received, keys)
    if as_json:
        out.json({**result.to_json(), "skipped": skipped})
        return
    click.echo(one_line(result.message))
    for warning in result.warnings:
        click.echo(_("Warning: {warning}").format(warning=one_line(warning)), err=True)


def _refuse_future(game: "Attached", record: "Record | None") -> "Record":
    """The record of ``game`` (``record``, when read already), refused (one line, nothing
    written) when it is no valid record (``Attached.record``) or a move is dated after this
    computer's clock (``records.times.future_problem``)."""
    from ..errors import NOTHING_WRITTEN, MailError
    from ..records.times import future_problem
    from .timing import now

    if record is None:
        record = game.record()
    problem = future_problem(record.path, record.moves, now(), record.timing, record.pauses)
    if problem is not None:
        raise MailError(str(problem), NOTHING_WRITTEN)
    return record


def games_listed(folders: Iterable[str]) -> tuple[list[str], int]:
    """``listed_records`` of ``folders`` without the received copies kept beside a game
    (``NAME.received-N.yaml``), which would count a game twice."""
    from ..club.inbox import KEPT_COPY

    files, unread = listed_records(folders)
    return [path for path in files if not KEPT_COPY.search(path)], unread


@click.command()
@click.argument("folders", nargs=-1, metavar="[FOLDER...]", type=click.Path(exists=True))
@as_option()
@click.option("--late", "only_late", is_flag=True,
              help="Only the games that wait for someone late or out of time.")
@json_option
def status(folders: tuple[str, ...], as_name: str | None, only_late: bool, as_json: bool) -> None:
    """Every game in the folders (default: this one), one line each.

    Whose turn it is and since when (the time of the last move, else the file's time), or the
    winner, or the first problem of an invalid record; NAME's turns first, then the longest
    waiting. In a game with a clock, the time left, or how late the player is. Copies of one
    game under several names are one line, naming the others. Lines are cut to the terminal's
    width ($COLUMNS when set), never when the output is not a terminal.
    """
    import textwrap

    from ..club.status import State, game_status, one_per_game, order
    from .output import line_width
    from .timing import now

    out = Output(as_json)  # before any message is made: JSON's are English
    moment = now()
    files, unread = games_listed(list(folders) or ["."])
    statuses = order(one_per_game([game_status(path, display_path(os.path.normpath(path)), moment)
                                   for path in files]), as_name)
    if only_late:
        statuses = [s for s in statuses if s.late]
    if as_json:
        out.json([s.to_json() for s in statuses])
    columns = line_width()
    longest = max([len(s.path) for s in statuses] + [4])
    width = longest if columns is None else min(longest, 30)
    for s in statuses if not as_json else ():
        mark = "*" if s.waits_for(as_name) else " "
        path = s.path if len(s.path) <= width else "..." + s.path[-width + 3:]
        head = f"{mark} {path:<{width}}  {s.since_text():<16}  "
        text = s.text() if not s.copies else _("{status} (the same game as {files})").format(
            status=s.text(), files=names_list(s.copies))
        if columns is not None:
            text = textwrap.shorten(text, max(columns - len(head), 20), placeholder="...")
        click.echo(head + text)
    if not as_json and any(s.clock and s.judge is None and s.state == State.TO_MOVE
                           for s in statuses):
        click.echo(_("The times of a game without a club judge are its players' word: a pass or "
                     "forfeit a rival wrote for you can be disputed (uptown dispute)."), err=True)
    if unread:
        sys.exit(ExitStatus.ERROR)


NAME_WIDTH = 24
"""The widest a player's name is shown in the ratings table (a longer one is cut, ``...``)."""


@click.command()
@click.argument("folders", nargs=-1, metavar="[FOLDER...]", type=click.Path(exists=True))
@click.option("--variant", type=VARIANT_CHOICE, help="Only the games of this variant.")
@output_options
def ratings(folders: tuple[str, ...], variant: str | None, as_json: bool,
            table_format: str) -> None:
    """A rating for every player over the finished games, in date order.

    The games are those of the folders (default: this one). openskill's Plackett-Luce model;
    the rating is mu - 3 sigma, shown with sigma (its uncertainty). A game's date is its
    record's date, else its last move's time, else the file's time. Names are one player's
    when they are the same but for blanks round them, case or Unicode's composed and
    decomposed forms; two names that look alike (Unicode's confusables: "Ana" and "Аna", with
    a Cyrillic А) are warned of. Copies of one game under several names are rated once; a
    game with an open dispute (uptown dispute) is left out.
    """
    from ..club.ratings import finished_games, rate
    from ..records.names import look_alikes, odd_character

    from .timing import now

    files, unread = games_listed(list(folders) or ["."])
    games, invalid = finished_games(files, variant, now())
    table = rate(games)
    disputed = [g for g in games if g.disputed]
    alike = look_alikes(r.name for r in table)
    out = Output(as_json, table_format)

    def shown(path: str) -> str:
        return display_path(os.path.normpath(path))  # as status shows it

    if as_json:
        out.json({"games": len(games) - len(disputed),
                  "skipped_invalid": [display_path(p) for p in invalid],
                  "skipped_disputed": [shown(g.path) for g in disputed],
                  "ratings": [r.to_json() for r in table],
                  "copies": {shown(g.path): [shown(p) for p in g.copies]
                             for g in games if g.copies},
                  "look_alike": [list(pair) for pair in alike]})
        sys.exit(ExitStatus.ERROR if unread else ExitStatus.OK)
    def cut(name: str) -> str:
        long = len(name) > NAME_WIDTH and not out.for_machines
        return name[:NAME_WIDTH - 3] + "..." if long else name

    rows = [[rank, cut(r.name), f"{r.ordinal:.1f}", f"±{r.sigma:.1f}", r.games, r.wins]
            for rank, r in enumerate(table, 1)]
    out.table(rows, [_("rank"), _("player"), _("rating"), "sigma", _("games"), _("wins")],
              title=ngettext("Ratings over {count} finished game "
                             "(openskill Plackett-Luce, mu - 3 sigma):",
                             "Ratings over {count} finished games "
                             "(openskill Plackett-Luce, mu - 3 sigma):",
                             len(games) - len(disputed)).format(count=len(games) - len(disputed)))
    if invalid:
        click.echo(ngettext("Left out {count} invalid or unchecked record; see uptown validate.",
                            "Left out {count} invalid or unchecked records; see uptown validate.",
                            len(invalid)).format(count=len(invalid)), err=True)
    for rated in disputed:
        click.echo(_("Left out {path}: disputed by {names} (uptown dispute), not rated until "
                     "they settle it.").format(path=shown(rated.path),
                                               names=names_list(rated.disputed)), err=True)
    for rated in (g for g in games if g.copies):
        click.echo(ngettext("Rated once: {files} holds the same game as {path}.",
                            "Rated once: {files} hold the same game as {path}.",
                            len(rated.copies)).format(
            files=names_list(map(shown, rated.copies)), path=shown(rated.path)), err=True)
    for first, name in alike:
        click.echo(_("Warning: the names {first!r} and {name!r} look alike ({character}): check "
                     "that they are two players").format(
            first=first, name=name, character=odd_character(first, name)), err=True)
    if unread:
        sys.exit(ExitStatus.ERROR)


@click.group()
def club() -> None:
    """The club's web page: uptown club page FOLDER... -o DIR."""


@club.command()
@click.argument("folders", nargs=-1, metavar="[FOLDER...]", type=click.Path(exists=True))
@click.option("-o", "--output", "folder", required=True, metavar="DIR",
              help="The folder to write the pages into (made when missing).")
@click.option("--title", metavar="TEXT", help="The page's title [default: Uptown club].")
@click.option("--force", is_flag=True, help="Replace files in DIR that uptown did not write.")
def page(folders: tuple[str, ...], folder: str, title: str | None, force: bool) -> None:
    """Write the club's page and the finished games' replay pages into DIR.

    The games are those of the folders (default: this one); the page is DIR/index.html. It
    shows the games in play with whose turn it is and what their clock says, the finished
    games with their results and a link to each one's replay page (as uptown html makes
    it), the standings of uptown ratings, and the records left out as invalid. It needs no
    network and no script; run it from cron to keep it fresh. Each file is replaced whole,
    and only when it changed; a file in DIR that uptown did not write is refused without
    --force. Exit status 1, with nothing written, when a folder cannot be read.

    \b
    Example:
      uptown club page games -o ~/public_html/club --title "Club night"
    """
    from ..club.page import INDEX, club_page
    from ..i18n import thousands
    from .output import write_folder
    from .timing import now

    files, unread = games_listed(list(folders) or ["."])
    if unread:
        raise click.ClickException(_("-o {folder}: nothing was written, since a folder of games "
                                     "could not be read").format(folder=display_path(folder)))
    pages = club_page(files, now(), title)
    size = write_folder(pages, folder, force)
    index, count = display_path(os.path.join(folder, INDEX)), len(pages) - 1
    click.echo((ngettext("Wrote {path} with {count} replay page ({size} bytes written).",
                         "Wrote {path} with {count} replay pages ({size} bytes written).", count)
                if size else
                ngettext("{path} and its {count} replay page are up to date; nothing was "
                         "written.", "{path} and its {count} replay pages are up to date; "
                         "nothing was written.", count))
               .format(path=index, count=count, size=thousands(size)), err=True)


COMMANDS = {command.name: command for command in (send, receive, status, ratings, club)}
