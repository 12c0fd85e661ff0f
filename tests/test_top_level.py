"""The names used most import from the top of the package, loaded only when first used."""

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import uptown_cli

PACKAGE = Path(uptown_cli.__file__).resolve().parent


def test_the_names_used_most_import_from_the_top(tmp_path):
    from uptown_cli import Game, Move, Player, choose_move, parse_move, read_record, replay

    game = Game([Player("Ana", ("red", "blue")), Player("Bo", ("green", "yellow"))])
    assert isinstance(parse_move("7 B7"), Move) and callable(replay) and callable(choose_move)
    path = tmp_path / "g.yaml"
    path.write_text("uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\nmoves: []\n", encoding="utf-8")
    assert [p.name for p in read_record(str(path)).players] == ["Ana", "Bo"] == [p.name for p in game.players]


def test_every_top_level_name_is_a_public_name_of_the_module_below_that_defines_it():
    """``uptown_cli.Game`` is ``uptown_cli.engine.game.Game`` itself, and public there."""
    below = {}
    for found in pkgutil.walk_packages(uptown_cli.__path__, "uptown_cli."):
        module = importlib.import_module(found.name)
        below.update({id(getattr(module, name)): f"{module.__name__}.{name}" for name in module.__all__})
    names = [name for name in uptown_cli.__all__ if name != "__version__"]
    assert len(names) > 20
    homeless = [name for name in names if id(getattr(uptown_cli, name)) not in below]
    assert not homeless, homeless
    assert below[id(uptown_cli.read_record)] == "uptown_cli.records.reading.load_record"


def test_the_package_is_typed_and_its_marker_is_packaged():
    """PEP 561: ``py.typed`` beside the code, and named in the package data (so it is in a wheel)."""
    assert (PACKAGE / "py.typed").is_file()
    config = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'\[tool\.setuptools\.package-data\][^\[]*uptown_cli = \[[^]]*"py\.typed"', config)


def test_importing_the_package_loads_no_layer():
    code = "import sys, uptown_cli; print(sorted(m for m in sys.modules if m.startswith('uptown_cli.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"
