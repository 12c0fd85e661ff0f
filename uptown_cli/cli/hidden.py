"""The commands of games with hidden racks: ``join`` and ``reveal``, and the parts of ``new``,
``show``, ``moves`` and ``move`` that differ for such a game.

The other commands call the helpers here when a record has ``hidden:``. A
player's view is the game replayed with their key (read from their key file, see
``hidden_keys``): it knows their racks and no one else's. The record layer (and so PyYAML) is
imported inside the functions, to keep ``uptown --help`` light.
"""

import hashlib
import random

import click

from ..engine.game import RACK_SIZE
from ..hidden.draws import LATEST, PROTOCOLS, TILES_PER_COLOR, new_game_id
from ..errors import KeyFileError
from ..hidden.keys import (
    check_folder,
    create_key,
    has_key,
    keys_folder,
    load_key,
    mark_spent,
    remove_key,
    save_seen,
)
from .options import (
    Output,
    as_option,
    display_path,
    file_argument,
    game_path,
    json_option,
    keys_option,
    lock_notice,
    check_seen,
    player_named,
    read_record,
    replay_valid,
)


# -- new, show, moves, move ----------------------------------------------------------------


def create_hidden(path, entries, variant):
    """Write a new game with hidden racks at ``path``; returns its game id."""
    from ..records.schema import load_record_text
    from ..records.safe_file import create_record
    from ..records.text import render_record
    from ..errors import RecordError

    game_id = new_game_id().hex()
    text = render_record(entries, variant=variant)
    cut = text.rindex("moves:\n")
    text = (text[:cut] + f"hidden: {game_id}\nprotocol: {PROTOCOLS[LATEST - 1]}\n"
            "commitments:\n" + text[cut:])
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
    """``name``'s key for this game: revealed in the record, else from their key file; checked
    against their commitment."""
    from ..records.hidden_fields import key_matches

    if name not in record.hidden.joined():
        raise click.ClickException(f"{name} has not joined {record.path} yet (uptown join)")
    revealed = dict(record.hidden.revealed).get(name)
    if revealed is not None and key_matches(record, name, bytes.fromhex(revealed)):
        return bytes.fromhex(revealed)
    folder = keys_folder(keys)
    if not _has_key(folder, record.hidden.game_id, name):
        raise KeyFileError(_not_your_commitment(record, name, folder))
    key = load_key(folder, record.hidden.game_id, name)
    if not key_matches(record, name, key):
        line = record.hidden.lines["commitments", name]
        names = record.hidden.joined()
        earlier = " or ".join(f"{n}'s" for n in names[:names.index(name)])
        also = (f", or a commitment before it ({earlier}) was changed after "
                f"{name} joined" if earlier and record.hidden.version > 1 else "")
        raise click.ClickException(f"{record.path}:{line}: {name}'s key file does not give "
                                   f"{name}'s commitment: it was changed{also}")
    return key


def _has_key(folder, game_id, name):
    """``has_key``, with an unsafe key folder refused in one line."""
    check_folder(folder)
    return has_key(folder, game_id, name)


def _not_your_commitment(record, name, folder):
    """What to tell ``name``, who holds no key for a game the record says they joined."""
    line = record.hidden.lines["commitments", name]
    return (f"{record.path}:{line}: {name}'s commitment was not made with a key of yours (no "
            f"key for this game in {folder}): if you did not join, someone else joined as "
            f"{name}; if you lost your key, {name} cannot play on. Start a new game (uptown new "
            "--hidden), or give the folder of your key with --keys")


def own_view(record, name, key, upto=None):
    """``(game, check)``: the game after the record's moves (the first ``upto``), replayed with
    player ``name``'s key, whose ``check.deal`` knows that player's racks."""
    from ..errors import BadReveal
    from ..records.hidden_fields import HiddenCheck
    from ..records.replay import replay

    check = HiddenCheck(record, own=(name, key))
    result = replay(record, upto=upto, hidden=check)
    errors = [e for e in result.errors if not isinstance(e, BadReveal)]
    if errors:
        raise click.ClickException(f"{errors[0].report_line()} (the record is invalid)")
    return result.game, check


# -- what each player has seen -------------------------------------------------------------


def remember(record, name, keys, text=None):
    """Keep ``record`` (or the record ``text`` it became) as what ``name`` has seen."""
    from ..records.schema import load_record_text
    from ..records.seen import game_ident, snapshot
    from ..errors import RecordError

    if name is None:
        return
    try:
        if text is not None:
            record = load_record_text(text, record.path)
        save_seen(keys_folder(keys), game_ident(record), name, snapshot(record))
    except (KeyFileError, RecordError) as exc:
        raise click.ClickException(f"cannot remember what {name} saw: {exc}") from None


def rack_text(game, deal, player):
    """``player``'s racks as their view knows them, a draw still to come marked ``+?``."""
    from ..pictures.text import rack_text as tiles

    parts = []
    for color in player.colors:
        if not game.playable(color) and not deal.racks[color]:
            parts.append(f"{color} done")
            continue
        if not game.playable(color):
            parts.append(f"{color} {tiles(deal.racks[color])} (cannot play)")
            continue
        waiting = deal.pending(color)
        parts.append(" ".join(filter(None, [color, tiles(deal.racks[color])] + ["+?"] * waiting)))
    return "; ".join(parts)


def to_move_text(game, check=None, viewer=None, record=None):
    """Whose turn it is in a game with hidden racks, with the viewer's racks when known."""
    player = game.to_move
    deal = None if check is None else check.deal
    lines = ["The game is over." if player is None else f"{player.name} to move."]
    if record is not None:
        lines = [_state_line(record, game)]
        if not record.hidden.joined() == [p.name for p in record.players]:
            return lines[0]
    if deal is None:
        if player is not None:
            lines.append("Racks are hidden (with --as NAME, a player sees their own).")
    else:
        me = next(p for p in game.players if p.name == viewer)
        lines.append(f"{me.name}'s rack: {rack_text(game, deal, me)}")
        if any(deal.pending(c) for c in me.colors):
            lines.append("(+? is drawn when the next player has moved.)")
    return "\n".join(lines)


def _state_line(record, game):
    """Who acts next in a hidden game: who joins, who moves, or who reveals (with the
    command)."""
    hidden = record.hidden
    shown = display_path(record.path)
    waiting = [p.name for p in record.players if p.name not in hidden.joined()]
    if waiting:
        return (f"Waiting for {', '.join(waiting)} to join; next:\n"
                f"  uptown join {shown} --as {waiting[0]}")
    if game.to_move is not None:
        return f"{game.to_move.name} to move."
    left = [n for n in hidden.joined() if n not in dict(hidden.revealed)]
    if left:
        return (f"The game is over. Still to reveal: {', '.join(left)}, each with\n"
                f"  uptown reveal {shown} --as NAME")
    return "The game is over; every key is revealed."


def position_data(game, check=None, viewer=None, record=None):
    """What ``show --json`` says of racks and bags in a game with hidden racks; a player's own
    view also has ``"to_come"``: per colour, the draws waiting for the next public value."""
    from ..engine.geometry import tile_name

    racks = to_come = None
    if check is not None:
        me = next(p for p in game.players if p.name == viewer)
        racks = {c: [tile_name(t) for t in sorted(check.deal.racks[c])] for c in me.colors}
        to_come = {c: check.deal.pending(c) for c in me.colors}
    bags = {c: max(0, TILES_PER_COLOR - RACK_SIZE - game.played_count(c)) for c in game.colors}
    data = {"racks": racks, "to_come": to_come, "bags": bags}
    if record is not None:
        hidden = record.hidden
        data["waiting_to_join"] = [p.name for p in record.players
                                   if p.name not in hidden.joined()]
        data["to_reveal"] = [n for n in hidden.joined() if n not in dict(hidden.revealed)]
        if data["waiting_to_join"]:
            data["to_move"] = None
    return data


class MoverView:
    """The player to move's view of a hidden game: ``game`` knows their racks (the others'
    drawn at random to fit the moves, as a bot's view), ``link(colour, move_text)`` is what
    they write with their move, and ``bot_seed`` seeds a bot from their secret key and the
    record (so nobody can replay the bot's choices from the public file). ``warning`` names
    the passes set aside because no deal fits them (None when every pass fits)."""

    def __init__(self, record, name, key, check, game, warning=None):
        self.record, self.name, self.key, self.check, self.game = record, name, key, check, game
        self.warning = warning
        self.bot_seed = hashlib.sha256(key + record.text.encode("utf-8")).hexdigest()

    def link(self, color, move_text):
        from ..records.hidden_fields import own_link

        turn = self.check.deal.turns[self.name] + 1
        return own_link(self.record, self.name, self.key, turn, color, move_text,
                        self.check.digest)


def mover_view(record, game, as_name, keys):
    """The ``MoverView`` of the player to move, who gives ``--as`` with their name."""
    from ..analysis.views import imagined_game

    player = game.to_move
    waiting = [p.name for p in record.players if p.name not in record.hidden.joined()]
    if waiting:
        raise click.ClickException(f"the game has not started: {', '.join(waiting)} must "
                                   "join first (uptown join)")
    if as_name is None:
        raise click.ClickException(f"{record.path} has hidden racks: run it with --as "
                                   f"{player.name} (your key file proves who you are)")
    name = player_name(record, as_name)
    if name != player.name:
        raise click.ClickException(f"it is {player.name}'s turn, not {name}'s")
    key = player_key(record, name, keys)
    _, check = own_view(record, name, key)
    deal = check.deal
    own_bags = {c: deal.drawn[c] + [t for t in range(TILES_PER_COLOR) if t not in deal.drawn[c]]
                for c in player.colors}
    view, suspects = imagined_game(game, player, own_bags, random.Random())
    return MoverView(record, name, key, check, view, suspect_warning(suspects))


def suspect_warning(suspects):
    """One line naming the passes (``Turn``) that no deal of the other racks fits, and whose
    they are; None when there are none. The mover's own moves do not depend on them."""
    if not suspects:
        return None
    owners = {}
    for turn in suspects:
        owners.setdefault(turn.player.name, []).append(str(turn.number))
    parts = [f"{name}'s pass at move {numbers[0]}" if len(numbers) == 1 else
             f"one of {name}'s passes (moves {', '.join(numbers)})"
             for name, numbers in owners.items()]
    verb = "looks" if len(parts) == 1 else "look"
    who = " and ".join(owners)
    return (f"Warning: {' and '.join(parts)} {verb} unforced; checked when {who} "
            f"reveal{'s' if len(owners) == 1 else ''}")


def drawn_text(turn):
    """What a move of a game with hidden racks draws, in a sentence."""
    if turn.move.is_pass:
        return f"{turn.player.name} had to pass."
    if turn.drawn is None:
        return f"{turn.color} draws nothing: its bag is empty."
    return (f"{turn.color} draws a tile once the next player has moved;\n"
            f"then uptown show --as {turn.player.name} shows it.")


# -- join and reveal -----------------------------------------------------------------------


def _hidden_record(path):
    record = read_record(path)
    if record.hidden is None:
        raise click.ClickException(f"{record.path} is not a game with hidden racks "
                                   "(uptown new --hidden makes one)")
    return record


def _append(path, list_name, name, value, record):
    from ..records.safe_file import append_entry

    return append_entry(path, list_name, name, value, record.text, lock_notice(path))


@click.command()
@file_argument
@as_option(required=True)
@keys_option
@json_option
def join(file, as_name, keys, as_json):
    """Join a game with hidden racks: make your secret key and commit to it.

    The key is new, kept in a file of your own (mode 0600, its path printed), never in FILE.
    Players join in turn order; the game starts when all have joined.
    """
    from ..records.hidden_fields import commitment_of

    path = game_path(file)
    record = _hidden_record(path)
    if record.hidden.version < LATEST:
        raise click.ClickException(
            f"{record.path} uses {PROTOCOLS[record.hidden.version - 1]}, in which a player "
            "can re-roll their starting rack; it can be played and checked, but not joined: "
            "start a new game (uptown new --hidden)")
    name = player_name(record, as_name)
    joined = record.hidden.joined()
    folder = keys_folder(keys)
    if name not in joined and _has_key(folder, record.hidden.game_id, name):
        raise click.ClickException(
            f"this game id was used before: you hold a key for it that {record.path} does not "
            "commit to; a key serves one game, so ask for a new game (uptown new --hidden); "
            "nothing was written")
    check_seen(record, name, keys)
    if name in joined and not _has_key(folder, record.hidden.game_id, name):
        raise click.ClickException(_not_your_commitment(record, name, folder))
    if name in joined:
        raise click.ClickException(f"{name} has already joined {record.path}")
    names = [p.name for p in record.players]
    if name != names[len(joined)]:
        raise click.ClickException(f"players join in turn order: {names[len(joined)]} joins "
                                   f"next, not {name}; nothing was written")
    game_id = record.hidden.game_id
    key, key_file = create_key(folder, game_id, name)
    try:
        text = _append(path, "commitments", name, commitment_of(record, name, key), record)
    except Exception:  # the commitment was not written: the key made for it is not kept
        remove_key(folder, game_id, name)
        raise
    remember(record, name, keys, text)
    following = names[len(joined) + 1] if len(joined) + 1 < len(names) else None
    if as_json:
        Output(True).json({"path": display_path(path), "player": name,
                           "key_file": display_path(key_file), "next_to_join": following,
                           "to_move": None if following else names[0]})
        return
    click.echo(f"{name} joined {record.path}.")
    click.echo(f"Your key (new): {display_path(key_file)}")
    click.echo("Keep it secret until the game is over: you need it to play and to reveal.")
    if following:
        click.echo(f"Next to join: uptown join {record.path} --as {following}")
    else:
        click.echo(f"Everyone has joined: {names[0]} to move.")


@click.command()
@file_argument
@as_option(required=True)
@keys_option
@json_option
def reveal(file, as_name, keys, as_json):
    """Publish your key once the game is over, so all can check your draws.

    When every key is revealed, uptown validate checks every draw and every tile played. The
    key file is then marked spent: it is never used again.
    """
    path = game_path(file)
    record = _hidden_record(path)
    name = check_seen(record, as_name, keys)
    game = replay_valid(record)
    if not game.finished:
        raise click.ClickException("the game is not over: a key is revealed only at the end "
                                   "(it shows every rack and draw of its player)")
    if name in dict(record.hidden.revealed):
        raise click.ClickException(f"{name} has already revealed their key in {record.path}")
    key = player_key(record, name, keys)
    own_view(record, name, key)
    text = _append(path, "revealed", name, key.hex(), record)
    mark_spent(keys_folder(keys), record.hidden.game_id, name)
    remember(record, name, keys, text)
    revealed = dict(record.hidden.revealed)
    left = [n for n in record.hidden.joined() if n != name and n not in revealed]
    if as_json:
        Output(True).json({"path": display_path(path), "player": name, "to_reveal": left})
        return
    click.echo(f"{name}'s key is revealed in {record.path}.")
    click.echo(f"Anyone can check the draws: uptown validate {record.path}")
    click.echo(f"Still to reveal: {', '.join(left)}." if left else "Every key is revealed.")


COMMANDS = {command.name: command for command in (join, reveal)}
