"""What a game looks like, for people and programs.

- ``text``: boards, racks, turns, tables and the JSON shapes of docs/COMMANDS.md, for open and
  hidden games alike (the viewer an argument).
- ``tile_names``: the tiles' names in the players' language, shown and typed.
- ``table``: tabulate's simple tables without importing it.
- ``svg``: the board as an SVG picture.
- ``html``: one self-contained HTML page that replays a game.
"""

__all__: list[str] = []
