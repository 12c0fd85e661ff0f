"""``analyze`` over several records or folders: each game reviewed as it would be alone, their
moves shared out by --jobs (or a cluster, tests/analysis/test_cluster.py), the records that
cannot be judged reported and left out."""

import json
from pathlib import Path

HAND = Path(__file__).resolve().parents[1] / "analysis_records"
ARGS = ("--iterations", "4", "--seed", "fold", "--json")


def test_a_folder_is_reviewed_game_by_game_as_each_alone(uptown, tmp_path, game_file):
    (tmp_path / "hand.yaml").write_text((HAND / "seeded-3p.yaml").read_text())
    game_file(name="later.yaml", moves=5)
    result, reports = uptown.json("analyze", tmp_path, *ARGS)
    assert result.exit_code == 0, result.output
    assert [Path(r["path"]).name for r in reports] == ["hand.yaml", "later.yaml"]
    for report in reports:
        _, alone = uptown.json("analyze", report["path"], *ARGS)
        assert report == alone
    _, shared = uptown.json("analyze", tmp_path, *ARGS, "--jobs", "2")
    assert shared == reports


def test_a_record_that_cannot_be_judged_is_reported_and_left_out(uptown, tmp_path):
    (tmp_path / "good.yaml").write_text((HAND / "seeded-3p.yaml").read_text())
    (tmp_path / "unseeded.yaml").write_text(
        "uptown: 1\nplayers:\n  - name: A\n    colors: [red, green]\n  - name: B\n    colors: [blue, yellow]\nmoves:\n")
    result = uptown.invoke("analyze", tmp_path, *ARGS)
    assert result.exit_code == 1
    assert [Path(r["path"]).name for r in json.loads(result.stdout)] == ["good.yaml"]
    assert "unseeded.yaml: the racks are unknown" in result.stderr and "(skipped)" in result.stderr


def test_annotate_takes_one_record(uptown, tmp_path):
    result = uptown.invoke("analyze", HAND / "seeded-3p.yaml", HAND / "shared-3p.yaml", "--annotate")
    assert result.exit_code == 2 and "give one FILE" in result.output
