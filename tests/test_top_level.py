"""The names used most import from the top of the package, loaded only when first used."""

import subprocess
import sys

import uptown_cli


def test_the_names_used_most_import_from_the_top(tmp_path):
    from uptown_cli import Game, Move, Player, choose_move, parse_move, read_record, replay

    game = Game([Player("Ana", ("red", "blue")), Player("Bo", ("green", "yellow"))])
    assert isinstance(parse_move("7 B7"), Move) and callable(replay) and callable(choose_move)
    path = tmp_path / "g.yaml"
    path.write_text("uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\nmoves: []\n", encoding="utf-8")
    assert [p.name for p in read_record(str(path)).players] == ["Ana", "Bo"] == [p.name for p in game.players]


def test_every_top_level_name_resolves():
    for name in uptown_cli.__all__:
        assert getattr(uptown_cli, name) is not None


def test_importing_the_package_loads_no_layer():
    code = "import sys, uptown_cli; print(sorted(m for m in sys.modules if m.startswith('uptown_cli.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"
