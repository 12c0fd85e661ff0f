"""validate, stats and export over folders: nothing is skipped silently.  A folder that cannot
be read is reported in one line and fails the command; links to folders are followed, each
folder searched once, so a link loop ends."""

from pathlib import Path
import os

import pytest

ROOT = Path(__file__).resolve().parents[2]

RECORDS = ROOT / "records"


@pytest.fixture
def tree(tmp_path):
    """ok/a.yaml (valid), locked/bad.yaml (invalid; the folder made unreadable by the test),
    linked -> ../other holding a valid record, and a loop back to the top."""
    top = tmp_path / "tree"
    for folder in ("ok", "locked"):
        (top / folder).mkdir(parents=True)
    (top / "ok" / "a.yaml").write_bytes((RECORDS / "in-progress.yaml").read_bytes())
    (top / "locked" / "bad.yaml").write_text("uptown: 1\nplayers: 3\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "b.yaml").write_bytes((RECORDS / "3p-blockers.yaml").read_bytes())
    (top / "linked").symlink_to("../other")
    (top / "ok" / "loop").symlink_to("..")
    return top


@pytest.fixture
def locked(tree, monkeypatch):
    """Listing tree/locked fails as it would for a folder without read permission (the tests
    may run as root, who can read any folder)."""
    real_scandir = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    return tree


def test_validate_reports_a_folder_it_cannot_read(uptown, locked):
    result = uptown.invoke("validate", locked)
    assert result.exit_code == 1
    assert f"{locked}/locked: cannot read the folder (Permission denied)" in result.stdout
    assert "2 records, 2 valid, 0 invalid; 1 folder not read" in result.stdout


def test_validate_json_lists_a_folder_it_cannot_read(uptown, locked):
    import json

    result = uptown.invoke("validate", "--json", locked)
    entries = json.loads(result.stdout)
    assert result.exit_code == 1
    assert [e["path"] for e in entries if not e["valid"]] == [f"{locked}/locked"]


@pytest.mark.parametrize("command", [["stats"], ["export"]])
def test_stats_and_export_report_a_folder_they_cannot_read(uptown, locked, command):
    result = uptown.invoke(*command, locked)
    assert result.exit_code == 1
    assert f"Error: {locked}/locked: cannot read the folder (Permission denied)" in result.stderr


def test_folders_reached_through_a_link_are_searched_once(uptown, tree):
    (tree / "locked" / "bad.yaml").unlink()
    result = uptown.invoke("validate", tree)
    assert result.exit_code == 0
    assert result.stdout == "2 records, 2 valid, 0 invalid\n"  # b.yaml through the link
    export = uptown.invoke("export", tree)
    assert export.exit_code == 0 and "/linked/b.yaml" in export.stdout
