"""``uptown svg``: a valid SVG of fixed size, the board of ``show --at N``, faces and colour
shapes on every tile, the last move and capture marked, escaping, ``--at`` and ``-o``."""

from pathlib import Path
import itertools
import math
import xml.etree.ElementTree as ET

import pytest

from uptown_cli.engine.geometry import REGION_NAMES
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay
from uptown_cli.pictures.svg import FILLS, MARKS, board_svg

ROOT = Path(__file__).resolve().parents[2]

NS = {"svg": "http://www.w3.org/2000/svg"}
SEEDED = ROOT / "records" / "3p-blockers.yaml"
TWO_PLAYERS = ROOT / "records" / "2p-standard.yaml"
UNSEEDED = ROOT / "tests" / "analysis_records" / "blockers-3p.yaml"

NASTY = """\
uptown: 1
event: <b>Club</b> & "friends"
players:
  - name: </text><script>
    colors: [red]
  - name: Bo & 'Co'
    colors: [blue]
  - name: "]]><!--"
    colors: [green]
moves:
  - red: 7 B7
  - blue: B B8
  - green: 8 xB8
"""
"""A record whose names and event are full of markup (the third move captures)."""


def svg_of(uptown, *args):
    result = uptown.invoke("svg", *args)
    assert result.exit_code == 0, result.output
    return ET.fromstring(result.stdout)


def drawn_tiles(root):
    """``{square: {"color", "tile"}}`` as the SVG's tiles say."""
    return {
        t.get("data-square"): {"color": t.get("data-color"), "tile": t.get("data-tile")}
        for t in root.iterfind(".//svg:g[@class='tile']", NS)
    }


def uses(element):
    return [u.get("href") for u in element.iterfind("svg:use", NS)]


def all_text(root):
    return " ".join("".join(t.itertext()) for t in root.iterfind(".//svg:text", NS))


def test_svg_is_valid_xml_of_one_fixed_size(uptown):
    sizes = set()
    for at in (0, 10, 72):
        root = svg_of(uptown, SEEDED, "--at", at)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        sizes.add((root.get("viewBox"), root.get("width"), root.get("height")))
    assert len(sizes) == 1
    view_box = sizes.pop()[0].split()
    assert view_box[:2] == ["0", "0"] and all(float(v) > 0 for v in view_box[2:])


@pytest.mark.parametrize("record", [SEEDED, TWO_PLAYERS, UNSEEDED], ids=lambda p: p.stem)
def test_svg_board_at_n_is_the_board_of_show_at_n(uptown, record):
    count = len(load_record(record).moves)
    for at in sorted({0, 1, min(7, count), count // 2, count - 1, count}):
        _, shown = uptown.json("show", record, "--at", at, "--json")
        assert drawn_tiles(svg_of(uptown, record, "--at", at)) == shown["board"], f"after {at} moves"


def test_svg_without_at_is_the_final_board(uptown):
    _, shown = uptown.json("show", TWO_PLAYERS, "--json")
    assert drawn_tiles(svg_of(uptown, TWO_PLAYERS)) == shown["board"]


def test_every_tile_carries_its_face_and_its_colour_shape(uptown):
    root = svg_of(uptown, TWO_PLAYERS)
    defined = {g.get("id"): g for g in root.iterfind("svg:defs/svg:g", NS)}
    for tile in root.iterfind(".//svg:g[@class='tile']", NS):
        color, name = tile.get("data-color"), tile.get("data-tile")
        background, face = uses(tile)
        assert background == f"#tile-{color}"
        assert face == f"#face-{'wild' if name == '$' else name}"
        assert "".join(defined[face[1:]].itertext()) == name  # the face says what the tile is
    for color in FILLS:
        background = defined[f"tile-{color}"]
        assert background.find("svg:rect", NS).get("fill") == FILLS[color]
        assert len(background.find("svg:g", NS)) == 1  # the colour's shape in the corner
    assert len({drawing for _, drawing in MARKS.values()}) == len(FILLS)


def test_nine_regions_drawn_with_their_symbols_and_labels(uptown):
    root = svg_of(uptown, SEEDED, "--at", 0)
    regions = [r.get("data-region") for r in root.iterfind(".//svg:rect[@class='region']", NS)]
    assert regions == list(REGION_NAMES)
    defined = {g.get("id") for g in root.iterfind("svg:defs/svg:g", NS)}
    assert {f"face-{name}" for name in REGION_NAMES} <= defined
    labels = all_text(root).split()
    assert all(label in labels for label in "A B C D E F G H I 1 2 3 4 5 6 7 8 9".split())


def test_a_regions_watermark_is_its_symbol_without_its_name(uptown):
    """The tiles placed on a region would cut a name written under them into pieces ("rizon",
    "án" beside the tiles, issue 36): the watermark is the symbol alone; the panel's key names
    each region."""
    root = svg_of(uptown, SEEDED, "--at", 0)
    defined = {g.get("id"): g for g in root.iterfind("svg:defs/svg:g", NS)}
    marks = [u.get("href") for u in root.iterfind(".//svg:g[@class='board']/svg:use", NS)]
    assert marks == [f"#glyph-{name}" for name in REGION_NAMES]
    assert all("".join(defined[mark[1:]].itertext()) == "" for mark in marks)


def luminous_lab(hex_color, matrix):
    """CIE L*a*b* of an sRGB colour as seen through a colour-vision ``matrix`` (linear RGB)."""

    def linear(value):
        value /= 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    rgb = [linear(int(hex_color[i : i + 2], 16)) for i in (1, 3, 5)]
    r, g, b = (min(1, max(0, sum(m * v for m, v in zip(row, rgb)))) for row in matrix)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


COLOUR_VISION = {
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    # Machado, Oliveira and Fernandes (2009), severity 1.0
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


@pytest.mark.parametrize("vision", COLOUR_VISION)
def test_tile_colours_stay_apart_under_colour_blindness(vision):
    seen = {c: luminous_lab(fill, COLOUR_VISION[vision]) for c, fill in FILLS.items()}
    closest = min(math.dist(seen[a], seen[b]) for a, b in itertools.combinations(seen, 2))
    assert closest > 15  # CIE76 delta E: clearly different colours


def test_last_move_framed_and_last_capture_marked(uptown, tmp_path):
    path = tmp_path / "nasty.yaml"
    path.write_text(NASTY)
    root = svg_of(uptown, path)
    assert [u.get("data-square") for u in root.iterfind(".//svg:use[@class='mark-last']", NS)] == ["B8"]
    assert [u.get("data-square") for u in root.iterfind(".//svg:use[@class='mark-capture']", NS)] == ["B8"]
    text = all_text(root)
    assert "move 3: green (]]><!--) 8 xB8, captures blue B" in text
    before = svg_of(uptown, path, "--at", 2)
    assert not before.findall(".//svg:use[@class='mark-capture']", NS)
    assert before.find(".//svg:use[@class='mark-last']", NS).get("data-square") == "B8"
    assert not svg_of(uptown, path, "--at", 0).findall(".//svg:g[@class='marks']/*", NS)


def test_captures_shown_per_player_beside_the_board():
    record = load_record(SEEDED)
    game = replay(record).game
    text = all_text(ET.fromstring(board_svg(game, record.variant, "t")))
    from uptown_cli.engine.scoring import standings

    for row in standings(game, record.variant):
        assert f"#{row.rank}  score {row.score}  groups {row.groups}  captures {row.captures}" in text
        for name, n in row.captured.items():
            if n:
                assert f"{n} from {name}" in text


def test_user_text_is_escaped_and_stays_text(uptown, tmp_path):
    path = tmp_path / "nasty.yaml"
    path.write_text(NASTY)
    result = uptown.invoke("svg", path)
    assert "<script" not in result.stdout and "<b>" not in result.stdout
    root = ET.fromstring(result.stdout)
    text = all_text(root)
    assert '<b>Club</b> & "friends"' in text
    assert "</text><script> red" in text
    assert "Bo & 'Co'" in text
    assert not [e for e in root.iter() if e.tag.endswith("script")]


def test_output_option_writes_the_file_and_prints_nothing_on_stdout(uptown, tmp_path):
    out = tmp_path / "board.svg"
    result = uptown.run("svg", SEEDED, "--at", 5, "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert f"Wrote {out}" in result.stderr
    ET.fromstring(out.read_text())
    assert out.read_text() == uptown.invoke("svg", SEEDED, "--at", 5).stdout
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]


def test_output_into_a_missing_folder_is_one_line_and_writes_nothing(uptown, tmp_path):
    out = tmp_path / "nowhere" / "board.svg"
    result = uptown.run("svg", SEEDED, "-o", out)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"cannot write {out}" in result.stderr
    assert not out.parent.exists()


def test_output_to_a_folder_is_one_line_exit_1(uptown, tmp_path):
    result = uptown.run("svg", SEEDED, "--force", "-o", tmp_path)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert f"{tmp_path} is a folder; give a file name" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_at_beyond_the_end_is_a_usage_error(uptown):
    result = uptown.run("svg", SEEDED, "--at", 1000)
    assert result.returncode == 2
    assert "has 72 moves, not 1000" in result.stderr and "Traceback" not in result.stderr


def test_invalid_or_missing_record_is_one_line_exit_1(uptown, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(NASTY.replace("8 xB8", "7 xB8"))
    for path, message in ((broken, "broken.yaml:13: move 3"), (tmp_path / "no.yaml", "no such file")):
        result = uptown.run("svg", path)
        assert result.returncode == 1
        assert message in result.stderr and result.stderr.count("\n") == 1


def test_svg_reads_standard_input(uptown):
    result = uptown.invoke("svg", "-", "--at", 3, input=SEEDED.read_text())
    assert result.exit_code == 0
    assert result.stdout == uptown.invoke("svg", SEEDED, "--at", 3).stdout.replace(
        "3p-blockers.yaml", "<stdin>"
    )
