"""The game a message carries, whatever mail program wrote it.

``read_message`` parses a message with limits: its size, how many MIME parts it has and how
deeply they nest (counted in the raw bytes before parsing, so that no message can make the
parser recurse or work without end). ``find_game`` finds the one game attached: a part named
``*.yaml``/``*.yml`` or typed as YAML, anywhere in the message, inside a forwarded message
(``message/rfc822``) too; its file name read from RFC 2231 parameters or the common RFC 2047
form; its content decoded as its part says (transfer encoding, and for a ``text/*`` part its
charset) and kept as UTF-8. Anything it cannot read is one line (``MailError``).
"""

from __future__ import annotations

import email
import re
from email.errors import HeaderParseError
from email.header import decode_header
from email.message import Message
from email.policy import default
from typing import Callable, Iterator, NamedTuple, cast

from ..errors import NOTHING_WRITTEN, MailError, RecordError, one_line
from ..i18n import N_, thousands
from ..i18n import _ as gettext
from ..records.schema import Record, load_record_text
from ..records.yaml_reader import MAX_BYTES
from .headers import address_key, plain_file_name, shown_name

__all__ = ["Attached", "MAX_MESSAGE_BYTES", "find_game", "message_game", "read_message"]

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""A message larger than this is refused unread (a game is at most 1 MiB)."""
MAX_PARTS = 100
"""MIME parts a message may have (uptown's own have three; a forward of one, six)."""
MAX_DEPTH = 8
"""How deeply parts may nest: multiparts and forwarded messages within one another."""
MAX_MARKS = 20 * MAX_PARTS
"""Lines that start with ``--`` (each boundary is one) a message may hold before parsing."""
_CONTAINER = re.compile(rb"(?im)^content-type:[ \t]*(?:\r?\n[ \t]+)*(?:multipart|message)/")
"""A part that holds parts: counted before parsing, it bounds how deeply they can nest."""
MAX_FROM = 4000
"""Characters of From headers read for their addresses (a real one holds a few dozen)."""
GAME_SUFFIXES = (".yaml", ".yml")
GAME_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
COMPRESSED_SUFFIXES = (".gz", ".tgz", ".zip", ".bz2", ".xz", ".7z", ".tar", ".zst", ".rar",
                       ".z", ".lz", ".lzma")
COMPRESSED_TYPES = ("application/gzip", "application/x-gzip", "application/zip",
                    "application/x-zip-compressed", "application/x-bzip2", "application/x-xz",
                    "application/x-7z-compressed", "application/x-tar", "application/zstd",
                    "application/x-rar-compressed", "application/vnd.rar",
                    "application/x-compress")
PLAIN_CHARSETS = ("us-ascii", "ascii", "utf-8", "utf8")
"""Charsets whose bytes are kept as they are (ASCII is UTF-8; the record's reader checks)."""
NO_GAME = N_("no game is attached (uptown send attaches it; a mail program that decodes a "
           "message before piping it, as mutt does with pipe_decode set, leaves the attachment "
           "out: pipe or save the whole message)")


class Attached(NamedTuple):
    """The game a message carries: its attachment's file name as the message gives it (None
    if it has none), its bytes (UTF-8), where it came from, and the addresses of the From
    header of the message that carries it (the forwarded message's, for a forward), each as
    ``headers.address_key`` gives it (empty when it has none)."""

    name: str | None
    data: bytes
    where: str
    senders: tuple[str, ...] = ()

    @property
    def file_name(self) -> str | None:
        """The name to save the game under in this folder: the attachment's name made plain
        (``plain_file_name``), when it ends in ``.yaml``/``.yml``; else None."""
        plain = plain_file_name(self.name) if self.name is not None else None
        return plain if plain is not None and plain.lower().endswith(GAME_SUFFIXES) else None

    def unnamed(self) -> str:
        """Why there is no ``file_name``, as the start of a sentence."""
        if self.name is None or not self.name.strip():
            return gettext("the attached game has no file name")
        if plain_file_name(self.name) is None and self.name.strip(" ./\\"):
            return gettext("the attached game's name is too long to save it under ({count} "
                           "characters)").format(count=len(self.name))
        return gettext("the attached game's name {name} is no .yaml file name").format(
            name=shown_name(self.name))

    def record(self) -> Record:
        """The attached game as a record; MailError when it is not one."""
        unnamed = gettext("attached game")  # outside the f-string, where Babel's extraction finds it
        shown = f"{self.where} ({shown_name(self.name) if self.name else unnamed})"
        try:
            return load_record_text(self.data, shown)
        except RecordError as exc:
            raise MailError(gettext("the attached game is not a valid record: {exc}").format(exc=exc)) from None


def read_message(data: bytes, where: str) -> Message:
    """The message in ``data`` (``where`` names it in errors), parsed with the ``compat32``
    policy (it keeps every defect found, and loads in a tenth of the time of the newer
    ones), once its size and the number and nesting of its parts are within limits."""
    def refuse(what: str) -> MailError:
        return MailError(gettext("{where}: {what}").format(where=where, what=what), NOTHING_WRITTEN)

    if len(data) > MAX_MESSAGE_BYTES:
        raise refuse(gettext("the message is over {size} MiB").format(size=MAX_MESSAGE_BYTES // 2**20))
    if (len(_CONTAINER.findall(data)) > MAX_PARTS
            or data.startswith(b"--") + data.count(b"\n--") > MAX_MARKS):
        raise refuse(gettext("the message has more than {count} MIME parts").format(count=MAX_PARTS))
    message = email.message_from_bytes(data)
    count = 0
    for _, depth, _ in _parts(message):
        count += 1
        if count > MAX_PARTS:
            raise refuse(gettext("the message has more than {count} MIME parts").format(
                count=MAX_PARTS))
        if depth > MAX_DEPTH:
            raise refuse(gettext("the message nests its parts more than {depth} deep").format(
                depth=MAX_DEPTH))
    return message


def _parts(message: Message) -> Iterator[tuple[Message, int, Message]]:
    """Every part of ``message`` (itself first), with its depth and the message it belongs to
    (the forwarded one inside a ``message/rfc822`` part), without recursion."""
    waiting = [(message, 0, message)]
    while waiting:
        part, depth, carrier = waiting.pop()
        yield part, depth, carrier
        if part.is_multipart():
            forwarded = part.get_content_maintype() == "message"
            children = cast("list[Message]", part.get_payload())
            waiting += [(child, depth + 1, child if forwarded else carrier)
                        for child in reversed(children)]


def find_game(message: Message, where: str) -> Attached | None:
    """The one game attached to ``message``, or None when none is; MailError (one line)
    for a message that shows a game but cannot give it."""
    def refuse(what: str) -> MailError:
        return MailError(gettext("{where}: {what}").format(where=where, what=what), NOTHING_WRITTEN)

    games, plain, html = [], False, False
    for part, _, carrier in _parts(message):
        if part.defects:
            raise refuse(gettext("malformed MIME ({defect})").format(
                defect=_defect_text(part.defects[0])))
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        name = _file_name(part, refuse)
        if name is not None and (name.lower().endswith(COMPRESSED_SUFFIXES) or kind in COMPRESSED_TYPES):
            raise refuse(gettext("{name} is compressed: attach the game file itself").format(
                name=shown_name(name)))
        if (name or "").lower().endswith(GAME_SUFFIXES) or kind in GAME_TYPES:
            games.append((part, name, carrier))
        elif name is None and kind == "text/plain":
            plain = True
        elif name is None and kind == "text/html":
            html = True
    if not games:
        return None
    if html and not plain:
        raise refuse(gettext("HTML-only mail is not read: send plain text with the game "
                             "attached"))
    found = {_content(part, refuse): (name, carrier) for part, name, carrier in games}
    if len(found) > 1:
        names = ", ".join(shown_name(name) if name else "unnamed" for _, name, _ in games)
        raise refuse(gettext("{count} games are attached ({names}): send one game per "
                             "message").format(count=len(games), names=names))
    ((data, (name, carrier)),) = found.items()
    return Attached(name, data, where, _senders(carrier))


def message_game(data: bytes, where: str) -> Attached:
    """The game attached to the message in ``data``; MailError when there is none."""
    found = find_game(read_message(data, where), where)
    if found is None:
        raise MailError(gettext("{where}: {NO_GAME}").format(where=where, NO_GAME=gettext(NO_GAME)),
                        NOTHING_WRITTEN)
    return found


def _content(part: Message, refuse: Callable[[str], MailError]) -> bytes:
    """A game part's content as UTF-8: the transfer encoding undone, a ``text/*`` part's
    charset decoded, and its line ends (CR LF on the wire) made LF."""
    data = part.get_payload(decode=True)
    if part.defects:  # found while decoding (bad base64)
        raise refuse(gettext("malformed MIME ({defect})").format(
            defect=_defect_text(part.defects[0])))
    if not isinstance(data, bytes):
        raise refuse(gettext("the attached game cannot be decoded"))
    if part.get_content_maintype() == "text":
        charset = part.get_content_charset()
        if charset is not None and charset not in PLAIN_CHARSETS:
            data = _decoded(data, charset, gettext("the attached game"), refuse).encode("utf-8")
        data = data.replace(b"\r\n", b"\n")
    if len(data) > MAX_BYTES:
        raise refuse(gettext("the attached game is over 1 MiB ({size} bytes)").format(
            size=thousands(len(data))))
    return data


def _decoded(data: bytes, charset: str, what: str, refuse: Callable[[str], MailError]) -> str:
    """``data`` decoded from ``charset``; refused in one line for a charset Python does not
    know as text (``idna``, ``undefined``, ``hex``...) or bytes it does not fit."""
    try:
        return data.decode(charset)
    except (LookupError, UnicodeError, ValueError, TypeError):
        raise refuse(gettext("{what} is not readable as its charset says ({charset!r})").format(
            what=what, charset=charset)) from None


def _file_name(part: Message, refuse: Callable[[str], MailError]) -> str | None:
    """A part's file name (Content-Disposition's ``filename``, else Content-Type's ``name``):
    RFC 2231 parameters decoded from their charset, and the common RFC 2047 form too (raw
    8-bit bytes in a name come out as U+FFFD, as the ``email`` package reads them)."""
    raw = part.get_param("filename", None, header="content-disposition")
    if raw is None:
        raw = part.get_param("name", None, header="content-type")
    if raw is None:
        return None
    what = gettext("the attachment's file name")
    if isinstance(raw, tuple):  # RFC 2231: (charset, language, the text's bytes as Latin-1)
        charset, _, text = raw
        data = text.encode("latin-1", "surrogateescape")
        return _decoded(data, charset or "utf-8", what, refuse)
    assert isinstance(raw, str)
    if "=?" in raw:
        try:
            words = decode_header(raw)
        except HeaderParseError:
            raise refuse(gettext("{what} is not a readable RFC 2047 name ({name})").format(
                what=what, name=shown_name(raw))) from None
        return "".join(word if isinstance(word, str)
                       else _decoded(word, charset or "raw-unicode-escape", what, refuse)
                       for word, charset in words)
    return raw


def _senders(carrier: Message) -> tuple[str, ...]:
    """The addresses the message ``carrier`` is from, each once (``headers.address_key``):
    every From header read as the standard library reads an address list (comments, quoted
    and encoded names, groups, several addresses), not by pattern. None is read from From
    headers longer than ``MAX_FROM`` in all (the parser's time grows faster than their
    length)."""
    found: list[str] = []
    values = [re.sub(r"\r?\n(?=[ \t])", "", str(value)) for value in carrier.get_all("From", [])]
    if sum(len(text) for text in values) > MAX_FROM:
        return ()
    for text in values:
        try:
            addresses = default.header_factory("From", text).addresses
        except Exception:  # noqa: BLE001  the parser's own bugs: no address can be told
            continue
        for address in addresses:
            key = address_key(f"{address.username}@{address.domain}")
            if key is not None and address.username and address.domain and key not in found:
                found.append(one_line(key))
    return tuple(found)


def _defect_text(defect: Exception) -> str:
    return type(defect).__name__.removesuffix("Defect") + (f": {defect}" if str(defect) else "")
