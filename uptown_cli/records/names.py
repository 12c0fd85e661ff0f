"""What a record's players' names, its event and its e-mail addresses may hold: the text every
table shows and a mail's headers carry (records/README.md, "Players" and "The keys").

- A name is one line of printable text (no control character, no line or paragraph
  separator, no format character): an error otherwise, in ``validate`` as in ``new``.
- The event holds no control character (C0 with tab and line breaks, DEL, C1) and no line or
  paragraph separator (U+2028, U+2029): an error otherwise.
- An address is one ``local@domain`` that a mail system takes (``address_problem``).
- A name or an event holding MIME encoded-word syntax (``=?...?=``) is a warning in
  ``validate`` (mail programs may decode it; uptown mails it as typed) and refused by ``new``.
- Two names that look alike (``look_alike``: "Ana" and "Аna", whose first letter is Cyrillic)
  are refused at one table (``records.lineup``) and flagged by ``ratings``.
- ``player_named``: the player an ``--as NAME`` names, as records compare names.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import Any

from ..engine.game import name_key, same_name
from ..errors import ViewerError
from ..i18n import _

__all__ = ["address_problem", "encoded_word_warning", "event_problem", "name_problem",
           "look_alike", "look_alikes", "odd_character", "player_named"]

_CONTROL = "[\x00-\x1f\x7f-\x9f\u2028\u2029]"
"""A control character (C0, DEL, C1) or a line or paragraph separator."""

_ENCODED_WORD = r"=\?.*\?="
"""What mail programs may read as an RFC 2047 encoded word: ``=?`` and later ``?=``."""

_ATOM = r"""[^\x00-\x20"(),.:;<>@\[\\\]\x7f]+"""
"""Letters, digits, ``!#$%&'*+/=?^_`{|}~-`` and every character past ASCII, written as what
it is not: a class that reaches U+10FFFF takes re tens of milliseconds to compile."""
_QUOTED = r'"(?:[^"\\\x00-\x1f\x7f]|\\[^\x00-\x1f\x7f])*"'
"""A quoted local part (RFC 5322): ``"ana smith"``, with ``\\"`` and ``\\\\``."""
_LABEL = r"[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]"
"""A letter, a digit or a character past ASCII."""
_INNER = r"[^\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]"
"""The same, or a hyphen."""
_ADDRESS = (rf"(?P<local>{_ATOM}(?:\.{_ATOM})*|{_QUOTED})@(?:(?P<domain>{_LABEL}(?:{_INNER}*{_LABEL})?"
            rf"(?:\.{_LABEL}(?:{_INNER}*{_LABEL})?)*)|\[(?P<literal>[^\[\]\\]+)\])")
"""One plain address, ``local@domain``: a dot-atom or quoted local part (RFC 5322; non-ASCII
allowed, RFC 6531) and a domain of one label or more (letters, digits, inner hyphens:
``localhost`` too) or an address literal (``[192.0.2.1]``, ``[IPv6:2001:db8::1]``)."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None."""
    if not name.strip():
        return _("a player's name must not be empty")
    if not name.isprintable():
        return (_("a player's name must be one line of printable text, not {name!r}")
                .format(name=name))
    return None


def look_alike(name: str) -> tuple[str, str]:
    """What the names that look like ``name`` share: its skeleton (Unicode's confusables, UTS
    #39: each character made its prototype, ``records.confusables``, in the decomposed form)
    after NFKC, and the skeleton of that case folded. "Ana" and "Аna" (a Cyrillic А) share
    the first; "ANA" and "аna", the second; "Lan" and "Ian" neither (a folded L is an l,
    which looks like I)."""
    import unicodedata

    from .confusables import PROTOTYPES

    def skeleton(text: str) -> str:
        mapped = "".join(PROTOTYPES.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
        return unicodedata.normalize("NFD", mapped)

    shown = unicodedata.normalize("NFKC", name.strip())
    return skeleton(shown), skeleton(shown.casefold())


def look_alikes(names: Iterable[str]) -> list[tuple[str, str]]:
    """The pairs of ``names`` that look alike (``look_alike``) but are not one player's name
    (``engine.game.name_key``: case, blanks round it and composed forms aside), each pair once,
    the one found first first."""
    seen: dict[tuple[int, str], str] = {}
    pairs: list[tuple[str, str]] = []
    for name in names:
        for kind, key in enumerate(look_alike(name)):
            first = seen.setdefault((kind, key), name)
            if name_key(first) != name_key(name) and (first, name) not in pairs:
                pairs.append((first, name))
    return pairs


def odd_character(first: str, second: str) -> str:
    """What tells two names that look alike apart, for people: the first character of
    ``second`` that ``first`` lacks (else the other way round), as ``U+0410 CYRILLIC CAPITAL
    LETTER A``."""
    import unicodedata

    odd = next((ch for ch in second if ch not in first), None) or next(
        (ch for ch in first if ch not in second), " ")
    return f"U+{ord(odd):04X} {unicodedata.name(odd, '?')}"


def event_problem(event: str) -> str | None:
    """Why ``event`` cannot be a record's event, or None."""
    if re.search(_CONTROL, event):
        return (_("the event must be one line without control characters, not {event!r}")
                .format(event=event))
    return None


def encoded_word_warning(what: str, text: str) -> str | None:
    """The warning for ``text`` (``what`` it is: "the name", "the event") when it holds
    encoded-word syntax, or None."""
    if "=?" in text and re.search(_ENCODED_WORD, text):
        return (_("{what} {text!r} holds '=?...?=', which mail programs may read as a "
                  "MIME encoded word (RFC 2047)").format(what=what, text=text))
    return None


def address_problem(text: str) -> str | None:
    """Why ``text`` is not one plain email address that a mail system takes
    (``ana@example.org``, ``ana@localhost``), or None when it is: no display name or angle
    brackets, a local part of at most 64 bytes, a domain whose labels fit DNS (63 bytes, as
    IDNA encodes a non-ASCII one) or an IP address in brackets, 254 bytes in all."""
    found = re.fullmatch(_ADDRESS, text) if text.isprintable() else None
    if (found is not None and len(found.group("local").encode("utf-8")) <= 64
            and len(text.encode("utf-8")) <= 254 and (
                _domain_fits(found.group("domain")) if found.group("domain") is not None
                else _literal_fits(found.group("literal")))):
        return None
    return _("{text!r} is not an email address like ana@example.org").format(text=text)


def _domain_fits(domain: str) -> bool:
    """Whether every label of ``domain`` (letters, digits, inner hyphens) fits DNS."""
    if domain.isascii():
        return all(len(label) <= 63 for label in domain.split("."))
    from encodings.idna import ToASCII  # loaded for the rare domain past ASCII only

    try:
        return all(len(ToASCII(label)) <= 63 for label in domain.split("."))
    except UnicodeError:
        return False


def _literal_fits(literal: str) -> bool:
    """Whether ``literal`` (between the brackets) is an IPv4 address or ``IPv6:`` one."""
    try:
        if literal.startswith("IPv6:"):
            ipaddress.IPv6Address(literal[5:])
        else:
            ipaddress.IPv4Address(literal)
    except ValueError:
        return False
    return True


def player_named(players: Iterable[Any], as_name: str) -> str:
    """The name of the player ``as_name`` names (as records compare names: game.name_key)."""
    names: list[str] = [p.name for p in players]
    for name in names:
        if same_name(name, as_name):
            return name
    raise ViewerError(_("no player is named {as_name!r} (players: {names})")
                      .format(as_name=as_name, names=', '.join(names)))
