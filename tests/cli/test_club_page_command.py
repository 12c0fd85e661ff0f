"""``uptown club page FOLDER... -o DIR``: the files of ``club.page.club_page`` written into DIR,
each whole and only when it changed; refused in one line, with nothing written, when DIR is
not a folder, when a file in the way is not one uptown wrote (without ``--force``) or not a
regular file, or when a folder of games cannot be read; ``-o`` is required (status 2)."""

import os
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from uptown_cli.club.page import INDEX, club_page

RECORDS = Path(__file__).resolve().parents[2] / "records"
PAGES = {"index.html", "2p-standard.html", "3p-blockers.html", "4p-standard.html",
         "5p-blockers.html", "annotated.html"}
"""The files of the bundled records' page: five finished games and one in play."""


@pytest.fixture
def games(tmp_path):
    """A copy of the bundled records."""
    folder = tmp_path / "games"
    shutil.copytree(RECORDS, folder, ignore=shutil.ignore_patterns("*.md"))
    return folder


def contents(folder):
    """``{name: bytes}`` of the files in ``folder``."""
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def test_it_writes_the_page_and_a_replay_page_per_finished_game(uptown, games, tmp_path):
    site = tmp_path / "site"
    result = uptown.invoke("club", "page", games, "-o", site)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(f"Wrote {site}/index.html with 5 replay pages (")
    now = datetime.fromisoformat(os.environ["UPTOWN_NOW"].replace("Z", "+00:00"))
    made = club_page(sorted(str(p) for p in games.glob("*.yaml")), now)
    assert contents(site) == made and set(made) == PAGES


def test_a_second_run_writes_nothing_when_nothing_changed(uptown, games, tmp_path):
    site = tmp_path / "site"
    assert uptown.invoke("club", "page", games, "-o", site).exit_code == 0
    for path in site.iterdir():
        os.utime(path, (1_700_000_000, 1_700_000_000))
    result = uptown.invoke("club", "page", games, "-o", site)
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"{site}/index.html and its 5 replay pages are up to date; nothing "
                             "was written.\n")
    assert {path.stat().st_mtime for path in site.iterdir()} == {1_700_000_000}


def test_a_page_it_wrote_is_replaced_when_the_game_moved_on(uptown, games, tmp_path):
    site = tmp_path / "site"
    assert uptown.invoke("club", "page", games, "-o", site).exit_code == 0
    before = contents(site)
    (games / "in-progress.yaml").unlink()
    result = uptown.invoke("club", "page", games, "-o", site, "--title", "Autumn")
    assert result.exit_code == 0, result.output
    after = contents(site)
    assert after[INDEX] != before[INDEX] and b"<h1>Autumn</h1>" in after[INDEX]
    assert {name: after[name] for name in PAGES - {INDEX}} == {
        name: before[name] for name in PAGES - {INDEX}}


def test_dir_that_is_not_a_folder_is_refused(uptown, games, tmp_path):
    site = tmp_path / "site"
    site.write_text("a file\n")
    result = uptown.invoke("club", "page", games, "-o", site)
    assert result.exit_code == 1
    assert result.stderr == f"Error: -o {site} is not a folder; nothing was written\n"
    assert site.read_text() == "a file\n"


def test_a_link_to_a_folder_is_a_folder(uptown, games, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "site").symlink_to("real")
    result = uptown.invoke("club", "page", games, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    assert set(os.listdir(tmp_path / "real")) == PAGES


def test_a_file_uptown_did_not_write_is_replaced_only_with_force(uptown, games, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>the club's own page</p>\n")
    result = uptown.invoke("club", "page", games, "-o", site)
    assert result.exit_code == 1
    assert result.stderr == (f"Error: -o {site}/index.html exists and uptown did not write it; "
                             "add --force to replace it (nothing was written)\n")
    assert os.listdir(site) == ["index.html"]
    assert (site / "index.html").read_text() == "<p>the club's own page</p>\n"
    result = uptown.invoke("club", "page", games, "-o", site, "--force")
    assert result.exit_code == 0, result.output
    assert set(os.listdir(site)) == PAGES


@pytest.mark.parametrize("kind", ["link", "folder"])
def test_anything_but_a_regular_file_in_the_way_is_refused_even_with_force(
        uptown, games, tmp_path, kind):
    site = tmp_path / "site"
    site.mkdir()
    elsewhere = tmp_path / "elsewhere.html"
    elsewhere.write_text("not yours\n")
    in_the_way = site / "annotated.html"
    if kind == "link":
        in_the_way.symlink_to(elsewhere)
    else:
        in_the_way.mkdir()
    result = uptown.invoke("club", "page", games, "-o", site, "--force")
    assert result.exit_code == 1
    assert result.stderr == (f"Error: -o {in_the_way} is in the way: it is not a regular file; "
                             "nothing was written\n")
    assert os.listdir(site) == ["annotated.html"] and elsewhere.read_text() == "not yours\n"


def test_dir_is_made_but_not_its_parents(uptown, games, tmp_path):
    site = tmp_path / "no" / "site"
    result = uptown.invoke("club", "page", games, "-o", site)
    assert result.exit_code == 1
    assert result.stderr == (f"Error: cannot create {site}: No such file or directory; nothing "
                             "was written\n")
    assert not (tmp_path / "no").exists()


def test_a_folder_that_cannot_be_read_writes_nothing(uptown, games, tmp_path):
    (games / "locked").mkdir(mode=0)
    site = tmp_path / "site"
    result = uptown.run_powerless("club", "page", games, "-o", site, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"Error: {games}/locked: cannot read the folder (Permission denied); its records were "
        "not read",
        f"Error: -o {site}: nothing was written, since a folder of games could not be read"]
    assert not site.exists()


def test_a_folder_it_cannot_write_into_is_one_line(uptown, games, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    site.chmod(0o555)
    result = uptown.run_powerless("club", "page", games, "-o", site, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(f"Error: cannot write {site}/") and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_dir_is_required(uptown, games):
    result = uptown.invoke("club", "page", games)
    assert result.exit_code == 2
    assert "Missing option '-o' / '--output'" in result.stderr


def test_club_alone_lists_its_commands(uptown):
    result = uptown.invoke("club", "--help")
    assert result.exit_code == 0
    assert ("  page  Write the club's page and the finished games' replay pages into DIR.\n"
            in result.stdout)


def test_the_page_and_its_help_in_spanish(uptown, games, tmp_path):
    result = uptown.invoke("--lang", "es", "club", "page", games, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("Se ha escrito ")
    assert (tmp_path / "site" / INDEX).read_text().startswith('<!DOCTYPE html>\n<html lang="es">')
    shown = uptown.invoke("--lang", "es", "club", "page", "--help")
    assert shown.stdout.startswith("Uso: uptown club page [OPCIONES] [FOLDER...]\n")
    assert "Escribir en DIR la página del club" in shown.stdout
    assert "Sustituir los archivos de DIR que no ha escrito uptown." in shown.stdout
    assert all(len(line) <= 80 for line in shown.stdout.splitlines())
    listed = uptown.invoke("--lang", "es", "club", "--help").stdout
    assert "Comandos:" in listed and "  page  Escribir en DIR la página del club" in listed
