"""Club play by email: ``mail`` (the message that carries a game, and its transports),
``inbox`` (receiving a game and comparing it with the local copy), ``status`` (a folder of
games at a glance) and ``ratings`` (openskill ratings over finished games)."""

__all__: list[str] = []
