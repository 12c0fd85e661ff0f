"""A record's text written and edited: a new record (``render_record``), and one entry
added, written over or taken out without touching the rest of the file: a move or a pause among
the moves (``record_with_move``, ``record_with_pause``), the last moves taken back
(``record_without_last_moves``), a join, a withdrawn join or a revealed
key (``record_with_entry``, ``record_without_entry``), a club judge's stamps and rulings
(``record_with_stamps``, ``record_with_void``), a review's annotations under the moves
(``annotated_text``). Every edit is read back and must be the record it was with exactly that
change (``_read_back``); a RecordError says what was wrong, and nothing is written.

``records.safe_file`` puts the new text on disk."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..engine.players import Player
from ..errors import RecordError, SetupError
from ..i18n import _ as gettext
from .annotations import WRITTEN_MARK
from .entries import STAMP_KEYS, MoveEntry, PauseEntry, PlayerEntry, pause_text
from .hidden_fields import LATEST, OPEN_PROTOCOL, PROTOCOLS, Signature
from .nodes import Free, Mapping, Node, Scalar
from .nodes import Sequence as SequenceNode
from .schema import TEXT_FIELDS, Record, load_record_text
from .yaml_reader import MAX_BYTES
from .yaml_writer import quote

if TYPE_CHECKING:  # loaded by the review that annotates
    from .annotations import MoveAnnotation

__all__ = ["render_record", "record_with_move", "record_with_pause", "record_with_entry",
           "record_without_entry", "record_without_last_moves", "record_with_stamps",
           "record_with_void", "record_with_language", "record_with_dispute", "annotated_text", "entry_lines", "check_utf8"]

_ODD_BREAKS = ("\x85", "\u2028", "\u2029")


def render_record(players: Iterable[Player | PlayerEntry], *, variant: str = "standard",
                  seed: str | None = None, fields: dict[str, str] | None = None,
                  moves: Iterable[tuple[str, str]] = (), hidden: str | None = None,
                  timing: dict[str, str] | None = None, game_id: str | None = None,
                  signed: bool = False, extras: dict[str, dict[str, str]] | None = None,
                  judge: tuple[str, str] | None = None) -> str:
    """The text of a record: ``players`` are objects with ``name``, ``colors`` and
    optionally ``email`` and ``lang`` (in turn order), ``fields`` the optional texts (event, site, date,
    round, notes), ``moves`` (colour, move text) pairs; ``hidden``, a game id in hex, makes it
    a game with hidden racks under the latest protocol, no one joined yet; otherwise
    ``game_id`` (hex) is the game's id, and ``signed`` makes it an open game signed by its
    players (who join it); ``timing`` the keys of a clock (``clock``, ``late``, ``vacation``,
    ``started``: ``records.times``); ``extras`` ``x-`` keys, each a mapping of texts
    (``x-bots: {Bo: horizon}``); ``judge`` the address and public key of the club judge a
    game whose entries are signed is under (docs/JUDGE.md). Block style, ``moves`` last.  The text is read back and
    checked; a RecordError says what was wrong with the input."""
    fields = fields or {}
    unknown = set(fields) - set(TEXT_FIELDS)
    if unknown:
        raise SetupError(gettext("unknown record fields: {unknown}")
                         .format(unknown=', '.join(sorted(unknown))))
    players = list(players)
    moves = [(color, text) for color, text in moves]
    for label, value in ([("name", p.name) for p in players] + [("seed", seed or "")]
                         + [(name, fields[name]) for name in fields]):
        check_utf8(label, value)
    lines = ["uptown: 1", f"variant: {quote(variant)}"]
    lines += [f"{name}: {quote(fields[name])}" for name in TEXT_FIELDS if name in fields]
    lines.append("players:")
    for player in players:
        lines.append(f"  - name: {quote(player.name)}")
        lines.append(f"    colors: [{', '.join(quote(c, flow=True) for c in player.colors)}]")
        if getattr(player, "email", None):
            lines.append(f"    email: {quote(player.email)}")  # type: ignore[union-attr, arg-type]
        if getattr(player, "lang", None):
            lines.append(f"    lang: {quote(player.lang)}")  # type: ignore[union-attr, arg-type]
    if seed is not None:
        lines.append(f"seed: {quote(seed)}")
    if hidden is not None:
        lines += [f"hidden: {hidden}", f"protocol: {PROTOCOLS[LATEST - 1]}", "commitments:"]
    elif game_id is not None:
        lines.append(f"game: {game_id}")
        lines += [f"protocol: {OPEN_PROTOCOL}", "commitments:"] if signed else []
    if judge is not None:
        lines += ["judge:", f"  email: {quote(judge[0])}", f"  key: {judge[1]}"]
    lines += [f"{key}: {quote(value)}" for key, value in (timing or {}).items()]
    for key, mapping in (extras or {}).items():
        lines.append(f"{quote(key)}:")
        lines += [f"  {quote(name)}: {quote(value)}" for name, value in mapping.items()]
    lines.append("moves:")
    lines += [f"  - {quote(color)}: {quote(text)}" for color, text in moves]
    text = "\n".join(lines) + "\n"
    record = load_record_text(text, "<new record>")
    wanted = ([(p.name, tuple(p.colors)) for p in players], variant, seed, fields, moves)
    card = record.joins.judge if record.joins is not None else None
    if (summary(record) != wanted or record.game_id != (hidden or game_id)
            or record.extras != (extras or {}) or (card and card[:2]) != judge
            or (record.timing.written if record.timing else {}) != (timing or {})):
        raise RecordError(gettext("the record would not read back as written"))
    return text


def check_utf8(label: str, value: str) -> None:
    """Refuse text that no UTF-8 file can hold: bytes that were not UTF-8 on the command line
    (kept by Python as lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        shown = value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise RecordError(gettext("the {label} '{shown}' is not UTF-8 text")
                          .format(label=label, shown=shown)) from None


def summary(record: Record) -> tuple[object, ...]:
    return ([(p.name, p.colors) for p in record.players], record.variant, record.seed,
            record.fields, [(m.color, m.text) for m in record.moves])


def record_with_move(old: str | Record, color: str, move_text: str, path: str = "<record>",
                     link: str | None = None, stamp: dict[str, str] | None = None,
                     sig: str | None = None) -> Record:
    """The record ``old`` (a Record, or a record's text) with the move (and its ``link``, for
    hidden racks) appended among its moves.  A Record is edited at the place its parsed tree
    gives, without parsing its text again; the new text is read back, and must be the same
    record with exactly this one move more. ``stamp`` holds ``at`` (and ``by``, ``bot``),
    written under the move before its link; ``sig`` its writer's signature, last."""
    old = readable(old, path)
    stamp = stamp or {}
    what = f"{color}: {move_text}"
    new = insert_item(old, "moves", entry_lines(color, move_text, stamp, link, sig), path, what)
    added = MoveEntry(color, move_text, 0, link, None, stamp.get("at"), stamp.get("by"),
                      stamp.get("bot"), sig)
    return _read_back(old, new, gettext(
        "appending {what} to {path} would not read back as that one move more").format(
        what=what, path=path), lambda record: (
            record.joins == old.joins and _unplaced(record.pauses) == _unplaced(old.pauses)
            and _unplaced(record.moves) == _unplaced(old.moves) + [added]))


def record_with_pause(old: str | Record, color: str, days: int, path: str = "<record>",
                      stamp: dict[str, str] | None = None, sig: str | None = None) -> Record:
    """The record ``old`` with a pause of ``days`` for the player of ``color`` appended among
    its moves (``- blue: pause 3d``), written as ``record_with_move`` writes a move: ``stamp``
    holds ``at`` (and ``from``, for a pause booked ahead), ``sig`` its player's signature. The
    new text is read back, and must be the same record with exactly this one pause more."""
    old = readable(old, path)
    stamp = stamp or {}
    what = f"{color}: {pause_text(days)}"
    new = insert_item(old, "moves", entry_lines(color, pause_text(days), stamp, sig=sig), path,
                      what)
    added = PauseEntry(len(old.moves), color, days, stamp.get("at"), stamp.get("from"), 0, sig)
    return _read_back(old, new, gettext(
        "appending {what} to {path} would not read back as that one pause more").format(
        what=what, path=path), lambda record: (
            record.joins == old.joins and _unplaced(record.moves) == _unplaced(old.moves)
            and _unplaced(record.pauses) == _unplaced(old.pauses) + [added]))


def record_with_entry(old: str | Record, list_name: str, name: str, value: str,
                      path: str = "<record>", signature: Signature = Signature()) -> Record:
    """The record ``old`` (a Record, or a record's text) with ``- NAME: VALUE`` in the
    hidden-racks list ``list_name`` (and under it the ``key:`` and ``sig:`` of ``signature``,
    protocol 5): written over ``name``'s entry when the list has one (not in ``withdrawn``),
    else appended; checked by reading it back as that one entry changed or added."""
    old = readable(old, path)
    what = gettext("{name}'s {list} entry").format(name=name, list=list_name)
    item = _list_item(old, list_name, name) if list_name != "withdrawn" else None
    lines = [f"{quote(name)}: {quote(value)}"] + [
        f"{key}: {quote(written)}" for key, written in signature._asdict().items() if written]
    if item is None:
        new = insert_item(old, list_name, lines, path, what)
    elif len(lines) == 1 and len(item.pairs) == 1:
        scalar = item.pairs[0][1]
        new = old.text[:scalar.start] + quote(value, flow=item.flow) + old.text[scalar.end:]
    else:  # the whole entry written anew, in its place
        text = old.text
        start = text.rfind("\n", 0, item.start) + 1
        dash = text[start:item.start]
        new = (text[:start] + "".join(f"{dash if i == 0 else ' ' * len(dash)}{line}\n"
                                      for i, line in enumerate(lines))
               + text[end_of_lines(text, item):])
    expected = (None if old.joins is None
                else old.joins.with_entry(list_name, name, value, signature))
    return _read_back(old, new, gettext(
        "writing {what} to {path} would not read back as that one entry changed").format(
        what=what, path=path), lambda record: _same_moves(record, old) and expected is not None
        and record.joins == expected)


def record_without_entry(old: Record, list_name: str, name: str) -> Record:
    """The record ``old`` without ``name``'s entry in the hidden-racks list ``list_name`` (its
    lines, comments on them too), checked by reading it back as that one entry less."""
    what = gettext("{name}'s {list} entry").format(name=name, list=list_name)
    item = _list_item(old, list_name, name)
    if item is None or item.flow:
        raise RecordError(gettext("{path}: {what} is not on a line of its own; nothing was "
                                  "written").format(path=old.path, what=what))
    text = old.text
    start = text.rfind("\n", 0, item.start) + 1
    new = text[:start] + text[end_of_lines(text, item):]
    expected = None if old.joins is None else old.joins.without_entry(list_name, name)
    return _read_back(old, new, gettext(
        "removing {what} from {path} would not read back as that one entry changed").format(
        what=what, path=old.path), lambda record: _same_moves(record, old)
        and expected is not None and record.joins == expected)


def record_without_last_moves(old: Record, count: int) -> Record:
    """The record ``old`` without its last ``count`` moves (their lines, the comments on them
    too): a game against bots taken back. Refused (RecordError, nothing written) when a pause
    is among them, or the moves are not written one a line; checked by reading it back as
    ``old`` with exactly those moves less."""
    pair = old.parsed().get("moves")
    listed = pair[1] if pair is not None and isinstance(pair[1], SequenceNode) else None
    items = listed.items if listed is not None else []
    kept = len(old.moves) - count
    if not 0 <= kept < len(old.moves) or any(p.after > kept for p in old.pauses):
        raise RecordError(gettext("{path}: there are not {count} moves to take back, without a "
                                  "pause among them; nothing was written").format(
            path=old.path, count=count))
    first = items[len(items) - count]
    if listed is None or listed.flow or any(
            isinstance(item, Mapping) and item.flow for item in items[-count:]):
        raise RecordError(gettext("{path}: the moves are written in flow style ([...] or {{...}}); "
                                  "nothing was written").format(path=old.path))
    text = old.text
    start = text.rfind("\n", 0, first.start) + 1
    new = text[:start] + text[end_of_lines(text, items[-1]):]
    return _read_back(old, new, gettext(
        "taking back the last {count} moves of {path} would not read back as those moves less"
    ).format(count=count, path=old.path), lambda record: (
        record.joins == old.joins and _unplaced(record.pauses) == _unplaced(old.pauses)
        and _unplaced(record.moves) == _unplaced(old.moves[:-count])))


def record_with_stamps(old: Record, stamps: dict[int, tuple[str, str]]) -> Record:
    """The record ``old`` of a game under a club judge with the judge's ``judged:`` and
    ``stamp:`` added under each entry whose line is a key of ``stamps`` (when the judge
    received it, and its signature: ``(judged, stamp)``), among the moves or in the lists of
    joins and keys; checked by reading it back as ``old`` with those stamps and nothing else
    changed."""
    text, root = old.text, old.parsed()
    edits: list[tuple[int, str]] = []
    for key in ("commitments", "withdrawn", "revealed", "moves"):
        pair = root.get(key)
        items = pair[1].items if pair is not None and isinstance(pair[1], SequenceNode) else []
        for item in items:
            if isinstance(item, Mapping) and not item.flow and item.line in stamps:
                judged, stamp = stamps[item.line]
                edits.append(_under(text, item, [f"judged: {quote(judged)}",
                                                 f"stamp: {stamp}"]))
    if len(edits) != len(stamps):
        raise RecordError(gettext("{path}: an entry to stamp is not a block entry of its own; "
                                  "nothing was written").format(path=old.path))
    new = text
    for at, lines in sorted(edits, reverse=True):
        new = new[:at] + lines + new[at:]
    return _read_back(old, new, gettext(
        "stamping {path} would not read back as the same game with the judge's stamps").format(
        path=old.path), lambda record: _stamped_as(record, old, stamps))


def _stamped_as(record: Record, old: Record, stamps: dict[int, tuple[str, str]]) -> bool:
    """Whether ``record`` is ``old`` with the judge's stamps of ``stamps`` (by the line of
    each entry in ``old``) and nothing else changed."""
    def expected(entry: Any) -> Any:
        judged, stamp = stamps.get(entry.line, (entry.judged, entry.stamp))
        return entry._replace(line=0, judged=judged, stamp=stamp)

    return ([m._replace(line=0) for m in record.moves] == [expected(m) for m in old.moves]
            and [p._replace(line=0) for p in record.pauses] == [expected(p) for p in old.pauses]
            and _stamped_fields(record) == _stamped_fields(old, stamps))


def _stamped_fields(record: Record, stamps: dict[int, tuple[str, str]] | None = None
                    ) -> object:
    """The joins and keys of ``record`` with their signatures, each with the stamp it has, or
    gets from ``stamps`` (by the entry's line)."""
    fields = record.joins
    if fields is None:
        return None
    lines = {"commitments": [fields.lines.get(("commitments", name), 0)
                             for name, _ in fields.commitments],
             "revealed": list(fields.entry_lines.get("revealed", ())),
             "withdrawn": list(fields.entry_lines.get("withdrawn", ()))}
    found = {}
    for name, signatures in fields.signatures.items():
        found[name] = [signature._replace(judged=stamps[line][0], stamp=stamps[line][1])
                       if stamps and line in stamps else signature
                       for signature, line in zip(signatures, lines[name])]
    return (fields.commitments, fields.revealed, fields.withdrawn, found, fields.judge and
            fields.judge[:2], fields.void and fields.void[:2])


def record_with_dispute(old: Record, name: str, number: int, settled: bool, at: str | None,
                        sig: str | None = None) -> Record:
    """The record ``old`` with ``name``'s dispute of move ``number`` (or its settling) appended
    under ``disputes``, dated ``at`` (None: a dispute written without its time, as one merged
    from another copy may be) and signed ``sig`` (a game whose entries are signed), checked by
    reading it back as that one dispute more."""
    from .disputes import Dispute, dispute_text

    value = dispute_text(number, settled)
    new = insert_item(old, "disputes", entry_lines(name, value, {} if at is None else {"at": at},
                                                   sig=sig), old.path, f"{name}: {value}")
    added = Dispute(name, number, settled, at, sig, 0)
    return _read_back(old, new, gettext(
        "writing {name}'s dispute into {path} would not read back as that one dispute more"
    ).format(name=name, path=old.path), lambda record: _same_moves(record, old)
        and record.joins == old.joins
        and [d._replace(line=0) for d in record.disputes]
        == [d._replace(line=0) for d in old.disputes] + [added])


def record_with_language(old: Record, name: str, lang: str) -> Record:
    """The record ``old`` with ``lang: LANG`` under the player ``name`` (the language of the
    mail they get: docs/TRANSLATING.md), written over the one there or added as the player's
    last key; checked by reading it back as that one change."""
    pair = old.parsed().get("players")
    players = pair[1].items if pair is not None and isinstance(pair[1], SequenceNode) else []
    item = next((p for p in players if isinstance(p, Mapping) and not p.flow
                 and (found := p.get("name")) is not None and isinstance(found[1], Scalar)
                 and found[1].value == name), None)
    if item is None:
        raise RecordError(gettext("{path}: {name}'s entry under players is not a block of its "
                                  "own; nothing was written").format(path=old.path, name=name))
    text, there = old.text, item.get("lang")
    if there is not None:
        new = text[:there[1].start] + quote(lang) + text[there[1].end:]
    else:
        at, lines = _under(text, item, [f"lang: {quote(lang)}"])
        new = text[:at] + lines + text[at:]
    wanted = [p._replace(line=0, lang=lang if p.name == name else p.lang) for p in old.players]
    return _read_back(old, new, gettext("writing {name}'s language into {path} would not read "
                                        "back as that one change").format(name=name,
                                                                          path=old.path),
                      lambda record: [p._replace(line=0) for p in record.players] == wanted
                      and _same_moves(record, old) and record.joins == old.joins)


def record_with_void(old: Record, at: str, stamp: str) -> Record:
    """The record ``old`` of a game under a club judge with the judge's ruling that it is void
    (``void:`` with ``at`` and ``stamp``) added at its end, checked by reading it back."""
    text = old.text
    newline = _newline(text, max(len(text) - 1, 0))
    prefix = "" if not text or text.endswith("\n") else newline
    new = text + prefix + f"void:{newline}  at: {quote(at)}{newline}  stamp: {stamp}{newline}"
    return _read_back(old, new, gettext(
        "writing the judge's ruling into {path} would not read back as that ruling").format(
        path=old.path), lambda record: _same_moves(record, old) and record.joins is not None
        and record.joins.void is not None and record.joins.void[:2] == (at, stamp))


def _under(text: str, item: Mapping, lines: list[str]) -> tuple[int, str]:
    """Where in ``text`` the block entry ``item`` ends, and ``lines`` written there as keys of
    it (indented as its first key, with the text's line ends)."""
    at = end_of_lines(text, item)
    newline = _newline(text, max(at - 1, 0))
    prefix = "" if at == 0 or text[at - 1] == "\n" else newline
    indent = " " * _column(text, item.pairs[0][0].start)
    return at, prefix + "".join(f"{indent}{line}{newline}" for line in lines)


def _read_back(old: Record, new: str, refused: str, same: Callable[[Record], bool]) -> Record:
    """The record in ``new``, the text of ``old`` with one entry added, written over or taken
    out, when it reads back as ``old`` with that change: its players, variant, seed, text
    fields and ``x-`` keys as they were, and what ``same`` checks of the rest. Otherwise
    ``refused`` (what would not read back as what) as a RecordError, nothing written."""
    record = read_new_text(new, refused)
    if (summary(record)[:4] != summary(old)[:4] or record.extras != old.extras
            or record.game_id != old.game_id or not same(record)):
        raise RecordError(gettext("{refused}; nothing was written").format(refused=refused))
    record.path = old.path  # read back as "<new text>": named as its file again
    return record


def _same_moves(record: Record, old: Record) -> bool:
    """Whether ``record`` holds the moves and pauses of ``old``, as they were."""
    return (_unplaced(record.moves) == _unplaced(old.moves)
            and _unplaced(record.pauses) == _unplaced(old.pauses))


def _unplaced(entries: Sequence[MoveEntry] | Sequence[PauseEntry]) -> list[object]:
    """``entries`` without their lines (a flow list of moves is written again as a block)."""
    return [entry._replace(line=0) for entry in entries]


def _list_item(record: Record, list_name: str, name: str) -> Mapping | None:
    """The ``- NAME: VALUE`` item of ``name`` (with what is under it) in the top-level list
    ``list_name``, or None."""
    pair = record.parsed().get(list_name)
    if pair is None or not isinstance(pair[1], SequenceNode):
        return None
    return next((item for item in pair[1].items if isinstance(item, Mapping)
                 and item.pairs and item.pairs[0][0].value == name), None)


def entry_lines(color: str, text: str, stamp: dict[str, str], link: str | None = None,
                sig: str | None = None) -> list[str]:
    """The lines of an entry among the moves: ``COLOUR: TEXT``, its stamps in the order
    records write them (``at``, ``by``, ``bot``; a pause's ``from``), then its ``link``, then
    its writer's signature (``sig``)."""
    return ([f"{quote(color)}: {quote(text)}"]
            + [f"{key}: {quote(stamp[key])}" for key in (*STAMP_KEYS, "from") if key in stamp]
            + ([f"link: {quote(link)}"] if link else [])
            + ([f"sig: {sig}"] if sig else []))


def readable(old: str | Record, path: str) -> Record:
    """The record ``old`` (read from it when it is text), when lines can be added to its text
    safely."""
    text = old.text if isinstance(old, Record) else old
    if any(b in text for b in _ODD_BREAKS) or "\r" in text.replace("\r\n", ""):
        raise RecordError(gettext("{path} uses line breaks other than \\n or \\r\\n; the move cannot be "
                            "appended safely").format(path=path))
    return old if isinstance(old, Record) else load_record_text(text, path)


def insert_item(record: Record, key: str, item: list[str], path: str, what: str) -> str:
    """The text of ``record`` with an item (its lines: ``- `` goes before the first) appended
    to the top-level list ``key``, which is added at the end when missing; ``what`` names the
    item in errors."""
    text = record.text
    root = record.parsed()
    if root.flow:
        raise RecordError(gettext("{path} is written as one flow mapping ({{...}}); the move cannot be "
                            "appended to it").format(path=path))
    pair = root.get(key)
    if pair is None:
        new = _insert_after(text, root, f"{_indent(text, root)}{key}:", item, root.pairs[-1][1])
    elif isinstance(pair[1], SequenceNode) and not pair[1].flow:
        seq = pair[1]
        new = _insert_after(text, seq, None, item, seq.items[-1])
    else:
        new = _rewrite_moves(text, pair[0], pair[1], item)
    size = len(new.encode("utf-8"))
    if size > MAX_BYTES:
        raise RecordError(gettext("with {what} appended, {path} would be larger than 1 MiB ({size} "
                            "bytes); nothing was written").format(what=what, path=path, size=size))
    return new


def read_new_text(new: str, refused: str) -> Record:
    """The record in the new text, or ``refused`` as an error that cites no line (the lines of
    the new text are not those of the user's file)."""
    try:
        return load_record_text(new, "<new text>")
    except RecordError as exc:
        raise RecordError(gettext("{refused} ({message}); nothing was written")
                          .format(refused=refused, message=exc.message)) from None


def _column(text: str, index: int) -> int:
    """The column of ``index`` on its line (a byte order mark does not count)."""
    line_start = text.rfind("\n", 0, index) + 1
    if line_start == 0 and text.startswith("\ufeff"):
        line_start = 1
    return index - line_start


def _indent(text: str, node: Node) -> str:
    return " " * _column(text, node.start)


def _newline(text: str, index: int) -> str:
    """The line break used at ``index`` (or by the file, at its end)."""
    end = text.find("\n", index)
    if end == -1:
        return "\r\n" if "\r\n" in text else "\n"
    return "\r\n" if end > 0 and text[end - 1] == "\r" else "\n"


def _last_end(node: Node) -> int:
    """Where a node's own text ends: for block collections, where their last child ends."""
    if isinstance(node, Free):
        return node.last_end
    assert isinstance(node, (Scalar, SequenceNode, Mapping))
    if isinstance(node, Scalar) or node.flow:
        return node.end
    children = node.items if isinstance(node, SequenceNode) else [v for _, v in node.pairs]
    return _last_end(children[-1]) if children else node.end


def end_of_lines(text: str, node: Node) -> int:
    """The offset just past the line break of the last line of ``node``."""
    return _line_end(text, _last_end(node))


def _line_end(text: str, index: int) -> int:
    """The offset just past the line break of the line holding ``index - 1``."""
    if index > 0 and text[index - 1] == "\n":
        return index
    end = text.find("\n", index)
    return len(text) if end == -1 else end + 1


def _insert_after(text: str, block: Node, header: str | None, item: list[str], last: Node) -> str:
    """Insert lines after the line where ``last`` ends: ``header`` (if any), then
    the item's lines after ``- `` indented like block sequence ``block`` (or two more
    than ``block`` when there is a header)."""
    at = _line_end(text, _last_end(last))
    newline = _newline(text, max(at - 1, 0))
    prefix = "" if at == 0 or text[at - 1] == "\n" else newline
    dash = _indent(text, block) + ("  " if header else "")
    lines = ([header] if header else []) + _item_lines(dash, item)
    return text[:at] + prefix + "".join(line + newline for line in lines) + text[at:]


def _item_lines(dash: str, item: list[str]) -> list[str]:
    """A block list item's lines: ``- `` before the first, the rest lined up under it."""
    return [f"{dash}- {item[0]}"] + [f"{dash}  {line}" for line in item[1:]]


def _rewrite_moves(text: str, key: Scalar, value: Node, item: list[str]) -> str:
    """Rewrite an empty or flow ``moves`` as a block list ending with ``item``, keeping the
    key as written and every comment on the rewritten lines: a comment that followed the key
    or a move on its line ends the line written for that; any other (alone on its line, or
    after a ``[``, ``]`` or ``,`` only) gets a line of its own, in the same place among the
    moves."""
    line_start = text.rfind("\n", 0, key.start) + 1
    colon = text.index(":", key.end)
    last = max(colon + 1, value.end if isinstance(value, SequenceNode) else 0)
    region_end = _line_end(text, last)
    newline = _newline(text, colon)
    items = cast("list[Mapping]", value.items) if isinstance(value, SequenceNode) else []
    scalars: list[Node] = []  # what is copied as written: a move's colour and move, an annotated move whole
    for entry in items:
        scalars += [entry] if len(entry.pairs) > 1 else list(entry.pairs[0])
    dash = _indent(text, key) + "  "
    out = [text[line_start:colon + 1]]
    source_line = line_start  # where the source of out[-1] ends: the start of that line
    moves = iter(items)
    upcoming = next(moves, None)
    for at, own_line, comment in _comments(text, colon + 1, region_end, scalars):
        while upcoming is not None and upcoming.start < at:
            out.append(f"{dash}- {_entry_source(text, upcoming)}")
            source_line = text.rfind("\n", 0, upcoming.end) + 1
            upcoming = next(moves, None)
        if own_line or text.rfind("\n", 0, at) + 1 != source_line:
            out.append(dash + comment.lstrip(" \t"))
            source_line = -1
        else:
            out[-1] += comment
    while upcoming is not None:
        out.append(f"{dash}- {_entry_source(text, upcoming)}")
        upcoming = next(moves, None)
    out += _item_lines(dash, item)
    return text[:line_start] + "".join(line + newline for line in out) + text[region_end:]


def _entry_source(text: str, entry: Mapping) -> str:
    """A ``{colour: move}`` entry as ``colour: move``, each as written; an entry with more
    keys (notes, a link) as it was written, whole."""
    if len(entry.pairs) > 1:
        return text[entry.start:entry.end]
    key, value = entry.pairs[0]
    assert isinstance(value, Scalar)  # the record was read: a move is text
    return f"{_source(text, key)}: {_source(text, value)}"


def _source(text: str, scalar: Scalar) -> str:
    """A scalar as written, when that fits on one line; otherwise quoted afresh."""
    written = text[scalar.start:scalar.end]
    return written if "\n" not in written else quote(scalar.value)


_COMMENT = r"(?<![^ \t\n])#[^\n]*"
"""A comment: ``#`` at the start of the text or after a blank, to the end of its line."""


def _comments(text: str, start: int, end: int,
              scalars: list[Node]) -> Iterator[tuple[int, bool, str]]:
    """The comments between ``start`` and ``end`` outside ``scalars``, in order, as
    (offset, whether it is alone on its line, text); a comment that follows something
    comes with the blanks before it.  One pass over the text."""
    at = start
    pattern = re.compile(_COMMENT)
    for scalar_start, scalar_end in sorted((s.start, s.end) for s in scalars) + [(end, end)]:
        for match in pattern.finditer(text, at, max(at, min(scalar_start, end))):
            lead = match.start()
            while text[lead - 1] in " \t":
                lead -= 1
            own_line = text[lead - 1] == "\n"
            comment = match.group().rstrip("\r")
            yield match.start(), own_line, comment if own_line else text[lead:match.start()] + comment
        at = max(at, scalar_end)


def annotated_text(record: Record, annotations: list[MoveAnnotation]) -> str:
    """The text of ``record`` with ``annotations`` (one per move, in order) written under its
    moves: ``eval``, ``best`` when there is one, ``variations``, and the mark at the start of
    the move's comment. Earlier ``eval``, ``best`` and ``variations`` are replaced; every other
    byte (the hand-written ``comment``, links, other comments) is kept. Checked by reading it
    back (RecordError)."""
    text = record.text
    root = record.parsed()
    pair = root.get("moves")
    items = pair[1].items if pair is not None and isinstance(pair[1], SequenceNode) else []
    if pair is not None and isinstance(pair[1], SequenceNode) and pair[1].flow or any(
            not isinstance(item, Mapping) or item.flow for item in items):
        raise RecordError(gettext("{path}: the moves are written in flow style ([...] or {{...}}); write "
                            "one move per line to annotate them").format(path=record.path), path=record.path)
    edits: list[tuple[int, int, str]] = []
    for item, annotation in zip(items, annotations):
        assert isinstance(item, Mapping)  # checked above
        key, value = item.pairs[0]
        newline = _newline(text, value.end)
        move_line_end = _line_end(text, value.end)
        line_break = len(newline) if text[move_line_end - 1:move_line_end] == "\n" else 0
        rest_end = move_line_end - line_break
        edits.append((value.end, rest_end, _move_comment(text[value.end:rest_end], annotation)))
        indent = _indent(text, key)
        score, win = annotation.eval
        added = [f"eval: {{score: {score:.2f}, win: {100 * win:.1f}%}}"]
        if annotation.best is not None:
            added.append(f"best: {quote(annotation.best)}")
        if annotation.variations:
            added.append("variations:")
            added += [f"  - [{', '.join(quote(m, flow=True) for m in line)}]"
                      for line in annotation.variations]
        edits.append((move_line_end, move_line_end,
                       "".join(indent + line + newline for line in added)))
        for note_key, note_value in item.pairs[1:]:
            if note_key.value in ("eval", "best", "variations"):
                start = text.rfind("\n", 0, note_key.start) + 1
                edits.append((start, _line_end(text, _last_end(note_value)), ""))
    new = text
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        new = new[:start] + replacement + new[end:]
    _check_annotated(record, new, annotations)
    return new


def _move_comment(rest: str, annotation: MoveAnnotation) -> str:
    """What follows a move on its line: the mark first in its comment, the rest kept."""
    at = rest.find("#")
    blanks, comment = (rest, "") if at == -1 else (rest[:at], rest[at + 1:].strip())
    old = re.match(WRITTEN_MARK, comment)
    if old is not None:
        comment = comment[old.end():].strip()
    said = annotation.said()
    if said is not None:
        comment = f"{said} {comment}".strip()
    if not comment:
        return ""
    return f"{blanks.rstrip()}   # {comment}" if at == -1 else f"{blanks}# {comment}"


def _check_annotated(record: Record, new: str, annotations: list[MoveAnnotation]) -> None:
    """Refuse (RecordError) an annotated text that does not read back as the same game with
    the annotations' notes."""
    refused = f"annotating {record.path} would not read back as the same game"
    try:
        back = load_record_text(new, record.path)
    except RecordError as exc:
        raise RecordError(gettext("{refused} ({message})").format(refused=refused, message=exc.message), path=record.path) from None
    same = [(m.color, m.text) for m in back.moves] == [(m.color, m.text) for m in record.moves]
    for entry, old, annotation in zip(back.moves, record.moves, annotations):
        notes = entry.notes
        comment = old.notes.comment if old.notes is not None else None
        if notes is None or notes.mark != annotation.mark or notes.comment != comment \
                or (notes.best is None) != (annotation.best is None):
            same = False
    if not same:
        raise RecordError(refused, path=record.path)
