"""The club's page in headless Chromium, as a reader sees it: it loads from file:// with no
console error and runs no script, its tables say whose turn it is, the results and the
standings, a hostile name shows as the text it is, and a finished game's link opens its
replay page at the game's end.

Needs Debian's ``chromium`` (or ``$UPTOWN_CHROMIUM``): the ``browser`` fixture skips the tests,
saying why, without it.
"""

import json
import shutil
from pathlib import Path

import pytest
from support.chromium import png_colours

RECORDS = Path(__file__).resolve().parents[2] / "records"
HOSTILE = '<img src=x onerror="window.pwned = 1">'
WIDTH, HEIGHT = 1200, 900
"""The size of the ``browser`` fixture's window (conftest.py)."""

ROWS = """JSON.stringify([...document.querySelectorAll('#SECTION tbody tr')].map(
  row => [...row.querySelectorAll('td')].map(cell => cell.innerText)))"""


@pytest.fixture
def site(uptown, tmp_path):
    """The club page of the bundled records, one of them with a hostile player's name."""
    games = tmp_path / "games"
    shutil.copytree(RECORDS, games, ignore=shutil.ignore_patterns("*.md"))
    text = (games / "2p-standard.yaml").read_text()
    (games / "2p-standard.yaml").write_text(text.replace("- name: Ana",
                                                         f"- name: {json.dumps(HOSTILE)}"))
    result = uptown.invoke("club", "page", games, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    return tmp_path / "site"


def rows(browser, section):
    return json.loads(browser.evaluate(ROWS.replace("SECTION", section)))


def test_the_page_shows_the_games_the_results_and_the_standings(browser, site):
    browser.errors.clear()
    browser.open((site / "index.html").as_uri())
    assert browser.errors == []
    assert browser.evaluate("document.title") == "Uptown club"
    assert browser.evaluate("document.scripts.length") == 0
    (playing,) = rows(browser, "in-play")
    assert playing[0] == "Play by email\nin-progress.yaml" and playing[3] == "Cy to move"
    finished = {row[0].split("\n")[0]: row for row in rows(browser, "finished")}
    assert finished["Club night, round 1"][3] == "won by Ana"
    assert finished["Sample game"][1] == f"{HOSTILE} and Bo"
    standings = rows(browser, "standings")
    assert [row[0] for row in standings] == ["1", "2", "3", "4", "5", "6"]
    assert HOSTILE in [row[1] for row in standings]
    assert browser.evaluate("typeof window.pwned") == "undefined"
    assert len(png_colours(browser.screenshot(WIDTH, HEIGHT, scale=0.5))) > 10


def test_a_finished_games_link_opens_its_replay_page_at_the_end(browser, site):
    browser.errors.clear()
    browser.open((site / "index.html").as_uri())
    link = "document.querySelector('#finished a[href=\"3p-blockers.html\"]')"
    assert browser.evaluate(f"{link}.innerText") == "Club night, round 1"
    browser.evaluate(f"{link}.click()")
    browser.wait_for("Page.loadEventFired")
    assert browser.evaluate("location.pathname").endswith("/site/3p-blockers.html")
    assert browser.evaluate("document.title") == "Club night, round 1"
    assert browser.evaluate("document.body.dataset.step") == "72"
    assert browser.evaluate("document.getElementById('status').textContent") == "Move 72 of 72"
    assert "Ana" in browser.evaluate("document.getElementById('result').innerText")
    assert browser.evaluate("document.querySelectorAll('#board g.tile').length") > 0
    assert browser.errors == []


def test_the_hostile_name_is_text_on_the_replay_page_too(browser, site):
    browser.errors.clear()
    browser.open((site / "2p-standard.html").as_uri())
    names = browser.evaluate(
        "[...document.querySelectorAll('#standings td:nth-child(2)')].map(c => c.innerText)")
    assert HOSTILE in names
    assert browser.evaluate("typeof window.pwned") == "undefined"
    assert browser.errors == []
