"""One error contract: every error the library raises is an ``UptownError`` (a ValueError) of
errors.py, imported from there, and the command line turns it into one line in one place."""

import ast
import inspect
from pathlib import Path

import pytest

from uptown_cli import errors
from uptown_cli.engine import notation

PACKAGE = Path(__file__).resolve().parents[1] / "uptown_cli"
ERROR_CLASSES = {c.__name__ for _, c in inspect.getmembers(errors, inspect.isclass)
                 if c.__module__ == errors.__name__ and issubclass(c, Exception)}


def library_trees():
    """(path, parsed module) of every module of the package."""
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_every_error_is_an_uptown_error_and_a_value_error():
    assert ERROR_CLASSES >= {
        "UptownError", "NotationError", "IllegalMove", "RacksUnknown", "SetupError", "RecordError",
        "KeyFileError", "MailError", "OutputError"}
    assert all(issubclass(getattr(errors, name), errors.UptownError) for name in ERROR_CLASSES)
    assert issubclass(errors.UptownError, ValueError)


def test_no_error_class_is_defined_outside_errors_py():
    outside = [f"{path.name}: {node.name}" for path, tree in library_trees() if path.name != "errors.py"
               for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
               and any(isinstance(base, ast.Name) and base.id in ERROR_CLASSES | {"ValueError"}
                       for base in node.bases)]
    assert not outside, outside


def test_error_classes_are_imported_from_errors_py_only():
    elsewhere = [f"{path.relative_to(PACKAGE)}: {alias.name} from {node.module}"
                 for path, tree in library_trees() for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and not node.module.endswith("errors")
                 for alias in node.names if alias.name in ERROR_CLASSES]
    assert not elsewhere, elsewhere


def test_the_library_raises_no_plain_builtin_errors():
    plain = {"ValueError", "TypeError", "RuntimeError", "Exception", "KeyError"}
    raised = [f"{path.relative_to(PACKAGE)}:{node.lineno}" for path, tree in library_trees()
              if path.parts[-2] != "cli" for node in ast.walk(tree)
              if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
              and isinstance(node.exc.func, ast.Name) and node.exc.func.id in plain]
    allowed = {"engine/geometry.py"}  # a KeyError inside a lookup, caught there
    assert [r for r in raised if r.split(":")[0] not in allowed] == []


CLICK_ERRORS = {"ClickException", "BadParameter", "UsageError", "BadOptionUsage", "BadArgumentUsage",
                "FileError", "Abort", "Exit", "exit", "fail"}
"""What a handler may raise or call to turn an error into a click one: click's exceptions,
``sys.exit``/``ctx.exit`` and ``ctx.fail``."""


def _caught_names(handler):
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", "") for kind in kinds}


def _converts_to_click(handler):
    called = {node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
              for node in ast.walk(ast.Module(body=handler.body, type_ignores=[]))
              if isinstance(node, ast.Call)}
    return bool(called & CLICK_ERRORS)


def library_to_click_conversions(trees):
    """path:line of every ``except`` that catches a library error (an errors.py class, or
    ValueError which they all are, or any exception) and raises a click error or exits."""
    library = ERROR_CLASSES | {"ValueError", "Exception", "BaseException"}
    return [f"{path.name}:{handler.lineno}" for path, tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.Try) for handler in node.handlers
            if (handler.type is None or _caught_names(handler) & library) and _converts_to_click(handler)]


def test_the_command_line_turns_library_errors_into_click_errors_in_one_place():
    trees = [(path, tree) for path, tree in library_trees() if path.name != "exits.py"]
    assert library_to_click_conversions(trees) == []
    one_place = PACKAGE / "cli" / "exits.py"
    assert [handler for handler in ast.walk(ast.parse(one_place.read_text(encoding="utf-8")))
            if isinstance(handler, ast.ExceptHandler) and _converts_to_click(handler)]


@pytest.mark.parametrize("handler", [
    "except UptownError as exc:\n    raise click.ClickException(str(exc)) from None",
    "except RecordError as exc:\n    raise click.BadParameter(exc.message, param_hint='--player')",
    "except (OSError, errors.IllegalMove) as e:\n    raise ClickException(f'{e}; nothing written')",
    "except ValueError:\n    ctx.fail('no')",
    "except EngineError as exc:\n    click.echo(exc)\n    sys.exit(1)",
    "except:\n    raise click.UsageError('x')",
])
def test_the_one_place_check_catches_every_spelling_of_a_conversion(handler):
    tree = ast.parse("try:\n    pass\n" + handler)
    assert library_to_click_conversions([(Path("other.py"), tree)]) == ["other.py:3"]


def test_the_command_line_exits_with_named_statuses_only():
    bare = [f"{path.name}:{node.lineno}" for path, tree in library_trees() if path.parts[-2] == "cli"
            for node in ast.walk(tree) if isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("sys.exit", "ctx.exit", "SystemExit")
            and any(isinstance(n, ast.Constant) and isinstance(n.value, int) for arg in node.args
                    for n in ast.walk(arg))]
    assert bare == []


def test_errors_say_where_they_happened():
    error = errors.RecordError("bad\nthing", path="g.yaml", line=3, move=2)
    assert str(error) == "g.yaml:3: bad\\nthing"
    assert error.to_json() == {"line": 3, "move": 2, "message": "bad\\nthing"}
    with pytest.raises(errors.NotationError):
        notation.parse_move("7 Z9")
    assert errors.IllegalMove(errors.Reason.SPLIT, "why").reason is errors.Reason.SPLIT


def test_a_record_error_reports_its_move_in_one_line():
    """validate's line, PATH:LINE: move N: message, is the error's own (no copy in the CLI)."""
    assert errors.RecordError("bad", path="g.yaml", line=3, move=2).report_line() == (
        "g.yaml:3: move 2: bad")
    assert errors.RecordError("bad", path="g.yaml", line=3).report_line() == "g.yaml:3: bad"
    assert errors.RecordError("bad", move=4).report_line() == "move 4: bad"


def test_an_engine_error_is_pickled_whole_with_its_reason():
    """A worker process or a cluster's worker gives an EngineError back as it is (an error that
    cannot be unpickled would stop the pool that waits for it)."""
    import pickle

    error = pickle.loads(pickle.dumps(errors.EngineError("stall", "mine: no hello")))
    assert type(error) is errors.EngineError and (error.reason, str(error)) == ("stall", "mine: no hello")
