"""The club's page (``club.page.club_page``): the games in play with whose turn it is and what
their clock says, the finished games with their results and their replay pages (``uptown
html``'s, byte for byte), the standings of ``uptown ratings``, the records left out; one page
that loads nothing and runs no script, every text from a record or a file name escaped, in
the language of the process."""

import json
import os
import re
from datetime import datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uptown_cli.club.page import INDEX, club_page, replay_names
from uptown_cli.i18n import language

RECORDS = Path(__file__).resolve().parents[2] / "records"
ALONE = "uptown: 1\nplayers:\n  - name: Ana\n"
"""A record of one player (line 3): not a game."""
HOSTILE = "<script>alert(1)</script>"
HOSTILE_EVENT = "<img src=x onerror=\"alert('event')\"> & </table>"


class Page(HTMLParser):
    """A page read as a browser's parser reads it: its tags with their attributes, the text of
    each section (by id), and the rows of each section's table as lists of cell texts."""

    def __init__(self, data):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.rows = [], {}, {}
        self.section, self.cell = None, None
        self.feed(data.decode("utf-8") if isinstance(data, bytes) else data)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "section":
            self.section = attrs["id"]
        elif tag == "tr" and self.section:
            self.rows.setdefault(self.section, []).append([])
        elif tag in ("td", "th") and self.section:
            self.cell = []
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[self.section][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.section:
            self.text[self.section] = self.text.get(self.section, "") + data
        if self.cell is not None:
            self.cell.append(data)

    def body_rows(self, section):
        """The rows of ``section``'s table under its header row."""
        return self.rows.get(section, [None])[1:]


def start():
    """The time the fixtures' commands take as now (``UPTOWN_NOW``, conftest's)."""
    return datetime.fromisoformat(os.environ["UPTOWN_NOW"].replace("Z", "+00:00"))


@pytest.fixture
def club(uptown, game_file, tmp_path):
    """A club's folder: two finished games (one with hostile names, event and file name), a
    game with a clock whose first player is to move, one without a clock after two moves, a
    hidden game nobody joined yet, and a record of one player."""
    games = tmp_path / "games"
    games.mkdir()
    text = (RECORDS / "3p-blockers.yaml").read_text()
    (games / "night-1.yaml").write_text(text.replace("Club night, round 1", "Club night"))
    text = (RECORDS / "2p-standard.yaml").read_text()
    (games / "<script>x&y.yaml").write_text(
        text.replace("event: Sample game", f"event: {json.dumps(HOSTILE_EVENT)}")
        .replace("- name: Ana", f"- name: {json.dumps(HOSTILE)}"))
    result = uptown.invoke("new", games / "clocked.yaml", "-p", "Ana", "-p", "Bo",
                           "--clock", "move 72h grace 168h", "--late", "pass")
    assert result.exit_code == 0, result.output
    game_file(name="games/open.yaml", players=("Cy", "Di"), moves=2)
    result = uptown.invoke("new", games / "hidden.yaml", "--hidden", "-p", "Ed", "-p", "Flo")
    assert result.exit_code == 0, result.output
    (games / "broken.yaml").write_text(ALONE)
    return games


def page_of(folder, days=0, title=None):
    """(the files of the club page of ``folder``'s games, ``days`` after the games' start;
    the page read)."""
    files = club_page(sorted(str(p) for p in folder.glob("*.yaml")),
                      start() + timedelta(days=days), title)
    return files, Page(files[INDEX])


def test_games_in_play_say_whose_turn_it_is_and_what_the_clock_says(club):
    _, page = page_of(club, days=4)
    rows = page.body_rows("in-play")
    by_game = {row[0]: row for row in rows}
    assert set(by_game) == {"clocked.yaml", "open.yaml", "hidden.yaml"}
    assert by_game["clocked.yaml"][1:4] == ["Ana and Bo", "0",
                                             "Ana to move, late by 1d (out of time in 6d)"]
    assert by_game["open.yaml"][1:4] == ["Cy and Di", "2", "Cy to move"]
    assert by_game["hidden.yaml"][3] == "Ed to join"
    assert "Games in play (3)" in page.text["in-play"]


def test_a_player_late_or_out_of_time_is_marked_on_the_row(club):
    _, late = page_of(club, days=4)
    _, out = page_of(club, days=12)
    row_class = [attrs.get("class") for tag, attrs in late.tags if tag == "tr"]
    assert "late" in row_class
    (text,) = [row[3] for row in out.body_rows("in-play") if row[0] == "clocked.yaml"]
    assert text == "Ana to move, out of time for 2d: others may pass"
    assert "out-of-time" in [attrs.get("class") for tag, attrs in out.tags if tag == "tr"]


def test_the_clock_is_read_at_the_time_the_page_is_of_and_that_time_is_shown(club):
    _, page = page_of(club, days=1)
    (text,) = [row[3] for row in page.body_rows("in-play") if row[0] == "clocked.yaml"]
    assert text == "Ana to move, 2d left"
    updated = next(attrs for tag, attrs in page.tags if attrs.get("class") == "updated")
    assert updated is not None
    files, _ = page_of(club, days=1)
    assert b"Updated 2026-12-02 12:00 UTC" in files[INDEX]


def test_finished_games_show_their_result_and_link_their_replay_page(club):
    files, page = page_of(club)
    rows = page.body_rows("finished")
    assert len(rows) == 2
    results = {row[0]: row[3] for row in rows}
    assert results["Club night night-1.yaml"].startswith("won by ")
    links = [attrs["href"] for tag, attrs in page.tags if tag == "a"]
    assert sorted(links) == sorted(name for name in files if name != INDEX)
    assert "night-1.html" in links


def test_each_replay_page_is_the_one_uptown_html_makes(uptown, club):
    files, _ = page_of(club)
    made = uptown.invoke("html", club / "night-1.yaml")
    assert made.exit_code == 0, made.output
    assert files["night-1.html"] == made.stdout_bytes
    assert b'<meta name="generator" content="uptown">' in files["night-1.html"]


def test_games_in_play_and_invalid_records_get_no_replay_page(club):
    files, _ = page_of(club)
    assert len(files) == 1 + 2
    assert not {"clocked.html", "open.html", "hidden.html", "broken.html"} & set(files)


def test_the_standings_are_those_of_uptown_ratings(uptown, club):
    _, page = page_of(club)
    result, rated = uptown.json("ratings", club, "--json")
    expected = [[str(rank), r["player"], f"{r['rating']:.1f}", f"±{r['sigma']:.1f}",
                 str(r["games"]), str(r["wins"])] for rank, r in enumerate(rated["ratings"], 1)]
    assert page.body_rows("standings") == expected
    assert f"Ratings over {rated['games']} finished games" in page.text["standings"]


def test_an_invalid_record_is_listed_with_its_first_problem(club):
    _, page = page_of(club)
    assert "1 record is left out: it is not valid (see uptown validate)." in page.text["left-out"]
    assert "broken.yaml: line 3: a game has 2 to 5 players, this one has 1" in page.text[
        "left-out"]


def test_every_text_from_a_record_or_a_file_name_is_escaped(club):
    files, page = page_of(club, title="<b>Club</b> & co")
    index = files[INDEX].decode()
    assert "<script" not in index and "<img" not in index and "<b>" not in index
    assert {tag for tag, _ in page.tags} <= {
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "section", "div",
        "table", "thead", "tbody", "tr", "th", "td", "a", "br", "span", "ul", "li"}
    (row,) = [row for row in page.body_rows("finished") if HOSTILE in row[1]]
    assert row[0] == f"{HOSTILE_EVENT} <script>x&y.yaml"
    assert HOSTILE in page.text["standings"]
    replay = next(content for name, content in files.items() if name.startswith("script_x_y"))
    assert replay.count(b"<script") == 2  # the page's data and its script, none of the names'


def test_the_page_loads_nothing_and_allows_no_script(club):
    files, page = page_of(club)
    for tag, attrs in page.tags:
        assert "src" not in attrs and not any(name.startswith("on") for name in attrs), tag
        assert tag != "a" or attrs["href"] in files
    assert "url(" not in files[INDEX].decode() and "@import" not in files[INDEX].decode()
    policy = next(a["content"] for t, a in page.tags if a.get("http-equiv") ==
                  "Content-Security-Policy")
    assert "default-src 'none'" in policy and "script-src 'none'" in policy


def test_a_game_named_twice_is_shown_once(club):
    paths = [str(club / "night-1.yaml"), str(club / "." / "night-1.yaml")]
    files = club_page(paths, start())
    assert len(Page(files[INDEX]).body_rows("finished")) == 1


def test_games_are_named_from_the_folder_that_holds_them_all(club, tmp_path):
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "night-1.yaml").write_bytes((RECORDS / "annotated.yaml").read_bytes()
                                                      .replace(b"event: Annotated club game\n", b""))
    paths = [str(club / "night-1.yaml"), str(tmp_path / "other" / "night-1.yaml")]
    files = club_page(paths, start())
    rows = Page(files[INDEX]).body_rows("finished")
    assert sorted(row[0] for row in rows) == ["Club night games/night-1.yaml",
                                              "other/night-1.yaml"]
    assert str(tmp_path) not in files[INDEX].decode()
    assert len(files) == 3  # two replay pages, their names apart


def test_a_folder_with_no_finished_game_says_so(game_file):
    files = club_page([str(game_file(moves=1))], start())
    page = Page(files[INDEX])
    assert list(files) == [INDEX]
    assert "No game is finished yet." in page.text["finished"]
    assert "No game is finished yet." in page.text["standings"]
    assert "left-out" not in page.text


def test_the_page_speaks_the_language_of_the_process(club):
    with language("es"):
        files, page = page_of(club, days=4, title=None)
    index = files[INDEX].decode()
    assert '<html lang="es">' in index and "<title>Club Uptown</title>" in index
    (row,) = [row for row in page.body_rows("in-play") if row[0] == "clocked.yaml"]
    assert row[1] == "Ana y Bo"
    assert row[3].startswith("le toca a Ana")
    assert "Partidas en juego (3)" in page.text["in-play"]
    assert '<html lang="es">' in files["night-1.html"].decode()


def test_a_replay_page_keeps_its_name_when_games_come_and_go():
    before = replay_names(["a.yaml", "b.yaml"])
    after = replay_names(["a.yaml", "b.yaml", "c.yaml", "z/a.yaml"])
    assert before == {"a.yaml": "a.html", "b.yaml": "b.html"}
    assert after["b.yaml"] == "b.html" and after["c.yaml"] == "c.html"
    assert after["a.yaml"] != after["z/a.yaml"]
    assert replay_names(["index.yaml"])["index.yaml"] != INDEX


PAGE_NAME = re.compile(r"[A-Za-z0-9_-]+(-[0-9a-f]{8})?(-[0-9]+)?\.html")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=30), max_size=12, unique=True))
def test_replay_names_are_plain_apart_and_never_the_page(names):
    """Whatever the games' names (any Unicode, ``../``, dots, case), their pages' names are
    ASCII letters, digits, ``-`` and ``_`` with ``.html``, none the page's own, all apart even
    ignoring case."""
    pages = replay_names(names)
    assert set(pages) == set(names)
    assert all(PAGE_NAME.fullmatch(page) for page in pages.values())
    folded = [page.casefold() for page in pages.values()] + [INDEX]
    assert len(set(folded)) == len(folded)


def test_a_caller_that_keeps_the_replay_pages_makes_each_once(club, monkeypatch):
    """A judge keeps ``replays`` between calls: a finished game's page is made once, the same
    bytes as without it, and the mapping keeps only the pages of the last call."""
    import uptown_cli.club.page as page

    made = []

    def counted(*args):
        made.append(args[2])
        return real(*args)

    real = page.replay_html
    monkeypatch.setattr(page, "replay_html", counted)
    replays = {}
    without, _ = page_of(club)
    assert len(made) == 2

    def paths():
        return sorted(str(p) for p in club.glob("*.yaml"))

    assert club_page(paths(), start(), replays=replays) == without
    assert len(made) == 4 and len(replays) == 2
    assert club_page(paths(), start(), replays=replays) == without
    assert len(made) == 4
    (club / "night-1.yaml").unlink()
    club_page(paths(), start(), replays=replays)
    assert len(made) == 4 and len(replays) == 1


def test_a_replay_page_is_made_again_when_its_record_or_the_language_changes(club):
    replays = {}
    paths = sorted(str(p) for p in club.glob("*.yaml"))
    before = club_page(paths, start(), replays=replays)["night-1.html"]
    with language("es"):
        spanish = club_page(paths, start(), replays=replays)["night-1.html"]
    assert b'<html lang="es">' in spanish and before != spanish
    night = club / "night-1.yaml"
    night.write_text(night.read_text().replace("Club night", "Club night, replayed"))
    assert b"Club night, replayed" in club_page(paths, start(), replays=replays)["night-1.html"]


def test_copies_of_one_game_are_one_row(club):
    """A game held under another name too (the same game id): one row, as status counts it."""
    (club / "clocked-copy.yaml").write_text((club / "clocked.yaml").read_text())
    _, page = page_of(club)
    games = [row[0] for row in page.body_rows("in-play")]
    assert len([game for game in games if game.startswith("clocked")]) == 1
