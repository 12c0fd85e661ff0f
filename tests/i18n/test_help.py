"""Help texts in the players' language: every command's and option's help (English in the code,
as click keeps it) is in the template and shown translated; the Spanish help fits 80 columns."""

import pytest
from conftest import ROOT

from uptown_cli.cli import COMMANDS


def test_every_help_text_is_in_the_template(catalog_tools):
    """A command, option or summary whose help is missing from po/uptown.pot (a new option, a
    docstring changed) fails: run ``python scripts/catalogs.py update``."""
    catalogs, _ = catalog_tools
    template = {m.id for m in catalogs.read(catalogs.TEMPLATE) if not m.context}
    texts = catalogs.help_texts()
    assert len(texts) > 2 * len(COMMANDS)
    missing = sorted({text for _, text in texts} - template)
    assert not missing, f"python scripts/catalogs.py update: {missing}"


def test_every_help_text_has_a_spanish_translation(catalog_tools):
    catalogs, _ = catalog_tools
    spanish = {m.id: m.string for m in catalogs.read(ROOT / "po" / "es.po") if not m.context}
    untranslated = sorted(text for _, text in catalogs.help_texts()
                          if not spanish.get(text) or spanish[text] == text)
    assert not untranslated, untranslated


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_commands_help_is_spanish_and_fits_80_columns(uptown, catalog_tools, name):
    """Its help text and every option's help shown in Spanish, no English help left, every line
    within 80 columns (but an example's command line, as long in English); the same command's English help shows the code's text."""
    catalogs, _ = catalog_tools
    result = uptown.invoke("--lang", "es", name, "--help")
    english_help = uptown.invoke("--lang", "en", name, "--help").stdout
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Uso: uptown {name} ")
    long = [line for line in result.stdout.splitlines()
            if len(line) > 80 and line not in english_help.splitlines()]  # an example command
    assert not long, long
    location = f"uptown_cli/cli/{COMMANDS[name][0]}.py"
    english = [text for where, text in catalogs.help_texts() if where == location]
    shown = " ".join(result.stdout.split())
    for text in english:
        first = " ".join(text.split())[:40]
        assert first not in shown, (name, text)
    assert " ".join(english_help.split()).count(" ".join(COMMANDS[name][1].split())) == 1


def test_the_commands_table_and_the_programs_options_in_spanish(uptown):
    result = uptown.invoke("--lang", "es", "--help")
    assert result.exit_code == 0
    assert "  move        Hacer una jugada y añadirla a FILE.\n" in result.stdout
    assert "--version    Mostrar la versión y salir." in result.stdout
    assert "--lang LANG  El idioma de los mensajes (es, en)" in result.stdout
    assert "Registros del juego de losetas Uptown" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


def test_the_english_help_is_the_codes_own(uptown):
    result = uptown.invoke("--lang", "en", "--help")
    assert "  move        Play a move and append it to FILE.\n" in result.stdout
    assert "--version    Show the version and exit." in result.stdout
    assert "Records of the tile game Uptown (Board Game Arena rules)" in result.stdout
