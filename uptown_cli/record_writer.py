"""Writing records: the text of a new record, creating its file, and appending a move.

``quote`` writes a scalar plain only when no YAML 1.1 or 1.2 reader could take it for
anything but that text (decided by regular expressions, without loading any YAML).

``append_move`` adds one line to a record (two in a game with hidden racks: the move and
its ``link``) and leaves every other byte as it was; ``append_entry`` adds an entry to a
hidden-racks list (``commitments``, ``revealed``) the same way.
When the moves list is empty or written in flow style (``[...]``), only the
``moves`` lines are rewritten, as a block list; comments on them are kept, those
on lines of their own stay on lines of their own.  The new text is read back and
checked before the file is touched.

On disk, a path that is a symbolic link is resolved once; from then on everything
happens relative to a descriptor of the real file's folder, and the game is opened
without following links, so a folder swapped for a link cannot redirect the write.
The lock is an exclusive ``flock`` on the game file itself, taken again when
another writer replaced the file meanwhile: nothing is left beside the game.  The
new text goes to a temporary file in the same folder (``.NAME.uptown-HEX.tmp``),
created with the game's mode and owner before any data is written, synced, and
renamed over the game, which is then read back and compared; a failure puts the
original back.  The game is refused when it or its folder has no write bit, also
for root.  Any failure leaves the original file byte for byte as it was.
``create_record`` links a finished temporary file to the new name, which refuses
any existing name, a dangling symbolic link included.

``write_file`` writes every other file uptown makes (``-o``: pictures, exports) the
same way: a temporary file beside the target with the final mode (the old file's,
else what the umask allows), synced and renamed over the target only when complete,
under an exclusive ``flock`` on the folder.  It never writes through a symbolic link
nor over a folder, device, FIFO or socket, and on any failure leaves the old file
as it was and no temporary file behind.

The disk work is split into small step functions (``_make_temp``, ``_set_owner``,
``_set_mode``, ``_write_all``, ``_fsync``, ``_rename``, ``_sync_dir``,
``_read_back``) so that tests can make each one fail.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from .record import TEXT_FIELDS, Record, load_record_text
from .errors import OutputError
from .yamlsafe import MAX_BYTES, Free, Node, RecordError, Scalar, Sequence, parse

#: How long to wait for another process's lock on a record, in seconds.
LOCK_TIMEOUT = 10.0
WAIT_NOTICE = 1.0
"""After this many seconds of waiting for another writer's lock, ``on_wait`` is called."""

_ODD_BREAKS = ("\x85", "\u2028", "\u2029")
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}

#: Plain scalars that some YAML 1.1 or 1.2 (core schema) reader types as other than
#: text, drawn a little wider than the specifications (case is ignored): booleans,
#: nulls, numbers in any base, sexagesimals, infinities and NaN, dates, merge and value.
_TYPED = re.compile(r"""
      y | n | yes | no | true | false | on | off        # booleans (1.1 and 1.2)
    | ~ | null                                          # nulls
    | [-+]? [0-9_.:]+ (e [-+]? [0-9_]+)?                # decimal ints and floats, 1_000, 12:30
    | [-+]? 0 [box] [0-9a-f_]+                          # binary, octal, hexadecimal
    | [-+]? \. (inf | nan)                              # infinities and not-a-number
    | [0-9]{4} - [0-9]{1,2} - [0-9]{1,2} ([ t] .*)?     # dates and timestamps
    | << | =                                            # YAML 1.1 merge and value keys
""", re.VERBOSE | re.IGNORECASE | re.DOTALL)

#: Characters that may not begin a plain scalar; what may not appear in one (a colon, the
#: start of a comment); and what may not appear in one inside a flow collection (``[a, b]``;
#: PyYAML ends a plain scalar there at ``?`` too).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_KEY_OR_COMMENT = re.compile(r":| #")
_FLOW = re.compile(r"[,\[\]{}?]")


def quote(text: str, *, flow: bool = False) -> str:
    """``text`` as a YAML scalar: plain when every YAML reader gives it back as the
    same string, double-quoted otherwise (``No``, ``y``, ``007``, ``1e3``, ``2026-11-29``,
    ``a: b``).  ``flow``: for a value inside ``[...]`` or ``{...}``."""
    if _plain_is_text(text, flow):
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


def _plain_is_text(text: str, flow: bool) -> bool:
    """Whether ``text`` written plain (in a flow collection when ``flow``) is read back by
    YAML 1.1 and 1.2 readers as that very string."""
    return (bool(text) and text.isprintable() and text == text.strip()
            and text[0] not in _INDICATORS and not _KEY_OR_COMMENT.search(text)
            and not (flow and _FLOW.search(text)) and not _TYPED.fullmatch(text))


def render_record(players: Iterable, *, variant: str = "standard", seed: str | None = None,
                  fields: dict[str, str] | None = None,
                  moves: Iterable[tuple[str, str]] = ()) -> str:
    """The text of a record: ``players`` are objects with ``name``, ``colors`` and
    optionally ``email`` (in turn order), ``fields`` the optional texts (event, site, date,
    round, notes), ``moves`` (colour, move text) pairs.  Block style, ``moves`` last.  The text is
    read back and checked; a RecordError says what was wrong with the input."""
    fields = fields or {}
    unknown = set(fields) - set(TEXT_FIELDS)
    if unknown:
        raise ValueError(f"unknown record fields: {', '.join(sorted(unknown))}")
    players = list(players)
    moves = [(color, text) for color, text in moves]
    for label, value in ([("name", p.name) for p in players] + [("seed", seed or "")]
                         + [(name, fields[name]) for name in fields]):
        _check_utf8(label, value)
    lines = ["uptown: 1", f"variant: {quote(variant)}"]
    lines += [f"{name}: {quote(fields[name])}" for name in TEXT_FIELDS if name in fields]
    lines.append("players:")
    for player in players:
        lines.append(f"  - name: {quote(player.name)}")
        lines.append(f"    colors: [{', '.join(quote(c, flow=True) for c in player.colors)}]")
        if getattr(player, "email", None):
            lines.append(f"    email: {quote(player.email)}")
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


def _check_utf8(label: str, value: str) -> None:
    """Refuse text that no UTF-8 file can hold: bytes that were not UTF-8 on the command line
    (kept by Python as lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        shown = value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise RecordError(f"the {label} '{shown}' is not UTF-8 text") from None


def _summary(record: Record) -> tuple:
    return ([(p.name, p.colors) for p in record.players], record.variant, record.seed,
            record.fields, [(m.color, m.text) for m in record.moves])


def insert_move(text: str, color: str, move_text: str, path: str = "<record>",
                link: str | None = None) -> str:
    """``text`` with the move (and its ``link``, for hidden racks) appended (see the module
    docstring), checked by reading it back: the result must be the same record with exactly
    this one move more."""
    old = _readable(text, path)
    item = [f"{quote(color)}: {quote(move_text)}"] + ([f"link: {quote(link)}"] if link else [])
    what = f"{color}: {move_text}"
    new = _insert_item(text, "moves", item, path, what)
    refused = f"appending {what} to {path} would not read back as that one move more"
    record = _read_new(new, refused)
    expected = _summary(old)[:4] + ([(m.color, m.text) for m in old.moves] + [(color, move_text)],)
    links = [m.link for m in old.moves] + [link]
    notes = [m.notes for m in old.moves] + [None]
    if (_summary(record) != expected or record.extras != old.extras
            or record.hidden != old.hidden or [m.link for m in record.moves] != links
            or [m.notes for m in record.moves] != notes):
        raise RecordError(f"{refused}; nothing was written")
    return new


def insert_entry(text: str, list_name: str, name: str, value: str, path: str = "<record>") -> str:
    """``text`` with ``- NAME: VALUE`` appended to the hidden-racks list ``list_name``,
    checked by reading it back as that one entry more."""
    old = _readable(text, path)
    what = f"{name}'s {list_name} entry"
    new = _insert_item(text, list_name, [f"{quote(name)}: {quote(value)}"], path, what)
    refused = f"adding {what} to {path} would not read back as that one entry more"
    record = _read_new(new, refused)
    if (_summary(record) != _summary(old) or record.extras != old.extras
            or old.hidden is None or record.hidden != old.hidden.appended(list_name, name, value)):
        raise RecordError(f"{refused}; nothing was written")
    return new


def _readable(text: str, path: str) -> Record:
    """The record in ``text``, when lines can be added to it safely."""
    if any(b in text for b in _ODD_BREAKS) or "\r" in text.replace("\r\n", ""):
        raise RecordError(f"{path} uses line breaks other than \\n or \\r\\n; "
                          "the move cannot be appended safely")
    return load_record_text(text, path)


def _insert_item(text: str, key: str, item: list[str], path: str, what: str) -> str:
    """``text`` (a record) with an item (its lines: ``- `` goes before the first) appended to
    the top-level list ``key``, which is added at the end when missing; ``what`` names the
    item in errors."""
    root = parse(text, path)  # a mapping: the record was read from it
    if root.flow:
        raise RecordError(f"{path} is written as one flow mapping ({{...}}); "
                          "the move cannot be appended to it")
    pair = root.get(key)
    if pair is None:
        new = _insert_after(text, root, f"{_indent(text, root)}{key}:", item, root.pairs[-1][1])
    elif isinstance(pair[1], Sequence) and not pair[1].flow:
        seq = pair[1]
        new = _insert_after(text, seq, None, item, seq.items[-1])
    else:
        new = _rewrite_moves(text, pair[0], pair[1], item)
    size = len(new.encode("utf-8"))
    if size > MAX_BYTES:
        raise RecordError(f"with {what} appended, {path} would be larger than 1 MiB "
                          f"({size} bytes); nothing was written")
    return new


def _read_new(new: str, refused: str) -> Record:
    """The record in the new text, or ``refused`` as an error that cites no line (the lines of
    the new text are not those of the user's file)."""
    try:
        return load_record_text(new, "<new text>")
    except RecordError as exc:
        raise RecordError(f"{refused} ({exc.message}); nothing was written") from None


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
    """Rewrite an empty or flow ``moves`` as a block list ending with ``item``, keeping the
    key as written and every comment on the rewritten lines: a comment that followed the key
    or a move on its line ends the line written for that; any other (alone on its line, or
    after a ``[``, ``]`` or ``,`` only) gets a line of its own, in the same place among the
    moves."""
    line_start = text.rfind("\n", 0, key.start) + 1
    colon = text.index(":", key.end)
    last = max(colon + 1, value.end if isinstance(value, Sequence) else 0)
    region_end = _line_end(text, last)
    newline = _newline(text, colon)
    items = value.items if isinstance(value, Sequence) else []
    scalars = []  # what is copied as written: a move's colour and move, an annotated move whole
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


def _entry_source(text: str, entry: Node) -> str:
    """A ``{colour: move}`` entry as ``colour: move``, each as written; an entry with more
    keys (notes, a link) as it was written, whole."""
    if len(entry.pairs) > 1:
        return text[entry.start:entry.end]
    key, value = entry.pairs[0]
    return f"{_source(text, key)}: {_source(text, value)}"


def _source(text: str, scalar: Scalar) -> str:
    """A scalar as written, when that fits on one line; otherwise quoted afresh."""
    written = text[scalar.start:scalar.end]
    return written if "\n" not in written else quote(scalar.value)


_COMMENT = re.compile(r"(?<![^ \t\n])#[^\n]*")
"""A comment: ``#`` at the start of the text or after a blank, to the end of its line."""


def _comments(text: str, start: int, end: int,
              scalars: list[Node]) -> Iterator[tuple[int, bool, str]]:
    """The comments between ``start`` and ``end`` outside ``scalars``, in order, as
    (offset, whether it is alone on its line, text); a comment that follows something
    comes with the blanks before it.  One pass over the text."""
    at = start
    for scalar_start, scalar_end in sorted((s.start, s.end) for s in scalars) + [(end, end)]:
        for match in _COMMENT.finditer(text, at, max(at, min(scalar_start, end))):
            lead = match.start()
            while text[lead - 1] in " \t":
                lead -= 1
            own_line = text[lead - 1] == "\n"
            comment = match.group().rstrip("\r")
            yield match.start(), own_line, comment if own_line else text[lead:match.start()] + comment
        at = max(at, scalar_end)


# -- the disk ------------------------------------------------------------------------------


def create_record(path: str, text: str) -> None:
    """Write a new record file at ``path`` atomically; refuses if anything has that name."""
    data = text.encode("utf-8")
    directory, name = os.path.split(path)
    try:
        folder = _open_folder(directory)
    except OSError as exc:
        raise RecordError(f"could not create {path}: {exc.strerror or exc}") from None
    try:
        if not os.fstat(folder).st_mode & 0o222:
            raise RecordError(f"could not create {path}: the folder is read-only")
        tmp = None
        try:
            fd, tmp = _make_temp(folder, name, 0o666)  # the umask applies, as to any new file
            try:
                _write_all(fd, data)
                _fsync(fd)
            finally:
                os.close(fd)
            os.link(tmp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
            _sync_dir(folder)
        except FileExistsError:
            raise RecordError(f"{path} already exists; not overwritten") from None
        except OSError as exc:
            raise RecordError(f"could not create {path}: {exc.strerror or exc}") from None
        finally:
            if tmp is not None:
                _remove_quietly(folder, tmp)
    finally:
        os.close(folder)


def write_file(path: str, data: str | bytes, shown: str | None = None) -> int:
    """Create or replace the file at ``path`` with ``data`` (text is written as UTF-8), as
    the module docstring says; returns the number of bytes written.  ``shown`` is the
    path as printed in errors.  Raises OutputError (one line) when the target is a
    symbolic link, a folder or not a regular file, or when anything fails."""
    shown = path if shown is None else shown
    content = data.encode("utf-8") if isinstance(data, str) else data
    directory, name = os.path.split(path)
    if name in ("", ".", ".."):
        raise OutputError(f"{shown} is a folder; give a file name")
    try:
        folder = _open_folder(directory)
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    try:
        _lock(folder, _Wait(None), shown)
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        except OSError as exc:
            raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from None
        if old is not None and stat.S_ISDIR(old.st_mode):
            raise OutputError(f"{shown} is a folder; give a file name")
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise OutputError(f"{shown} is {_kind(old.st_mode)}, not a regular file; "
                              "nothing was written (-o - writes to standard output)")
        _remove_stale_temps(folder, name)
        try:
            _write_beside(folder, name, content, old)
            _sync_dir(folder)
        except OSError as exc:
            unchanged = "nothing was written" if old is None else "the old file is unchanged"
            raise OutputError(f"cannot write {shown}: {exc.strerror or exc}; {unchanged}") from None
    except RecordError as exc:  # the folder's lock
        raise OutputError(exc.message) from None
    finally:
        os.close(folder)
    return len(content)


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for a refusal."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"


def _write_beside(folder: int, name: str, data: bytes, old: os.stat_result | None) -> None:
    """Write ``data`` to a temporary file beside ``name`` with the final mode (and group)
    and rename it over ``name`` once complete; the temporary file is removed on failure."""
    mode = 0o666 if old is None else stat.S_IMODE(old.st_mode)
    fd, tmp = _make_temp(folder, name, mode)  # a new file: as the umask allows
    try:
        try:
            if old is not None:
                _set_owner(fd, old.st_uid, old.st_gid)
                _set_mode(fd, mode)
            _write_all(fd, data)
            _fsync(fd)
        finally:
            os.close(fd)
        _rename(folder, tmp, name)
    except BaseException:
        _remove_quietly(folder, tmp)
        raise


def append_move(path: str, color: str, move_text: str, expected_text: str,
                link: str | None = None, on_wait: Callable[[], None] | None = None) -> str:
    """Append ``- COLOR: MOVE`` (and its ``link:`` in a game with hidden racks) to the moves
    of the record at ``path``; returns the new text.

    Refuses (RecordError, file untouched) when the file no longer holds
    ``expected_text`` (the game moved on), or when anything fails.  The move's
    legality is the caller's business; its place in the file is checked here.
    ``on_wait`` is called once when another writer has held the file for WAIT_NOTICE seconds.
    """
    new_text = insert_move(expected_text, color, move_text, path, link)
    _replace_record(path, expected_text, new_text, on_wait)
    return new_text


def append_entry(path: str, list_name: str, name: str, value: str, expected_text: str,
                 on_wait: Callable[[], None] | None = None) -> str:
    """Append ``- NAME: VALUE`` to the hidden-racks list ``list_name`` (``commitments`` or
    ``revealed``) of the record at ``path``, as ``append_move`` appends a move."""
    new_text = insert_entry(expected_text, list_name, name, value, path)
    _replace_record(path, expected_text, new_text, on_wait)
    return new_text


def replace_record(path: str, new_text: str, expected_text: str,
                   on_wait: Callable[[], None] | None = None) -> None:
    """Replace the record at ``path``, which must still hold ``expected_text``, by another
    copy of it, ``new_text`` (a received game that extends it), locked and atomic as
    ``append_move`` writes; ``new_text`` must read as a record."""
    _read_new(new_text, f"the new copy of {path} is not a record")
    _replace_record(path, expected_text, new_text, on_wait)


def _replace_record(path: str, expected_text: str, new_text: str,
                    on_wait: Callable[[], None] | None) -> None:
    """Replace the record at ``path``, which must still hold ``expected_text``, by
    ``new_text`` (see the module docstring)."""
    old_bytes, new_bytes = expected_text.encode("utf-8"), new_text.encode("utf-8")
    with _locked_game(os.path.realpath(path), path, on_wait) as game:
        if not game.stat.st_mode & 0o222 or not os.access(game.name, os.W_OK, dir_fd=game.folder):
            raise RecordError(f"{path} is read-only; nothing was written")
        if not os.fstat(game.folder).st_mode & 0o222:
            raise RecordError(f"{path} is in a read-only folder; nothing was written")
        try:
            current = _read_bytes(game.fd, len(old_bytes) + 1)
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        if current != old_bytes:
            raise RecordError(f"{path} changed since it was read (the game moved on); "
                              "nothing was written")
        _remove_stale_temps(game.folder, game.name)
        try:
            _replace(game, new_bytes)
        except OSError as exc:
            raise RecordError(f"could not write {path}: {exc.strerror or exc}; "
                              "the file is unchanged") from None
        try:
            _sync_dir(game.folder)
            if _read_back(game.folder, game.name, len(new_bytes) + 1) != new_bytes:
                raise OSError(errno.EIO, "the file read back differs from what was written")
        except BaseException as exc:
            _restore(game, old_bytes, path)
            if isinstance(exc, OSError):
                raise RecordError(f"could not write {path}: {exc.strerror or exc}; "
                                  "the file was put back as it was") from None
            raise


@dataclass
class _Game:
    """A game file opened and locked: its ``folder`` (a descriptor), its ``name`` in it,
    the descriptor ``fd`` and ``stat`` of the locked file, and every descriptor whose lock
    is held (the versions this writer put in place keep theirs until it is done)."""

    folder: int
    name: str
    fd: int
    stat: os.stat_result
    held: list[int]


@contextlib.contextmanager
def _locked_game(real: str, shown: str, on_wait: Callable[[], None] | None = None) -> Iterator[_Game]:
    """Hold an exclusive flock on the game file ``real`` (a path with no symbolic link),
    waiting up to LOCK_TIMEOUT seconds, once sure its name still names the locked file."""
    directory, name = os.path.split(real)
    try:
        folder = _open_folder(directory, os.O_NOFOLLOW)
    except OSError as exc:
        raise RecordError(f"cannot read {shown}: {exc.strerror or exc}") from None
    held: list[int] = []
    try:
        wait = _Wait(on_wait)
        while True:
            try:
                held.append(_open_game(folder, name))
                locked = os.fstat(held[-1])
            except OSError as exc:
                raise RecordError(f"cannot read {shown}: {exc.strerror or exc}") from None
            if not stat.S_ISREG(locked.st_mode):
                raise RecordError(f"{shown} is not a regular file; nothing was written")
            _lock(held[-1], wait, shown)
            if _names(folder, name, locked):
                break
            os.close(held.pop())  # replaced by another writer meanwhile: lock the new file
        yield _Game(folder, name, held[-1], locked, held)
    finally:
        for descriptor in held:
            os.close(descriptor)
        os.close(folder)


def _open_folder(directory: str, flags: int = 0) -> int:
    return os.open(directory or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | flags)


def _open_game(folder: int, name: str) -> int:
    """Open ``name`` without following a symbolic link, waiting or taking a terminal;
    for writing when allowed (an exclusive flock over NFS needs it)."""
    flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        return os.open(name, os.O_RDWR | flags, dir_fd=folder)
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS, errno.EISDIR, errno.ETXTBSY):
            raise
    return os.open(name, os.O_RDONLY | flags, dir_fd=folder)


class _Wait:
    """The wait for other writers' locks: LOCK_TIMEOUT seconds at most, told to ``on_wait``
    once it has lasted WAIT_NOTICE seconds."""

    def __init__(self, on_wait: Callable[[], None] | None):
        self.start = time.monotonic()
        self.on_wait = on_wait

    def longer(self) -> bool:
        """Wait a little more; False once the time is up."""
        waited = time.monotonic() - self.start
        if waited > LOCK_TIMEOUT:
            return False
        if self.on_wait is not None and waited >= WAIT_NOTICE:
            self.on_wait()
            self.on_wait = None
        time.sleep(0.05)
        return True


def _lock(fd: int, wait: _Wait, shown: str) -> None:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if not wait.longer():
                raise RecordError(f"{shown} is locked by another process (a move being written, "
                                  "or a program reading it); nothing was written, try again") from None
        except OSError as exc:
            raise RecordError(f"cannot lock {shown}: {exc.strerror or exc}") from None


def _names(folder: int, name: str, locked: os.stat_result) -> bool:
    """Whether ``name`` in ``folder`` is still the file ``locked``."""
    try:
        now = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (now.st_dev, now.st_ino) == (locked.st_dev, locked.st_ino)


def _replace(game: _Game, data: bytes) -> None:
    """Put a new file holding ``data``, with the game's mode and owner, in the game's place.
    It is locked before it takes the name, so that a writer who opens it waits until this
    one is done with it."""
    mode = stat.S_IMODE(game.stat.st_mode)
    fd, tmp = _make_temp(game.folder, game.name, mode)
    game.held.append(fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody else knows this file yet
        _set_owner(fd, game.stat.st_uid, game.stat.st_gid)
        _set_mode(fd, mode)
        _write_all(fd, data)
        _fsync(fd)
        _rename(game.folder, tmp, game.name)
    except BaseException:
        _remove_quietly(game.folder, tmp)
        raise


def _restore(game: _Game, data: bytes, shown: str) -> None:
    """Put the original bytes back after a failure that came after the rename."""
    try:
        _replace(game, data)
        if _read_named(game.folder, game.name, len(data) + 1) != data:
            raise OSError(errno.EIO, "the file read back differs")
    except OSError as exc:
        raise RecordError(f"writing {shown} failed and the original could not be put back "
                          f"({exc.strerror or exc}); check the file") from None
    with contextlib.suppress(OSError):
        _sync_dir(game.folder)


def _remove_quietly(folder: int, name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=folder)


def _temp_name(name: str, token: str) -> str:
    """The name of a temporary file for the game ``name`` (``token``: 12 hex digits)."""
    return f".{name}.uptown-{token}.tmp"


def _remove_stale_temps(folder: int, name: str) -> None:
    """Remove temporary files that a writer killed mid-write left beside the game ``name``:
    with the lock held, no other writer can be using one.  Only regular files named exactly
    as this writer names them are removed."""
    before, after = _temp_name(name, "\0").split("\0")
    ours = re.compile(re.escape(before) + "[0-9a-f]{12}" + re.escape(after))
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if ours.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                _remove_quietly(folder, entry.name)


def _make_temp(folder: int, name: str, mode: int) -> tuple[int, str]:
    """Create a new temporary file beside ``name``, no wider than ``mode``; returns (fd, name)."""
    tmp = _temp_name(name, secrets.token_hex(6))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(tmp, flags, mode & 0o777, dir_fd=folder), tmp


def _set_owner(fd: int, uid: int, gid: int) -> None:
    """Give the file the game's owner and group: both as root; otherwise the group when we
    may (we cannot give a file away)."""
    now = os.fstat(fd)
    if (now.st_uid, now.st_gid) == (uid, gid):
        return
    try:
        os.fchown(fd, uid, gid)
    except PermissionError:
        if now.st_gid != gid:
            with contextlib.suppress(PermissionError):
                os.fchown(fd, -1, gid)


def _set_mode(fd: int, mode: int) -> None:
    os.fchmod(fd, mode)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _fsync(fd: int) -> None:
    os.fsync(fd)


def _rename(folder: int, tmp: str, name: str) -> None:
    os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)


def _sync_dir(folder: int) -> None:
    os.fsync(folder)


def _read_bytes(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from the start of the open file ``fd``."""
    chunks = []
    offset = 0
    while offset < limit:
        chunk = os.pread(fd, limit - offset, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _read_named(folder: int, name: str, limit: int) -> bytes:
    """Up to ``limit`` bytes of the file ``name`` in ``folder`` (not a symbolic link)."""
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    try:
        return _read_bytes(fd, limit)
    finally:
        os.close(fd)


def _read_back(folder: int, name: str, limit: int) -> bytes:
    """Read the game after writing it (a step of its own, so tests can make it fail)."""
    return _read_named(folder, name, limit)
