"""A position as an SVG picture: the board, its nine regions, the tiles and a players panel.

Every tile carries its face (letter, number or symbol glyph) and a shape for its colour, so
the picture reads in black and white and for colour-blind readers. The fills are the
Okabe-Ito palette, chosen to stay apart under protanopia, deuteranopia and tritanopia.

Each tile is a ``<g class="tile" data-square data-color data-tile>`` that draws the colour's
background (``#tile-COLOR``) and the face (``#face-TILE``), both defined once in ``<defs>``;
the HTML replay places the same parts. Pure functions of a Game; nothing here reads files.
"""

import os
import re
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from ..engine.game import Game, Turn
from ..engine.geometry import (COLUMNS, REGION_NAMES, ROWS, TILE_NAMES, shown_color, shown_tile,
                               square_name, tile_name)
from ..i18n import _, ngettext
from .text import turn_text
from .tile_names import variant_label
from ..engine.scoring import standings

if TYPE_CHECKING:
    from ..records.schema import Record

__all__ = ["board_svg", "game_title"]

CELL = 60
"""Side of a square, in SVG units."""
TILE = 54
"""Side of a tile; it sits in the middle of its square."""
BOARD_X, BOARD_Y = 40, 70
"""Top-left corner of square A1."""
BOARD_SIZE = 9 * CELL
BOARD_WIDTH = BOARD_X + BOARD_SIZE + 40
"""Width of the picture of the board alone (with its labels)."""
HEIGHT = BOARD_Y + BOARD_SIZE + 40
PANEL_X = BOARD_WIDTH + 10
WIDTH = PANEL_X + 330
"""Width of the whole picture: the board and the players panel."""

FILLS = {
    "red": "#D55E00",  # Okabe-Ito vermillion
    "blue": "#0072B2",  # blue
    "green": "#009E73",  # bluish green
    "yellow": "#F0E442",  # yellow
    "orange": "#E69F00",  # orange
}
"""Tile colours: the Okabe-Ito palette, distinct for colour-blind readers."""

MARKS = {
    "red": ("circle", '<circle cx="9" cy="9" r="5"/>'),
    "blue": ("square", '<rect x="4" y="4" width="10" height="10"/>'),
    "green": ("triangle", '<path d="M9 3 L15 14 H3 Z"/>'),
    "yellow": ("diamond", '<path d="M9 2.5 L15.5 9 L9 15.5 L2.5 9 Z"/>'),
    "orange": ("cross", '<path d="M6.5 3 H11.5 V6.5 H15 V11.5 H11.5 V15 H6.5 V11.5 H3 V6.5 H6.5 Z"/>'),
}
"""Each colour's shape (name, drawing) in the top-left corner of its tiles."""

INK = "#111"
GLYPHS = {
    "man": '<path d="M15 9 H39 M19 9 V2 H35 V9"/><circle cx="27" cy="15" r="5"/>'
    '<path d="M15 33 C15 23 39 23 39 33 Z M25 22 L27 31 L29 22"/>',
    "ring": '<circle cx="27" cy="23" r="9" fill="none" stroke-width="3.5"/>'
    '<path d="M27 3 L32 8 L27 13 L22 8 Z"/>',
    "woman": '<circle cx="27" cy="9" r="5.5"/><path d="M21 9 C19 16 22 18 22 18 H32 C32 18 35 16 33 9"/>'
    '<path d="M27 16 L17 34 H37 Z"/>',
    "sign": '<path d="M27 10 V34" stroke-width="3" fill="none"/><path d="M14 4 H36 L40 8 L36 12 H14 Z"/>'
    '<path d="M40 15 H18 L14 19 L18 23 H40 Z"/>',
    "skyline": '<path d="M10 34 V20 H15 V13 H20 V22 H24 V4 H30 V16 H34 V10 H39 V22 H44 V34 Z"/>',
    "sax": '<path d="M33 2 L29 6 V26 C29 35 17 35 17 27 V24" fill="none" stroke-width="4"/>'
    '<path d="M11 22 H23 L20 27 H14 Z"/><circle cx="33" cy="12" r="1.8"/><circle cx="33" cy="18" r="1.8"/>'
    '<circle cx="33" cy="24" r="1.8"/>',
    "car": '<path d="M8 28 V22 L14 20 L19 13 H35 L40 20 L46 22 V28 Z"/>'
    '<circle cx="17" cy="29" r="4" fill="#fff"/><circle cx="37" cy="29" r="4" fill="#fff"/>',
    "cards": '<rect x="12" y="6" width="16" height="24" rx="2" fill="#fff" transform="rotate(-14 20 18)"/>'
    '<rect x="25" y="6" width="16" height="24" rx="2" fill="#fff" transform="rotate(12 33 18)"/>'
    '<path d="M33 13 L37 19 L33 25 L29 19 Z"/>',
    "champagne": '<path d="M21 3 H33 L31 18 C30 22 24 22 23 18 Z" fill="#fff"/><path d="M22 9 H32 L31 18 C30 21 24 21 23 18 Z"/>'
    '<path d="M27 21 V31 M21 32 H33" fill="none" stroke-width="2.5"/>',
}
"""The nine region symbols, drawn in a tile's 54 x 54 box above the symbol's name."""

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
HALO = 'stroke="#fff" stroke-linejoin="round" paint-order="stroke"'
"""A white outline under dark ink, so that faces read on every tile colour."""

_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: object) -> str:
    """``text`` escaped for XML and HTML (quotes too), with characters XML forbids removed."""
    return escape(_XML_INVALID.sub("", str(text)), quote=True)


def short(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def square_origin(sq: int) -> tuple[int, int]:
    """(x, y) of the top-left corner of the tile on square ``sq``."""
    inset = (CELL - TILE) // 2
    return BOARD_X + (sq % 9) * CELL + inset, BOARD_Y + (sq // 9) * CELL + inset


def face_id(tile: int) -> str:
    """The id suffix of a tile's face: its name, with ``$`` spelt ``wild``."""
    name = tile_name(tile)
    return "wild" if name == "$" else name


def _face(tile: int) -> str:
    name = tile_name(tile)
    if name in GLYPHS:
        shown = shown_tile(tile)
        fit = ' textLength="48" lengthAdjust="spacingAndGlyphs"' if len(shown) > 7 else ""
        return (
            f'<g fill="{INK}" stroke="{INK}" stroke-width="1">{GLYPHS[name]}</g>'
            f'<text x="27" y="48" font-size="10" text-anchor="middle" fill="{INK}" {HALO} '
            f'stroke-width="2.5"{fit}>{xml_text(shown)}</text>'
        )
    size = 24 if name == "$" else 30
    return (
        f'<text x="27" y="38" font-size="{size}" font-weight="bold" text-anchor="middle" '
        f'fill="{INK}" {HALO} stroke-width="4">{xml_text(name)}</text>'
    )


def defs() -> str:
    """The ``<defs>``: each colour's tile background, each tile's face and the two markers."""
    parts = ["<defs>"]
    for color, fill in FILLS.items():
        parts.append(
            f'<g id="tile-{color}"><rect width="{TILE}" height="{TILE}" rx="7" fill="{fill}" '
            f'stroke="{INK}" stroke-width="1.5"/>'
            f'<g fill="#fff" stroke="{INK}" stroke-width="1.3">{MARKS[color][1]}</g></g>'
        )
    for tile, name in enumerate(TILE_NAMES):
        parts.append(f'<g id="face-{face_id(tile)}">{_face(tile)}</g>')
    for name in REGION_NAMES:  # a region's watermark: its symbol without the name, which the
        # tiles placed on it would cut into pieces ("rizon", "án")
        parts.append(f'<g id="glyph-{name}" fill="{INK}" stroke="{INK}" stroke-width="1">'
                     f'{GLYPHS[name]}</g>')
    parts.append(
        f'<g id="mark-last"><rect x="-4" y="-4" width="{TILE + 8}" height="{TILE + 8}" rx="9" '
        f'fill="none" stroke="{INK}" stroke-width="5"/><rect x="-4" y="-4" width="{TILE + 8}" '
        f'height="{TILE + 8}" rx="9" fill="none" stroke="#fff" stroke-width="1.5"/></g>'
    )
    parts.append(
        f'<g id="mark-capture"><circle cx="{TILE - 4}" cy="{TILE - 4}" r="9" fill="#fff" '
        f'stroke="{INK}" stroke-width="2"/><path d="M{TILE - 8} {TILE - 8} l8 8 m0 -8 l-8 8" '
        f'stroke="{INK}" stroke-width="2.5"/></g>'
    )
    parts.append("</defs>")
    return "".join(parts)


def tile_element(sq: int, color: str, tile: int) -> str:
    """One tile on square ``sq``, with its square, colour and tile as data attributes."""
    x, y = square_origin(sq)
    return (
        f'<g class="tile" data-square="{square_name(sq)}" data-color="{color}" '
        f'data-tile="{xml_text(tile_name(tile))}" transform="translate({x} {y})">'
        f'<use href="#tile-{color}"/><use href="#face-{face_id(tile)}"/></g>'
    )


def marker(name: str, sq: int) -> str:
    """The ``mark-last`` or ``mark-capture`` marker on square ``sq``."""
    x, y = square_origin(sq)
    return f'<use class="{name}" data-square="{square_name(sq)}" href="#{name}" x="{x}" y="{y}"/>'


def board_frame() -> str:
    """The empty board: region shading and symbols, the grid, and the row and column labels."""
    parts = ['<g class="board">']
    for region, name in enumerate(REGION_NAMES):
        x = BOARD_X + (region % 3) * 3 * CELL
        y = BOARD_Y + (region // 3) * 3 * CELL
        shade = "#efe9dc" if region % 2 == 0 else "#fbf8f1"
        parts.append(
            f'<rect class="region" data-region="{name}" x="{x}" y="{y}" width="{3 * CELL}" '
            f'height="{3 * CELL}" fill="{shade}"/>'
        )
        scale = 3 * CELL / TILE * 0.8
        offset = 3 * CELL * 0.1
        parts.append(
            f'<use href="#glyph-{name}" opacity="0.16" '
            f'transform="translate({x + offset} {y + offset}) scale({scale:.3f})"/>'
        )
    for i in range(10):
        width = 3 if i % 3 == 0 else 0.8
        at = i * CELL
        parts.append(
            f'<path d="M{BOARD_X + at} {BOARD_Y} v{BOARD_SIZE} M{BOARD_X} {BOARD_Y + at} h{BOARD_SIZE}" '
            f'stroke="#444" stroke-width="{width}" stroke-linecap="square"/>'
        )
    parts.append('<g font-size="16" font-weight="bold" fill="#333" text-anchor="middle">')
    for i in range(9):
        middle = i * CELL + CELL // 2
        for y in (BOARD_Y - 10, BOARD_Y + BOARD_SIZE + 24):
            parts.append(f'<text x="{BOARD_X + middle}" y="{y}">{COLUMNS[i]}</text>')
        for x in (BOARD_X - 18, BOARD_X + BOARD_SIZE + 18):
            parts.append(f'<text x="{x}" y="{BOARD_Y + middle + 6}">{ROWS[i]}</text>')
    parts.append("</g></g>")
    return "".join(parts)


def last_capture(history: Sequence[Turn]) -> Turn | None:
    """The last turn of ``history`` that captured a tile, or None."""
    return next((turn for turn in reversed(history) if turn.captured is not None), None)


def position_layers(game: Game) -> str:
    """The tiles on the board and the markers of the last move and the last capture."""
    tiles = [tile_element(sq, color, tile) for sq, (color, tile) in sorted(game.board.items())]
    marks = []
    last = game.last
    if last is not None and not last.move.is_pass:
        marks.append(marker("mark-last", last.move.square))
    taken = last_capture(game.history)
    if taken is not None and not taken.move.is_pass:  # a capture is a placement
        marks.append(marker("mark-capture", taken.move.square))
    return f'<g class="tiles">{"".join(tiles)}</g><g class="marks">{"".join(marks)}</g>'


def svg_document(width: int, body: str, title: str, top: int = 0) -> str:
    """An SVG document of fixed size holding ``body`` (from ``top`` down), with a title for
    screen readers."""
    height = HEIGHT - top
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 {top} {width} {height}" width="{width}" '
        f'height="{height}" font-family="{FONT}" role="img">'
        f"<title>{xml_text(title)}</title>{body}</svg>"
    )


def _panel_text(x: int, y: int, text: str, size: float = 13, weight: str = "normal",
                fill: str = INK, limit: int = 40) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}">'
        f"{xml_text(short(text, limit))}</text>"
    )


def _swatch(color: str, x: int, y: int, size: int = 22) -> str:
    """A small blank tile of ``color``, its shape in the corner."""
    return f'<g transform="translate({x} {y}) scale({size / TILE:.3f})"><use href="#tile-{color}"/></g>'


def players_panel(game: Game, variant: str) -> str:
    """Beside the board: each player's colours (with their shapes), groups, captures and
    score, whose turn it is, the last move, the last capture and the regions' key."""
    x = PANEL_X
    heading = ngettext("{variant}, after {count} move", "{variant}, after {count} moves",
                       game.ply).format(variant=variant_label(variant), count=game.ply)
    parts = [_panel_text(x, BOARD_Y + 4, heading, 15, "bold")]
    y = BOARD_Y + 34
    for player, row in zip(game.players, standings(game, variant)):
        for i, color in enumerate(player.colors):
            parts.append(_swatch(color, x + i * 26, y - 17))
        name_x = x + 26 * len(player.colors) + 6
        colours = ", ".join(map(shown_color, player.colors))
        if player is game.to_move:
            colours = _("{colours}  \u25c0 to move").format(colours=colours)
        parts.append(
            f'<text x="{name_x}" y="{y}" font-size="14" fill="{INK}"><tspan font-weight="bold">'
            f"{xml_text(short(player.name, 16))}</tspan> {xml_text(colours)}</text>"
        )
        parts.append(
            _panel_text(x, y + 17, _("#{rank}  score {score}  groups {groups}  captures {captures}")
                        .format(rank=row.rank, score=row.score, groups=row.groups,
                                captures=row.captures), 12)
        )
        taken = ", ".join(_("{count} from {name}").format(count=n, name=short(name, 10))
                          for name, n in row.captured.items() if n)
        if taken:
            parts.append(_panel_text(x + 12, y + 31, taken, 11, fill="#444", limit=50))
        y += 52
    if game.finished:
        parts.append(_panel_text(x, y - 6, _("The game is over."), 13, "bold"))
        y += 14
    for label, turn in ((_("Last move (thick frame):"), game.last),
                        (_("Last capture (\u00d7 badge):"), last_capture(game.history))):
        if turn is not None:
            parts.append(_panel_text(x, y, label, 12, "bold"))
            parts.append(_panel_text(x, y + 15, _("move {number}: {turn}").format(
                number=turn.number, turn=turn_text(turn)), 11.5, limit=50))
            y += 36
    parts.append(_panel_text(x, y, _("Regions"), 12, "bold"))
    y += 5
    for region, name in enumerate(REGION_NAMES):
        rx = x + (region % 3) * 48
        ry = y + (region // 3) * 40
        parts.append(
            f'<rect x="{rx}" y="{ry}" width="46" height="38" fill="#fbf8f1" stroke="#444"/>'
            f'<use href="#face-{name}" transform="translate({rx + 3.5} {ry}) scale(0.72)"/>'
        )
    return f'<g class="panel">{"".join(parts)}</g>'


def game_title(record: "Record") -> str:
    """The title a game's pictures bear: the event named in the record, else the file's name."""
    return record.fields.get("event") or os.path.basename(record.path) or "Uptown"


def board_svg(game: Game, variant: str = "standard", title: str = "Uptown",
              panel: bool = True) -> str:
    """The position of ``game`` as a complete SVG picture: with a title and the players panel,
    or (``panel=False``) the board alone, for a page that shows the rest itself."""
    body = defs() + board_frame() + position_layers(game)
    label = ngettext("{title}, after {count} move", "{title}, after {count} moves",
                     game.ply).format(title=title, count=game.ply)
    if not panel:
        return svg_document(BOARD_WIDTH, body, label, top=BOARD_Y - 40)
    body += _panel_text(BOARD_X, 30, title, 18, "bold", limit=60) + players_panel(game, variant)
    return svg_document(WIDTH, body, label)
