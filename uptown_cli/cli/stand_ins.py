"""Turns written for a player out of time, and resigning: ``move forfeit`` and ``move --for
NAME pass|forfeit|--bot`` (docs/DEADLINES.md), each entry checked as ``validate`` checks it
before it is written."""

from collections.abc import Sequence

import click

from ..i18n import _, pgettext
from ..analysis.mover import player_to_move
from .loading import check_seen_as, open_record, remember_seen, replay_valid
from .output import Output, lock_notice

__all__: list[str] = []


def write_turn_for(path: str, words: Sequence[str], as_name: str | None, for_name: str | None,
                    keys: str | None, dry_run: bool, send: bool, sendmail: bool,
                    as_json: bool, bot: str | None = None) -> None:
    """``move forfeit`` (resign at one's turn) and ``move --for NAME pass|forfeit`` (for a
    player out of time): the entry is checked as ``validate`` checks it before it is written."""
    from ..engine.moments import write_time
    from ..fairplay.replay import replay
    from ..records.safe_file import append_move
    from ..records.writing import record_with_move
    from ..fairplay.viewer import player_named
    from .timing import now

    action = " ".join(words).lower()
    if action not in ("pass", "forfeit") and not (bot and for_name):
        raise click.UsageError(_("with --for, MOVE is pass or forfeit, or --bot"))
    if for_name is not None and as_name is None:
        raise click.UsageError(_("--for needs --as ME: the record says who wrote it"))
    record = open_record(path)
    if record.hidden is not None and bot is not None:
        raise click.ClickException(_("nobody can play a move for another player in a game with "
                                     "hidden racks (their rack is theirs alone): pass or forfeit "
                                     "for them; nothing was written"))
    check_seen_as(record, as_name, keys)
    game = replay_valid(record)
    player = player_to_move(game, for_name if for_name is not None else as_name, record.path)
    writer = player_named(record.players, as_name) if as_name is not None else player.name
    stamp = {"at": write_time(now())}
    if for_name is not None:
        stamp["by"] = writer
    link = None
    if record.hidden is not None and for_name is None:  # a resignation: the player's link
        from ..analysis.mover import mover

        link = mover(record, game, as_name, keys).link(player.colors[0], action, stamp)
    color = player.colors[0]
    if bot is not None:
        from ..analysis.stand_ins import stand_in_move

        policy = record.timing.late.bot if record.timing is not None else None
        if bot != policy:
            raise click.ClickException(_("this game's late policy lets {policy} play for a late "
                                         "player, not {bot}; nothing was written").format(
                                             policy=policy or _("no bot"), bot=bot))
        color, action = stand_in_move(record, game, bot, len(record.moves) + 1)
        stamp["bot"] = bot
    after = record_with_move(record, color, action, record.path, link, stamp)
    result = replay(after)
    if result.errors:
        raise click.ClickException(_("{problem}; nothing was written").format(
            problem=result.errors[0].message))
    if not dry_run:
        written = append_move(path, color, action, record, link, lock_notice(path), stamp)
        remember_seen(written, as_name, keys)
    finished, nxt = result.game.finished, result.game.to_move
    from ..engine.geometry import shown_color

    why = _(", written by {writer} for {name} (out of time)").format(
        writer=writer, name=player.name) if for_name else ""
    if bot is not None:
        why = _(", played by {bot} for {name}, out of time ({writer} asked)").format(
            bot=bot, name=player.name, writer=writer)
    said = {"forfeit": pgettext("a player", "forfeits"),
            "pass": pgettext("a player", "passes")}.get(action, action)
    text = (_("Move {number}: {colour} ({name}) {action}{why}").format(
        number=len(after.moves), colour=shown_color(color), name=player.name, action=said, why=why)
            + (_(" (dry run: nothing was written)") if dry_run else ""))
    if as_json:
        Output(True).json({"number": len(after.moves), "player": player.name, "action": action,
                           "by": writer if for_name else None, "written": not dry_run,
                           "finished": finished, "to_move": None if nxt is None else nxt.name})
    else:
        click.echo(text)
        if finished:
            from ..engine.scoring import standings
            from ..pictures.text import standings_rows

            Output(False).table(*standings_rows(standings(result.game, record.variant),
                                                record.variant), title=_("Final standings:"))
        elif nxt is not None:
            click.echo(_("{name} to move.").format(name=nxt.name))
    if send:
        from .club import send_after_move

        line = send_after_move(path, writer, sendmail)
        if line:
            click.echo(line, err=as_json)
