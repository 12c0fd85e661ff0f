"""Mutation testing: change the code one small way at a time and check that a test fails.

    python scripts/mutation.py                      # engine/ and fairplay's checks
    python scripts/mutation.py uptown_cli/engine/game.py --jobs 2
    python scripts/mutation.py --list uptown_cli/engine/scoring.py   # the mutants, not run

Each mutant is one change to one module: a comparison turned (``<`` to ``<=``, ``==`` to
``!=``, ``in`` to ``not in``, ...), ``and`` and ``or`` swapped, a ``not`` dropped, ``+`` and
``-`` swapped, ``&`` and ``|`` swapped, ``True`` and ``False`` swapped, a small whole number
made one more. The module's tests (see ``TESTS``) run against it in a copy of the checkout
(``pytest -x``: the first failure kills it); a mutant that passes them all survives. The
score is the share of mutants killed. Survivors judged equivalent (no test can tell them from
the code: they change nothing a caller can see) are listed, each with why, in
docs/MUTATION.md; the script prints the others, and exits with status 1 when there are any.
Before any mutant, each module's tests run once on the code as it is: if they fail there (a
catalog missing from the copy, say), every mutant would count as killed, so the script stops
with status 2 and says which. Their time there sets the mutants' timeout: each stage of a
mutant's tests may take three times what all the stages took there (``--timeout`` at least), so
that a mutant is killed by a timeout only when it makes the tests that much slower, never
because they are slow.

A mutant is named by its module, the function it is in and the change (``engine/game.py
Game.playable: a < b -> a <= b``), so the list stays right when lines move. This is our own
small runner: it needs nothing beyond pytest, and runs the tests of the mutated module only.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "build_backend"))
from mo_files import compile_catalogs  # noqa: E402  the build's own, for the copies' catalogs
EQUIVALENTS = ROOT / "docs" / "MUTATION.md"
DEFAULT_TARGETS = ["uptown_cli/engine", "uptown_cli/fairplay/draws.py", "uptown_cli/fairplay/keys.py",
                   "uptown_cli/fairplay/memory.py", "uptown_cli/fairplay/signatures.py",
                   "uptown_cli/records/disputes.py", "uptown_cli/club/judge.py"]
TESTS = {
    "uptown_cli/engine/": [
        ["tests/engine/test_rules.py", "tests/engine/test_turns_and_colours.py",
         "tests/engine/test_game_api.py", "tests/engine/test_scoring.py",
         "tests/engine/test_geometry.py", "tests/engine/test_positions.py"],
        ["tests/engine"],
    ],
    "uptown_cli/fairplay/draws.py": [["tests/fairplay/test_draws.py"], ["tests/fairplay"]],
    "uptown_cli/fairplay/keys.py": [["tests/fairplay/test_key_files.py"], ["tests/fairplay"]],
    "uptown_cli/fairplay/memory.py": [["tests/fairplay/test_attacks.py"],
                                      ["tests/records", "tests/fairplay", "tests/club/test_disputes.py"]],
    "uptown_cli/fairplay/signatures.py": [
        ["tests/fairplay/test_signed_entries.py", "tests/fairplay/test_verified_signatures.py",
         "tests/fairplay/test_draws_recomputed.py"],
        ["tests/fairplay", "tests/turns", "tests/club/test_disputes.py",
         "tests/club/test_judge_rulings.py"]],
    "uptown_cli/records/disputes.py": [["tests/club/test_disputes.py"],
                                       ["tests/records", "tests/fairplay", "tests/turns"]],
    "uptown_cli/club/judge.py": [
        ["tests/club/test_judge_rulings.py"],
        ["tests/club/test_judge_season.py", "tests/club/test_judge_command.py",
         "tests/club/test_judge_plugged.py"]],
    "scripts/option_checks.py": [["tests/analysis/test_script_options.py"]],
}
"""The tests run against a mutant of each module (by the start of its path), in stages: the
quick tests first, the rest only for a mutant that passed them (``pytest -x`` stops at the
first failure, and most mutants fail early)."""

COMPARISONS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
               ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn,
               ast.NotIn: ast.In}
ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd}


class Mutant(NamedTuple):
    """One change to one module: ``key`` names it (module, function, before -> after)."""

    path: str
    index: int
    line: int
    key: str


def mutation_points(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str]]:
    """``(node, function, kind)`` for every place of ``tree`` a mutant can change, in order."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        # Annotations, docstrings, __all__ and type-checking imports are not behaviour.
        if isinstance(node, (ast.arg, ast.AnnAssign)) and node.annotation is not None:
            skip.update(id(n) for n in ast.walk(node.annotation))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            skip.update(id(n) for n in ast.walk(node.returns))
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                for t in node.targets):
            skip.update(id(n) for n in ast.walk(node))

    def visit(node: ast.AST, function: str) -> Iterator[tuple[ast.AST, str, str]]:
        for child in ast.iter_child_nodes(node):
            name = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{function}.{child.name}" if function else child.name
            if id(child) not in skip:
                if isinstance(child, ast.Compare):
                    for i, op in enumerate(child.ops):
                        if type(op) in COMPARISONS:
                            yield child, name, f"compare{i}"
                elif isinstance(child, ast.BoolOp):
                    yield child, name, "boolop"
                elif isinstance(child, ast.UnaryOp) and isinstance(child.op, ast.Not):
                    yield child, name, "not"
                elif isinstance(child, ast.BinOp) and type(child.op) in ARITHMETIC:
                    yield child, name, "binop"
                elif isinstance(child, ast.Constant) and type(child.value) is bool:
                    yield child, name, "bool"
                elif (isinstance(child, ast.Constant) and type(child.value) is int
                      and 0 <= child.value < 1000):
                    yield child, name, "int"
            yield from visit(child, name)

    yield from visit(tree, "")


def mutated(node: ast.AST, kind: str) -> ast.AST:
    """A copy of ``node`` changed as ``kind`` says."""
    new = copy.deepcopy(node)
    if kind.startswith("compare"):
        i = int(kind[len("compare"):])
        new.ops[i] = COMPARISONS[type(new.ops[i])]()  # type: ignore[attr-defined]
    elif kind == "boolop":
        new.op = ast.Or() if isinstance(new.op, ast.And) else ast.And()  # type: ignore[attr-defined]
    elif kind == "not":
        return new.operand  # type: ignore[attr-defined,no-any-return]
    elif kind == "binop":
        new.op = ARITHMETIC[type(new.op)]()  # type: ignore[attr-defined]
    elif kind == "bool":
        new.value = not new.value  # type: ignore[attr-defined]
    elif kind == "int":
        new.value = new.value + 1  # type: ignore[attr-defined]
    return new


def short(node: ast.AST) -> str:
    """``node``'s source on one line, cut to 70 characters."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= 70 else text[:67] + "..."


def mutants(path: str) -> list[Mutant]:
    """Every mutant of the module at ``path`` (relative to the checkout)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found = []
    counts: dict[str, int] = {}
    for index, (node, function, kind) in enumerate(mutation_points(tree)):
        change = f"{short(node)} -> {short(mutated(node, kind))}"
        key = f"{path.removeprefix('uptown_cli/')} {function or '<module>'}: {change}"
        counts[key] = counts.get(key, 0) + 1
        if counts[key] > 1:
            key += f" (#{counts[key]})"
        found.append(Mutant(path, index, getattr(node, "lineno", 0), key))
    return found


def mutant_source(mutant: Mutant) -> str:
    """The source of ``mutant``'s module with its one change."""
    tree = ast.parse((ROOT / mutant.path).read_text(encoding="utf-8"))
    for index, (node, _, kind) in enumerate(mutation_points(tree)):
        if index == mutant.index:
            replacement = mutated(node, kind)
            for parent in ast.walk(tree):
                for field, value in ast.iter_fields(parent):
                    if value is node:
                        setattr(parent, field, replacement)
                    elif isinstance(value, list) and any(item is node for item in value):
                        value[[i for i, item in enumerate(value) if item is node][0]] = replacement
            return ast.unparse(ast.fix_missing_locations(tree))
    raise ValueError(f"no mutant {mutant.index} in {mutant.path}")


def tests_for(path: str) -> list[list[str]]:
    """The stages of tests run against a mutant of ``path``."""
    for start, stages in TESTS.items():
        if path.startswith(start):
            return stages
    return [["tests"]]


def checkout_copy() -> Path:
    """A copy of the checkout's tracked files (and any not yet committed), to mutate, with
    the gettext catalogs compiled in it as an install compiles them (git ignores them)."""
    folder = Path(tempfile.mkdtemp(prefix="uptown-mutants-"))
    try:
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.split("\n")
        for name in filter(None, listed):
            source = ROOT / name
            if source.is_file():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, folder / name)
        compile_catalogs(folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


UNCHANGED = -1
"""The index a worker is sent to run a module's tests on the code as it is."""


def serve(folder: str) -> None:
    """A worker: reads ``PATH INDEX TIMEOUT`` lines, writes ``killed``, ``survived`` or
    ``timeout`` for each. It loads pytest and hypothesis once; each stage of tests runs in a
    child forked from it, which loads the package and the tests from ``folder`` (a copy of
    the checkout, the mutant's module changed in it for the while)."""
    os.chdir(folder)
    sys.path.insert(0, folder)
    os.environ["PYTHONPATH"] = folder  # for the processes the tests start
    import hypothesis  # noqa: F401  loaded once for every mutant
    import pytest

    for line in sys.stdin:
        path, index, timeout = line.split()
        mutant = Mutant(path, int(index), 0, "")
        target = Path(folder) / path
        original = target.read_text(encoding="utf-8")
        if mutant.index != UNCHANGED:
            target.write_text(mutant_source(mutant), encoding="utf-8")
        try:
            outcome = "survived"
            for stage in tests_for(path):
                outcome = _forked(lambda: pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p",
                                                       "no:xdist", *stage]), float(timeout))
                if outcome != "survived":
                    break
        finally:
            target.write_text(original, encoding="utf-8")
        print(outcome, flush=True)


def _forked(test: Callable[[], object], timeout: float) -> str:
    """Run ``test`` in a child process, quiet: ``survived`` when it returns 0, ``killed``
    otherwise, ``timeout`` when it has not finished in ``timeout`` seconds."""
    child = os.fork()
    if child == 0:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        try:
            code = int(test())  # type: ignore[call-overload]
        except BaseException:
            code = 1
        os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            return "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
        if time.monotonic() > deadline:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            return "timeout"
        time.sleep(0.02)


def unchanged_times(worker: subprocess.Popen[str], everything: list[Mutant]) -> dict[str, float] | None:
    """The seconds the tests of each module of ``everything`` take on the code as it is (run by
    ``worker``, once for each set of stages, keyed by ``stages_key``); None, with one line on
    standard error for each set that fails: a test that fails without a mutant would kill every
    mutant, and the score would say nothing."""
    assert worker.stdin is not None and worker.stdout is not None
    times: dict[str, float] = {}
    failed = False
    for mutant in everything:
        key = stages_key(mutant.path)
        if key not in times:
            started = time.monotonic()
            worker.stdin.write(f"{mutant.path} {UNCHANGED} {UNCHANGED_TIMEOUT}\n")
            worker.stdin.flush()
            outcome = worker.stdout.readline().strip()
            times[key] = time.monotonic() - started
            if outcome != "survived":
                failed = True
                print(f"mutation: the tests of {mutant.path} fail on the code as it is ({key}); "
                      "mend them before mutating it", file=sys.stderr)
    return None if failed else times


def stages_key(path: str) -> str:
    """The stages of tests of ``path``, as a key of ``unchanged_times``."""
    return repr(tests_for(path))


UNCHANGED_TIMEOUT = 3600
"""Seconds the tests of a module may take on the code as it is."""
SLOWER = 3
"""How many times as long as all its module's stages take on the code as it is each stage of a
mutant's tests may take (and at least ``--timeout``) before the mutant counts as killed by a
timeout: one that makes the code that much slower is caught, and a slow machine kills none."""


def equivalents() -> dict[str, str]:
    """``{mutant key: why it is equivalent}`` from docs/MUTATION.md (items ``- `KEY`: why``,
    the why going on over the indented lines that follow)."""
    found: dict[str, str] = {}
    if EQUIVALENTS.exists():
        key = None
        for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
            match = re.match(r"- `(.+)`:(.*)", line)
            if match:
                key = match.group(1)
                found[key] = match.group(2).strip()
            elif key is not None and line.startswith("  "):
                found[key] = f"{found[key]} {line.strip()}".strip()
            else:
                key = None
    return found


def modules(targets: list[str]) -> list[str]:
    """The module paths of ``targets`` (files or folders, relative to the checkout)."""
    paths = []
    for target in targets:
        full = (ROOT / target).resolve()
        files = sorted(full.rglob("*.py")) if full.is_dir() else [full]
        paths += [str(f.relative_to(ROOT)) for f in files if f.name != "__init__.py"]
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("targets", nargs="*", default=DEFAULT_TARGETS,
                        help="modules or folders to mutate (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    parser.add_argument("--timeout", type=float, default=60,
                        help=f"seconds one mutant's tests may take at least ({SLOWER} times what they take "
                             "on the code as it is, if more)")
    parser.add_argument("--list", action="store_true", help="list the mutants without running them")
    parser.add_argument("--match", action="append", default=[], metavar="TEXT",
                        help="only the mutants whose name holds TEXT (again for more)")
    parser.add_argument("--serve", metavar="FOLDER", help=argparse.SUPPRESS)  # a worker (see serve)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    everything = [m for path in modules(args.targets) for m in mutants(path)
                  if not args.match or any(text in m.key for text in args.match)]
    if args.list:
        for mutant in everything:
            print(f"{mutant.path}:{mutant.line}: {mutant.key}")
        print(f"{len(everything)} mutants")
        return 0
    known = equivalents()
    folders = [checkout_copy() for _ in range(max(1, args.jobs))]
    workers = [subprocess.Popen([sys.executable, __file__, "--serve", str(folder)], text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE) for folder in folders]
    free = list(workers)
    start = time.monotonic()
    results: dict[Mutant, str] = {}
    limits: dict[str, float] = {}  # each set of stages' timeout, from its time on the code as it is

    def one(mutant: Mutant) -> None:
        worker = free.pop()
        try:
            assert worker.stdin is not None and worker.stdout is not None
            worker.stdin.write(f"{mutant.path} {mutant.index} {limits[stages_key(mutant.path)]}\n")
            worker.stdin.flush()
            results[mutant] = worker.stdout.readline().strip() or "killed"
        finally:
            free.append(worker)
        done = len(results)
        if results[mutant] == "survived":
            print(f"survived: {mutant.path}:{mutant.line}: {mutant.key}", flush=True)
        if done % 25 == 0:
            print(f"{done}/{len(everything)} mutants in {time.monotonic() - start:.0f} s", flush=True)

    try:
        measured = unchanged_times(workers[0], everything)
        if measured is None:
            return 2
        limits.update((key, max(args.timeout, SLOWER * seconds)) for key, seconds in measured.items())
        with ThreadPoolExecutor(max_workers=len(workers)) as pool:
            list(pool.map(one, everything))
    finally:
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.close()
            worker.wait()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
    survivors = [m for m in everything if results.get(m) == "survived"]
    equivalent = [m for m in survivors if m.key in known]
    unexplained = [m for m in survivors if m.key not in known]
    killed = len(everything) - len(survivors)
    print(f"\n{len(everything)} mutants: {killed} killed "
          f"({sum(r == 'timeout' for r in results.values())} by a timeout), {len(survivors)} survived, "
          f"{len(equivalent)} of them judged equivalent (docs/MUTATION.md)")
    print(f"score: {killed / max(1, len(everything)):.1%} killed; "
          f"{killed / max(1, len(everything) - len(equivalent)):.1%} of the mutants not judged equivalent")
    for mutant in equivalent:
        print(f"equivalent: {mutant.key}: {known[mutant.key]}")
    for mutant in unexplained:
        print(f"SURVIVED: {mutant.path}:{mutant.line}: {mutant.key}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
