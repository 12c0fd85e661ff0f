"""Writing records: the text of a new record, creating its file, and appending a move.

``append_move`` adds one line to a record and leaves every other byte as it was.
When the moves list is empty or written in flow style (``[...]``), only the
``moves`` lines are rewritten, as a block list (comments on them are kept).  The
new text is read back and checked before anything touches the disk; the file is
then replaced atomically under a lock on ``PATH.lock``, read back again and
compared.  Any failure leaves the original file byte for byte as it was.

The disk work is split into small step functions (``_make_temp``, ``_write_all``,
``_fsync``, ``_set_mode``, ``_rename``, ``_sync_dir``, ``_read_back``) so that
tests can make each one fail.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import os
import secrets
import time
from typing import Iterable, Iterator

import yaml

from .record import TEXT_FIELDS, Record, load_record_text
from .yamlsafe import Node, RecordError, Scalar, Sequence, parse

#: How long to wait for another process's lock on a record, in seconds.
LOCK_TIMEOUT = 10.0

_ODD_BREAKS = ("\x85", "\u2028", "\u2029")
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def quote(text: str) -> str:
    """``text`` as a YAML scalar: plain when every YAML reader gives it back as the
    same string, double-quoted otherwise (``No``, ``007``, ``2026-11-29``, ``a: b``)."""
    if text and text == text.strip() and text.isprintable() and _reads_back(text):
        return text
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char.isprintable():
            out.append(char)
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def _reads_back(plain: str) -> bool:
    """Whether ``key: PLAIN`` loads as that very string with a YAML 1.1 loader."""
    try:
        return yaml.safe_load(f"key: {plain}\n") == {"key": plain}
    except yaml.YAMLError:
        return False


def render_record(players: Iterable, *, variant: str = "standard", seed: str | None = None,
                  fields: dict[str, str] | None = None,
                  moves: Iterable[tuple[str, str]] = ()) -> str:
    """The text of a record: ``players`` are objects with ``name`` and ``colors``
    (in turn order), ``fields`` the optional texts (event, site, date, round, notes),
    ``moves`` (colour, move text) pairs.  Block style, ``moves`` last.  The text is
    read back and checked; a RecordError says what was wrong with the input."""
    fields = fields or {}
    unknown = set(fields) - set(TEXT_FIELDS)
    if unknown:
        raise ValueError(f"unknown record fields: {', '.join(sorted(unknown))}")
    players = list(players)
    moves = [(color, text) for color, text in moves]
    lines = ["uptown: 1", f"variant: {quote(variant)}"]
    lines += [f"{name}: {quote(fields[name])}" for name in TEXT_FIELDS if name in fields]
    lines.append("players:")
    for player in players:
        lines.append(f"  - name: {quote(player.name)}")
        lines.append(f"    colors: [{', '.join(quote(c) for c in player.colors)}]")
    if seed is not None:
        lines.append(f"seed: {quote(seed)}")
    lines.append("moves:")
    lines += [f"  - {quote(color)}: {quote(text)}" for color, text in moves]
    text = "\n".join(lines) + "\n"
    record = load_record_text(text, "<new record>")
    wanted = ([(p.name, tuple(p.colors)) for p in players], variant, seed, fields, moves)
    if _summary(record) != wanted:
        raise RecordError("the record would not read back as written")
    return text


def _summary(record: Record) -> tuple:
    return ([(p.name, p.colors) for p in record.players], record.variant, record.seed,
            record.fields, [(m.color, m.text) for m in record.moves])


def create_record(path: str, text: str) -> None:
    """Write a new record file at ``path`` atomically; refuses if the file exists."""
    data = text.encode("utf-8")
    real = os.path.realpath(path)
    directory = os.path.dirname(real)
    with _locked(real, path):
        tmp = None
        try:
            fd, tmp = _make_temp(directory, os.path.basename(real))
            try:
                _write_all(fd, data)
                _fsync(fd)
            finally:
                os.close(fd)
            os.link(tmp, real)
            _sync_dir(directory)
        except FileExistsError:
            raise RecordError(f"{path} already exists; not overwritten") from None
        except OSError as exc:
            raise RecordError(f"could not create {path}: {exc.strerror or exc}") from None
        finally:
            if tmp is not None:
                _remove_quietly(tmp)


def append_move(path: str, color: str, move_text: str, expected_text: str,
                link: str | None = None) -> str:
    """Append ``- COLOR: MOVE`` (and its ``link:`` in a game with hidden racks) to the moves
    of the record at ``path``; returns the new text.

    Refuses (RecordError, file untouched) when the file no longer holds
    ``expected_text`` (the game moved on), or when anything fails.  The move's
    legality is the caller's business; its place in the file is checked here.
    """
    return _rewrite(path, expected_text,
                    lambda text: insert_move(text, color, move_text, path, link))


def append_entry(path: str, list_name: str, name: str, value: str, expected_text: str) -> str:
    """Append ``- NAME: VALUE`` to the hidden-racks list ``list_name`` (``commitments`` or
    ``revealed``) of the record at ``path``, as ``append_move`` appends a move."""
    return _rewrite(path, expected_text,
                    lambda text: insert_entry(text, list_name, name, value, path))


def _rewrite(path: str, expected_text: str, edit) -> str:
    """Replace the record at ``path``, which must hold ``expected_text``, by
    ``edit(expected_text)`` (see ``append_move``); returns the new text."""
    real = os.path.realpath(path)
    with _locked(real, path):
        try:
            old_bytes = _read_bytes(real)
            mode = os.stat(real).st_mode & 0o7777
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        if not os.access(real, os.W_OK):
            raise RecordError(f"{path} is read-only; nothing was written")
        if old_bytes != expected_text.encode("utf-8"):
            raise RecordError(f"{path} changed since it was read (the game moved on); "
                              "nothing was written")
        new_text = edit(expected_text)
        new_bytes = new_text.encode("utf-8")
        try:
            _atomic_write(real, new_bytes, mode)
        except OSError as exc:
            raise RecordError(f"could not write {path}: {exc.strerror or exc}; "
                              "the file is unchanged") from None
        try:
            _sync_dir(os.path.dirname(real))
            if _read_back(real) != new_bytes:
                raise OSError(errno.EIO, "the file read back differs from what was written")
        except BaseException as exc:
            _restore(real, old_bytes, mode, path)
            if isinstance(exc, OSError):
                raise RecordError(f"could not write {path}: {exc.strerror or exc}; "
                                  "the file was put back as it was") from None
            raise
    return new_text


def insert_move(text: str, color: str, move_text: str, path: str = "<record>",
                link: str | None = None) -> str:
    """``text`` with the move appended (see the module docstring), checked by reading
    it back: the result must be the same record with exactly this one move more."""
    old = _readable(text, path)
    item = [f"{quote(color)}: {quote(move_text)}"] + ([f"link: {quote(link)}"] if link else [])
    new = _insert_item(text, "moves", item, path)
    record = load_record_text(new, path)
    expected = _summary(old)[:4] + ([(m.color, m.text) for m in old.moves] + [(color, move_text)],)
    links = [m.link for m in old.moves] + [link]
    if (_summary(record) != expected or record.extras != old.extras
            or record.hidden != old.hidden or [m.link for m in record.moves] != links):
        raise RecordError(f"appending {color}: {move_text} to {path} would not read back as that "
                          "one move more; nothing was written")
    return new


def insert_entry(text: str, list_name: str, name: str, value: str, path: str = "<record>") -> str:
    """``text`` with ``- NAME: VALUE`` appended to the hidden-racks list ``list_name``,
    checked by reading it back as that one entry more."""
    old = _readable(text, path)
    new = _insert_item(text, list_name, [f"{quote(name)}: {quote(value)}"], path)
    record = load_record_text(new, path)
    if (_summary(record) != _summary(old) or record.extras != old.extras
            or old.hidden is None or record.hidden != old.hidden.appended(list_name, name, value)):
        raise RecordError(f"adding {name}'s {list_name} entry to {path} would not read back as "
                          "that one entry more; nothing was written")
    return new


def _readable(text: str, path: str) -> Record:
    """The record in ``text``, when lines can be added to it safely."""
    if any(b in text for b in _ODD_BREAKS) or "\r" in text.replace("\r\n", ""):
        raise RecordError(f"{path} uses line breaks other than \\n or \\r\\n; "
                          "the move cannot be appended safely")
    return load_record_text(text, path)


def _insert_item(text: str, key: str, item: list[str], path: str) -> str:
    """``text`` (a record) with an item (its lines: ``- `` goes before the first) appended to
    the top-level list ``key``, which is added at the end when missing."""
    root = parse(text, path)  # a mapping: the record was read from it
    if root.flow:
        raise RecordError(f"{path} is written as one flow mapping ({{...}}); "
                          "the move cannot be appended to it")
    pair = root.get(key)
    if pair is None:
        return _insert_after(text, root, f"{_indent(text, root)}{key}:", item, root.pairs[-1][1])
    if isinstance(pair[1], Sequence) and not pair[1].flow:
        seq = pair[1]
        return _insert_after(text, seq, None, item, seq.items[-1])
    return _rewrite_moves(text, pair[0], pair[1], item)


def _column(text: str, index: int) -> int:
    return index - (text.rfind("\n", 0, index) + 1)


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
    if isinstance(node, Scalar) or node.flow:
        return node.end
    children = node.items if isinstance(node, Sequence) else [v for _, v in node.pairs]
    return _last_end(children[-1]) if children else node.end


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
    """Rewrite an empty or flow ``moves`` (or other top-level list) as a block list ending
    with ``item``, keeping the key as written and every comment on the rewritten lines."""
    line_start = text.rfind("\n", 0, key.start) + 1
    colon = text.index(":", key.end)
    last = max(colon + 1, value.end if isinstance(value, Sequence) else 0)
    region_end = _line_end(text, last)
    newline = _newline(text, colon)
    items = value.items if isinstance(value, Sequence) else []
    scalars = [node for entry in items for pair in entry.pairs for node in pair]
    # comments[0] belong on the key's line, comments[i] after the i-th move
    comments: list[list[str]] = [[] for _ in range(len(items) + 1)]
    for at, comment in _comments(text, colon + 1, region_end, scalars):
        comments[sum(1 for entry in items if entry.start < at)].append(comment)
    bodies = [f"{_source(text, entry.pairs[0][0])}: {_source(text, entry.pairs[0][1])}"
              for entry in items]
    dash = _indent(text, key) + "  "
    out = [text[line_start:colon + 1]]
    out += [f"{dash}- {body}" for body in bodies]
    out = [line + "".join(notes) for line, notes in zip(out, comments)]
    out += _item_lines(dash, item)
    return text[:line_start] + "".join(line + newline for line in out) + text[region_end:]


def _source(text: str, scalar: Scalar) -> str:
    """A scalar as written, when that fits on one line; otherwise quoted afresh."""
    written = text[scalar.start:scalar.end]
    return written if "\n" not in written else quote(scalar.value)


def _comments(text: str, start: int, end: int, scalars: list[Scalar]) -> Iterator[tuple[int, str]]:
    """The comments between ``start`` and ``end`` (outside ``scalars``), with their offsets,
    each with the blanks before it (or one space when it began a line)."""
    spans = sorted((s.start, s.end) for s in scalars)
    at = start
    while at < end:
        inside = next((e for s, e in spans if s <= at < e), None)
        if inside is not None:
            at = inside
            continue
        if text[at] == "#" and (at == 0 or text[at - 1] in " \t\n"):
            stop = text.find("\n", at)
            stop = end if stop == -1 or stop > end else stop
            lead = at
            while text[lead - 1] in " \t":
                lead -= 1
            blanks = text[lead:at] if text[lead - 1] != "\n" else " "
            yield at, blanks + text[at:stop].rstrip("\r")
            at = stop
        else:
            at += 1


# -- the disk ------------------------------------------------------------------------------


@contextlib.contextmanager
def _locked(real: str, shown: str) -> Iterator[None]:
    """Hold an exclusive flock on ``REAL.lock`` (waiting up to LOCK_TIMEOUT seconds)."""
    try:
        fd = os.open(real + ".lock", os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise RecordError(f"cannot lock {shown}: {exc.strerror or exc}") from None
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise RecordError(f"{shown} is locked by another process ({shown}.lock); "
                                      "try again") from None
                time.sleep(0.05)
        _remove_stale_temps(real)
        yield
    finally:
        os.close(fd)


def _atomic_write(real: str, data: bytes, mode: int) -> None:
    """Replace ``real`` by ``data`` through a temporary file in the same folder."""
    fd, tmp = _make_temp(os.path.dirname(real), os.path.basename(real))
    try:
        try:
            _write_all(fd, data)
            _fsync(fd)
            _set_mode(fd, mode)
        finally:
            os.close(fd)
        _rename(tmp, real)
    except BaseException:
        _remove_quietly(tmp)
        raise


def _restore(real: str, data: bytes, mode: int, shown: str) -> None:
    """Put the original bytes back after a failure that came after the rename."""
    try:
        _atomic_write(real, data, mode)
        if _read_bytes(real) != data:
            raise OSError(errno.EIO, "the file read back differs")
    except OSError as exc:
        raise RecordError(f"writing {shown} failed and the original could not be put back "
                          f"({exc.strerror or exc}); check the file") from None
    with contextlib.suppress(OSError):
        _sync_dir(os.path.dirname(real))


def _remove_quietly(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _remove_stale_temps(real: str) -> None:
    """Remove temporary files that a writer killed mid-write left beside ``real``: with the
    lock held, no other writer can be using one."""
    directory, name = os.path.split(real)
    for tmp in glob.glob(os.path.join(glob.escape(directory), _temp_name(glob.escape(name), "?" * 12))):
        _remove_quietly(tmp)


def _temp_name(name: str, token: str) -> str:
    return f".{name}.{token}.tmp"


def _make_temp(directory: str, name: str) -> tuple[int, str]:
    """Create a new temporary file beside ``name``; returns (fd, path)."""
    tmp = os.path.join(directory, _temp_name(name, secrets.token_hex(6)))
    return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _fsync(fd: int) -> None:
    os.fsync(fd)


def _set_mode(fd: int, mode: int) -> None:
    os.fchmod(fd, mode)


def _rename(tmp: str, real: str) -> None:
    os.replace(tmp, real)


def _sync_dir(directory: str) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


def _read_back(path: str) -> bytes:
    """Read the file after writing it (a step of its own, so tests can make it fail)."""
    return _read_bytes(path)
