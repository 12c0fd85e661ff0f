"""The layers of the package hold: read from the code's own imports (lazy ones included), a
module imports only from its own package or a lower layer, and no modules import in a circle;
values are named tuples, not dataclasses. (How long a module is, is not counted: a module is
split by concept, never to fit a count.) The tests keep their own shape too: what many test
files share is a fixture, not a helper module."""

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "uptown_cli"
TESTS = Path(__file__).resolve().parent

LAYERS = {
    "i18n": -1,
    "errors": 0,
    "engine": 1,
    "records": 2,
    "fairplay": 3,
    "pictures": 4,
    "analysis": 5,
    "turns": 6,
    "club": 7,
    "tui": 8,
    "cli": 9,
    "__main__": 10,
}
"""Each top-level part of the package and its layer, bottom up (docs/ARCHITECTURE.md)."""


def modules():
    """``{dotted name: path}`` of every module of the package but its top ``__init__``."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if len(parts) > 1:
            found[".".join(parts)] = path
    return found


def imports(name, path):
    """The modules of the package that ``name`` imports, wherever in the file (imports for type
    checking alone included: a circle of them is still a circle in the design)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@functools.cache
def graph():
    """``{module: the package's modules it imports}`` (read once for all the tests here)."""
    known = modules()
    return {name: {t for t in imports(name, path) if t in known and t != name}
            for name, path in known.items()}


def part(module):
    return module.split(".")[1]


def test_every_part_of_the_package_has_a_layer():
    assert {part(m) for m in modules()} <= set(LAYERS)


def test_no_module_imports_from_a_higher_layer_or_a_sibling_package():
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph().items()
        for target in targets
        if part(target) != part(module) and LAYERS[part(target)] >= LAYERS[part(module)]
    )
    assert not wrong, wrong


def test_no_modules_import_in_a_circle():
    edges = graph()
    state = {}
    circles = []

    def visit(module, path):
        state[module] = "open"
        for target in sorted(edges[module]):
            if state.get(target) == "open":
                circles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert not circles, circles


def test_a_value_is_a_named_tuple_no_module_imports_dataclasses():
    """One kind of value type (issue 31; docs/ARCHITECTURE.md, Types): a value is a
    ``typing.NamedTuple``, a mutable object a class with ``__slots__``."""
    users = sorted(name for name, path in modules().items()
                   if any(t.split(".")[0] == "dataclasses" for t in imports(name, path)))
    assert not users, users


MOST_IMPORTERS = 15
"""How many test files may import one helper module of tests/support: what more of them need
belongs in a fixture of conftest.py (as the command line is the ``uptown`` fixture)."""


def test_no_helper_module_of_the_tests_is_imported_by_many_test_files():
    importers = {path.stem: [] for path in (TESTS / "support").glob("*.py")}
    for path in TESTS.rglob("*.py"):
        if "support" not in path.relative_to(TESTS).parts:
            imported = imports(path.stem, path)  # each file read once
            for helper, files in importers.items():
                if f"support.{helper}" in imported:
                    files.append(path.name)
    many = {helper: len(files) for helper, files in importers.items() if len(files) > MOST_IMPORTERS}
    assert not many, many


def test_each_package_names_every_module_of_its_own_in_its_docstring():
    """The map of each package is true: its docstring names each of its modules (as
    ``module``), so that a module added or moved is placed on the map too."""
    missing = {}
    for package in sorted({path.parent for path in PACKAGE.rglob("*.py")} - {PACKAGE}):
        if package.name in ("cli", "__pycache__") or not (package / "__init__.py").exists():
            continue
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
        names = [path.stem for path in package.glob("*.py") if path.stem != "__init__"]
        absent = [name for name in names if f"``{name}``" not in docstring]
        if absent:
            missing[package.name] = absent
    assert not missing, missing
