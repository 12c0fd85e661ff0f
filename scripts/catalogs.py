"""The gettext catalogs of po/, kept with Babel (docs/TRANSLATING.md).

    python scripts/catalogs.py update      # po/uptown.pot from the code, merged into every po/LANG.po
    python scripts/catalogs.py init pt     # a new po/pt.po from the template
    python scripts/catalogs.py stats       # translated, fuzzy and untranslated entries of each
    python build_backend/mo_files.py       # compile them in place (a build does it too)

The template holds uptown's messages (``_``, ``ngettext``, ``pgettext``, ``N_`` in uptown_cli;
the tiles' words from the table of ``uptown_cli.pictures.tile_names``) and click's own ("Usage:", "Error: No such option", ...: click marks them for gettext and
leaves their translation to the application), each located by file, without line numbers
(so that a change elsewhere in a file leaves the catalogs alone).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import click
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from uptown_cli import __version__
from uptown_cli.cli import options
from uptown_cli.pictures import tile_names

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "po"
TEMPLATE = PO / "uptown.pot"
SOURCES = {
    "uptown_cli": ROOT / "uptown_cli",
    "click": Path(click.__file__).parent,
}
"""Where messages come from: the name their locations start with, and the folder."""
SKIPPED = ["testing.py", "_winconsole.py"]
"""Modules of those folders whose text players never see (click's test runner, Windows)."""


def extract() -> Catalog:
    """The template's catalog: every message marked in SOURCES."""
    catalog = Catalog(project="uptown", version=__version__, fuzzy=False)
    method_map = [(name, "ignore") for name in SKIPPED] + [("**.py", "python")]
    for prefix, folder in SOURCES.items():
        for filename, _line, message, comments, context in extract_from_dir(
            folder, method_map, keywords=DEFAULT_KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        ):
            catalog.add(message, None, [(f"{prefix}/{filename}", None)],
                        auto_comments=comments, context=context)
    for context, word in tile_names.WORDS + options.SHOWN_WORDS:
        catalog.add(word, None, [("uptown_cli/pictures/tile_names.py", None)], context=context)
    for location, message in help_texts():
        catalog.add(message, None, [(location, None)])
    return catalog


def help_texts() -> list[tuple[str, str]]:
    """(location, message) of every help text the command line shows, walked from its commands
    (their docstrings and ``help=`` stay English in the code and are translated when shown):
    the program's and each command's help (a group's commands too), each command's summary of
    the table COMMANDS, and every option's help."""
    from uptown_cli.cli import COMMANDS, help_text, main

    found: list[tuple[str, str]] = []

    def add(command: click.Command, location: str) -> None:
        if command.help:
            found.append((location, help_text(command.help)))
        for param in command.params:
            if isinstance(param, click.Option) and param.help and not param.hidden:
                found.append((location, param.help))
        if isinstance(command, click.Group) and command is not main:
            for inner in command.commands.values():
                add(inner, location)

    add(main, "uptown_cli/cli/__init__.py")
    context = click.Context(main)
    for name, (module, summary) in sorted(COMMANDS.items()):
        found.append(("uptown_cli/cli/__init__.py", summary))
        command = main.get_command(context, name)
        assert command is not None, name
        add(command, f"uptown_cli/cli/{module}.py")
        for sub in getattr(command, "commands", {}).values():  # a group's (uptown judge)
            if sub.short_help:
                found.append((f"uptown_cli/cli/{module}.py", sub.short_help))
            add(sub, f"uptown_cli/cli/{module}.py")
    return [(where, text) for where, text in found if not text.startswith(CLICKS)]


CLICKS = ("Show the version and exit.", "Show this message and exit.")
"""Help texts click gives its own options (translated by click's entries)."""


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def text(catalog: Catalog) -> bytes:
    file = io.BytesIO()
    write_po(file, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)
    return file.getvalue()


def write(catalog: Catalog, path: Path) -> None:
    path.write_bytes(text(catalog))


def update() -> None:
    """The template made again from the code, and every catalog brought up to it: new
    messages untranslated, changed ones fuzzy (a translator checks them), gone ones dropped."""
    template = extract()
    made = template.creation_date
    template.creation_date = read(TEMPLATE).creation_date
    if text(template) != TEMPLATE.read_bytes():  # dated anew only when its messages change
        template.creation_date = made
    write(template, TEMPLATE)
    for path in sorted(PO.glob("*.po")):
        catalog = read(path)
        catalog.update(template)
        write(catalog, path)
        print(f"{path.relative_to(ROOT)}: {stats(catalog)}")


def init(language: str) -> None:
    """A new catalog for ``language`` (``pt``, ``pt_BR``), every entry untranslated."""
    path = PO / f"{language}.po"
    if path.exists():
        sys.exit(f"{path.relative_to(ROOT)} exists: update it instead")
    catalog = Catalog(locale=language, project="uptown", fuzzy=False)
    catalog.update(read(TEMPLATE))
    write(catalog, path)
    print(f"{path.relative_to(ROOT)}: {stats(catalog)}")


def stats(catalog: Catalog) -> str:
    entries = [message for message in catalog if message.id]
    fuzzy = sum(1 for message in entries if message.fuzzy)
    untranslated = sum(1 for message in entries if not message.string
                       or (isinstance(message.string, tuple) and not all(message.string)))
    return (f"{len(entries) - fuzzy - untranslated} translated, {fuzzy} fuzzy, "
            f"{untranslated} untranslated")


if __name__ == "__main__":
    command = sys.argv[1:2]
    if command == ["update"]:
        update()
    elif command == ["init"] and len(sys.argv) == 3:
        init(sys.argv[2])
    elif command == ["stats"]:
        for po in sorted(PO.glob("*.po")):
            print(f"{po.relative_to(ROOT)}: {stats(read(po))}")
    else:
        sys.exit(__doc__)
