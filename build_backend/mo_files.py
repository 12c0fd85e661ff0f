"""Gettext catalogs compiled: ``po/LANG.po`` (the text translators edit) into the ``.mo`` file
that Python's gettext reads, with nothing but Python (no msgfmt, no Babel).

Fuzzy and untranslated entries are left out (gettext then shows the English), as msgfmt does;
obsolete ones (``#~``) are skipped. Run ``python build_backend/mo_files.py`` to compile every
catalog of po/ in place, as a build does.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = "uptown"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}
_ESCAPE = re.compile(r"\\(.)")
_LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+"(.*)"$')


def _unquote(text: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), text)


def read_po(text: str) -> dict[str, str]:
    """``{key: translation}`` of a catalog's translated, not fuzzy, entries, keyed as gettext
    looks them up (``context\\x04msgid``, ``msgid\\0msgid_plural``; plural forms joined by
    ``\\0``). The header is the entry of the empty msgid."""
    messages: dict[str, str] = {}
    for block in re.split(r"\n[ \t]*\n", text):
        lines = [line.strip() for line in block.strip().splitlines()]
        if any(line.startswith("#,") and "fuzzy" in line for line in lines):
            continue
        fields: dict[str, str] = {}
        field = None
        for line in lines:
            if line.startswith("#") or not line:
                continue
            match = _LINE.match(line)
            if match:
                field = match.group(1)
                fields[field] = _unquote(match.group(2))
            elif line.startswith('"') and line.endswith('"') and field is not None:
                fields[field] += _unquote(line[1:-1])
            else:
                raise ValueError(f"not a line of a PO file: {line!r}")
        if "msgid" not in fields:
            continue
        key = fields["msgid"]
        if "msgid_plural" in fields:
            key += "\0" + fields["msgid_plural"]
            forms = [fields[f"msgstr[{n}]"] for n in range(len(fields)) if f"msgstr[{n}]" in fields]
            value = "\0".join(forms) if all(forms) else ""
        else:
            value = fields.get("msgstr", "")
        if "msgctxt" in fields:
            key = fields["msgctxt"] + "\x04" + key
        if value:
            messages[key] = value
    return messages


def mo_bytes(messages: dict[str, str]) -> bytes:
    """The GNU ``.mo`` file of ``messages`` (UTF-8, keys sorted, no hash table)."""
    keys = sorted(messages, key=lambda key: key.encode("utf-8"))
    ids = [key.encode("utf-8") for key in keys]
    strs = [messages[key].encode("utf-8") for key in keys]
    count = len(keys)
    ids_start = 7 * 4 + 16 * count
    offsets: list[int] = []
    table = b""
    for text in ids + strs:
        offsets += [len(text), ids_start + len(table)]
        table += text + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, 7 * 4, 7 * 4 + 8 * count, 0, ids_start)
    return header + struct.pack(f"<{4 * count}I", *offsets) + table


def compile_catalogs(root: Path = ROOT) -> list[Path]:
    """Every ``po/LANG.po`` of ``root`` compiled to ``uptown_cli/locale/LANG/LC_MESSAGES/
    uptown.mo``, written only when it changes; the ``.mo`` paths."""
    written = []
    for po in sorted((root / "po").glob("*.po")):
        mo = root / "uptown_cli" / "locale" / po.stem / "LC_MESSAGES" / f"{DOMAIN}.mo"
        data = mo_bytes(read_po(po.read_text(encoding="utf-8")))
        if not mo.is_file() or mo.read_bytes() != data:
            mo.parent.mkdir(parents=True, exist_ok=True)
            mo.write_bytes(data)
        written.append(mo)
    return written


if __name__ == "__main__":
    for path in compile_catalogs():
        print(path.relative_to(ROOT))
