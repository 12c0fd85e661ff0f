"""Helpers shared by the hidden-racks tests (``from support.hidden import ...``); no tests here."""

from uptown_cli.engine.passes import can_place
from uptown_cli.engine.notation import PASS, Placement


def legal_from_deal(game, deal, player):
    """The legal (colour, move) pairs of ``player`` from the deal's racks (``game`` knows no
    racks), or a forced pass."""
    moves = [
        (c, Placement(tile, sq))
        for c in player.colors if game.playable(c)
        for tile in deal.racks[c]
        for sq in range(81) if can_place(game, c, tile, sq)
    ]
    return moves or [(player.colors[0], PASS)]


SEALED = 4
"""The last protocol version whose moves are sealed with the chain (versions 3 and 4), not
signed: what the tests of seals play (``older_protocol``)."""


def older_protocol(path, version=SEALED):
    """The new game with hidden racks at ``path`` (nobody joined yet) made of protocol
    ``version`` rather than the latest, as a game made by an older uptown is: its players join
    it with ``--older-protocol``, and their tools then write its moves as that version does."""
    text = path.read_text()
    path.write_text(text.replace("protocol: uptown-hidden-5\n", f"protocol: uptown-hidden-{version}\n"))
    return path
