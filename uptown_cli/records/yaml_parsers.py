"""PyYAML's two parsers, and where they read a record differently.

PyYAML parses with libyaml when it is installed and with its own pure-Python parser when not.
The two disagree on a few texts: libyaml takes a tab between tokens (``- red:<TAB>7 B7``), a
``?`` inside a plain scalar in ``[...]`` and a ``#`` right after ``|``, where the pure one
refuses them; the pure one takes unknown directives (``%FOO``), ``[red:]``, ``[?, red]``, a tab
opening block text and a byte order mark inside the text, where libyaml refuses them (and
libyaml puts an empty value in ``[...]`` at the next token, lines later maybe, the pure one
after its colon).  A record must read the same on every computer, so ``yaml_reader`` takes the
pure parser's reading as the reference, with what it alone accepts refused; libyaml's is
used only where it is the same: text holding a tab is read by the pure parser, and whatever
libyaml's parser refuses, or might read otherwise, is read again by it (``ReadOtherwise``),
whose verdict and message stand.  ``tests/records/test_one_reading.py`` checks on generated
texts that both give the same verdict and the same tree.

The functions here say where a text meets one of those differences, by offsets in it.
"""

from __future__ import annotations

import re

import yaml

from ..errors import RecordError
from ..i18n import N_, _

__all__ = [
    "REFERENCE", "ReadOtherwise", "TAB_MESSAGE", "after_colon", "block_difference",
    "directive_problem", "flow_difference", "parser_for", "stray_byte_order_mark",
]

REFERENCE = yaml.SafeLoader
"""The pure-Python loader, whose reading (with the refusals of ``yaml_reader``) is the one."""

YAML_VERSIONS = ((1, 1), (1, 2))
"""The ``%YAML`` directives a record may hold (libyaml refuses others)."""

TAB_MESSAGE = N_("a tab where YAML needs a space (tabs may stand only inside quotes, block text and "
                 "comments)")
"""What the pure parser's refusal of a tab says (it refuses every tab elsewhere)."""

_BREAKS = "\n\r\x85\u2028\u2029"
"""YAML's line breaks."""

_HEADER_THEN_HASH = "[|>][-+0-9]*#"
"""A block scalar's header with a ``#`` right after it: a comment to libyaml, an error to the
pure parser."""

_BLOCK_OPENING = f"[|>]([-+0-9]*)[^{_BREAKS}]*[ {_BREAKS}]*"
"""A block scalar's header (its indicators in group 1), then the spaces and line breaks before
its first character of text."""

_COLON_THEN_INDICATOR = f"[ {_BREAKS}]*:[,?\\[\\]{{}}]"
"""Spaces or line breaks, then a colon right before one of ``,?[]{}``: after a plain scalar in
``[...]`` or ``{...}``, a key and its colon to the pure parser, an error to libyaml."""

_UP_TO_COLON = f"(?:[ \t{_BREAKS}]|#[^{_BREAKS}]*(?![^{_BREAKS}]))*:"
"""Blanks and whole comments, then a colon: from a key to its value indicator."""

_DIRECTIVE = f"(?:^|(?<=[\r\x85\u2028\u2029]))%([^ \t{_BREAKS}]*)"
"""A directive's name, at the start of a line."""

_AFTER_VERSION = f"[ \t]+[^ \t#{_BREAKS}]*#"
"""After ``%YAML``, its version and right behind it a comment's ``#`` (no space between):
libyaml reads the version and the comment, the pure parser refuses."""


class ReadOtherwise(Exception):
    """libyaml's parser refused the text (``refusal``), or met what the pure parser might read
    otherwise (``refusal`` None): the reference reading decides."""

    def __init__(self, refusal: RecordError | None = None) -> None:
        super().__init__()
        self.refusal = refusal


def parser_for(text: str, loader: type) -> type:
    """The loader to read ``text`` with: ``loader``, or the reference for text holding a tab
    (libyaml takes tabs between tokens, which the reference refuses)."""
    return REFERENCE if "\t" in text else loader


def stray_byte_order_mark(text: str) -> int | None:
    """The offset of a byte order mark in ``text`` (the one that begins a file is skipped
    before): libyaml skips one at the start of a line, the pure parser reads it as text."""
    found = text.find("\ufeff")
    return None if found == -1 else found


def block_difference(text: str, start: int, pure: bool) -> tuple[str, int] | None:
    """With the pure parser, (message, offset) when the block scalar whose header is at
    ``start`` opens with a tab (after spaces, on its first line that is not blank, with no
    indentation given: libyaml refuses it); with libyaml's, ``ReadOtherwise`` for a ``#`` right
    after the header."""
    if not pure:
        if re.compile(_HEADER_THEN_HASH).match(text, start):
            raise ReadOtherwise()
        return None
    opening = re.compile(_BLOCK_OPENING).match(text, start)
    assert opening is not None  # a block scalar starts with its header
    if text.startswith("\t", opening.end()) and not re.search("[0-9]", opening.group(1)):
        return (_("a tab where the indentation of block text (| or >) is expected; indent with "
                  "spaces"), opening.end())
    return None


def flow_difference(text: str, value: str, end: int, is_key: bool,
                    pure: bool) -> tuple[str, int] | None:
    """For a plain scalar in ``[...]`` or ``{...}`` (its ``value``, ending at ``end``, a key
    when ``is_key``), with the pure parser, (message, offset) when libyaml would refuse it or
    put it elsewhere; with libyaml's, ``ReadOtherwise`` where the pure parser might read it
    otherwise (a ``?`` inside it ends it there; an empty key goes where each parser likes)."""
    if not pure:
        if "?" in value or is_key and not value:
            raise ReadOtherwise()
        return None
    if not is_key:
        return None
    if not value:
        return _("a key in [...] or {...} must not be empty"), end
    if re.compile(_COLON_THEN_INDICATOR).match(text, end):
        return _("'{value}:' in [...] or {{...}} needs a space after its colon").format(value=value), end
    return None


def after_colon(text: str, key_end: int, value_start: int) -> int | None:
    """Where the pure parser puts an empty value in ``[...]`` or ``{...}`` whose key ends at
    ``key_end`` and that libyaml put at ``value_start``: right after the key's colon."""
    colon = re.compile(_UP_TO_COLON).match(text, key_end, value_start)
    return None if colon is None else colon.end()


def directive_problem(head: str, version: tuple[int, int] | None) -> tuple[str, int] | None:
    """(message, offset in ``head``) for a directive of ``head`` (the text before ``---``,
    ``version`` the ``%YAML`` one's) but ``%YAML 1.1`` and ``%YAML 1.2``: libyaml refuses the
    others, the pure parser ignores them.  (``%TAG`` is refused before.)  ``ReadOtherwise`` for
    a comment glued to the version, which only libyaml reads."""
    for name in re.finditer(_DIRECTIVE, head, re.M):
        if name.group(1) != "YAML":
            return _("the directive %{name} is not allowed in a record").format(
                name=name.group(1)), name.start()
        if re.match(_AFTER_VERSION, head[name.end():]):
            raise ReadOtherwise()
    if version is not None and version not in YAML_VERSIONS:
        return _("%YAML {version}: a record is YAML 1.1 or 1.2").format(
            version=".".join(map(str, version))), 0
    return None
