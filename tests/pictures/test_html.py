"""``uptown html``: one self-contained page (no network, nothing else to load), every
position's data, racks only where known, escaping, size and ``-o``."""

from pathlib import Path
import json
import re
from html.parser import HTMLParser

from test_svg import NASTY, SEEDED, TWO_PLAYERS, UNSEEDED

ROOT = Path(__file__).resolve().parents[2]

MAX_EMAIL_BYTES = 100_000
"""A 96-move game's page must stay small enough to attach to an email."""


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text of each script."""

    def __init__(self, page):
        super().__init__()
        self.tags, self.scripts = [], []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        if self.lasttag == "script":
            self.scripts.append(data)


def page_of(uptown, *args):
    result = uptown.invoke("html", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def page_data(page):
    """The JSON the page's script reads."""
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def board_at(data, n):
    """The board after ``n`` moves as the page's script builds it, in ``show --json`` form."""
    held = {}
    for turn in data["turns"][:n]:
        if turn["sq"] is not None:
            held[turn["sq"]] = {"color": turn["color"], "tile": data["tiles"][turn["tile"]][1]}
    return {data["squares"][sq][0]: held[sq] for sq in sorted(held)}


def test_page_is_self_contained(uptown):
    page = page_of(uptown, TWO_PLAYERS)
    tags = Elements(page).tags
    names = {tag for tag, _ in tags}
    assert not names & {"link", "img", "iframe", "object", "embed", "audio", "video", "base", "form"}
    for tag, attrs in tags:
        assert "src" not in attrs, tag
        assert not any(v and v.startswith(("http", "//")) for k, v in attrs.items() if k != "xmlns")
        for key in ("href",):
            assert attrs.get(key) is None or attrs[key].startswith("#"), (tag, attrs)
    assert "@import" not in page and "url(" not in page
    assert re.findall(r"https?://[^\"' ]+", page) == ["http://www.w3.org/2000/svg"] * 2
    policy = next(a["content"] for t, a in tags if a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in policy and "unsafe" not in policy


def test_page_has_one_board_and_the_replay_controls(uptown):
    tags = Elements(page_of(uptown, SEEDED)).tags
    ids = [attrs.get("id") for _, attrs in tags]
    for wanted in ("board", "first", "prev", "next", "last", "status", "standings", "racks", "moves"):
        assert ids.count(wanted) == 1, wanted
    assert sum(tag == "svg" and "viewbox" in a and "role" in a for tag, a in tags) == 1
    buttons = [a for tag, a in tags if tag == "button" and "id" not in a]
    assert len(buttons) == 72 + 1  # the start, then every move


def test_every_position_in_the_page_is_the_board_of_show_at_n(uptown):
    data = page_data(page_of(uptown, SEEDED))
    assert len(data["turns"]) == 72 and len(data["positions"]) == 73
    for n in range(0, 73, 6):
        _, shown = uptown.json("show", SEEDED, "--at", n, "--json")
        assert board_at(data, n) == shown["board"], f"after {n} moves"
        position = data["positions"][n]
        racks = {c: [data["tiles"][t][1] for t in r] for c, r in zip(data["colors"], position["racks"])}
        assert racks == shown["racks"]
        assert dict(zip(data["colors"], position["bags"])) == shown["bags"]
        to_move = position["to_move"]
        assert shown["to_move"] == (None if to_move is None else ["Ana", "Bo", "Cy"][to_move])


def test_standings_at_each_step_are_those_of_score(uptown):
    data = page_data(page_of(uptown, SEEDED))
    _, final = uptown.json("score", SEEDED, "--json")
    expected = [[p["rank"], p["groups"], p["captures"], p["score"]] for p in final["players"]]
    assert data["positions"][-1]["standings"] == expected
    assert all(row == [1, 0, 0, 0] for row in data["positions"][0]["standings"])


def test_racks_are_not_shown_for_a_game_without_seed(uptown):
    page = page_of(uptown, UNSEEDED)
    data = page_data(page)
    assert all(p["racks"] is None and p["bags"] is None for p in data["positions"])
    assert "Racks unknown: the record has no seed." in page


def test_user_text_is_escaped_and_inert(uptown, tmp_path):
    path = tmp_path / "nasty.yaml"
    path.write_text(NASTY)
    page = page_of(uptown, path)
    parsed = Elements(page)
    assert [tag for tag, _ in parsed.tags].count("script") == 2
    assert [tag for tag, _ in parsed.tags].count("b") == 0
    assert "&lt;/text&gt;&lt;script&gt;" in page
    assert "&lt;b&gt;Club&lt;/b&gt; &amp; &quot;friends&quot;" in page
    assert page_data(page)["owners"] == ["</text><script>", "Bo & 'Co'", "]]><!--"]
    assert "<!--" not in page.replace("&lt;!--", "")


def test_a_96_move_game_fits_in_an_email(uptown):
    size = len(page_of(uptown, TWO_PLAYERS).encode())
    assert size < MAX_EMAIL_BYTES, size


def test_output_option_writes_the_page(uptown, tmp_path):
    out = tmp_path / "game.html"
    result = uptown.run("html", SEEDED, "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and f"Wrote {out}" in result.stderr
    assert out.read_text() == page_of(uptown, SEEDED)


def test_output_keeps_the_mode_of_the_file_it_replaces(uptown, tmp_path):
    out = tmp_path / "game.html"
    out.write_text("old")
    out.chmod(0o640)
    assert uptown.run("html", SEEDED, "-o", out, "--force").returncode == 0
    assert out.stat().st_mode & 0o777 == 0o640
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_invalid_record_is_one_line_and_writes_nothing(uptown, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(NASTY.replace("8 xB8", "7 xB8"))
    out = tmp_path / "game.html"
    result = uptown.run("html", broken, "-o", out)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "move 3: green plays 7 on B8" in result.stderr
    assert not out.exists()


def test_html_and_svg_listed_in_help(uptown):
    help_text = uptown.invoke("--help").stdout
    assert re.search(r"^  html +Make one self-contained HTML page", help_text, re.M)
    assert re.search(r"^  svg +Draw the board as an SVG picture", help_text, re.M)


def test_record_in_the_records_folder_all_render(uptown):
    """Every sample record's page holds each of its moves, and after the last the board
    ``show`` shows."""
    for record in sorted((ROOT / "records").glob("*.yaml")):
        data = page_data(page_of(uptown, record))
        _, shown = uptown.json("show", record, "--json")
        assert len(data["turns"]) == shown["moves"] > 0, record.name
        assert board_at(data, len(data["turns"])) == shown["board"], record.name


def test_without_script_the_page_shows_the_final_board_and_standings(uptown):
    page = page_of(uptown, SEEDED)
    _, shown = uptown.json("show", SEEDED, "--json")
    tiles = re.findall(r'<g class="tile" data-square="(\w+)" data-color="(\w+)" data-tile="([^"]+)"', page)
    assert {sq: {"color": c, "tile": t} for sq, c, t in tiles} == shown["board"]
    _, final = uptown.json("score", SEEDED, "--json")
    cells = re.findall(r'<tr data-seat="(\d)"><td>(\d+)</td><td>.*?</td><td>(\d+)</td><td>(\d+)</td>'
                       r"<td>(\d+)</td></tr>", page)
    ranked = sorted(enumerate(final["players"]), key=lambda seated: seated[1]["rank"])
    assert cells == [(str(seat), *(str(p[k]) for k in ("rank", "groups", "captures", "score")))
                     for seat, p in ranked]


def test_the_page_of_a_finished_game_lists_ranks_in_order_and_names_the_winner(uptown):
    page = page_of(uptown, SEEDED)
    ranks = [int(r) for r in re.findall(r'<tr data-seat="\d"><td>(\d+)</td>', page)]
    assert ranks == sorted(ranks) and ranks[0] == 1
    _, final = uptown.json("score", SEEDED, "--json")
    winner = next(p for p in final["players"] if p["rank"] == 1)
    assert (f'<p id="result"><strong>The game is over: {winner["name"]} wins, with a score of '
            f'{winner["score"]}.</strong></p>') in page
