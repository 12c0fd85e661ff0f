"""The engine compiled by mypyc (docs/PERFORMANCE.md, "A faster engine"): when CI runs the
tests on that build (``UPTOWN_TEST_COMPILED=1``), the modules under test must be the compiled
ones, or the run would only test the Python sources a second time."""

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

COMPILED = ("geometry", "groups", "notation", "game", "playout")
"""The engine's modules the build compiles (setup.py)."""


@pytest.mark.skipif(os.environ.get("UPTOWN_TEST_COMPILED") != "1",
                    reason="the tests run on the Python sources (UPTOWN_TEST_COMPILED=1 on a compiled build)")
def test_the_compiled_modules_are_the_ones_under_test():
    for name in COMPILED:
        module = importlib.import_module(f"uptown_cli.engine.{name}")
        assert module.__file__ is not None and module.__file__.endswith(tuple(EXTENSION_SUFFIXES)), name


def test_the_compiled_modules_are_the_ones_the_build_names():
    text = (Path(__file__).resolve().parents[2] / "setup.py").read_text(encoding="utf-8")
    assert all(f'"uptown_cli/engine/{name}.py"' in text for name in COMPILED)
