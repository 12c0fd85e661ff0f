"""The rules of Uptown: board geometry, notation, bags, the game, scoring and fast playouts.

No I/O: nothing here reads a file, a terminal or YAML.
"""
