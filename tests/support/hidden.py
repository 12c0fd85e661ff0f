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
