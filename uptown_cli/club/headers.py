"""What may go into a message's headers and file names: values checked here, whatever the
record or the settings hold, so that the standard library's ``email`` package can write them
only as text, on every Python uptown supports.

The ``email`` package reads a value given for a header as if it came from a message: an
RFC 2047 encoded word in a name or a subject (``=?utf-8?q?Bo=0D=0A...?=``) is decoded, and
before the 2024 security releases of Python 3.10 to 3.12 a line break it decoded was then
written out raw, ending the headers early or adding one (``Reply-To:``). So nothing reaches a
header as it is: ``header_text`` escapes what is not printable and breaks every ``=?``;
``checked_address`` lets through only an ASCII ``local@domain``; ``plain_file_name`` makes a
file name that names no other folder and no hidden file.
"""

from __future__ import annotations

import re
from email.charset import Charset
from email.utils import formataddr

from ..errors import MailError, one_line
from ..i18n import _

__all__ = [
    "MAX_NAME", "address_field", "address_key", "checked_address", "header_text", "header_value",
    "plain_file_name", "shown_name",
]

_LOCAL_PART = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
"""A dot-atom of ASCII (RFC 5322): what uptown sends to before the ``@``."""
_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
"""One label of a domain, in ASCII (a non-ASCII label is written in its IDNA form first)."""
MAX_DOMAIN = 253
MAX_NAME = 100
"""Characters of a display name kept in a header (a longer one is cut, ``...`` added)."""
WORD_BYTES = 30
"""UTF-8 bytes per encoded word: each stays well under RFC 2047's 75 characters, and the first
fits on the header's first line."""
_UTF8 = Charset("utf-8")
MAX_FILE_NAME_BYTES = 200
"""A file name longer than this (in UTF-8) is not kept: most file systems stop at 255."""


def header_text(text: str) -> str:
    """``text`` as a display name or a subject: what is not printable (C0 and C1 controls,
    U+2028 and U+2029, lone surrogates...) escaped as the terminal shows it (``\\x1b``), and
    every ``=?`` written ``= ?``, so that no encoded word can start."""
    return one_line(text).replace("=?", "= ?")


def header_value(text: str) -> str:
    """``text`` (already ``header_text``) as a header's value: as it is in ASCII, else as
    RFC 2047 encoded words of at most ``WORD_BYTES`` bytes each, with a blank between them
    where the header may be folded."""
    if text.isascii():
        return text
    words, word = [], ""
    for ch in text:
        if word and len((word + ch).encode("utf-8")) > WORD_BYTES:
            words.append(word)
            word = ""
        word += ch
    words.append(word)
    return " ".join(_UTF8.header_encode(word) for word in words)


def address_field(name: str | None, address: str) -> str:
    """``Name <address>`` for a From or To header: the name made ``header_text``, cut to
    ``MAX_NAME`` characters, quoted or encoded as it needs; ``address`` must come from
    ``checked_address``."""
    shown = header_text(name or "")
    if len(shown) > MAX_NAME:
        shown = shown[:MAX_NAME - 3] + "..."
    if not shown.strip():
        return address
    if shown.isascii():
        return formataddr((shown, address))
    return f"{header_value(shown)} <{address}>"


def checked_address(text: str, whose: str) -> str:
    """``text`` as an address to send to (``whose`` names it in the error): ``local@domain``
    with an ASCII dot-atom before the ``@`` and a domain of one label or more (``localhost``
    too), a non-ASCII domain in its IDNA form; MailError (one line) for anything else."""
    local, at, domain = text.rpartition("@")
    if at and local and not local.isascii():
        raise MailError(_("{whose} {text!r} has letters beyond ASCII before the @, which needs "
                          "SMTPUTF8: uptown sends only to ASCII addresses; nothing was sent")
                        .format(whose=whose, text=text))
    if not at or not _LOCAL_PART.fullmatch(local) or "=?" in local:
        raise MailError(_("{whose} {text!r} is not an address uptown sends to (local@domain, in "
                          "ASCII before the @); nothing was sent").format(whose=whose, text=text))
    try:
        ascii_domain = domain.encode("idna").decode("ascii")
    except UnicodeError:
        ascii_domain = ""
    labels = ascii_domain.split(".")
    if len(ascii_domain) > MAX_DOMAIN or not all(_LABEL.fullmatch(label) for label in labels):
        raise MailError(_("{whose} {text!r} does not end in a domain name (such as example.org "
                          "or localhost); nothing was sent").format(whose=whose, text=text))
    return f"{local}@{ascii_domain}"


def address_key(text: str) -> str | None:
    """``text`` as addresses are compared, as mail systems compare them: the part before the
    last ``@`` as it is (it may be case-sensitive), the domain in lower case and in its IDNA
    (ASCII) form, so that ``ana@Example.ORG`` is ``ana@example.org`` and ``ana@bücher.de`` is
    ``ana@xn--bcher-kva.de``; None for what is no ``local@domain``."""
    local, at, domain = text.strip().rpartition("@")
    if not at or not local or not domain:
        return None
    domain = domain.rstrip(".").lower()
    try:
        domain = domain.encode("idna").decode("ascii").lower()
    except UnicodeError:
        pass
    return f"{local}@{domain}"


SHOWN_NAME = 40
"""The most characters of a file name quoted in a message (a longer one keeps its start and
its end, ``...`` between), so that the message fits a line."""


def shown_name(name: str) -> str:
    """``name`` (a file name from a mail) as a message quotes it: printable (``one_line``),
    in quotes, and cut in its middle to ``SHOWN_NAME`` characters when longer."""
    text = one_line(name)
    if len(text) > SHOWN_NAME:
        text = f"{text[:SHOWN_NAME // 2]}...{text[-(SHOWN_NAME // 2 - 3):]}"
    return f"'{text}'"


def plain_file_name(name: str) -> str | None:
    """``name`` made a plain file name: only its last part after any ``/`` or ``\\``, what
    is not printable and ``=?`` written ``_``, no dot, dash or blank in front (no hidden file,
    no ``..``, nothing a command reads as an option: ``-rf.yaml`` is ``rf.yaml``); None when
    nothing is left or it is too long to keep."""
    last = re.split(r"[/\\]", name)[-1]
    clean = "".join(ch if ch.isprintable() else "_" for ch in last).replace("=?", "=_")
    clean = clean.strip(" ").lstrip(". -")
    if not clean or len(clean.encode("utf-8")) > MAX_FILE_NAME_BYTES:
        return None
    return clean
