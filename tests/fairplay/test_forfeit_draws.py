"""The draws of a version 3 game after a forfeit (docs/HIDDEN_DRAWS.md, "Forfeits"): the
forfeiter's draws stop, and no draw waits for them any more, recomputed here from the page."""

import hashlib

from uptown_cli.engine.game import Player
from uptown_cli.engine.notation import Placement, parse_move
from uptown_cli.fairplay.draws import HiddenDeal, chain, commitment, draw_index

GAME_ID = bytes(range(16))
SEATS = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]
KEYS = {p.name: hashlib.sha256(p.name.encode()).digest() for p in SEATS}


def _dealt():
    deal = HiddenDeal(GAME_ID, SEATS, KEYS, 3)
    chains = {p.name: chain(GAME_ID, p.name, KEYS[p.name], 3) for p in SEATS}
    made = []
    for player in SEATS:
        made.append(commitment(GAME_ID, player.name, chains[player.name][256], made, 3))
        deal.join(made[-1])
    return deal, chains


def _act(deal, chains, seat, text, turn):
    player = SEATS[seat]
    link = chains[player.name][256 - turn]
    deal.act(player, player.colors[0], parse_move(text), link)
    return link


def test_after_a_forfeit_written_by_another_a_draw_waits_only_for_the_seats_in_play():
    """Ana places a tile (her draw waits for Bo's and Cy's next links); Bo plays; Cy is made to
    forfeit: Ana's draw is made at once with Bo's link alone; Bo's next draw waits for Ana's
    link alone, and Cy draws nothing more."""
    deal, chains = _dealt()
    for seat in range(3):  # round 1: everyone's starting racks are drawn
        _act(deal, chains, seat, "pass", 1)
    assert all(len(deal.racks[c]) == 5 for c in ("red", "blue", "green"))
    deal.act(SEATS[0], "red", Placement(deal.racks["red"][0], 0), chains["Ana"][256 - 2])
    assert deal.pending("red") == 1
    bo_link = _act(deal, chains, 1, "pass", 2)
    assert deal.pending("red") == 1  # still waits for Cy
    deal.leave(SEATS[2], None)
    assert deal.pending("red") == 0
    bag = [t for t in range(28) if t not in deal.drawn["red"][:5]]
    expected = bag[draw_index(GAME_ID, "red", 5, KEYS["Ana"], [bo_link], len(bag), 3)]
    assert deal.drawn["red"][5] == expected and expected in deal.racks["red"]
    deal.act(SEATS[1], "blue", Placement(deal.racks["blue"][0], 1), chains["Bo"][256 - 3])
    assert deal.pending("blue") == 1  # waits for Ana alone now
    ana_link = _act(deal, chains, 0, "pass", 3)
    assert deal.pending("blue") == 0
    bag = [t for t in range(28) if t not in deal.drawn["blue"][:5]]
    expected = bag[draw_index(GAME_ID, "blue", 5, KEYS["Bo"], [ana_link], len(bag), 3)]
    assert deal.drawn["blue"][5] == expected and len(deal.drawn["green"]) == 5


def test_a_resignation_publishes_its_link_for_the_draws_that_wait_for_it_and_draws_nothing():
    deal, chains = _dealt()
    for seat in range(3):
        _act(deal, chains, seat, "pass", 1)
    deal.act(SEATS[0], "red", Placement(deal.racks["red"][0], 0), chains["Ana"][256 - 2])
    bo_link = _act(deal, chains, 1, "pass", 2)
    cy_link = chains["Cy"][256 - 2]
    deal.leave(SEATS[2], cy_link)
    assert deal.pending("red") == 0 and deal.pending("green") == 0 and deal.turns["Cy"] == 2
    bag = [t for t in range(28) if t not in deal.drawn["red"][:5]]
    expected = bag[draw_index(GAME_ID, "red", 5, KEYS["Ana"], [bo_link, cy_link], len(bag), 3)]
    assert deal.drawn["red"][5] == expected
    assert len(deal.drawn["green"]) == 5

