"""The rules of Uptown: board geometry, notation, bags, the game, scoring and fast playouts.

No I/O: nothing here reads a file, a terminal or YAML. Its modules: ``geometry`` (squares,
tiles, regions), ``notation`` (moves and the board as written), ``bags`` (seeded bags),
``groups`` (groups and cut points), ``move_lists``, ``game`` (the players and the game),
``scoring`` (standings), ``playout`` (fast playouts for the bots), ``sha256``.
"""

__all__: list[str] = []
