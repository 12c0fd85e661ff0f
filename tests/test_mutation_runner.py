"""scripts/mutation.py kills a mutant by its tests only, never by its copy of the checkout: a
gettext catalog that git ignores, missing from the copies, once failed every test in Spanish
and so counted every mutant that reached one as killed."""

import io
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def mutation(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import mutation

    return mutation


class Worker:
    """A stand-in for a worker process: what it was asked, and the outcome it answers."""

    def __init__(self, outcome):
        self.stdin = io.StringIO()
        self.stdout = io.StringIO(f"{outcome}\n" * 9)


def test_a_copy_to_mutate_has_the_catalogs_compiled(mutation):
    folder = mutation.checkout_copy()
    try:
        catalog = folder / "uptown_cli" / "locale" / "es" / "LC_MESSAGES" / "uptown.mo"
        assert catalog.read_bytes()[:4] == b"\xde\x12\x04\x95"  # a GNU .mo file, little-endian
    finally:
        shutil.rmtree(folder)


def test_the_run_stops_when_a_modules_tests_fail_on_the_code_as_it_is(mutation, capsys):
    mutants = [mutation.Mutant("uptown_cli/engine/game.py", 0, 1, "a"),
               mutation.Mutant("uptown_cli/engine/groups.py", 0, 1, "b")]
    worker = Worker("killed")
    assert mutation.unchanged_times(worker, mutants) is None
    assert worker.stdin.getvalue() == (  # the engine's modules share their tests: run once
        f"uptown_cli/engine/game.py {mutation.UNCHANGED} {mutation.UNCHANGED_TIMEOUT}\n")
    assert "the tests of uptown_cli/engine/game.py fail on the code as it is" in capsys.readouterr().err


def test_each_modules_tests_are_timed_on_the_code_as_it_is_once(mutation):
    mutants = [mutation.Mutant("uptown_cli/engine/game.py", 0, 1, "a"),
               mutation.Mutant("uptown_cli/fairplay/keys.py", 0, 1, "b"),
               mutation.Mutant("uptown_cli/fairplay/keys.py", 1, 2, "c")]
    worker = Worker("survived")
    times = mutation.unchanged_times(worker, mutants)
    assert worker.stdin.getvalue().count(f" {mutation.UNCHANGED} ") == 2
    assert set(times) == {mutation.stages_key("uptown_cli/engine/game.py"),
                          mutation.stages_key("uptown_cli/fairplay/keys.py")}
