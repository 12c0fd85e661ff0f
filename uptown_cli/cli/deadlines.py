"""The commands of deadlines (docs/DEADLINES.md): ``remind`` (now, and the check on times
from the future, are ``cli.timing``'s)."""

import os
from typing import TYPE_CHECKING

import click

from ..i18n import _, ngettext
from .exits import ExitStatus, converted
from .options import as_option, file_argument, json_option, keys_option, sendmail_option

if TYPE_CHECKING:
    from ..club.mail import GameFile
    from ..club.reminders import Reminder

__all__: list[str] = []


# -- remind ------------------------------------------------------------------------------


def _sender() -> "tuple[str, str]":
    """(name, address) of ``$UPTOWN_FROM``: reminders come from the club, not a player."""
    from ..club.mail import FROM_ENV, from_env

    club = from_env()
    if club is None:
        raise click.UsageError(_("who sends the reminders? set ${variable} to one address "
                                 "(e.g. Club <club@example.org>)").format(variable=FROM_ENV))
    return club


@click.command()
@click.argument("folders", nargs=-1, metavar="[FOLDER...]", type=click.Path(exists=True))
@click.option("--dry-run", is_flag=True, help="Show what would be sent; send and log nothing.")
@click.option("--every", default="24h", show_default=True, metavar="D",
              help="How often a late player is reminded (72h, 1d, 12h).")
@sendmail_option
@json_option
def remind(folders: "tuple[str, ...]", dry_run: bool, every: str, sendmail: bool,
           as_json: bool) -> None:
    """Mail each late player a reminder, and the others who is late.

    For every game with a clock in the folders (default: this one) that waits for a player
    late or out of time: a reminder to them (the board, the command to run, the game
    attached) and a notice to each other player, each at most once per period (--every),
    counted from the deadline. FOLDER/.uptown-reminders.jsonl logs what was sent, so that a
    run every hour from cron sends each once; a run that finds another at work sends nothing.
    Mail goes as for uptown send, from $UPTOWN_FROM. A game is no source of addresses: in a
    game with joins only the players who joined are mailed, in an open game only the
    addresses listed in FOLDER/.uptown-members (one a line). A message the server refuses is
    said and the others sent; the exit status is then 1.

    \b
    Example (crontab, every hour):
      0 * * * *  cd "$HOME/club" && uptown remind games
    """
    import sys

    from ..club.reminders import (Kind, awaited_games, due, read_games, read_log, read_members,
                                  reminder_message, send_due)
    from ..club.transport import SMTP_ENV, send_sendmail, send_smtp
    from ..engine.moments import parse_duration
    from ..errors import MailError, RecipientRefused, display_path, one_line
    from .club import check_smtp_settings, games_listed
    from .output import Output
    from .timing import now

    with converted(param_hint="--every"):
        period = parse_duration(every)
    sender = _sender() if not dry_run else None
    if not dry_run and not sendmail:
        check_smtp_settings()
    moment = now()  # (cli.timing)
    done: list[dict[str, object]] = []
    unread = failed = sent = 0
    games: "dict[str, GameFile]" = {}  # the folder's games, by path: each read once a run

    def send(reminder: "Reminder") -> None:
        awaited, to = reminder.awaited, reminder.to
        if to.address is None:
            line = _unmailed_line(reminder)
        else:
            assert sender is not None  # sending
            data = reminder_message(reminder, games[awaited.file], sender)
            if sendmail:
                send_sendmail(data, [to.address])
            else:
                refused = send_smtp(data, sender[1], [to.address],
                                    os.environ.get(SMTP_ENV, "")).refused
                if refused:
                    raise RecipientRefused(_("the server refused {address}: {why}").format(
                        address=to.address, why=refused[to.address]))
            line = (_("Sent reminder to {name}: {subject}") if reminder.kind == Kind.REMINDER else
                    _("Sent notice to {name}: {subject}")).format(
                        name=to.name, subject=reminder.subject)
        done.append(_reminder_json(reminder, False))
        if not as_json:
            click.echo(one_line(line))

    for folder in folders or (".",):
        files, bad = games_listed([folder])
        unread += bad
        games = read_games(files)
        try:
            members = read_members(folder)
        except MailError as exc:  # this folder's: the others are reminded
            click.echo(_("Skipped {folder}: {reason}").format(
                folder=display_path(folder), reason=exc.reason), err=True)
            failed += 1
            continue
        waiting = awaited_games(games.values(), members)
        if dry_run:
            for reminder in due(waiting, read_log(folder), moment, period):
                done.append(_reminder_json(reminder, True))
                if not as_json:
                    click.echo(one_line(_would_send_line(reminder)))
            continue
        run = send_due(folder, waiting, moment, send, period)
        if run is None:
            click.echo(_("{folder}: another uptown remind is at work on these games; nothing "
                         "was sent by this one").format(folder=display_path(folder)), err=True)
            continue
        sent += len(run.sent)
        failed += len(run.failed) + len(run.untried)
        for reminder, why in run.failed:
            done.append({**_reminder_json(reminder, False), "error": why})
            click.echo(one_line(_not_sent_line(reminder, why)), err=True)
        if run.untried:
            done += [{**_reminder_json(reminder, False), "error": "not tried"}
                     for reminder in run.untried]
            click.echo(ngettext("{folder}: {count} more message was not tried, as the mail server "
                                "failed; the next run sends it",
                                "{folder}: {count} more messages were not tried, as the mail "
                                "server failed; the next run sends them",
                                len(run.untried)).format(folder=display_path(folder),
                                                         count=len(run.untried)), err=True)
    if as_json:
        Output(True).json(done)
    if failed:
        raise MailError((ngettext("{count} message was not sent (see above); the other "
                                  "messages due were sent and logged",
                                  "{count} messages were not sent (see above); the other "
                                  "messages due were sent and logged", failed) if sent else
                         ngettext("{count} message was not sent (see above)",
                                  "{count} messages were not sent (see above)", failed)
                         ).format(count=failed))
    if unread:
        sys.exit(ExitStatus.ERROR)


def _unmailed_line(reminder: "Reminder") -> str:
    """What ``remind`` says of a player it does not mail (``Person.unmailed``)."""
    from ..club.reminders import MEMBERS_NAME, Unmailed

    to, file = reminder.to, reminder.awaited.file
    if to.unmailed == Unmailed.NOT_JOINED:
        return _("{name} ({file}) has not joined the game: not reminded").format(
            name=to.name, file=file)
    if to.unmailed == Unmailed.NOT_A_MEMBER:
        return _("{name} ({file}): their address is not among the club's members ({members}): "
                 "not reminded").format(name=to.name, file=file, members=MEMBERS_NAME)
    return _("{name} ({file}) has no email in the record: not reminded").format(
        name=to.name, file=file)


def _would_send_line(reminder: "Reminder") -> str:
    """What ``remind --dry-run`` says of a message due."""
    from ..club.reminders import Kind

    if reminder.to.address is None:
        return _unmailed_line(reminder)
    would = (_("Would send reminder to {name} <{address}>: {subject}")
             if reminder.kind == Kind.REMINDER else
             _("Would send notice to {name} <{address}>: {subject}"))
    return would.format(name=reminder.to.name, address=reminder.to.address,
                        subject=reminder.subject)


def _not_sent_line(reminder: "Reminder", why: str) -> str:
    """What ``remind`` says of a message it could not send."""
    from ..club.reminders import Kind

    return (_("Not sent: the reminder to {name} ({file}): {why}")
            if reminder.kind == Kind.REMINDER else
            _("Not sent: the notice to {name} ({file}): {why}")).format(
        name=reminder.to.name, file=reminder.awaited.file, why=why)


def _reminder_json(reminder: "Reminder", with_body: bool) -> dict[str, object]:
    awaited = reminder.awaited
    data: dict[str, object] = {
        "file": awaited.file, "action": awaited.action, "late": awaited.player.name,
        "to": reminder.to.name, "address": reminder.to.address, "kind": reminder.kind,
        "subject": reminder.subject}
    if with_body:
        data["body"] = reminder.body
    return data


# -- pause -------------------------------------------------------------------------------


@click.command()
@file_argument
@as_option(required=True)
@click.option("--days", type=click.IntRange(1, 366), required=True, help="How many whole days.")
@click.option("--from", "start", metavar="TIME", help="When it begins, booked ahead (UTC, "
              "2026-12-20T00:00:00Z; default: now).")
@click.option("--send", is_flag=True, help="Then email the game to the next player "
              "(as uptown send does).")
@sendmail_option
@keys_option
def pause(file: "str | None", as_name: str, days: int, start: "str | None", send: bool,
          sendmail: bool, keys: "str | None") -> None:
    """Take vacation days: NAME's clock stands still.

    Written by whoever holds the file: the player to move, or the player who just moved,
    before sending the game on. Refused when the game has no clock or allows no vacation,
    when it overlaps another, is more than NAME has left, or NAME is out of time already.
    """
    from ..engine.moments import parse_time, show_time
    from ..turns.acts import pause as write_pause
    from ..turns.game_files import open_game
    from .exits import converted
    from .loading import game_path, warn
    from .output import lock_notice
    from .timing import now

    if sendmail and not send:
        raise click.UsageError(_("--sendmail goes with --send"))
    path = game_path(file)
    if path == "-":
        raise click.UsageError(_("pause writes to FILE; standard input cannot be used"))
    if send:  # before anything is written, as move --send checks
        from .club import check_mail_settings

        check_mail_settings(sendmail, move=False)
    moment = now()
    opened = open_game(path, as_name, keys, now=moment, alerts=True)
    warn(opened.warnings)
    with converted(param_hint="--from"):
        begins = parse_time(start) if start else None
    paused = write_pause(opened, days, now=moment, begins=begins, on_wait=lock_notice(path))
    click.echo(ngettext("{name} is on vacation from {begins} until {end}; {left} day of "
                        "vacation left",
                        "{name} is on vacation from {begins} until {end}; {left} days of "
                        "vacation left", paused.left).format(
                            name=paused.name, begins=show_time(paused.begins),
                            end=show_time(paused.end), left=paused.left))
    if send:
        from .club import send_after_move

        sent = send_after_move(path, paused.name, sendmail)
        if sent:
            click.echo(sent)


@click.command()
@file_argument
@as_option(required=True)
@click.option("--move", "number", type=click.IntRange(1), metavar="N", help="The move you "
              "dispute (default: the newest entry another player wrote for you).")
@click.option("--settle", is_flag=True, help="Settle your dispute instead: the players agreed, "
              "and the game counts again.")
@keys_option
def dispute(file: "str | None", as_name: str, number: "int | None", settle: bool,
            keys: "str | None") -> None:
    """Dispute a pass, forfeit or bot move another player wrote for you.

    In a game without a club judge every time is its writer's word: a rival who says you ran
    out of time may be wrong. A disputed game is marked in uptown status and left out of
    uptown ratings until you settle it (--settle). Send the game on as usual.
    """
    from ..turns.acts import dispute as write_dispute
    from ..turns.game_files import open_game
    from .loading import game_path, warn
    from .output import lock_notice
    from .timing import now

    path = game_path(file)
    if path == "-":
        raise click.UsageError(_("dispute writes to FILE; standard input cannot be used"))
    moment = now()
    opened = open_game(path, as_name, keys, now=moment, alerts=True)
    warn(opened.warnings)
    done = write_dispute(opened, number, settle=settle, now=moment, on_wait=lock_notice(path))
    click.echo((_("{name} settles the dispute of move {number}: the game counts again.")
                if done.settled else
                _("{name} disputes move {number}: the game is marked disputed, and not rated "
                  "until {name} settles it (uptown dispute --settle).")).format(
        name=done.name, number=done.number))


COMMANDS = {command.name: command for command in (remind, pause, dispute)}
