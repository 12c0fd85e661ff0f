"""Hidden racks: the hash-chain draws every player can check, and the key files of a player.
"""

__all__: list[str] = []
