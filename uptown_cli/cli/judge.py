"""The judge of a club (docs/JUDGE.md): ``uptown judge init`` (the library is
``club.judge_store``, ``club.judge_mailbox`` and ``club.judge_run``)."""

import click

from . import CLICK_MARKED, TranslatedCommand, translated
from ..i18n import _

__all__: list[str] = []


class JudgeGroup(click.Group, TranslatedCommand):
    """``uptown judge``'s commands, each with its help in the language in use."""

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [_(piece) if piece in CLICK_MARKED else piece
                for piece in super().collect_usage_pieces(ctx)]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        return None if command is None else translated(command, command.short_help or "")

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None:
                rows.append((name, command.get_short_help_str(formatter.width)))
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)


@click.group(cls=JudgeGroup)
def judge() -> None:
    """A club's referee that reads its mailbox and answers by mail.

    The judge keeps every game of the club in its folder, stamps each entry with the time it
    received it and signs it, rules on deadlines, and mails each new copy to the players.
    docs/JUDGE.md walks a club secretary through setting one up.
    """


@judge.command(short_help="Set up a judge's folder and print its card.")
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


COMMANDS = {command.name: command for command in (judge,)}
