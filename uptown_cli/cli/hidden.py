"""The commands of games with hidden racks: ``join`` and ``reveal``, and the parts of ``new``,
``show``, ``moves`` and ``move`` that differ for such a game.

The other commands call the helpers here when a record has ``hidden:``. A
player's view is the game replayed with their key (read from their key file, see
``hidden_keys``): it knows their racks and no one else's. The record layer (and so PyYAML) is
imported inside the functions, to keep ``uptown --help`` light.
"""

import random

import click

from ..game import RACK_SIZE
from ..hidden_draws import TILES_PER_COLOR, head, new_game_id
from ..hidden_keys import KeyFileError, keys_folder, load_key, load_or_create_key
from .options import (
    display_path, file_argument, game_path, keys_option, lock_notice, player_named, problem_line,
    read_record, replay_valid,
)


def as_option(command):
    return click.option("--as", "as_name", required=True, metavar="NAME",
                        help="The player you are (your key file is used).")(command)


# -- new, show, moves, move ----------------------------------------------------------------


def create_hidden(path, entries, variant):
    """Write a new game with hidden racks at ``path``; returns its game id."""
    from ..record import load_record_text
    from ..record_writer import create_record, render_record
    from ..yamlsafe import RecordError

    game_id = new_game_id().hex()
    text = render_record(entries, variant=variant)
    cut = text.rindex("moves:\n")
    text = text[:cut] + f"hidden: {game_id}\ncommitments:\n" + text[cut:]
    try:
        load_record_text(text, path)
        create_record(path, text)
    except RecordError as exc:
        raise click.ClickException(exc.message) from None
    return game_id


def player_name(record, as_name):
    """The player ``as_name`` names (any case), or a ClickException."""
    return player_named(record.players, as_name)


def player_key(record, name, keys):
    """``name``'s key for this game from their key file, checked against their commitment."""
    from ..hidden_record import key_matches

    if name not in record.hidden.joined():
        raise click.ClickException(f"{name} has not joined {record.path} yet (uptown join)")
    try:
        key = load_key(keys_folder(keys), record.hidden.game_id, name)
    except KeyFileError as exc:
        raise click.ClickException(str(exc)) from None
    if not key_matches(record, name, key):
        raise click.ClickException(f"{name}'s key file does not match their commitment in "
                                   f"{record.path} (another copy of the game?)")
    return key


def own_view(record, name, key, upto=None):
    """``(game, deal)``: the game after the record's moves (the first ``upto``), replayed with
    player ``name``'s key, whose ``deal`` knows that player's racks."""
    from ..hidden_record import HiddenCheck
    from ..record import replay

    check = HiddenCheck(record, own=(name, key))
    result = replay(record, upto=upto, hidden=check)
    if result.errors:
        raise click.ClickException(f"{problem_line(result.errors[0])} (the record is invalid)")
    return result.game, check.deal


def rack_text(game, deal, player):
    """``player``'s racks as their view knows them, a draw still to come marked ``+?``."""
    from ..render import rack_text as tiles

    parts = []
    for color in player.colors:
        if not game.playable(color):
            parts.append(f"{color} done")
            continue
        waiting = deal.pending(color)
        parts.append(" ".join(filter(None, [color, tiles(deal.racks[color])] + ["+?"] * waiting)))
    return "; ".join(parts)


def to_move_text(game, deal=None, viewer=None):
    """Whose turn it is in a game with hidden racks, with the viewer's racks when known."""
    player = game.to_move
    lines = ["The game is over." if player is None else f"{player.name} to move."]
    if deal is None:
        if player is not None:
            lines[0] += " Racks are hidden (with --as NAME, a player sees their own)."
    else:
        me = next(p for p in game.players if p.name == viewer)
        lines.append(f"{me.name}'s rack: {rack_text(game, deal, me)}")
        if any(deal.pending(c) for c in me.colors):
            lines.append("(+? is drawn when the next player has moved.)")
    return "\n".join(lines)


def position_data(game, deal=None, viewer=None):
    """What ``show --json`` says of racks and bags in a game with hidden racks."""
    from ..geometry import tile_name

    racks = None
    if deal is not None:
        me = next(p for p in game.players if p.name == viewer)
        racks = {c: [tile_name(t) for t in sorted(deal.racks[c])] for c in me.colors}
    bags = {c: max(0, TILES_PER_COLOR - RACK_SIZE - game.played_count(c)) for c in game.colors}
    return {"racks": racks, "bags": bags}


def mover_view(record, game, as_name, keys):
    """``(game as its player to move may see it, the link they publish now)``: a game that
    knows their racks (the others' drawn at random to fit the moves, as a bot's view)."""
    from ..bots import imagined_game
    from ..hidden_record import own_link

    player = game.to_move
    waiting = [p.name for p in record.players if p.name not in record.hidden.joined()]
    if waiting:
        raise click.ClickException(f"the game has not started: {', '.join(waiting)} must "
                                   "join first (uptown join)")
    if as_name is None:
        raise click.ClickException(f"{record.path} has hidden racks: play with --as "
                                   f"{player.name} (your key file proves who you are)")
    name = player_name(record, as_name)
    if name != player.name:
        raise click.ClickException(f"it is {player.name}'s turn, not {name}'s")
    key = player_key(record, name, keys)
    _, deal = own_view(record, name, key)
    own_bags = {c: deal.drawn[c] + [t for t in range(TILES_PER_COLOR) if t not in deal.drawn[c]]
                for c in player.colors}
    try:
        view = imagined_game(game, player, own_bags, random.Random())
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    link = own_link(record.hidden.game_id, name, key, deal.turns[name] + 1)
    return view, link


def drawn_text(turn):
    """What a move of a game with hidden racks draws, in a sentence."""
    if turn.move.is_pass:
        return f"{turn.player.name} had to pass."
    if turn.drawn is None:
        return f"{turn.color} draws nothing: its bag is empty."
    return (f"{turn.color} draws a tile when the next player has moved "
            f"(uptown show --as {turn.player.name} then shows it).")


# -- join and reveal -----------------------------------------------------------------------


def _hidden_record(path):
    record = read_record(path)
    if record.hidden is None:
        raise click.ClickException(f"{record.path} is not a game with hidden racks "
                                   "(uptown new --hidden makes one)")
    return record


def _append(path, list_name, name, value, record):
    from ..record_writer import append_entry
    from ..yamlsafe import RecordError

    try:
        append_entry(path, list_name, name, value, record.text, lock_notice(path))
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None


@click.command()
@file_argument
@as_option
@keys_option
def join(file, as_name, keys):
    """Join a game with hidden racks: make your secret key and commit to it.

    The key is kept in a file of your own (mode 0600, its path printed), never in FILE.
    Players join in turn order; the game starts when all have joined.
    """
    path = game_path(file)
    record = _hidden_record(path)
    name = player_name(record, as_name)
    joined = record.hidden.joined()
    if name in joined:
        raise click.ClickException(f"{name} has already joined {record.path}")
    names = [p.name for p in record.players]
    if name != names[len(joined)]:
        raise click.ClickException(f"players join in turn order: {names[len(joined)]} joins "
                                   f"next, not {name}; nothing was written")
    game_id = record.hidden.game_id
    try:
        key, key_file, created = load_or_create_key(keys_folder(keys), game_id, name)
    except KeyFileError as exc:
        raise click.ClickException(str(exc)) from None
    _append(path, "commitments", name, head(bytes.fromhex(game_id), name, key).hex(), record)
    made = "made" if created else "already there"
    click.echo(f"{name} joined {record.path}. Your key ({made}): {display_path(key_file)}")
    click.echo("Keep it secret and safe until the game is over: you need it to play and to "
               "reveal.")
    if len(joined) + 1 < len(names):
        click.echo(f"Next to join: {names[len(joined) + 1]}.")
    else:
        click.echo(f"Everyone has joined: {names[0]} to move.")


@click.command()
@file_argument
@as_option
@keys_option
def reveal(file, as_name, keys):
    """Publish your key once the game is over, so all can check your draws.

    When every key is revealed, uptown validate checks every draw and every tile played.
    """
    path = game_path(file)
    record = _hidden_record(path)
    game = replay_valid(record)
    name = player_name(record, as_name)
    if not game.finished:
        raise click.ClickException("the game is not over: a key is revealed only at the end "
                                   "(it shows every rack and draw of its player)")
    if name in dict(record.hidden.revealed):
        raise click.ClickException(f"{name} has already revealed their key in {record.path}")
    key = player_key(record, name, keys)
    _append(path, "revealed", name, key.hex(), record)
    revealed = dict(record.hidden.revealed)
    left = [n for n in record.hidden.joined() if n != name and n not in revealed]
    click.echo(f"{name}'s key is revealed in {record.path}: anyone can check their draws with "
               f"uptown validate {record.path}.")
    click.echo(f"Still to reveal: {', '.join(left)}." if left else "Every key is revealed.")


COMMANDS = {command.name: command for command in (join, reveal)}
