"""The judge of a club (docs/JUDGE.md): ``uptown judge init``, ``add`` and ``run`` (the library
is ``club.judge``, ``club.judge_store``, ``club.judge_mailbox`` and ``club.judge_run``)."""

import os
import sys
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

import click

from ..i18n import _, ngettext
from .exits import ExitStatus
from .options import sendmail_option

if TYPE_CHECKING:
    from ..club.judge_mailbox import Incoming
    from ..club.judge_run import Report
    from ..club.judge_store import Queued, Sending, Store

__all__: list[str] = []


@click.group()
def judge() -> None:
    """A club's referee that reads its mailbox and answers by mail.

    The judge keeps every game of the club in its folder, stamps each entry with the time it
    received it and signs it, rules on deadlines, and mails each new copy to the players.
    docs/JUDGE.md walks a club secretary through setting one up.
    """


@judge.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--address", required=True, metavar="ADDRESS",
              help="The judge's own address, where players mail their moves.")
@click.option("--archive", metavar="ADDRESS",
              help="An address that gets a copy of every game the judge mails (the club's "
                   "archive).")
def init(folder: str, address: str, archive: "str | None") -> None:
    """Set up a judge's folder and print its card.

    Creates FOLDER (mode 0700) with the judge's signing key (judge.key, mode 0600), its
    database (judge.db) and games/, and prints the judge's card: one line, ADDRESS and the
    public key, that players give to uptown new --judge. A folder that is this address's
    judge already keeps its key, and its card is printed again.
    """
    from ..club.judge_store import create_judge

    click.echo(create_judge(folder, address, archive).card)


@judge.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.argument("games", nargs=-1, required=True, metavar="GAME...",
                type=click.Path(exists=True, dir_okay=False))
@sendmail_option
def add(folder: str, games: tuple[str, ...], sendmail: bool) -> None:
    """Give the judge new games, and mail them to their players.

    Each GAME is a game made with uptown new --judge and this judge's card, before anyone
    joined it; every player needs an address. The judge keeps it in its folder under the
    GAME's file name and mails it to every player, who then join it, each mailing their join
    to the judge. A game that is not that, or that the judge keeps already, is refused in one
    line, and nothing is kept of it.

    \b
    Example:
      uptown new club.yaml -p "Ana <ana@example.org>" -p "Bo <bo@example.org>" \\
          --hidden --clock judges --judge "$(uptown judge init ~/judge --address judge@club.example)"
      uptown judge add ~/judge club.yaml
    """
    from ..club.judge_run import adding
    from ..club.judge_store import Store
    from ..records.reading import read_file

    send_one = _sender(sendmail)
    with Store.open(folder) as store:
        judge = store.judge()
        try:
            for game in games:
                name = os.path.basename(game)
                click.echo(store.tick(f"add {name}", adding(judge, read_file(game), name)).text)
        finally:  # the games given before a refused one are mailed all the same
            sent = store.send_pending(send_one)
            _sent(sent)
    if sent.stopped is not None or sent.failed:
        sys.exit(ExitStatus.ERROR)


@judge.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--stdin", "pipe", is_flag=True,
              help="Read one message on standard input, as a mail server delivers it (.forward, "
                   "aliases, procmail).")
@click.option("--maildir", metavar="DIR", type=click.Path(file_okay=False),
              help="Read the messages of the Maildir DIR not handled yet.")
@click.option("--imap", metavar="URL",
              help="Read the unseen messages of an IMAP account: imaps://USER@HOST/MAILBOX.")
@click.option("--dry-run", is_flag=True,
              help="Say what the judge would do, and keep, mark and send nothing.")
@click.option("--page", metavar="DIR", type=click.Path(file_okay=False),
              help="Then write the club's page of the judge's games into DIR (as uptown club "
                   "page does).")
@sendmail_option
def run(folder: str, pipe: bool, maildir: "str | None", imap: "str | None", dry_run: bool,
        page: "str | None", sendmail: bool) -> None:
    """One run of the judge: its mail, its rulings on time, its outbox.

    Each message (from standard input, a Maildir or an IMAP account; none without any of
    them) is handled once, in the order it arrived: the copy of a game it carries is checked
    against the judge's copy, its new entries stamped with the time the message arrived and
    signed, and the game mailed to every player; a copy the judge cannot take is refused, and
    the refusal mailed back to the player who sent it. Then the judge rules on every game's
    time (a late player's pass, bot move or forfeit as the game's late policy says; a game
    nobody finished joining in time is void), and sends what waits, by $UPTOWN_SMTP or
    --sendmail. Safe to run from cron and from several deliveries at once. Exit status 1 when
    something was not done (said in one line each; it is tried again at the next run); with
    --stdin, 75, so that the mail server delivers the message again later.

    \b
    Examples:
      "|/usr/local/bin/uptown judge run /home/judge/club --stdin"    (in ~/.forward)
      */5 * * * *  uptown judge run ~/judge --maildir ~/Maildir --page ~/public_html/club
    """
    from ..club.judge_mailbox import from_imap, from_maildir, from_pipe
    from ..club.judge_run import judge_rule, run_judge, time_ticks
    from ..club.judge_store import Store
    from .timing import now

    if sum((pipe, maildir is not None, imap is not None)) > 1:
        raise click.UsageError(_("give one of --stdin, --maildir and --imap"))
    send_one = None if dry_run else _sender(sendmail)
    with Store.open(folder, dry_run) as store:
        judge = store.judge()
        source: "AbstractContextManager[Iterable[Incoming]]"
        if imap is not None:
            source = from_imap(imap)
        elif maildir is not None:
            source = nullcontext(from_maildir(maildir))
        else:
            source = nullcontext(from_pipe(sys.stdin.buffer, now()) if pipe else iter(()))
        with source as messages:
            report = run_judge(store, messages, judge_rule(judge),
                               time_ticks(judge, store.games(), now()), send_one)
        _told(report, dry_run)
        if page is not None and not dry_run:
            _page(store, page)
    if report.failures:
        sys.exit(ExitStatus.TEMPFAIL if pipe else ExitStatus.ERROR)
    if report.sending.stopped is not None or report.sending.failed:  # handled: not to retry
        sys.exit(ExitStatus.ERROR)


def _sender(sendmail: bool) -> "Callable[[Queued], dict[str, str]]":
    """How the judge's mail goes: the local sendmail, or $UPTOWN_SMTP (a usage error when
    neither is set up, or the setting cannot work, before anything is done:
    ``club.transport.check_settings``)."""
    from ..club.judge_run import sendmail_sender, smtp_sender
    from ..club.transport import SMTP_ENV, check_settings
    from .exits import converted

    url = os.environ.get(SMTP_ENV)
    if not sendmail and not url:
        raise click.UsageError(_("how should the judge's mail go? set ${SMTP_ENV} "
                                 "(smtps://USER@HOST, or smtp://localhost:PORT for a server on "
                                 "this computer), or give --sendmail").format(SMTP_ENV=SMTP_ENV))
    with converted(usage=True):
        check_settings(url, sendmail)
    return sendmail_sender() if sendmail else smtp_sender(url or "")


def _told(report: "Report", dry_run: bool) -> None:
    """What a run did, a line each: the messages and rulings on standard output, what failed
    on standard error."""
    for line in report.synced:
        click.echo(_("Wrote the judge's file of {game} again from its database.").format(
            game=line))
    for _where, outcome in report.handled:
        click.echo(outcome)
    if report.repeated:
        click.echo(ngettext("{count} message was handled already.",
                            "{count} messages were handled already.", report.repeated)
                   .format(count=report.repeated))
    for _name, outcome in report.ticks:
        if outcome:
            click.echo(outcome)
    _sent(report.sending)
    for line in report.failures:
        click.echo(_("Error: {error}").format(error=line), err=True)
    if dry_run:
        click.echo(_("A dry run: nothing was kept, marked read or sent."), err=True)


def _sent(sending: "Sending") -> None:
    """What sending the outbox did, a line each (nothing when nothing waited)."""
    if sending.sent:
        click.echo(ngettext("Sent {count} message.", "Sent {count} messages.",
                            len(sending.sent)).format(count=len(sending.sent)))
    for address, reply in sending.refused:
        click.echo(_("Error: the server refused {address}: {reply}").format(
            address=address, reply=reply), err=True)
    for message_id, reason in sending.failed:
        click.echo(_("Error: {message_id} was not sent: {reason}").format(
            message_id=message_id, reason=reason), err=True)
    if sending.stopped is not None:
        click.echo(_("Error: {reason}; the rest waits for the next run").format(
            reason=sending.stopped), err=True)


def _page(store: "Store", folder: str) -> None:
    """The club's page of the judge's games written into ``folder`` (``uptown club page``)."""
    from ..club.page import club_page
    from .club import games_listed
    from .output import write_folder
    from .timing import now

    files, _unread = games_listed([store.games_folder])
    write_folder(club_page(files, now()), folder)


COMMANDS = {command.name: command for command in (judge,)}
