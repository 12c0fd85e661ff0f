"""No English left in Spanish (issue 36): every translation of po/es.po is read for English
words, and every command's help is shown in Spanish and read for click's English.

An English word is one of the words of the code's own messages (the catalog's msgids) that a
translation keeps. What a Spanish player types or reads as code is not counted: fields,
commands as typed (``uptown move ...``), options, quoted text, paths and addresses, upper-case
metavars and acronyms. ALLOWED names the other words a translation may hold, each with why."""

import re

import pytest
from conftest import ROOT

from uptown_cli.cli import COMMANDS

WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
ALLOWED = {
    # Spanish words spelt as English ones
    "error", "final", "local", "legal", "terminal", "original", "color", "control", "socket",
    "shell", "club", "iterable", "escape", "red", "has", "mover", "cursor", "scripts", "rival",
    # names: of the game's publisher and site, people in examples, bots, programs and formats
    "board", "game", "arena", "ana", "random", "greedy", "horizon", "bga", "little", "golem",
    "judges", "openskill", "plackett", "luce", "sigma", "elo", "beta", "dask", "bash", "less",
    "cron", "crontab", "chmod", "pip", "install", "mutt", "pipe", "decode", "sendmail", "mbox",
    "maildir", "localhost", "tabulate", "plain", "github", "tsv", "csv", "jsonl", "yaml", "eml",
    "mib", "byte", "bytes", "unicode", "uid", "ffff", "deprecationwarning", "uptown", "hidden",
    "procmail", "forward", "tls", "hello", "ping", "quit", "option", "engine", "playouts", "bot",
    "bots", "textual", "vista",
    # record keys and values, which records keep in English (docs/TRANSLATING.md)
    "name", "colors", "email", "lang", "players", "started", "best", "variations", "eval",
    "comment", "standard", "blockers", "move", "grace", "bank", "reveal", "none", "per", "year",
    "wait", "pass", "forfeit", "after", "auto", "judge",
    # values and option names of the engine protocol, typed as they are
    "true", "false", "seconds", "weights",
    # command names said alone
    "new", "send", "pause", "validate", "all", "dispute",
}
"""Words of the English messages that a Spanish translation may hold, by why."""


def strip(text):
    """``text`` without what a player types or reads as code."""
    text = re.sub(r"\{[^{}]*\}|%\([a-z_]+\)[sd]", " ", text)
    text = re.sub(r"uptown [a-z]+[^\n.;,)]*", " ", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", " ", text)
    text = re.sub(r"(?<![\w-])--?[a-z][\w-]*", " ", text)
    text = re.sub(r"\S+[@/:.]\S+", " ", text)
    return re.sub(r"\b[A-Z][A-Z0-9_]+\b", " ", text)


def words(text):
    return {word.lower() for word in WORD.findall(strip(text)) if len(word) > 2}


def english_left(catalog):
    """``{english word: a translation that holds it}`` over ``catalog``'s translations."""
    entries = [m for m in catalog if m.id and not m.context]
    english = set().union(*(words(i) for m in entries
                            for i in (m.id if isinstance(m.id, tuple) else (m.id,))))
    found = {}
    for m in entries:
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            for word in (words(text) & english) - ALLOWED:
                found.setdefault(word, text)
    return found


def test_no_spanish_translation_keeps_an_english_word(catalog_tools):
    catalogs, _ = catalog_tools
    found = english_left(catalogs.read(ROOT / "po" / "es.po"))
    assert not found, "translate these, or name them in ALLOWED with why:\n" + "\n".join(
        f"{word}: {text!r}" for word, text in sorted(found.items()))


def test_the_check_finds_an_english_word_left_in_a_translation():
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="es")
    catalog.add("the {colour} rack", "el estante {colour}")
    catalog.add("name the rack: blue 7 B7", "nombra el rack: blue 7 B7 (uptown move blue 7 B7)")
    assert set(english_left(catalog)) == {"rack", "blue"}


CLICKS_ENGLISH = ["Usage:", "Options:", "Commands:", "[OPTIONS]", "COMMAND [ARGS]", "[required]",
                  "[default:", "env var:", "Show this message and exit", "Show the version",
                  "INTEGER", "FLOAT", "TEXT", "BOOLEAN", "RANGE", "[auto|always|never]",
                  "[standard|blockers]", "[red|blue"]
"""What click writes in English when its text is left untranslated."""


@pytest.mark.parametrize("name", ["", *sorted(COMMANDS)])
def test_every_help_in_spanish_is_free_of_clicks_english(uptown, name):
    result = uptown.invoke("--lang", "es", *([name] if name else []), "--help")
    assert result.exit_code == 0, result.output
    left = [text for text in CLICKS_ENGLISH
            if re.search(rf"(?<!\w){re.escape(text)}(?!\w)", result.stdout)]
    assert not left, (name, left, result.stdout)
