"""The tree a record is read into: scalars, lists and mappings as typed, each with its line and
its offsets in the text (``yaml_reader`` builds it; the schema reads it and the record writer
edits the text where it says).

Nodes are objects, plain classes with slots (docs/ARCHITECTURE.md, Types): the reader fills
them in as it goes (a list's items, a node's end).
"""

from __future__ import annotations

from typing import Any

from ..i18n import pgettext

__all__: list[str] = []


class Node:
    """Where a node is: its 1-based line, and its start and end offsets in the text."""

    __slots__ = ("line", "start", "end")

    def __init__(self, line: int, start: int, end: int) -> None:
        self.line = line
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields())
        return f"{type(self).__name__}({fields})"

    def _fields(self) -> list[str]:
        return [name for cls in reversed(type(self).__mro__) for name in getattr(cls, "__slots__", ())]


class Scalar(Node):
    """A scalar, as typed.  ``plain`` is False when it was quoted or a block scalar."""

    __slots__ = ("value", "plain")

    def __init__(self, line: int, start: int, end: int, value: str, plain: bool) -> None:
        self.line = line
        self.start = start
        self.end = end
        self.value = value
        self.plain = plain

    @property
    def empty(self) -> bool:
        """True for a plain scalar with nothing in it (``key:`` with no value)."""
        return self.plain and self.value == ""


class Sequence(Node):
    """A list of nodes; ``flow`` is True for ``[a, b]`` style."""

    __slots__ = ("items", "flow")

    def __init__(self, line: int, start: int, end: int, items: list[Node], flow: bool) -> None:
        self.line = line
        self.start = start
        self.end = end
        self.items = items
        self.flow = flow


class Mapping(Node):
    """Key/value pairs in file order; keys are scalars and are unique."""

    __slots__ = ("pairs", "flow")

    def __init__(self, line: int, start: int, end: int, pairs: list[tuple[Scalar, Node]],
                 flow: bool) -> None:
        self.line = line
        self.start = start
        self.end = end
        self.pairs = pairs
        self.flow = flow

    def get(self, key: str) -> tuple[Scalar, Node] | None:
        """The (key node, value node) pair for ``key``, or None."""
        for pair in self.pairs:
            if pair[0].value == key:
                return pair
        return None


class Free(Node):
    """The list or mapping under an ``x-`` key (the user's own data), kept as plain data
    (``value``: lists, dicts and strings) rather than a node for each item; ``last_end`` is
    where its own text ends (its last scalar or flow collection)."""

    __slots__ = ("value", "last_end")

    def __init__(self, line: int, start: int, end: int, value: list[Any] | dict[str, Any],
                 last_end: int) -> None:
        self.line = line
        self.start = start
        self.end = end
        self.value = value
        self.last_end = last_end


def describe(node: Node) -> str:
    """A short name for the kind of a node, for error messages."""
    if isinstance(node, Scalar):
        return pgettext("a node", "empty") if node.empty else pgettext("a node", "text")
    if isinstance(node, Free):
        listed = isinstance(node.value, list)
    else:
        listed = isinstance(node, Sequence)
    return pgettext("a node", "a list") if listed else pgettext("a node", "a mapping")


def rest_of_line(text: str, end: int) -> str:
    """The text after offset ``end`` to the end of its line (where a comment may follow a
    node)."""
    line_end = text.find("\n", end)
    return text[end:] if line_end == -1 else text[end:line_end]
