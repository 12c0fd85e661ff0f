"""The replay page in headless Chromium: it loads from file:// with no console error, shows at
each step (by #move=N, keys, buttons or the move list) the board of ``show --at N``, and its
screenshot is not blank.

Needs Debian's ``chromium`` (or ``$UPTOWN_CHROMIUM``); skipped with a message without it.
"""

import json

import pytest
from support.chromium import png_colours
from support.games import new_game, play_first_moves
from test_svg import NASTY, SEEDED, TWO_PLAYERS, UNSEEDED

from uptown_cli.records.reading import load_record
from uptown_cli.pictures.svg import FILLS

WIDTH, HEIGHT = 1200, 900
"""The size of the ``browser`` fixture's window (conftest.py)."""

TILES_SHOWN = """JSON.stringify(Object.fromEntries(
  [...document.querySelectorAll('#board g.tile')].map(
    t => [t.dataset.square, {color: t.dataset.color, tile: t.dataset.tile}])))"""


@pytest.fixture
def page(uptown, browser, tmp_path):
    """Write the replay page of a record and open it; returns a function (record, fragment)."""

    def open_page(record, fragment=""):
        out = tmp_path / f"{record.stem}.html"
        result = uptown.invoke("html", record, "--force", "-o", out)
        assert result.exit_code == 0, result.output
        browser.errors.clear()
        browser.open(out.as_uri() + fragment)
        return browser

    return open_page


def shown_board(browser):
    return json.loads(browser.evaluate(TILES_SHOWN))


def show_json(uptown, record, n):
    _, shown = uptown.json("show", record, "--at", n, "--json")
    return shown


def step(browser):
    return int(browser.evaluate("document.body.dataset.step"))


@pytest.mark.parametrize("record", [SEEDED, TWO_PLAYERS, UNSEEDED], ids=lambda p: p.stem)
def test_page_loads_with_no_console_error(uptown, page, record):
    browser = page(record)
    assert browser.errors == []
    moves = len(load_record(record).moves)
    assert step(browser) == moves  # the page opens at the latest position
    assert shown_board(browser) == show_json(uptown, record, moves)["board"]


def test_fragment_move_n_shows_the_board_of_show_at_n(uptown, page):
    for n in (0, 1, 17, 40, 71, 72):
        browser = page(SEEDED, f"#move={n}")
        assert step(browser) == n
        assert shown_board(browser) == show_json(uptown, SEEDED, n)["board"], f"#move={n}"
        assert browser.evaluate("document.getElementById('status').textContent") == f"Move {n} of 72"
    assert browser.errors == []


def test_arrow_keys_home_and_end_step_through_the_game(uptown, page):
    browser = page(TWO_PLAYERS, "#move=0")
    assert shown_board(browser) == {}
    for n in range(1, 6):
        browser.press("ArrowRight", key_code=39)
        assert step(browser) == n
        assert shown_board(browser) == show_json(uptown, TWO_PLAYERS, n)["board"]
    browser.press("ArrowLeft", key_code=37)
    assert shown_board(browser) == show_json(uptown, TWO_PLAYERS, 4)["board"]
    browser.press("End", key_code=35)
    assert step(browser) == 96
    assert shown_board(browser) == show_json(uptown, TWO_PLAYERS, 96)["board"]
    browser.press("ArrowRight", key_code=39)
    assert step(browser) == 96
    browser.press("Home", key_code=36)
    assert step(browser) == 0 and shown_board(browser) == {}
    assert browser.evaluate("location.hash") == "#move=0"
    assert browser.errors == []


def test_buttons_and_the_move_list_step_to_a_move(uptown, page):
    browser = page(SEEDED, "#move=10")
    browser.evaluate("document.getElementById('next').click()")
    assert step(browser) == 11
    browser.evaluate("document.getElementById('prev').click(); document.getElementById('prev').click()")
    assert step(browser) == 9
    browser.evaluate("document.querySelectorAll('#moves button')[33].click()")
    assert step(browser) == 33
    assert shown_board(browser) == show_json(uptown, SEEDED, 33)["board"]
    current = browser.evaluate("document.querySelector('#moves [aria-current=step]').textContent")
    assert current == browser.evaluate("document.getElementById('turn').textContent").split(": ", 1)[1]
    browser.evaluate("document.getElementById('last').click()")
    assert step(browser) == 72
    assert browser.evaluate("document.getElementById('next').disabled") is True
    browser.evaluate("document.getElementById('first').click()")
    assert browser.evaluate("document.getElementById('prev').disabled") is True
    assert browser.errors == []


def test_standings_and_racks_follow_the_step(uptown, page):
    browser = page(SEEDED, "#move=30")
    shown = show_json(uptown, SEEDED, 30)
    to_move = browser.evaluate("document.querySelector('#standings tr.to-move td:nth-child(2)').textContent")
    assert to_move == shown["to_move"]
    racks = json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('#racks .rack')].map(r => r.textContent))"
    ))
    assert [line.split(" (")[0] for line in racks] == list(shown["racks"])
    assert [line.rsplit("bag ", 1)[1] for line in racks] == [str(n) for n in shown["bags"].values()]
    chips = browser.evaluate("document.querySelectorAll('#racks .rack svg').length")
    assert chips == sum(len(r) for r in shown["racks"].values())


def test_marks_follow_the_last_move_and_the_last_capture(page, tmp_path):
    record = tmp_path / "nasty.yaml"
    record.write_text(NASTY)
    browser = page(record, "#move=2")
    marks = "JSON.stringify([...document.querySelectorAll('#board .marks use')].map(u => [u.getAttribute('class'), u.dataset.square]))"
    assert json.loads(browser.evaluate(marks)) == [["mark-last", "B8"]]
    browser.press("ArrowRight", key_code=39)
    assert json.loads(browser.evaluate(marks)) == [["mark-last", "B8"], ["mark-capture", "B8"]]


def test_names_with_markup_stay_text_in_the_browser(page, tmp_path):
    # `new --player` takes NAME or NAME <ADDRESS>, so names holding markup are written by hand.
    record = new_game(tmp_path / "markup.yaml")
    text = record.read_text()
    for plain, markup in (("Ana", "'</text><script>'"), ("Bo", "'<b>Bo</b>'"), ("Cy", "']]><!--'")):
        text = text.replace(f"- name: {plain}\n", f"- name: {markup}\n")
    record.write_text(text)
    play_first_moves(record, 4)
    browser = page(record)
    assert browser.evaluate("document.scripts.length") == 2
    assert browser.evaluate("document.querySelectorAll('b, text script').length") == 0
    for where in ("standings", "racks", "moves"):
        text = browser.evaluate(f"document.getElementById('{where}').textContent")
        assert "</text><script>" in text and "<b>Bo</b>" in text, where
    assert browser.errors == []


def test_screenshot_is_not_blank_and_shows_the_tile_colours(page):
    browser = page(TWO_PLAYERS, "#move=96")
    colours = png_colours(browser.screenshot(WIDTH, HEIGHT, scale=0.5))
    assert len(colours) > 100
    for color in ("red", "green", "blue", "yellow"):
        fill = bytes.fromhex(FILLS[color][1:])
        assert any(max(abs(a - b) for a, b in zip(fill, c)) <= 2 for c in colours), color


def test_console_errors_are_caught_and_a_stray_script_is_blocked(uptown, browser, tmp_path):
    """The no-console-error checks above can fail: an error is seen, and markup slipped into
    the page cannot run a script (the page's policy allows only its own)."""
    out = tmp_path / "tampered.html"
    assert uptown.invoke("html", SEEDED, "-o", out).exit_code == 0
    page = out.read_text()
    out.write_text(page.replace("<main>", "<main><script>document.title = 'pwned';</script>", 1))
    browser.errors.clear()
    browser.open(out.as_uri())
    assert browser.evaluate("document.title") == "Club night, round 1"
    assert any("Content Security Policy" in error for error in browser.errors)
    browser.errors.clear()
    browser.evaluate("setTimeout(() => { throw new Error('uncaught in the page'); })")
    browser.evaluate("new Promise(done => setTimeout(done, 100))")
    browser.evaluate("console.error('logged by the page')")
    assert any("uncaught in the page" in error for error in browser.errors)
    assert "logged by the page" in browser.errors


def test_stepping_scrolls_the_move_list_not_the_page(page):
    browser = page(SEEDED)
    browser.call("Emulation.setDeviceMetricsOverride", session=True, width=700, height=700,
                 deviceScaleFactor=1, mobile=False)
    try:
        browser.open(browser.evaluate("location.href.split('#')[0]") + "#move=40")
        browser.press("ArrowRight", key_code=39)
        assert browser.evaluate("window.scrollY") == 0
        in_view = """(() => {
          const list = document.getElementById('moves').getBoundingClientRect();
          const item = document.querySelector('#moves [aria-current=step]').getBoundingClientRect();
          return item.top >= list.top && item.bottom <= list.bottom; })()"""
        assert browser.evaluate(in_view) is True
    finally:
        browser.call("Emulation.setDeviceMetricsOverride", session=True, width=WIDTH, height=HEIGHT,
                     deviceScaleFactor=1, mobile=False)


@pytest.fixture
def annotated_page(uptown, page, tmp_path):
    """The replay page of an annotated copy of the seeded game (a few deals a move)."""
    out = tmp_path / "annotated.yaml"
    result = uptown.invoke("analyze", SEEDED, "--iterations", "4", "--seed", "1", "--annotate", "-o", out)
    assert result.exit_code == 0, result.output
    return page(out), load_record(out)


def test_an_annotated_game_shows_its_evaluation_graph_and_marks(annotated_page):
    browser, record = annotated_page
    assert browser.errors == []
    points = dict(json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('#graph circle[data-move]')]"
        ".map(c => [+c.dataset.move, +c.getAttribute('cy')]))")))
    assert sorted(points) == list(range(1, len(record.moves) + 1))
    wins = [m.notes.eval[1] for m in record.moves]
    order = sorted(range(1, len(wins) + 1), key=lambda n: wins[n - 1])
    assert all(points[a] >= points[b] for a, b in zip(order, order[1:]))  # higher chance: higher up
    marked = [n for n, m in enumerate(record.moves, 1) if m.notes.mark is not None]
    assert marked, "the review marked no move"
    shown = json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('#moves button')].map((b, k) => "
        "[k, (b.querySelector('.mark') || {}).textContent || null]).filter(p => p[1]))"))
    assert shown == [[n, record.moves[n - 1].notes.mark] for n in marked]
    labels = browser.evaluate("document.querySelectorAll('#graph .graph-mark').length")
    assert labels == len(marked)


def test_clicking_a_point_of_the_graph_goes_to_that_move(uptown, annotated_page):
    browser, _ = annotated_page
    browser.evaluate("document.querySelector('#graph circle[data-move=\"17\"]').dispatchEvent("
                     "new MouseEvent('click', {bubbles: true}))")
    assert step(browser) == 17
    assert shown_board(browser) == show_json(uptown, SEEDED, 17)["board"]
    cursor = browser.evaluate("document.getElementById('graph-cursor').getAttribute('x1')")
    point = browser.evaluate("document.querySelector('#graph circle[data-move=\"17\"]').getAttribute('cx')")
    assert cursor == point
    assert browser.evaluate("document.getElementById('graph-cursor').getAttribute('visibility')") == "visible"
    browser.press("Home", key_code=36)
    assert browser.evaluate("document.getElementById('graph-cursor').getAttribute('visibility')") == "hidden"
    assert browser.errors == []


def test_a_record_without_evaluations_has_no_graph(page):
    browser = page(SEEDED)
    assert browser.evaluate("document.getElementById('graph')") is None
    assert browser.evaluate("document.querySelectorAll('#moves .mark').length") == 0
