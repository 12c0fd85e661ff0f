"""What a player has seen of a game: a snapshot of the public record, and the first change.

Each player's tool keeps, beside their key, the public part of the record as they last saw it
(game id, protocol, variant, seed, players with their colours and e-mail addresses,
commitments, withdrawn joins, moves with their links, revealed keys). A file they run a
command on must *extend* it: the same entries, more of them at the end. The first entry that
differs is named with its line and whose entry it is, so that a rewritten move, a swapped
commitment, a redirected address or an older copy played differently is refused before
anything is written.

Two kinds of entry may change without being refused, because the record proves who made the
change: a join undone before the first move (``withdrawn`` holds the key of the commitment it
takes back: only whoever made that commitment holds it), and revealed keys, which are a set
that copies merge: a key seen is only remembered when it gives its player's commitment, a key
missing from a copy is not a change (another copy holds it), and a key that no longer gives
the commitment is refused as an entry its player did not write. This module knows records,
not files or terminals.
"""

from __future__ import annotations

import copy
import json
import os
import re
from typing import Any

from ..engine.geometry import shown_color
from ..engine.notation import parse_move
from ..engine.sha256 import sha256
from ..errors import KeyFileError, NotationError
from ..i18n import N_, _
from ..records.hidden_fields import PROTOCOLS
from ..records.nodes import Mapping, Sequence
from ..records.entries import PauseEntry
from ..records.schema import Record
from .joins import counted_reveals, key_gives, valid_reveals, withdraws
from .keys import check_folder, key_path, make_folder, read_private, write_private
from .signatures import entry_words, in_order

__all__ = ["game_ident", "snapshot", "judged_part", "first_change", "first_changed_move", "signed_snapshot",
           "missing_entry",
           "load_seen", "verified_names", "save_seen"]


def game_ident(record: Record, opening: bool = False) -> str:
    """The name a game's memory is kept under: its game id (``hidden:`` or ``game:``: every
    game ``new`` makes has its own, so a rematch with the same players and seed is another
    game), else, for a record made without one, a digest of its seed, variant and players and,
    once it is played, of its first move as the rules read it (so that every copy of a game,
    under any file name, is the same one). ``opening``: the name without the first move, under which a game's memory is
    kept before it (and read, for a game whose first move is new to the player)."""
    if record.game_id is not None:  # every game new makes has its own
        return record.game_id
    lineup: list[Any] = [record.seed, record.variant,
                         [[p.name, list(p.colors)] for p in record.players]]
    if record.moves and not opening:
        lineup.append(_as_played(record.moves[0].color, record.moves[0].text))
    text = json.dumps(lineup, ensure_ascii=False)
    return "open-" + sha256(text.encode("utf-8")).hexdigest()[:32]


def snapshot(record: Record, seen: dict[str, Any] | None = None,
             now: str | None = None) -> dict[str, Any]:
    """The public part of ``record``, as JSON-ready data. With ``seen`` (what was remembered
    before, which ``record`` extends), the revealed keys remembered are both's valid ones.
    The time control and the moves' stamps are kept too (``timing``, ``stamps``), and when
    each move was first seen (``first_seen``: the earlier memory's, else ``now``). Of a game
    under a club judge, what the judge has stamped (``judged_part``)."""
    record = judged_part(record)
    hidden, joins = record.hidden, record.joins
    revealed = [] if hidden is None else [list(r) for r in valid_reveals(hidden).items()]
    if hidden is not None and seen is not None:
        revealed += [list(r) for r in _seen_reveals(seen, record) if r[0] not in dict(revealed)]
    return {
        "game": record.game_id,
        "protocol": None if joins is None else joins.version,
        "variant": record.variant,
        "seed": record.seed,
        "players": [[p.name, list(p.colors)] for p in record.players],
        "addresses": [[p.name, p.email] for p in record.players],
        "commitments": [] if joins is None else [list(c) for c in joins.commitments],
        "withdrawn": [] if joins is None else [list(w) for w in joins.withdrawn],
        "moves": [[m.color, m.text, m.link] for m in record.moves],
        "revealed": revealed,
        "signed": signed_snapshot(record),
        **_timing_snapshot(record, seen, now),
    }


def judged_part(record: Record) -> Record:
    """``record`` as its club judge holds it, when it has one: without the entries among the
    moves the judge has not stamped (a player's own, on their way to the judge, whose copy may
    come back without them: the judge's copy is the game). Any other record as it is."""
    if record.joins is None or record.joins.judge is None:
        return record
    stamped = next((i for i, m in enumerate(record.moves) if m.stamp is None), len(record.moves))
    if stamped == len(record.moves) and all(p.stamp for p in record.pauses):
        return record
    part = copy.copy(record)
    part.moves = record.moves[:stamped]
    part.pauses = [p for p in record.pauses if p.stamp is not None and p.after <= stamped]
    part.replayed, part.checked = {}, {}
    return part


def signed_snapshot(record: Record) -> list[list[Any]]:
    """What a memory keeps of each signed entry of ``record`` (protocol 5) but its revealed
    keys (a set that copies merge): ``[kind, whose, writer, signature, number, colour,
    days]``, in the order of the history (``kind``: ``join``, ``move``, ``pause``,
    ``withdrawn``, then ``dispute`` or ``settled``; ``number``: a move's, the moves before a
    pause, or the move disputed)."""
    fields = record.joins
    if fields is None or not fields.signed:
        return []
    kept: list[list[Any]] = [
        ["join", name, name, signature.sig, None, None, None]
        for (name, _), signature in zip(fields.commitments, fields.signatures["commitments"])]
    owners = record.owners
    for index, entry in in_order(record):
        owner = owners.get(entry.color, "?")
        if isinstance(entry, PauseEntry):
            kept.append(["pause", owner, owner, entry.sig, index, entry.color, entry.days])
        else:
            kept.append(["move", owner, entry.by or owner, entry.sig, index + 1, entry.color,
                         None])
    kept += [["withdrawn", name, name, signature.sig, None, None, None]
             for (name, _), signature in zip(fields.withdrawn, fields.signatures["withdrawn"])]
    kept += [["settled" if d.settled else "dispute", d.name, d.name, d.sig, d.number, None, None]
             for d in record.disputes]
    return kept


def missing_entry(signed: list[list[Any]], record: Record,
                  viewer: str | None) -> tuple[int, str] | None:
    """``(line, message)`` for the first signed entry of ``signed`` (``_signed_snapshot``: what
    a player saw, or the entries of their own copy) that ``record`` lacks, naming it and who
    signed it; when it is ``viewer``'s own, the message says so. None when ``record`` holds
    them all, or when it only ends before one (an older copy: ``first_change`` says so). Only a
    vacation, or a move replaced by another player's entry or past the copy's last, counts
    here: a move changed in its place and a join taken out are ``first_change``'s to tell, and
    a dispute the copy lacks is merged back into it (``copies.hidden_progress``)."""
    snapshot = signed_snapshot(record)
    held = {entry[3] for entry in snapshot}
    seen = {entry[3] for entry in signed}
    for kind, whose, writer, sig, number, color, days in signed:
        if sig is None or sig in held or kind not in ("move", "pause") or (
                kind == "move" and _changed_in_place(record, number, writer)):
            continue  # a move changed in its place, a join withdrawn: first_change tells them
        # (a dispute is signed over the move it disputes, not over the history: no evidence)
        newer = [entry for entry in snapshot
                 if entry[3] not in seen and entry[0] not in ("dispute", "settled")]
        if not newer:
            return None  # an older copy: first_change says so as for any game
        what = entry_words(kind, whose, writer, number, color, days)
        line = _key_line(record, "moves")
        first = newer[0]
        after = entry_words(first[0], first[1], first[2], first[4], first[5], first[6])
        if writer == viewer:
            return line, _("{what}, signed by {writer}, is missing from this copy: it was "
                           "removed after {writer} wrote it ({after} is signed over a history "
                           "without it); {writer}'s copy stays as it was").format(
                what=what, writer=writer, after=after)
        return line, _("{what}, signed by {writer}, is missing from this copy: it was removed "
                       "({after} is signed over a history without it)").format(
            what=what, writer=writer, after=after)
    return None


def _changed_in_place(record: Record, number: int, writer: str) -> bool:
    """Whether move ``number`` of ``record`` stands where a move by ``writer`` stood: the same
    writer's entry, changed (``first_change`` names the change, the signatures who made it),
    rather than another player's entry in its place."""
    if number > len(record.moves):
        return False
    there = record.moves[number - 1]
    return (there.by or record.owners.get(there.color)) == writer


def _timing_snapshot(record: Record, seen: dict[str, Any] | None,
                     now: str | None) -> dict[str, Any]:
    """The time keys of a snapshot (docs/DEADLINES.md): the clock's keys as written, each
    move's ``[at, by, bot]``, and when this tool first saw each move."""
    earlier = list((seen or {}).get("first_seen", []))
    first_seen = earlier[:len(record.moves)]
    first_seen += [now] * (len(record.moves) - len(first_seen))
    return {"timing": dict(record.timing.written) if record.timing is not None else {},
            "stamps": [[m.at, m.by, m.bot] for m in record.moves],
            "first_seen": first_seen}


def first_change(seen: dict[str, Any], record: Record, viewer: str,
                 rewrites_own_key: bool = False) -> tuple[int, str] | None:
    """``(line, message)`` for the first entry of what ``viewer`` saw (``seen``, a snapshot)
    that ``record`` does not hold as it was; None when ``record`` extends it.
    ``rewrites_own_key``: the command writes the viewer's own revealed key, so whatever entry
    stands there now is not a change (``reveal``)."""
    now = snapshot(record)
    since = _("since {name} saw it").format(name=viewer)
    for key in ("game", "protocol", "variant", "seed"):
        if seen.get(key) != now[key]:
            was, new = (_protocol(seen.get(key)), _protocol(now[key])) if key == "protocol" \
                else (seen.get(key), now[key])
            return (_key_line(record, key), _(
                "{what} changed {since} (was {was!r}, now {now!r}): the file was edited by "
                "hand").format(what=_(_WORDS[key]), since=since, was=was, now=new))
    return (_timing_change(seen, record, since)
            or _player_change(seen, record, since) or _address_change(seen, record, since)
            or _commitment_change(seen, record, since)
            or _list_change(seen, record, since, "withdrawn")
            or _late_withdrawal(seen, record, since)
            or missing_entry(seen.get("signed", []), record, viewer)
            or _list_change(seen, record, since, "moves")
            or _reveal_change(seen, record, since, viewer if rewrites_own_key else None)
            or _stamp_change(seen, record, since))


def _timing_change(seen: dict[str, Any], record: Record, since: str) -> tuple[int, str] | None:
    """The clock, late policy, vacation or start changed (a memory kept before times were
    remembered has none to compare)."""
    if "timing" not in seen:
        return None
    was, now = seen["timing"], dict(record.timing.written) if record.timing is not None else {}
    for key in ("clock", "late", "vacation", "started"):
        if was.get(key) != now.get(key):
            line = record.timing.lines.get(key, 1) if record.timing is not None else 1
            return (line, _(
                "{what} changed {since} (was {was!r}, now {now!r}): the file was edited by "
                "hand").format(what=_(_TIME_WORDS[key]), since=since,
                               was=was.get(key) or "none", now=now.get(key) or "none"))
    return None


def _stamp_change(seen: dict[str, Any], record: Record, since: str) -> tuple[int, str] | None:
    """A move whose time (or who wrote it) changed since it was seen."""
    for index, (was, move) in enumerate(zip(seen.get("stamps", []), record.moves)):
        if was != [move.at, move.by, move.bot]:
            return (move.line, _(
                "move {number}'s time changed {since} (was {was}, now {now}): the file was "
                "edited by hand").format(number=index + 1, since=since, was=was[0] or "none",
                                         now=move.at or "none"))
    return None


def _as_played(color: str, text: str) -> list[str]:
    """A move as the rules read it (colour, tile, square; ``pass``), or as written when it
    cannot be read: the same for ``7 b7`` and ``7 B7``."""
    try:
        move = parse_move(text)
    except NotationError:
        return [color, text.strip()]
    return [color, "pass"] if move.is_pass else [color, str(move.tile), str(move.square)]


def _protocol(version: object) -> object:
    """A protocol version as the record names it (``uptown-hidden-2``), or as it is."""
    if isinstance(version, int) and 1 <= version <= len(PROTOCOLS):
        return PROTOCOLS[version - 1]
    return version


def first_changed_move(seen: dict[str, Any], record: Record) -> int | None:
    """The number of the first move ``seen`` holds that ``record`` holds otherwise (its text,
    colour or link; not a move gone), when it is the first change of all; else None."""
    change = first_change(seen, record, "")
    moves = snapshot(record)["moves"]
    for index, was in enumerate(seen.get("moves", [])):
        if index >= len(moves):
            return None
        if was != moves[index]:
            ok = change is not None and change[0] == record.moves[index].line
            return index + 1 if ok else None
    return None


def _player_change(seen: dict[str, Any], record: Record, since: str) -> tuple[int, str] | None:
    """A player renamed, their colours changed, a player added or gone."""
    was_players, players = seen["players"], record.players
    for index, ((was, colors), player) in enumerate(zip(was_players, players)):
        if was != player.name:
            return (player.line, _(
                "player {number} ({was}) changed {since}: now {name}: the players were edited "
                "by hand").format(number=index + 1, was=was, since=since, name=player.name))
        if colors != list(player.colors):
            return (player.line, _(
                "{name}'s colours changed {since} (were {was}, now {now}): the players were "
                "edited by hand").format(name=was, since=since,
                                         was=" ".join(map(shown_color, colors)),
                                         now=" ".join(map(shown_color, player.colors))))
    if len(players) > len(was_players):
        added = players[len(was_players)]
        return (added.line, _(
            "player {number} ({name}) was added {since}: the players were edited by "
            "hand").format(number=len(was_players) + 1, name=added.name, since=since))
    if len(players) < len(was_players):
        gone = was_players[len(players)][0]
        return (_key_line(record, "players"), _(
            "player {number} ({name}) is gone {since}: the players were edited by "
            "hand").format(number=len(players) + 1, name=gone, since=since))
    return None


def _address_change(seen: dict[str, Any], record: Record, since: str) -> tuple[int, str] | None:
    """A player whose e-mail address changed (a memory kept before addresses were remembered
    has none to compare)."""
    for index, ((name, was), player) in enumerate(zip(seen.get("addresses", []), record.players)):
        if was != player.email:
            return (email_line(record, index), _(
                "{name}'s e-mail address changed {since} (was {was}, now {now}): mail for "
                "{name} would go elsewhere; the address was edited by hand").format(
                name=name, since=since, was=was or "none", now=player.email or "none"))
    return None


def _commitment_change(seen: dict[str, Any], record: Record,
                       since: str) -> tuple[int, str] | None:
    """A commitment changed or gone, unless a join undone before the first move accounts for
    it (a ``withdrawn`` key gives the commitment seen)."""
    joins = record.joins
    now = [] if joins is None else list(joins.commitments)
    earlier: list[str] = []
    for index, (name, was) in enumerate(seen["commitments"]):
        same = index < len(now) and now[index][1] == was
        if not same and not (joins is not None and not seen["moves"]
                             and withdraws(joins, name, was, earlier)):
            line = _line_of(record, "commitments", index)
            if index >= len(now):
                return (line, _("{name}'s commitment is gone {since}: this is an older copy, "
                                "or entries were removed").format(name=name, since=since))
            return (line, _("{name}'s commitment changed {since}").format(name=name,
                                                                          since=since))
        earlier.append(was)
    return None


def _list_change(seen: dict[str, Any], record: Record, since: str,
                 list_name: str) -> tuple[int, str] | None:
    """The first entry of ``list_name`` (``moves`` or ``withdrawn``) seen that ``record`` does
    not hold as it was."""
    owner = record.owners
    new = snapshot(record)[list_name]
    for index, was in enumerate(seen.get(list_name, [])):
        line = _line_of(record, list_name, index)
        what = _entry(list_name, index, was, owner)
        if index >= len(new):
            return (line, _("{what} is gone {since}: this is an older copy, or entries were "
                            "removed").format(what=what, since=since))
        if was != new[index]:
            if list_name == "moves" and was[:2] != new[index][:2]:
                current = new[index][1] if was[0] == new[index][0] else " ".join(new[index][:2])
                changed = _("{what} changed {since}: was {was!r}, now {now!r}").format(
                    what=what, since=since, was=was[1], now=current)
            elif list_name == "moves":
                changed = _("{what} changed {since} (its link)").format(what=what, since=since)
            else:
                changed = _("{what} changed {since}").format(what=what, since=since)
            return (line, changed)
    return None


def _late_withdrawal(seen: dict[str, Any], record: Record,
                     since: str) -> tuple[int, str] | None:
    """A ``withdrawn`` entry added once a move was seen: a join is undone only before the first
    move (``join --undo`` refuses later), so whoever sent the file wrote it by hand. A memory
    kept before withdrawn joins were remembered has none to compare."""
    joins = record.joins
    if (joins is None or "withdrawn" not in seen or not seen["moves"]
            or len(joins.withdrawn) <= len(seen["withdrawn"])):
        return None
    index = len(seen["withdrawn"])
    name = joins.withdrawn[index][0]
    return (_line_of(record, "withdrawn", index), _(
        "{name}'s withdrawn join was added {since}, after the first move: a join cannot be undone "
        "then (uptown join --undo refuses), so whoever held the file since wrote it by "
        "hand").format(name=name, since=since))


def _reveal_change(seen: dict[str, Any], record: Record, since: str,
                   rewriter: str | None) -> tuple[int, str] | None:
    """A revealed key seen (one that gives its player's commitment) whose entry now holds
    another key, which cannot be that player's. A key missing is no change: copies merge."""
    hidden = record.hidden
    now = {} if hidden is None else counted_reveals(hidden)
    for name, key in _seen_reveals(seen, record):
        if name in now and now[name] != key and name != rewriter:
            return (_line_of(record, "revealed", name), _(
                "the key revealed for {name} changed {since}: it no longer gives {name}'s "
                "commitment, so the entry was not written by {name} (uptown reveal --as {name} "
                "writes the key again)").format(name=name, since=since))
    return None


def _seen_reveals(seen: dict[str, Any], record: Record) -> list[tuple[str, str]]:
    """The revealed keys remembered that give their player's commitment in ``record`` (a
    memory kept by an older uptown may hold others)."""
    hidden = record.hidden
    if hidden is None:
        return []
    return [(name, key) for name, key in seen["revealed"]
            if key_gives(hidden, name, bytes.fromhex(key))]


_WORDS = {"game": N_("the game id"), "protocol": N_("the protocol"),
          "variant": N_("the variant"), "seed": N_("the seed")}
"""The keys compared first, as messages name them."""
_TIME_WORDS = {"clock": N_("the clock"), "late": N_("the late policy"),
               "vacation": N_("the vacation"), "started": N_("the start")}
"""The time keys, as messages name them."""


def _entry(list_name: str, index: int, was: list[Any], owner: dict[str, str]) -> str:
    """Names an entry and whose it is: ``move 3 (Bo's blue)``, ``Cy's withdrawn join``."""
    if list_name == "moves":
        whose = owner.get(was[0], "?")
        return entry_words("move", whose, whose, index + 1, was[0])
    return entry_words("withdrawn", was[0], was[0])


def _line_of(record: Record, list_name: str, index: int | str) -> int:
    """The line of entry ``index`` (a number, or for ``revealed`` a player's name) of
    ``list_name`` in ``record`` (its list's line past the end)."""
    if isinstance(index, str):
        assert record.hidden is not None  # a revealed key: a game with hidden racks
        return record.hidden.lines.get((list_name, index), _key_line(record, list_name))
    if list_name == "moves":
        return record.moves[index].line if index < len(record.moves) else _key_line(record, "moves")
    pair = record.parsed().get(list_name)
    if pair is not None and isinstance(pair[1], Sequence) and index < len(pair[1].items):
        return pair[1].items[index].line
    return _key_line(record, list_name)


def email_line(record: Record, index: int) -> int:
    """The line of player ``index``'s ``email:`` (their entry's line when it has none)."""
    pair = record.parsed().get("players")
    if pair is not None and isinstance(pair[1], Sequence) and index < len(pair[1].items):
        item = pair[1].items[index]
        email = item.get("email") if isinstance(item, Mapping) else None
        if email is not None:
            return email[0].line
    return record.players[index].line


def _key_line(record: Record, key: str) -> int:
    """The line of top-level ``key:`` in ``record``; when it is not there, of the list it
    belongs with (``commitments`` for ``withdrawn``), else 1."""
    root = record.parsed()
    if key == "game":  # a game with hidden racks has its id under hidden:
        pair = root.get("hidden") or root.get("game")
    else:
        pair = root.get(key) or (root.get("commitments") if key == "withdrawn" else None)
    return pair[0].line if pair is not None else 1


# -- memory files, beside the keys ----------------------------------------------------------


def seen_path(folder: str, game: str, name: str) -> str:
    """Where the memory of what ``name`` last saw of game ``game`` lives."""
    return key_path(folder, game, name)[:-len(".key")] + ".seen"


def load_seen(folder: str, game: str, name: str) -> dict[str, Any] | None:
    """What ``name`` last saw of game ``game`` (a snapshot, see ``fairplay.memory``), or None."""
    check_folder(folder)
    path = seen_path(folder, game, name)
    if not os.path.lexists(path):
        return None
    data = read_private(path, path)
    if not all(isinstance(entries := data.get(key, [] if key in _SEEN_LATER else None), list)
               and all(isinstance(entry, list) and len(entry) == size
                       and isinstance(entry[0], str) for entry in entries)
               for key, size in _SEEN_ENTRIES.items()) or not all(
                   isinstance(entry[1], str) and re.fullmatch("[0-9a-f]{64}", entry[1])
                   for key in _SEEN_HEX for entry in data.get(key, [])) or not (
                       isinstance(verified := data.get("verified", []), list) and all(
                           isinstance(done, str) and re.fullmatch("[0-9a-f]{64}", done)
                           for done in verified)):
        raise KeyFileError(_("{path} is not an uptown memory file (it was damaged or edited): move "
                             "it away to start remembering afresh").format(path=path))
    return data


_SEEN_ENTRIES = {"players": 2, "addresses": 2, "commitments": 2, "withdrawn": 2, "moves": 3,
                 "revealed": 2, "signed": 7}
"""The lists of a memory file, and how many fields each entry of them has."""
_SEEN_HEX = ("commitments", "withdrawn", "revealed")
"""The lists whose entries are ``[name, 64 hex digits]``."""
_SEEN_LATER = ("addresses", "withdrawn", "signed")
"""The lists a memory file kept by an older uptown lacks (nothing to compare yet)."""


def verified_names(seen: dict[str, Any] | None) -> frozenset[str]:
    """The signatures a memory (``load_seen``, None: none kept) names as verified by its
    player's tool (``fairplay.signatures.verification``)."""
    return frozenset(seen.get("verified", [])) if seen else frozenset()


def save_seen(folder: str, game: str, name: str, snapshot: dict[str, Any]) -> None:
    """Remember ``snapshot`` as what ``name`` last saw of game ``game``."""
    make_folder(folder)
    write_private(folder, seen_path(folder, game, name), snapshot, replace=True, sync=False)
