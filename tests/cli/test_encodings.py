"""Terminal text degrades, never breaks: names any encoding cannot show are printed as
escapes, and wide (East Asian) characters keep table columns aligned."""

from pathlib import Path
import pytest
from wcwidth import wcswidth

ROOT = Path(__file__).resolve().parents[2]

GAME = ROOT / "records" / "in-progress.yaml"
NAMES = {"Ana": "张伟", "Bo": "山田太郎", "Cy": "김민준"}


@pytest.fixture
def cjk_game(tmp_path):
    text = GAME.read_text(encoding="utf-8")
    for latin, cjk in NAMES.items():
        text = text.replace(f"name: {latin}", f"name: {cjk}")
    path = tmp_path / "cjk.yaml"
    path.write_text(text, encoding="utf-8")
    return path


ANALYZE = pytest.param("analyze", marks=pytest.mark.slow)
"""``analyze`` reviews every move with a bot: seconds of work for each run."""


@pytest.mark.parametrize("command", ["show", "score", "replay", "moves", ANALYZE, "validate"])
@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_cjk_names_on_a_terminal_that_cannot_show_them_never_raise(uptown, cjk_game, command, encoding):
    result = uptown.run(command, cjk_game, env={"PYTHONIOENCODING": encoding})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "UnicodeEncodeError" not in result.stderr


def test_a_name_a_latin1_terminal_cannot_show_is_printed_as_escapes(uptown, cjk_game):
    result = uptown.run("score", cjk_game, env={"PYTHONIOENCODING": "latin-1"})
    assert "\\u5f20\\u4f1f" in result.stdout


@pytest.mark.parametrize("command", ["score", "show", ANALYZE])
def test_wide_characters_keep_table_columns_aligned(uptown, cjk_game, command):
    lines = uptown.invoke(command, cjk_game).stdout.splitlines()
    rows = [line for line in lines  # a row per player in a table
            if any(name + "  " in line for name in NAMES.values()) and "(" not in line]
    assert len(rows) >= 3
    columns = {wcswidth(row[:row.index(colour)]) for row in rows
               for colour in ("red", "blue", "green") if colour in row}
    assert len(columns) == 1, rows
