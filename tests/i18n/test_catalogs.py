"""The catalogs of po/: the template up to date with the code, the Spanish catalog complete,
translations that keep their placeholders, the compiled files those of po/, and a new
language that is only a file."""

import gettext
import io
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

COMPLETE = ["es"]
"""Languages whose every message must be translated (a new one may ship in part: what it lacks
shows in English)."""


def keys(catalog, where=None):
    """{(context, msgid)} of ``catalog``'s messages (those located under ``where``)."""
    return {(m.context, m.id) for m in catalog if m.id
            and (where is None or any(path.startswith(where + "/") for path, _ in m.locations))}


def test_the_template_holds_every_message_of_the_code_and_no_other(catalog_tools):
    """A message marked in the code without an entry in po/uptown.pot, or an entry whose message
    is gone, fails: run ``python scripts/catalogs.py update`` (docs/TRANSLATING.md)."""
    catalogs, _ = catalog_tools
    code, template = catalogs.extract(), catalogs.read(catalogs.TEMPLATE)
    missing = keys(code, "uptown_cli") - keys(template, "uptown_cli")
    gone = keys(template, "uptown_cli") - keys(code, "uptown_cli")
    assert not missing and not gone, (
        f"po/uptown.pot is out of date (python scripts/catalogs.py update): "
        f"missing {sorted(missing, key=str)}, gone {sorted(gone, key=str)}")


MARKERS = {"_": 0, "gettext": 0, "N_": 0, "ngettext": 0, "pgettext": 1}
"""The functions that mark a message, and the position of the message among their arguments."""


def marked_in_code():
    """{(context, msgid): "path:line"} of every message the code marks, read from its syntax
    tree: calls inside an f-string included, which Babel's extraction does not see."""
    import ast

    found = {}
    for path in sorted((ROOT / "uptown_cli").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None)
            name = getattr(name, "id", None) or getattr(name, "attr", None)
            if not isinstance(node, ast.Call) or name not in MARKERS:
                continue
            texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                     for a in node.args]
            at = MARKERS[name]
            if len(texts) > at and texts[at] is not None:
                context = texts[0] if name == "pgettext" else None
                where = f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
                found[(context, texts[at])] = where
    return found


def test_every_message_marked_in_the_code_is_in_the_template(catalog_tools):
    """A message marked inside an f-string (``f"{_('start')}"``) is one Babel's extraction
    passes by: it would show in English in every language. Mark it outside the f-string."""
    catalogs, _ = catalog_tools
    template = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                for m in catalogs.read(catalogs.TEMPLATE) if m.id}
    missing = {key: where for key, where in marked_in_code().items() if key not in template}
    assert not missing, missing


def test_the_template_holds_clicks_messages(catalog_tools):
    """click's own text ("Usage:", "Error: ...") is translated by our catalogs: every message
    of the click installed must be in the template."""
    catalogs, _ = catalog_tools
    missing = keys(catalogs.extract(), "click") - keys(catalogs.read(catalogs.TEMPLATE))
    assert not missing, f"python scripts/catalogs.py update: {sorted(missing, key=str)}"


def test_each_message_keeps_its_plural_in_the_template(catalog_tools):
    catalogs, _ = catalog_tools
    template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.id
                for m in catalogs.read(catalogs.TEMPLATE)}
    for message in catalogs.extract():
        if message.id:
            key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
            assert template[key] == message.id


@pytest.mark.parametrize("code", COMPLETE)
def test_a_complete_catalog_translates_every_message_of_the_template(catalog_tools, code):
    """No entry missing, untranslated, fuzzy or obsolete in po/es.po."""
    catalogs, _ = catalog_tools
    catalog = catalogs.read(ROOT / "po" / f"{code}.po")
    template = keys(catalogs.read(catalogs.TEMPLATE))
    assert template - keys(catalog) == set(), "python scripts/catalogs.py update"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    untranslated = [m.id for m in catalog if m.id and (
        not m.string or not all(m.string) if isinstance(m.string, tuple) else not m.string)]
    assert not fuzzy and not untranslated, (fuzzy, untranslated)
    assert not catalog.obsolete
    assert catalogs.stats(catalog) == f"{len(template)} translated, 0 fuzzy, 0 untranslated"


PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]")


def placeholders(text):
    return sorted(PLACEHOLDER.findall(text))


def test_translations_keep_every_placeholder(catalog_tools):
    """``{name!r}`` or ``%(prog)s`` left out or misspelt in a translation would break the
    message (or lose what it says) only when it is shown."""
    catalogs, _ = catalog_tools
    wrong = []
    for po in sorted((ROOT / "po").glob("*.po")):
        for message in catalogs.read(po):
            if not message.id or not message.string:
                continue
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            strings = [message.string] if isinstance(message.string, str) else list(message.string)
            for text in strings:
                if text and not any(placeholders(text) == placeholders(i) for i in ids):
                    wrong.append((po.name, message.id, text))
    assert not wrong, wrong


def test_the_compiler_gives_what_babel_gives(catalog_tools):
    """build_backend/mo_files compiles po/es.po to the messages Babel's compiler gives."""
    from babel.messages.mofile import write_mo

    catalogs, mo_files = catalog_tools
    for po in sorted((ROOT / "po").glob("*.po")):
        ours = mo_files.mo_bytes(mo_files.read_po(po.read_text(encoding="utf-8")))
        theirs = io.BytesIO()
        write_mo(theirs, catalogs.read(po))
        assert (gettext.GNUTranslations(io.BytesIO(ours))._catalog
                == gettext.GNUTranslations(io.BytesIO(theirs.getvalue()))._catalog)


def test_the_compiler_leaves_out_fuzzy_and_untranslated_entries(catalog_tools):
    _, mo_files = catalog_tools
    po = '''msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\n"

#, fuzzy
msgid "Usage:"
msgstr "Uso:"

msgid "Options"
msgstr ""

msgctxt "tile"
msgid "sax"
msgstr "sa"
"xo\\t\\"x\\""

msgid "one"
msgid_plural "many"
msgstr[0] "uno"
msgstr[1] "muchos"
'''
    messages = mo_files.read_po(po)
    assert set(messages) == {"", "tile\x04sax", "one\x00many"}
    assert messages["tile\x04sax"] == 'saxo\t"x"'
    translations = gettext.GNUTranslations(io.BytesIO(mo_files.mo_bytes(messages)))
    assert translations.pgettext("tile", "sax") == 'saxo\t"x"'
    assert translations.ngettext("one", "many", 2) == "muchos"
    assert translations.gettext("Usage:") == "Usage:"


def test_the_compiled_catalogs_are_those_of_po(catalog_tools):
    """The .mo files the program reads hold what po/ says. After editing a catalog in a
    checkout: ``python build_backend/mo_files.py`` (or ``pip install -e .`` again)."""
    from uptown_cli.i18n import catalog_path

    _, mo_files = catalog_tools
    for po in sorted((ROOT / "po").glob("*.po")):
        expected = mo_files.mo_bytes(mo_files.read_po(po.read_text(encoding="utf-8")))
        path = catalog_path(po.stem)
        assert os.path.isfile(path), f"{po.name} is not compiled: python build_backend/mo_files.py"
        with open(path, "rb") as compiled:
            assert compiled.read() == expected, f"{path} is stale: python build_backend/mo_files.py"


PORTUGUESE = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "No such command '{name}'. (uptown -h lists them)"
msgstr "O comando '{name}' não existe. (uptown -h lista-os)"

msgid "Usage:"
msgstr "Uso:"

msgctxt "tile typed"
msgid "sax"
msgstr "saxofone"
'''


def test_a_new_language_is_a_file(tmp_path):
    """po/pt.po added to a copy of the project, compiled as a build compiles, is used by the
    program with no change to its code; its own names for tiles are accepted as typed."""
    for part in ("uptown_cli", "po", "build_backend"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__", "locale"))
    (tmp_path / "po" / "pt.po").write_text(PORTUGUESE, encoding="utf-8")
    subprocess.run([sys.executable, str(tmp_path / "build_backend" / "mo_files.py")], check=True,
                   capture_output=True, timeout=60)
    assert (tmp_path / "uptown_cli" / "locale" / "pt" / "LC_MESSAGES" / "uptown.mo").is_file()

    def run(*args, **env):
        environment = {k: v for k, v in os.environ.items() if k not in ("UPTOWN_LANG", "LANGUAGE")}
        return subprocess.run([sys.executable, "-m", "uptown_cli", *args], cwd=tmp_path,
                              env={**environment, "PYTHONPATH": str(tmp_path), **env},
                              capture_output=True, text=True, timeout=60)

    result = run("--lang", "pt", "nosuch")
    assert "Error: O comando 'nosuch' não existe. (uptown -h lista-os)" in result.stderr
    assert result.stderr.startswith("Uso: python -m uptown_cli")
    assert "O comando" in run("nosuch", LANGUAGE="pt_BR:es").stderr
    code = ("from uptown_cli.i18n import language; from uptown_cli.pictures.tile_names import "
            "canonical_move as c\nwith language('pt'): print(c('Saxofone E8'))")
    moved = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                           text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert moved.stdout == "sax E8\n", moved.stderr
