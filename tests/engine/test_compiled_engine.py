"""The engine compiled by mypyc (docs/PERFORMANCE.md, "A faster engine"): when CI runs the
tests on that build (``UPTOWN_TEST_COMPILED=1``), the modules under test, and those of the
processes the tests start, must be the compiled ones, or the run would only test the Python
sources a second time; and what Python gives every object for free, which compiled classes
lack, a game has on both (pickling, copying)."""

import copy
import importlib
import os
import pickle
import random
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from uptown_cli.engine.game import _STATE, Game

COMPILED = ("geometry", "groups", "notation", "game", "playout")
"""The engine's modules the build compiles (setup.py)."""

on_the_compiled_build = pytest.mark.skipif(
    os.environ.get("UPTOWN_TEST_COMPILED") != "1",
    reason="the tests run on the Python sources (UPTOWN_TEST_COMPILED=1 on a compiled build)")


@on_the_compiled_build
def test_the_compiled_modules_are_the_ones_under_test():
    for name in COMPILED:
        module = importlib.import_module(f"uptown_cli.engine.{name}")
        assert module.__file__ is not None and module.__file__.endswith(tuple(EXTENSION_SUFFIXES)), name


@on_the_compiled_build
def test_a_process_the_tests_start_runs_the_compiled_engine_too():
    code = "import uptown_cli.engine.game as game; print(game.__file__)"
    where = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, timeout=60)
    assert where.stdout.strip().endswith(tuple(EXTENSION_SUFFIXES)), where.stdout


def test_the_compiled_modules_are_the_ones_the_build_names():
    text = (Path(__file__).resolve().parents[2] / "setup.py").read_text(encoding="utf-8")
    assert all(f'"uptown_cli/engine/{name}.py"' in text for name in COMPILED)


def played_game():
    """A three-player game after 30 random moves, one capture or more among them."""
    game = Game.new(["Ana", "Bo", "Cy"], seed="pickled")
    rng = random.Random(3)
    while game.ply < 30:
        color, move = rng.choice(game.legal_moves())
        game.play(move, color)
    return game


@pytest.mark.parametrize("how", [lambda g: pickle.loads(pickle.dumps(g)), copy.deepcopy],
                         ids=["pickle", "deepcopy"])
def test_a_game_pickled_or_copied_deeply_is_the_same_game_and_a_game_of_its_own(how):
    game = played_game()
    again = how(game)
    assert str(again) == str(game) and again.history == game.history
    assert again.legal_moves() == game.legal_moves() and again.racks == game.racks
    color, move = again.legal_moves()[0]
    assert again.play(move, color) == game.play(move, color)


def test_a_shallow_copy_of_a_game_shares_its_state_as_any_object_does():
    game = played_game()
    again = copy.copy(game)
    assert str(again) == str(game) and again.history is game.history


def test_a_pickled_game_carries_every_attribute_its_players_do_not_give():
    given = {"players", "variant", "_colors", "_slot", "_seat", "_seat_slots", "_following", "_opponents"}
    game = played_game()
    # A compiled class lists its attributes where the sources' instance keeps them.
    attributes = getattr(game, "__mypyc_attrs__", None) or vars(game)
    assert set(attributes) == given | set(_STATE)
