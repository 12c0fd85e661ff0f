"""Strict, text-preserving YAML reading for Uptown records.

PyYAML's loaders turn ``No`` into ``False``, ``0123`` into 83 and a date into a
``datetime.date``; they keep the last of two equal keys and expand aliases.  This
module instead builds a small tree of nodes straight from the parser's events,
so that every scalar stays the exact text that was typed, and refuses what a
record never needs: duplicate keys, anchors, aliases, tags, ``%TAG``
directives, a second document, deep nesting (the user's own ``x-`` keys may nest
deeper), files over 1 MiB, bytes that are not UTF-8 and lone surrogates (text
that no UTF-8 file can hold).  Refusals happen as soon as the offending event is
seen, before anything is expanded.  Where PyYAML's two parsers (libyaml's and its own
pure-Python one) read a text differently, the pure one's reading is the one, with what it
alone accepts refused (``yaml_parsers``): a file reads the same on every computer.  Every node
keeps its 1-based line (as an editor counts lines) and its character offsets in the text,
which the record writer uses to edit the file in place.  Only regular files and pipes are read.

The work is linear in the size of the text: the tree is built without recursion and
without Python's cyclic garbage collector running over it (a tree holds no cycles, and
collections over half a million live nodes cost more than building them); the data
under an ``x-`` key is read straight into plain lists and dicts (a ``Free`` node), with
the same checks but no node per item.  A record keeps the tree of its one parse
(``schema.Record.tree``), so a command that reads a record and then edits it parses it once.
"""

from __future__ import annotations

import contextlib
import gc
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any, NoReturn, cast

import yaml
from yaml import AliasEvent, MappingEndEvent, ScalarEvent, SequenceEndEvent, SequenceStartEvent

from ..errors import RecordError
from .nodes import Free, Mapping, Node, Scalar, Sequence, describe
from .yaml_parsers import (
    REFERENCE,
    TAB_MESSAGE,
    ReadOtherwise,
    after_colon,
    block_difference,
    directive_problem,
    flow_difference,
    parser_for,
    stray_byte_order_mark,
)
from ..i18n import _

__all__ = ["MAX_BYTES"]

#: The largest record file accepted, in bytes.
MAX_BYTES = 1024 * 1024

#: Seconds a pipe may keep silent while it is read before it is given up.
PIPE_WAIT = 30

#: Deepest nesting of collections a record can have: the top mapping, the
#: moves list, a move mapping, its variations list and a variation's moves.
MAX_DEPTH = 5

#: Deepest nesting under a key that begins with ``x-`` (the user's own data), counting the
#: top mapping: deeper than any real data needs.  (libyaml stops at 1000 levels by itself, and
#: PyYAML's own parser takes time that grows with the square of the depth of ``[[[...``.)
MAX_DEPTH_UNDER_X = 100

#: The loader whose parser produces the events: libyaml's when available, but the reference
#: (``yaml_parsers.REFERENCE``) where they might differ.  Set it to ``yaml.SafeLoader`` to read
#: as a computer without libyaml does (the tests do).
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: A lone UTF-16 surrogate: Python text can hold one, but it is not a character.
_SURROGATE = "[\ud800-\udfff]"

#: A carriage return that is not part of ``\r\n``: a line break for YAML, not for an editor.
_LONE_CR = "\r(?!\n)"


@contextlib.contextmanager
def _without_collection() -> Iterator[None]:
    """No cyclic garbage collection while a tree is built: it would walk the growing tree
    again and again."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def to_plain(node: Node) -> Any:
    """The node as plain Python data: strings, lists and dicts (built without recursion)."""
    if isinstance(node, (Scalar, Free)):
        return node.value
    with _without_collection():
        return _plain_collection(node)


def _plain_collection(node: Node) -> list[Any] | dict[str, Any]:
    plain: list[Any] | dict[str, Any] = [] if isinstance(node, Sequence) else {}
    waiting: list[tuple[Node, Any]] = [(node, plain)]
    while waiting:
        source, target = waiting.pop()
        pairs = enumerate(source.items) if isinstance(source, Sequence) else (
            (key.value, value) for key, value in cast(Mapping, source).pairs)
        for key, value in pairs:
            if isinstance(value, (Scalar, Free)):
                item = value.value
            else:
                item = [] if isinstance(value, Sequence) else {}
                waiting.append((value, item))
            if isinstance(target, list):
                target.append(item)
            else:
                target[key] = item
    return plain


def decode(data: bytes, path: str | None) -> str:
    """Check the size of raw record bytes and decode them as strict UTF-8."""
    if len(data) > MAX_BYTES:
        # A pipe is read no further than one byte past the limit: its full size is unknown.
        size = (_("more than {count} bytes") if len(data) == MAX_BYTES + 1 else
                _("{count} bytes")).format(count=MAX_BYTES if len(data) == MAX_BYTES + 1 else len(data))
        raise RecordError(_("the file is larger than 1 MiB ({size}); refused").format(size=size), path=path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(_("not UTF-8 text: byte 0x{data:02x} cannot be read")
                          .format(data=data[exc.start]),
                          path=path, line=line) from None


def parse(text: str, path: str | None = None) -> Node | None:
    """Parse one YAML document into nodes; None when the text holds no document.

    Raises RecordError for YAML syntax errors and for everything this module
    refuses (see the module docstring).
    """
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise RecordError(_not_a_character(text[exc.start]), path=path,
                          line=text.count("\n", 0, exc.start) + 1) from None
    if size > MAX_BYTES:
        raise RecordError(_("the file is larger than 1 MiB; refused"), path=path)
    # libyaml skips a byte order mark without counting it; keep offsets aligned.
    shift = 1 if text.startswith("\ufeff") else 0
    body = text[shift:] if shift else text
    stray = stray_byte_order_mark(body)
    if stray is not None:
        raise RecordError(_("a byte order mark (U+FEFF) may only begin the file, not stand inside "
                            "it"),
                          path=path, line=body.count("\n", 0, stray) + 1)
    with _without_collection():
        try:
            return _Composer(body, path, shift, parser_for(body, LOADER)).guarded_document()
        except ReadOtherwise as otherwise:
            tree = _Composer(body, path, shift, REFERENCE).guarded_document()
            if otherwise.refusal is not None:  # refused by libyaml alone: refused all the same
                raise otherwise.refusal from None
            return tree


def _not_a_character(surrogate: str) -> str:
    return _("\\u{code:04x} is a lone surrogate, not a character; refused").format(code=ord(surrogate))


class _Composer:
    """Builds nodes from parser events, refusing what records never contain."""

    def __init__(self, text: str, path: str | None, shift: int, loader: type) -> None:
        self.text = text
        self.path = path
        self.shift = shift
        self.loader = loader
        self.next: Callable[[], Any] = None  # type: ignore[assignment]  # set by guarded_document
        # PyYAML's own parser, not libyaml's: it lets an escape such as "\udc80" through
        # (libyaml refuses it), and its reading is the reference.
        self.pure = issubclass(loader, yaml.reader.Reader)
        # YAML also breaks lines at \x85, \u2028, \u2029 and a lone \r; a line here is what an
        # editor shows, so where the text holds those, lines are counted from the offsets (and
        # where it does not end a line: the two parsers count the end of the text differently).
        self.line_starts: list[int] | None = None
        if (not text.endswith("\n") or "\x85" in text or "\u2028" in text or "\u2029" in text
                or ("\r" in text and re.search(_LONE_CR, text))):
            self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, mark: yaml.Mark | yaml._yaml.Mark) -> int:
        """The 1-based line of a parser mark, counting ``\\n`` only."""
        if self.line_starts is None:
            return mark.line + 1
        return bisect_right(self.line_starts, mark.index)

    def line_at(self, offset: int) -> int:
        """The 1-based line of an offset in the text, counting ``\\n`` only."""
        return self.text.count("\n", 0, offset) + 1

    def error(self, message: str, event: Any) -> RecordError:
        return RecordError(message, path=self.path, line=self.line(event.start_mark))

    def guarded_document(self) -> Node | None:
        """The document, with PyYAML's errors turned into RecordErrors with their line; with
        libyaml's parser, ``ReadOtherwise`` where the reference reading must decide."""
        parser = None
        try:
            parser = self.loader(self.text)  # (the pure one checks the characters here)
            self.next = parser.get_event
            return self.document()
        except RecordError:  # a refusal of this module's own
            raise
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            detail = exc.problem or "not valid YAML"
            if mark is not None and self.text.startswith("\t", mark.index):
                detail = _(TAB_MESSAGE)
            elif exc.context and exc.problem:
                detail = f"{exc.problem} ({exc.context})"
            refusal = RecordError(_("invalid YAML: {detail}").format(detail=detail), path=self.path,
                                  line=self.line(mark) if mark else None)
            if exc.problem == "exceeded maximum nesting depth":  # libyaml's 1000 levels:
                raise refusal from None  # past MAX_DEPTH_UNDER_X, refused by both (and slow in one)
        except yaml.YAMLError as exc:  # a ReaderError: a character YAML forbids
            position = getattr(exc, "position", None)
            if position is not None and not self.pure:  # an offset in UTF-8 bytes
                before = self.text.encode("utf-8")[:position]
                position = len(before.decode("utf-8", "ignore"))
            reason = getattr(exc, "reason", None) or "not valid YAML"
            refusal = RecordError(_("invalid YAML: {reason}").format(reason=reason), path=self.path,
                                  line=None if position is None else self.line_at(position))
        except ValueError:  # the pure parser's chr() on an escape past U+10FFFF
            assert parser is not None  # made without a chr()
            refusal = RecordError(_("invalid YAML: an escape past the last Unicode character (\\U0010ffff)"), path=self.path, line=self.line(parser.get_mark()))
        finally:
            if parser is not None:
                parser.dispose()
        if not self.pure:
            raise ReadOtherwise(refusal)
        raise refusal from None

    def document(self) -> Node | None:
        root = None
        while True:
            event = self.next()
            if isinstance(event, yaml.StreamEndEvent):
                return root
            if isinstance(event, yaml.DocumentStartEvent):
                if root is not None:
                    raise self.error(_("a record is a single YAML document, "
                                       "but a second one starts here"), event)
                if event.explicit:
                    self.refuse_directives(event)
                root = self.node(self.next())

    def refuse_directives(self, start: Any) -> None:
        """Refuse the directives before ``---`` but ``%YAML 1.1`` and ``%YAML 1.2``."""
        if start.tags:
            raise self.error(_("%TAG directives are not allowed in a record"), start)
        first = start.start_mark.index
        problem = directive_problem(self.text[first:start.end_mark.index], start.version)
        if problem is not None:
            raise RecordError(problem[0], path=self.path, line=self.line_at(first + problem[1]))

    def node(self, event: Any) -> Node:
        """The node that ``event`` starts.  The collections still open wait on a list, not on
        Python's stack, so that no nesting can exhaust it; the innermost is held in local
        names, as it is the one each event concerns.  (The hot loop of validation.)"""
        around: list[tuple[Sequence | Mapping, dict[str, int] | None, Scalar | None]] = []
        into: Sequence | Mapping | None = None  # the innermost collection still open
        seen: dict[str, int] | None = None  # its keys so far and their lines (None: a list)
        key: Scalar | None = None  # the key read in it, waiting for its value
        next_event = self.next
        shift = self.shift
        lines_as_parsed = self.line_starts is None
        while True:
            kind = event.__class__
            if kind is ScalarEvent:
                if event.anchor is not None or event.tag is not None:
                    self.refuse_properties(event)
                mark = event.start_mark
                node: Node = Scalar(mark.line + 1 if lines_as_parsed else self.line(mark),
                                    mark.index + shift, event.end_mark.index + shift,
                                    event.value, not event.style)
                style = event.style
                if (style == '"' and self.pure or style == "|" or style == ">"
                        or not style and into is not None and into.flow):
                    self.check_scalar(event, into is not None and into.flow,
                                      seen is not None and key is None)
                    if not self.pure and key is not None and not event.value and not style:
                        self.place_empty_value(node, key)  # type: ignore[arg-type]  # a Scalar
            elif kind is SequenceEndEvent or kind is MappingEndEvent:
                node = into  # type: ignore[assignment]  # an end event ends an open collection
                node.end = event.end_mark.index + shift
                if not around:
                    return node
                into, seen, key = around.pop()
            else:
                if kind is AliasEvent or event.anchor is not None or event.tag is not None:
                    self.refuse_properties(event)
                if key is None or not key.value.startswith("x-"):
                    if into is not None:
                        if len(around) + 1 >= MAX_DEPTH:
                            raise self.error(_("nested deeper than a record can be"), event)
                        around.append((into, seen, key))
                    mark = event.start_mark
                    line = mark.line + 1 if lines_as_parsed else self.line(mark)
                    start = mark.index + shift
                    if kind is SequenceStartEvent:
                        into, seen = Sequence(line, start, start, [], bool(event.flow_style)), None
                    else:
                        into, seen = Mapping(line, start, start, [], bool(event.flow_style)), {}
                    key = None
                    event = next_event()
                    continue
                node = self.free_value(event, len(around) + 1)
            if into is None:
                return node
            if seen is None:
                into.items.append(node)  # type: ignore[union-attr]  # seen is None: a Sequence
            elif key is not None:
                into.pairs.append((key, node))  # type: ignore[union-attr]  # a Mapping
                key = None
            else:
                if node.__class__ is not Scalar or node.value in seen:
                    self.refuse_key(seen, node)
                seen[node.value] = node.line
                key = node
            event = next_event()

    def free_value(self, event: Any, depth: int) -> Free:
        """The collection that ``event`` starts under an x- key, ``depth`` collections deep,
        read to its end as plain data, with the checks every collection gets."""
        next_event = self.next
        pure = self.pure
        shift = self.shift
        mark = event.start_mark
        line = self.line(mark)
        start = mark.index + shift
        root: list[Any] | dict[str, Any] = [] if event.__class__ is SequenceStartEvent else {}
        open_items: list[Any] = [root]  # the collections open, innermost last
        flows = [bool(event.flow_style)]
        waiting: list[Any] = [None]  # per mapping: the key read, waiting for its value
        marks: list[dict[str, Any]] = [{}]  # per mapping: each key's start mark (for "given twice")
        last_end = start
        while True:
            if depth + len(open_items) > MAX_DEPTH_UNDER_X:
                raise self.error(_("nested deeper than {levels} levels, the most under an x- "
                                   "key").format(levels=MAX_DEPTH_UNDER_X), event)
            event = next_event()
            kind = event.__class__
            if kind is SequenceEndEvent or kind is MappingEndEvent:
                open_items.pop()
                waiting.pop()
                marks.pop()
                if flows.pop():
                    last_end = event.end_mark.index + shift
                if not open_items:
                    return Free(line, start, event.end_mark.index + shift, root, last_end)
                continue
            if kind is ScalarEvent:
                if event.anchor is not None or event.tag is not None:
                    self.refuse_properties(event)
                style = event.style
                if pure and style == '"' or style == "|" or style == ">" or not style and flows[-1]:
                    self.check_scalar(event, flows[-1],
                                      open_items[-1].__class__ is dict and waiting[-1] is None)
                item = event.value
                last_end = event.end_mark.index + shift
            else:
                if kind is AliasEvent or event.anchor is not None or event.tag is not None:
                    self.refuse_properties(event)
                item = [] if kind is SequenceStartEvent else {}
            into = open_items[-1]
            if into.__class__ is list:
                into.append(item)
            elif waiting[-1] is not None:
                into[waiting[-1]] = item
                waiting[-1] = None
            elif kind is not ScalarEvent:
                raise RecordError(_("a key must be text, not {value}")
                                  .format(value='a list' if item == [] else 'a mapping'),
                                  path=self.path, line=self.line(event.start_mark))
            elif item in into or item in marks[-1]:
                raise RecordError(_("the key '{item}' is given twice (first on line {marks})")
                                  .format(item=item, marks=self.line(marks[-1][item])),
                                  path=self.path, line=self.line(event.start_mark))
            else:
                waiting[-1] = item
                marks[-1][item] = event.start_mark
            if kind is not ScalarEvent:
                open_items.append(item)
                flows.append(bool(event.flow_style))
                waiting.append(None)
                marks.append({})

    def check_scalar(self, event: Any, in_flow: bool, is_key: bool) -> None:
        """Refuse a lone surrogate in a double-quoted scalar (the pure parser lets one through)
        and what the two parsers read differently in a block scalar, or a plain one in
        ``[...]`` or ``{...}`` (``in_flow``; a key when ``is_key``); with libyaml's parser,
        hand what the pure one might read otherwise to it (``ReadOtherwise``)."""
        style = event.style
        if style == '"':
            surrogate = re.search(_SURROGATE, event.value)
            if surrogate:
                raise self.error(_not_a_character(surrogate.group()), event)
            return
        if style == "|" or style == ">":
            problem = block_difference(self.text, event.start_mark.index, self.pure)
        else:
            problem = flow_difference(self.text, event.value, event.end_mark.index, is_key,
                                      self.pure)
        if problem is not None:
            raise RecordError(problem[0], path=self.path, line=self.line_at(problem[1]))

    def place_empty_value(self, value: Scalar, key: Scalar) -> None:
        """Put an empty value in ``[...]`` or ``{...}`` where the pure parser does."""
        colon = after_colon(self.text, key.end - self.shift, value.start - self.shift)
        if colon is not None:
            value.start = value.end = colon + self.shift
            value.line = self.line_at(colon)

    def refuse_properties(self, event: ScalarEvent | yaml.CollectionStartEvent | AliasEvent) -> None:
        """Refuse an alias, an anchor or a tag (as the pure parser reads it, with libyaml's: the
        two end a tag at different characters)."""
        if not self.pure:
            raise ReadOtherwise()
        if isinstance(event, AliasEvent):
            raise self.error(_("aliases (*{anchor}) are not allowed in a record").format(anchor=event.anchor), event)
        if event.anchor is not None:
            raise self.error(_("anchors (&{anchor}) are not allowed in a record").format(anchor=event.anchor), event)
        if event.tag is not None:
            raise self.error(_("tags ({tag}) are not allowed in a record").format(tag=event.tag), event)

    def refuse_key(self, seen: dict[str, int], key: Node) -> NoReturn:
        """Refuse a key that is not text, or that its mapping already has (``seen``: its keys
        so far and their lines)."""
        if not isinstance(key, Scalar):
            raise RecordError(_("a key must be text, not {key}").format(key=describe(key)),
                              path=self.path, line=key.line)
        raise RecordError(_("the key '{value}' is given twice (first on line {seen})")
                          .format(value=key.value, seen=seen[key.value]),
                          path=self.path, line=key.line)

