"""Edge cases of the commands' arguments: what defaults where, and what counts as FILE."""

from pathlib import Path
import shutil


ROOT = Path(__file__).resolve().parents[2]

IN_PROGRESS = ROOT / "records" / "in-progress.yaml"


def test_replay_to_stops_before_a_later_illegal_move(uptown, tmp_path):
    path = tmp_path / "broken.yaml"
    lines = IN_PROGRESS.read_text().splitlines(keepends=True)
    first_move = lines.index("moves:\n") + 1
    path.write_text("".join(lines[: first_move + 3]) + "  - red: 9 A1\n")
    shown = uptown.invoke("replay", path, "--to", "2")
    assert shown.exit_code == 0
    assert "Move 2:" in shown.stdout and "Move 3:" not in shown.stdout
    broken = uptown.invoke("replay", path)
    assert broken.exit_code == 1
    assert "move 4" in broken.stderr


def test_move_takes_a_folder_named_like_a_tile_as_part_of_the_move(uptown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(IN_PROGRESS, "game.yaml")
    (tmp_path / "H").mkdir()
    result = uptown.invoke("move", "H", "H1")
    assert result.exit_code == 0, result.stderr
    assert "  - green: H H1\n" in (tmp_path / "game.yaml").read_text()


def test_stats_and_export_default_to_the_game_file(uptown, tmp_path):
    env = {"UPTOWN_GAME": str(IN_PROGRESS)}
    exported = uptown.invoke("export", env=env)
    assert exported.exit_code == 0
    assert len(exported.stdout.splitlines()) == 1 + 17
    assert uptown.invoke("stats", "--json", env=env).exit_code == 0
