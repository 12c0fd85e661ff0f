"""The library's reference is its docstrings and ``__all__``; docs/ENGINE_API.md is a short guide
whose examples run here, and which uses public names only.

Public means listed in the ``__all__`` of the module that defines it (the top level lists the
names used most). Every module declares ``__all__``; the engine's and the error module's list
every name they define that does not begin with ``_``; every public name is documented where
it is defined (a constant by the string under it, as tools that read attribute docstrings
show them)."""

import ast
import doctest
import importlib
import inspect
import re
from pathlib import Path

import pytest

import uptown_cli

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "uptown_cli"
GUIDE = ROOT / "docs" / "ENGINE_API.md"


def module_names():
    """Every module of the package, dotted."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def source_path(module):
    """The file of ``module`` (dotted)."""
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def defined_names(module):
    """``{name: node}`` for what ``module`` defines at its top level (imports left out): its
    functions, classes and assigned names, ``__all__`` and dunders aside."""
    tree = ast.parse(source_path(module).read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and not name.id.startswith("__"):
                        found[name.id] = node
    return found


def documented_constants(module):
    """The names ``module`` assigns at its top level with a string right under them, or a
    ``#:`` comment right above (the two forms documentation tools read)."""
    text = source_path(module).read_text(encoding="utf-8")
    lines = text.splitlines()
    body = ast.parse(text).body
    found = set()
    for node, after in zip(body, body[1:] + [None]):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        under = (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                 and isinstance(after.value.value, str))
        above = node.lineno > 1 and lines[node.lineno - 2].startswith("#:")
        if under or above:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return found


def public(module):
    """``module``'s ``__all__``."""
    return list(importlib.import_module(module).__all__)


# -- the guide --------------------------------------------------------------------------------


def test_the_guides_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)  # the guide reads records/ of a checkout
    failed, tried = doctest.testfile(str(GUIDE), module_relative=False, report=True,
                                     optionflags=doctest.ELLIPSIS)
    assert tried > 30 and failed == 0, f"{failed} of {tried} examples of {GUIDE.name} failed (printed above)"


def guide_imports():
    """``(module, name)`` for every ``from MODULE import NAME`` of the guide's examples."""
    found = []
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        match = re.match(r">>> from (uptown_cli[\w.]*) import (.+)", line)
        if match:
            found += [(match.group(1), name.strip()) for name in match.group(2).split(",")]
    return found


def test_the_guide_imports_public_names_only():
    imported = guide_imports()
    assert len(imported) > 10
    private = [f"{module}.{name}" for module, name in imported if name not in public(module)]
    assert not private, f"docs/ENGINE_API.md uses names that are not public: {private}"


def test_the_guide_calls_no_private_method():
    code = "\n".join(line for line in GUIDE.read_text(encoding="utf-8").splitlines()
                     if line.startswith((">>> ", "... ")))
    assert not re.findall(r"\._\w+", code)


def test_the_guide_is_short():
    assert len(GUIDE.read_text(encoding="utf-8").splitlines()) <= 250


# -- __all__ and docstrings -------------------------------------------------------------------


@pytest.mark.parametrize("module", module_names())
def test_every_module_declares_what_is_public_and_it_is_there(module):
    names = public(module)
    loaded = importlib.import_module(module)
    assert len(names) == len(set(names)), f"{module}.__all__ names one twice"
    missing = [name for name in names if not hasattr(loaded, name)]
    assert not missing, f"{module}.__all__ names what it does not hold: {missing}"


@pytest.mark.parametrize("module", [m for m in module_names()
                                   if m.startswith("uptown_cli.engine") or m == "uptown_cli.errors"])
def test_the_engine_and_the_errors_make_public_every_name_they_define_without_an_underscore(module):
    defined = {name for name in defined_names(module) if not name.startswith("_")}
    assert defined == set(public(module))


def undocumented(module):
    """The public names of ``module`` it defines without a docstring; for a class, its public
    methods and properties too (``Class.name``)."""
    loaded = importlib.import_module(module)
    defined = defined_names(module)
    constants = documented_constants(module)
    missing = []
    for name in public(module):
        if name not in defined:
            continue  # imported to be offered here (the top level): documented at home
        value = getattr(loaded, name)
        if isinstance(defined[name], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not (value.__doc__ or "").strip():
                missing.append(name)
            if inspect.isclass(value):
                missing += [f"{name}.{attribute}" for attribute, member in vars(value).items()
                            if not attribute.startswith("_") and callable_or_property(member)
                            and not (inspect.getdoc(member) or "").strip()]
        elif name not in constants:
            missing.append(name)
    return missing


def callable_or_property(member):
    """Whether a class member is a method or a property (what a class documents)."""
    return inspect.isfunction(member) or isinstance(member, (property, classmethod, staticmethod))


@pytest.mark.parametrize("module", module_names())
def test_every_public_name_is_documented_where_it_is_defined(module):
    assert not undocumented(module)


def test_the_top_level_offers_the_new_game_the_moves_and_the_errors():
    assert {"Game", "Player", "Turn", "Move", "Placement", "Pass", "PASS", "parse_move", "Reason",
            "IllegalMove", "standings", "read_record", "replay", "choose_move"} <= set(uptown_cli.__all__)
