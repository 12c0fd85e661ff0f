"""The board and the racks as Textual widgets, for the game (``app``) and its review
(``review``): 81 squares a mouse can click (``#sq-B7``), shaded by region, each tile in its
colour (the Okabe-Ito fills of the HTML page) with its colour's shape before its face, so that
the board reads without colour too (``pictures.svg.MARKS``: red circle, blue square, green
triangle, yellow diamond, orange cross); the last move in brackets, as ``uptown show`` marks
it; the squares the chosen tile may go to marked ``+`` (``x`` before a tile it would capture);
a cursor the arrows move. Rack tiles are clicked the same way (``#tile-red-0``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.message import Message
from textual.widgets import Label, Static

from ..engine.game import Game
from ..engine.geometry import COLUMNS, ROWS, SQUARE_NAMES
from ..pictures.svg import FILLS
from ..pictures.tile_names import region_label, tile_face

__all__ = ["SHAPES", "tile_text", "bind_keys", "Square", "Board", "RackTile", "regions_text"]

SHAPES = {"red": "\u25cf", "blue": "\u25a0", "green": "\u25b2", "yellow": "\u25c6",
          "orange": "\u271a"}
"""Each colour's shape, as ``pictures.svg.MARKS`` draws it: circle, square, triangle, diamond,
cross."""

INK = {"blue": "#ffffff"}
"""The face's colour on a tile where black does not read (default black)."""

RACK_CELL = 5
"""A rack tile's width in columns."""

REGION_SHADES = ("#303030", "#4a4a4a")
"""The background of the squares of the regions, alternating like a chessboard's."""

CELL = 6
"""A square's width in columns."""


def tile_text(color: str, tile: int, marked: bool = False, width: int = CELL) -> Text:
    """A tile as a square or a rack shows it, ``width`` columns: its colour's shape and face on
    its fill; in brackets when ``marked``."""
    face = SHAPES[color] + tile_face(tile)
    body = f"[{face}]" if marked else face
    return Text(body.center(width), style=f"bold {INK.get(color, '#000000')} on {FILLS[color]}")


def bind_keys(app: App[Any], keys: Sequence[tuple[str, str, str]]) -> None:
    """Bind each ``(key, action, what it does)`` of ``keys`` in ``app``, shown in its footer in
    the language in use when it starts (class bindings are made at import)."""
    for key, action, said in keys:
        app.bind(key, action, description=said)


class Square(Static):
    """One square of the board, ``#sq-B7``: clicked, it says so (``Square.Picked``)."""

    class Picked(Message):
        """A square was clicked."""

        def __init__(self, square: int) -> None:
            super().__init__()
            self.square = square

    def __init__(self, square: int) -> None:
        super().__init__(id=f"sq-{SQUARE_NAMES[square]}", classes="square")
        self.square = square
        self.content: Text = Text(" " * CELL)

    def render(self) -> Text:
        return self.content

    def on_click(self) -> None:
        """Clicked: the square is picked."""
        self.post_message(self.Picked(self.square))


class Board(Container, can_focus=True):
    """The 9 x 9 squares with the rows' and columns' names; ``show`` draws a position."""

    BINDINGS = [Binding("up", "cursor(-9)", "Up", show=False),
                Binding("down", "cursor(9)", "Down", show=False),
                Binding("left", "cursor(-1)", "Left", show=False),
                Binding("right", "cursor(1)", "Right", show=False),
                Binding("enter,space", "place", "Place", show=False)]

    class Placed(Message):
        """Enter (or space) at the cursor's square."""

        def __init__(self, square: int) -> None:
            super().__init__()
            self.square = square

    def __init__(self) -> None:
        super().__init__(id="board")
        self.cursor = 40  # E5, the centre
        self.squares = [Square(sq) for sq in range(81)]

    def compose(self) -> ComposeResult:
        yield Label(" ", classes="corner")
        for column in COLUMNS:
            yield Label(column.center(CELL), classes="column")
        for r, row in enumerate(ROWS):
            yield Label(f" {row}", classes="row")
            yield from self.squares[r * 9:r * 9 + 9]

    def show(self, game: Game, marked: Iterable[int] = (), captures: Iterable[int] = ()) -> None:
        """Draw ``game``'s position: the ``marked`` squares are where the chosen tile may go
        (``captures``: onto a tile)."""
        last = game.last
        last_square = None if last is None or last.move.is_pass else last.move.square
        marked, captures = set(marked), set(captures)
        for sq, square in enumerate(self.squares):
            held = game.at(sq)
            r, c = divmod(sq, 9)
            shade = REGION_SHADES[(r // 3 + c // 3) % 2]
            if held is None:
                text = Text((" + " if sq in marked else " \u00b7 ").center(CELL),
                            style=f"bold #ffffff on {'#1b5e20' if sq in marked else shade}")
            else:
                text = tile_text(*held, marked=sq == last_square)
                if sq in captures:
                    text = Text("x", style="bold #ffffff on #8b0000") + text[1:]
            if sq == self.cursor and self.has_focus:
                text.stylize("reverse")
            square.content = text
            square.refresh()

    def action_cursor(self, step: int) -> None:
        """An arrow: the cursor one square on (``step``: -1, 1, -9, 9), round the edges."""
        row, column = divmod(self.cursor, 9)
        if abs(step) == 1:
            column = (column + step) % 9
        else:
            row = (row + step // 9) % 9
        self.cursor = row * 9 + column
        self.post_message(self.Placed(-1))  # redraw, with the cursor's square told

    def action_place(self) -> None:
        """Enter or space: the chosen tile placed at the cursor."""
        self.post_message(self.Placed(self.cursor))

    def on_focus(self) -> None:
        """The cursor shows while the board has the keys."""
        self.post_message(self.Placed(-1))

    def on_blur(self) -> None:
        """The cursor hides when the keys go elsewhere."""
        self.post_message(self.Placed(-1))


class RackTile(Static):
    """A tile of a rack, ``#tile-red-0``: clicked, it is chosen (``RackTile.Chosen``)."""

    class Chosen(Message):
        def __init__(self, color: str, index: int) -> None:
            super().__init__()
            self.color, self.index = color, index

    def __init__(self, color: str, index: int, tile: int, chosen: bool) -> None:
        super().__init__(id=f"tile-{color}-{index}", classes="tile")
        self.color, self.index, self.tile = color, index, tile
        self.chosen = chosen

    def render(self) -> Text:
        text = tile_text(self.color, self.tile, width=RACK_CELL)
        if self.chosen:
            text.stylize("reverse")
        return text

    def on_click(self) -> None:
        """Clicked: the tile is chosen."""
        self.post_message(self.Chosen(self.color, self.index))


def regions_text() -> str:
    """The regions' names as the board lays them out, three lines."""
    return "\n".join("".join(region_label(r * 3 + c).center(3 * CELL) for c in range(3))
                     for r in range(3))
