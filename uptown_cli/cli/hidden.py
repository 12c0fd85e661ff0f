"""The commands of games with hidden racks: ``join`` and ``reveal`` (``turns.acts``), and
``new --hidden``'s file. The record layer (and so PyYAML) is imported inside the functions, to
keep ``uptown --help`` light.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ..errors import display_path
from ..fairplay.draws import new_game_id
from ..records.hidden_fields import LATEST, PROTOCOLS
from .loading import game_path
from .options import as_option, file_argument, json_option, keys_option
from .output import Output, lock_notice
from ..i18n import _ as gettext

if TYPE_CHECKING:
    from ..engine.players import Player
    from ..records.entries import PlayerEntry

__all__: list[str] = []


# -- new --hidden ----------------------------------------------------------------------------


def create_hidden(path: str, entries: "Sequence[Player | PlayerEntry]", variant: str,
                  timing: dict[str, str] | None = None,
                  judge: tuple[str, str] | None = None) -> str:
    """Write a new game with hidden racks at ``path`` (with the keys of its clock,
    ``timing``, and the card of the club judge it is under, ``judge``); returns its game
    id."""
    from ..records.safe_file import create_record
    from ..records.editing import render_record

    game_id = new_game_id().hex()
    text = render_record(entries, variant=variant, hidden=game_id, timing=timing, judge=judge)
    create_record(path, text)
    return game_id


# -- join and reveal -----------------------------------------------------------------------


def _language(value: str | None) -> str | None:
    """``join --lang``: a language code as records write one (``es``, ``pt_BR``)."""
    from ..records.schema import LANG

    if value is not None and LANG.fullmatch(value) is None:
        raise click.BadParameter(gettext("{value!r} is not a language code like es or "
                                         "pt_BR").format(value=value))
    return value


@click.command()
@file_argument
@as_option(required=True)
@click.option("--undo", is_flag=True, help="Undo a join made by mistake (before the first "
              "move): its key is published under withdrawn:, and NAME can join again.")
@click.option("--older-protocol", "older", is_flag=True, help="Join a game of an older "
              f"protocol version than {PROTOCOLS[LATEST - 1]} (only when every player agreed "
              "to it: a player could have changed the version).")
@click.option("--lang", metavar="LANG", callback=lambda ctx, param, value: _language(value),
              help="The language of the mail you get in this game (es, en), written under your "
              "name: every mail to you is in it, whoever sends it.")
@keys_option
@json_option
def join(file: str | None, as_name: str, undo: bool, older: bool, lang: str | None,
         keys: str | None, as_json: bool) -> None:
    """Join a hidden or signed game: make your keys and commit to them.

    The keys (a secret key that deals your racks, a signing key that signs your entries) are
    new, kept in a file of your own (mode 0600, its path printed), never in FILE. Players join
    in turn order; the game starts when all have joined. With --undo, the last join is taken
    back before the first move by whoever made it (their key file proves it): for a join made
    as the wrong player.
    """
    from ..turns.acts import join as write_join, undo_join

    path = game_path(file)
    if undo:
        if lang is not None:
            raise click.UsageError(gettext("--lang goes with a join, not with --undo"))
        undone = undo_join(path, as_name, keys, on_wait=lock_notice(path))
        shown = undone.record.path
        if as_json:
            Output(True).json({"path": display_path(path), "player": undone.name,
                               "undone_line": undone.line, "next_to_join": undone.name})
            return
        click.echo(gettext("{name}'s join (line {line}) is undone in {path}: its key is "
                           "published under withdrawn:, so every player can see that whoever "
                           "made it took it back.").format(name=undone.name, line=undone.line,
                                                           path=shown))
        click.echo(gettext("Next to join: uptown join {path} --as {name}")
                   .format(path=shown, name=undone.name))
        return
    joined = write_join(path, as_name, keys, older=older, lang=lang, on_wait=lock_notice(path))
    shown = joined.record.path
    first = joined.record.players[0].name
    if as_json:
        Output(True).json({"path": display_path(path), "player": joined.name,
                           "key_file": display_path(joined.key_file),
                           "next_to_join": joined.following,
                           "to_move": None if joined.following else first})
        return
    click.echo(gettext("{name} joined {path}.").format(name=joined.name, path=shown))
    click.echo(gettext("Your key (new): {key_file}").format(key_file=display_path(joined.key_file)))
    if joined.record.hidden is not None:
        click.echo(gettext("Keep it secret until the game is over: you need it to play and to "
                           "reveal."))
    else:
        click.echo(gettext("Keep it secret: it signs every entry you write in this game."))
    if joined.following:
        click.echo(gettext("Next to join: uptown join {path} --as {following}")
                   .format(path=shown, following=joined.following))
    else:
        click.echo(gettext("Everyone has joined: {names} to move.").format(names=first))


@click.command()
@file_argument
@as_option(required=True)
@keys_option
@json_option
def reveal(file: str | None, as_name: str, keys: str | None, as_json: bool) -> None:
    """Publish your key once the game is over, so all can check your draws.

    When every key is revealed, uptown validate checks every draw and every tile played. The
    key file is then marked spent: it is never used in another game, but may be published
    again in this one (in another copy of it). An entry for you that does not give your
    commitment was not written by you: your key replaces it.
    """
    from ..turns.acts import reveal as write_reveal

    path = game_path(file)
    revealed = write_reveal(path, as_name, keys, on_wait=lock_notice(path), warn=warn_line)
    shown, name, left = revealed.record.path, revealed.name, revealed.left
    if as_json:
        Output(True).json({"path": display_path(path), "player": name, "to_reveal": left,
                           "replaced_line": revealed.replaced})
        return
    click.echo(gettext("{name}'s key is revealed in {path}.").format(name=name, path=shown))
    if revealed.replaced is not None:
        click.echo(gettext("It replaces the entry at line {replaced}, which did not give {name}'s "
                           "commitment: {name} did not write it.").format(
            replaced=revealed.replaced, name=name))
    if left:
        click.echo(gettext("{name}'s draws can now be checked; the game's draws are checked once "
                           "every key is revealed. Still to reveal: {left}, each with\n  uptown "
                           "reveal {path} --as NAME")
                   .format(name=name, left=', '.join(left), path=shown))
    else:
        click.echo(gettext("Every key is revealed: anyone can check every draw: uptown validate "
                           "{path}").format(path=shown))


def warn_line(line: str) -> None:
    """A warning on standard error."""
    click.echo(line, err=True)


COMMANDS = {command.name: command for command in (join, reveal)}
