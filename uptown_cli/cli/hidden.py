"""The commands of games with hidden racks: ``join`` and ``reveal``, and ``new --hidden``'s
file (the player to move's view for ``moves``, ``move`` and ``hint`` is ``analysis.mover``'s).

Who a player is, their key and their own view are ``fairplay.viewer``'s; what a view shows is
``pictures.text``'s. The record layer (and so PyYAML) is imported inside the functions, to
keep ``uptown --help`` light.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ..errors import display_path
from ..fairplay.draws import JOINABLE, new_game_id
from ..records.hidden_fields import LATEST, PROTOCOLS
from ..fairplay.keys import create_key, keys_folder, mark_spent, remove_key
from .loading import game_path, open_record, replay_valid
from .options import as_option, file_argument, json_option, keys_option
from .output import Output, lock_notice
from ..i18n import _ as gettext

if TYPE_CHECKING:
    from ..engine.game import Player
    from ..records.schema import Record
    from ..records.entries import PlayerEntry

__all__: list[str] = []


# -- new --hidden ----------------------------------------------------------------------------


def create_hidden(path: str, entries: "Sequence[Player | PlayerEntry]", variant: str,
                  timing: dict[str, str] | None = None) -> str:
    """Write a new game with hidden racks at ``path`` (with the keys of its clock,
    ``timing``); returns its game id."""
    from ..records.safe_file import create_record
    from ..records.writing import render_record

    game_id = new_game_id().hex()
    text = render_record(entries, variant=variant, hidden=game_id, timing=timing)
    create_record(path, text)
    return game_id


# -- join and reveal -----------------------------------------------------------------------


def _hidden_record(path: str) -> "Record":
    record = open_record(path)
    if record.hidden is None:
        raise click.ClickException(gettext("{path} is not a game with hidden racks (uptown new --hidden makes one)")
                                   .format(path=record.path))
    return record


def protocol_line(record: "Record") -> int:
    """The line of ``protocol:`` in ``record`` (of ``hidden:`` when there is none: version 1)."""
    root = record.parsed()
    pair = root.get("protocol") or root.get("hidden")
    return pair[0].line if pair is not None else 1


def _write_entry(path: str, list_name: str, name: str, value: str,
                 record: "Record") -> "Record":
    """The record with ``name``'s entry in ``list_name`` written (added, or its value
    replaced), written to ``path`` (``records.safe_file``)."""
    from ..records.safe_file import write_entry

    return write_entry(path, list_name, name, value, record, lock_notice(path))


@click.command()
@file_argument
@as_option(required=True)
@click.option("--undo", is_flag=True, help="Undo a join made by mistake (before the first "
              "move): its key is published under withdrawn:, and NAME can join again.")
@click.option("--older-protocol", "older", is_flag=True, help="Join a game of an older "
              f"protocol version than {PROTOCOLS[LATEST - 1]} (only when every player agreed "
              "to it: a player could have changed the version).")
@keys_option
@json_option
def join(file: str | None, as_name: str, undo: bool, older: bool, keys: str | None,
         as_json: bool) -> None:
    """Join a game with hidden racks: make your secret key and commit to it.

    The key is new, kept in a file of your own (mode 0600, its path printed), never in FILE.
    Players join in turn order; the game starts when all have joined. With --undo, the last
    join is taken back before the first move by whoever made it (their key file proves it):
    for a join made as the wrong player.
    """
    from ..fairplay.joins import commitment_of
    from ..fairplay.viewer import check_seen, holds_key, not_your_commitment, player_named, remember

    path = game_path(file)
    record = _hidden_record(path)
    assert record.hidden is not None  # _hidden_record refuses a record without
    if undo:
        _undo_join(path, record, as_name, keys, as_json)
        return
    if record.hidden.version < JOINABLE:
        raise click.ClickException(
            gettext("{path} uses {PROTOCOLS}, in which a player can re-roll their starting "
              "rack; it can be played and checked, but not joined: start a new game "
              "(uptown new --hidden)")
            .format(path=record.path, PROTOCOLS=PROTOCOLS[record.hidden.version - 1]))
    version = record.hidden.version
    if version < LATEST and not older:
        raise click.ClickException(
            gettext("{path}:{line}: the game uses {used}, older than {latest} (what uptown new "
                    "makes): anyone who held the file could have changed it; join only if "
                    "every player agreed (--older-protocol); nothing was written")
            .format(path=record.path, line=protocol_line(record), used=PROTOCOLS[version - 1],
                    latest=PROTOCOLS[LATEST - 1]))
    name = player_named(record.players, as_name)
    joined = record.hidden.joined()
    folder = keys_folder(keys)
    if name not in joined and holds_key(folder, record.hidden.game_id, name):
        raise click.ClickException(
            gettext("this game id was used before: you hold a key for it that {path} does "
              "not commit to; a key serves one game, so ask for a new game (uptown "
              "new --hidden); nothing was written").format(path=record.path))
    check_seen(record, name, keys)
    if name in joined and not holds_key(folder, record.hidden.game_id, name):
        raise click.ClickException(not_your_commitment(record, name, folder))
    if name in joined:
        raise click.ClickException(gettext("{name} has already joined {path}")
                                   .format(name=name, path=record.path))
    names = [p.name for p in record.players]
    if name != names[len(joined)]:
        raise click.ClickException(gettext("players join in turn order: {names} joins next, not {name}; nothing "
                                     "was written").format(names=names[len(joined)], name=name))
    game_id = record.hidden.game_id
    key, key_file = create_key(folder, game_id, name)
    try:
        written = _write_entry(path, "commitments", name, commitment_of(record.hidden, name, key),
                               record)
    except Exception:  # the commitment was not written: the key made for it is not kept
        remove_key(folder, game_id, name)
        raise
    remember(written, name, keys)
    following = names[len(joined) + 1] if len(joined) + 1 < len(names) else None
    if as_json:
        Output(True).json({"path": display_path(path), "player": name,
                           "key_file": display_path(key_file), "next_to_join": following,
                           "to_move": None if following else names[0]})
        return
    click.echo(gettext("{name} joined {path}.").format(name=name, path=record.path))
    click.echo(gettext("Your key (new): {key_file}").format(key_file=display_path(key_file)))
    click.echo(gettext("Keep it secret until the game is over: you need it to play and to "
                 "reveal."))
    if following:
        click.echo(gettext("Next to join: uptown join {path} --as {following}")
                   .format(path=record.path, following=following))
    else:
        click.echo(gettext("Everyone has joined: {names} to move.").format(names=names[0]))


def _undo_join(path: str, record: "Record", as_name: str, keys: str | None,
               as_json: bool) -> None:
    """``join --undo``: take back the last join before the first move, publishing its key
    under ``withdrawn:`` so that every player's tool sees who made the change (only whoever
    made the join holds its key); the key file is removed (the key is public now)."""
    from ..records.safe_file import replace_record
    from ..records.hidden_text import record_with_entry, record_without_entry
    from ..fairplay.viewer import check_seen, player_key, remember

    hidden = record.hidden
    assert hidden is not None
    name = check_seen(record, as_name, keys)
    joined = hidden.joined()
    if name not in joined:
        raise click.ClickException(gettext("{name} has not joined {path}: there is no join to undo; nothing was "
                                     "written").format(name=name, path=record.path))
    if record.moves:
        raise click.ClickException(gettext("the first move of {path} is played: a join cannot be undone any more "
                                     "(it would deal new racks); nothing was written")
                                   .format(path=record.path))
    if joined[-1] != name:
        raise click.ClickException(gettext("{joined} joined after {name}: only the last join can be undone "
                                     "({joined} undoes theirs first); nothing was written")
                                   .format(joined=joined[-1], name=name))
    key = player_key(record, name, keys)
    line = hidden.lines["commitments", name]
    without = record_without_entry(record, "commitments", name)
    written = record_with_entry(without, "withdrawn", name, key.hex(), record.path)
    replace_record(path, written, record.text, lock_notice(path))
    folder = keys_folder(keys)
    remove_key(folder, hidden.game_id, name)
    remember(written, name, keys)
    if as_json:
        Output(True).json({"path": display_path(path), "player": name, "undone_line": line,
                           "next_to_join": name})
        return
    click.echo(gettext("{name}'s join (line {line}) is undone in {path}: its key is published "
                 "under withdrawn:, so every player can see that whoever made it took "
                 "it back.").format(name=name, line=line, path=record.path))
    click.echo(gettext("Next to join: uptown join {path} --as {name}")
               .format(path=record.path, name=name))


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
    from ..fairplay.joins import reveal_line, valid_reveals
    from ..fairplay.viewer import check_seen, own_view, player_key, remember

    path = game_path(file)
    record = _hidden_record(path)
    hidden = record.hidden
    assert hidden is not None  # _hidden_record refuses a record without
    name = check_seen(record, as_name, keys, rewrites_own_key=True)
    game = replay_valid(record)
    if not game.finished:
        raise click.ClickException(gettext("the game is not over: a key is revealed only at the end (it shows "
                                     "every rack and draw of its player); nothing was written"))
    if name in valid_reveals(hidden):
        raise click.ClickException(gettext("{name} has already revealed their key in {path}; nothing was written")
                                   .format(name=name, path=record.path))
    key = player_key(record, name, keys, spent_ok=True)
    own_view(record, name, key)
    replaced = reveal_line(hidden, name)
    written = _write_entry(path, "revealed", name, key.hex(), record)
    mark_spent(keys_folder(keys), hidden.game_id, name)
    remember(written, name, keys)
    left = [n for n in hidden.joined() if n != name and n not in valid_reveals(hidden)]
    if as_json:
        Output(True).json({"path": display_path(path), "player": name, "to_reveal": left,
                           "replaced_line": replaced})
        return
    click.echo(gettext("{name}'s key is revealed in {path}.").format(name=name, path=record.path))
    if replaced is not None:
        click.echo(gettext("It replaces the entry at line {replaced}, which did not give {name}'s "
                     "commitment: {name} did not write it.").format(replaced=replaced, name=name))
    if left:
        click.echo(gettext("{name}'s draws can now be checked; the game's draws are checked once "
                     "every key is revealed. Still to reveal: {left}, each with\n  uptown "
                     "reveal {path} --as NAME")
                   .format(name=name, left=', '.join(left), path=record.path))
    else:
        click.echo(gettext("Every key is revealed: anyone can check every draw: uptown validate "
                     "{path}").format(path=record.path))


COMMANDS = {command.name: command for command in (join, reveal)}
