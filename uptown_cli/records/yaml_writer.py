"""Text as YAML scalars that every YAML reader gives back as that very text: plain where it is
safe, double-quoted otherwise (``quote``). The writing half of ``yaml_reader``."""

from __future__ import annotations

import re

__all__ = ["quote"]

_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


#: Plain scalars that some YAML 1.1 or 1.2 (core schema) reader types as other than
#: text, drawn a little wider than the specifications (case is ignored): booleans,
#: nulls, numbers in any base, sexagesimals, infinities and NaN, dates, merge and value.
#: Compiled on first use (``re`` keeps it): ``_typed`` needs it only for text that begins
#: with a digit or a sign, and compiling it costs about a millisecond.
_TYPED = r"""
      y | n | yes | no | true | false | on | off        # booleans (1.1 and 1.2)
    | ~ | null                                          # nulls
    | [-+]? [0-9_.:]+ (e [-+]? [0-9_]+)?                # decimal ints and floats, 1_000, 12:30
    | [-+]? 0 [box] [0-9a-f_]+                          # binary, octal, hexadecimal
    | [-+]? \. (inf | nan)                              # infinities and not-a-number
    | [0-9]{4} - [0-9]{1,2} - [0-9]{1,2} ([ t] .*)?     # dates and timestamps
    | << | =                                            # YAML 1.1 merge and value keys
"""
#: What a typed plain scalar that is a word can be (case ignored): the booleans and null.
_TYPED_WORDS = frozenset(("y", "n", "yes", "no", "true", "false", "on", "off", "null"))


#: Characters that may not begin a plain scalar; what may not appear in one (a colon, the
#: start of a comment); and what may not appear in one inside a flow collection (``[a, b]``;
#: PyYAML ends a plain scalar there at ``?`` too).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW = frozenset(",[]{}?")


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
            and text[0] not in _INDICATORS and ":" not in text and " #" not in text
            and not (flow and not _FLOW.isdisjoint(text)) and not _typed(text))


def _typed(text: str) -> bool:
    """Whether plain ``text`` (not empty) matches ``_TYPED``. Only a boolean or null begins
    with a letter, and nothing typed begins with a character past ASCII, ``$`` and the like."""
    if text[0].isalpha():
        return text.lower() in _TYPED_WORDS
    if text[0] not in "~+-.:_<=0123456789":
        return False
    return re.fullmatch(_TYPED, text, re.VERBOSE | re.IGNORECASE | re.DOTALL) is not None
