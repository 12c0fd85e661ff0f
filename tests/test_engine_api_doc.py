"""docs/ENGINE_API.md keeps up with the code: every public name that a module of the engine or
the library defines (functions, classes, and constants or type aliases: names beginning with a
capital) is named, in code, under that module's heading."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "uptown_cli"
DOC = ROOT / "docs" / "ENGINE_API.md"
HEADING = re.compile(r"^## uptown_cli\.([\w.]+)\b", re.MULTILINE)


def library_modules():
    """Every module of the engine and the library, as ``package.module`` (the command line, the
    ``cli`` package, is left out)."""
    return sorted(
        ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        for path in PACKAGE.rglob("*.py")
        if path.stem != "__init__" and path.relative_to(PACKAGE).parts[0] != "cli"
    )


def public_names(module):
    """The public names ``module`` defines at its top level (names it imports excluded)."""
    tree = ast.parse((PACKAGE / f"{module.replace('.', '/')}.py").read_text(encoding="utf-8"))
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and name.id[0].isupper():
                        names.append(name.id)
    return [name for name in names if not name.startswith("_")]


def doc_sections():
    """``{module: its section's text}`` for each ``## uptown_cli.MODULE`` heading of the doc."""
    text = DOC.read_text(encoding="utf-8")
    starts = list(HEADING.finditer(text))
    sections = {}
    for match in starts:
        end = re.compile(r"^#", re.MULTILINE).search(text, match.end())
        sections[match.group(1)] = text[match.end():end.start() if end else len(text)]
    return sections


def named_in_code(name, section):
    """Whether ``name`` is a whole word of some code span (```...```) of ``section``."""
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    return any(word.search(span) for span in re.findall(r"`([^`]+)`", section))


def test_every_library_module_has_a_section_in_the_api_doc():
    missing = set(library_modules()) - set(doc_sections())
    assert not missing, f"docs/ENGINE_API.md has no '## uptown_cli.MODULE' heading for {sorted(missing)}"


def test_api_doc_sections_name_existing_modules():
    unknown = set(doc_sections()) - set(library_modules())
    assert not unknown, f"docs/ENGINE_API.md has sections for modules that do not exist: {sorted(unknown)}"


def test_every_public_name_is_in_its_module_section_of_the_api_doc():
    sections = doc_sections()
    missing = {
        module: [name for name in public_names(module) if not named_in_code(name, sections.get(module, ""))]
        for module in library_modules()
    }
    missing = {module: names for module, names in missing.items() if names}
    assert not missing, f"docs/ENGINE_API.md does not name, in code under the module's heading: {missing}"


def test_public_names_skip_imports_and_private_names():
    names = public_names("engine.playout")
    assert "Playout" in names and "QUICK" in names and "TWO" in names
    assert "count_groups" not in names  # imported from game
    assert "_near" not in names
