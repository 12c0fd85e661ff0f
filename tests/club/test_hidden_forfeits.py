"""Forfeits in games with hidden racks (docs/DEADLINES.md, docs/HIDDEN_DRAWS.md "Forfeits"):
a player resigns at their turn with their own tool (the entry carries their link and seal),
another player makes a player out of time forfeit (the entry carries no link), and neither can
be faked: a forfeit for a player still in time, or a resignation written by hand, is refused
by the command and by ``validate``, naming its line. Each player has a working folder and a key
folder; the file goes from one to the next by ``send -o`` and ``receive``."""

import re

from club.test_deadlines import T0, Table

LATER = "2026-12-01T16:00:00Z"


def _hidden_table(uptown, tmp_path):
    table = Table(uptown, tmp_path, 3)
    table.new(T0, "--clock", "move 24h grace 24h reveal 48h", "--late", "forfeit", hidden=True)
    return table


def _holder_to(table, holder, now):
    """The player to move, given the copy of ``holder`` (who last wrote): carried to them."""
    mover = table.to_move(holder, now)
    if mover is not None and mover != holder:
        assert table.carry(holder, mover, now).exit_code == 0
    return mover


def _play_to_end(table, holder, now):
    """Everyone still in play moves in turn (a random bot) until the game ends; returns who
    made the last move."""
    for _ in range(300):
        mover = _holder_to(table, holder, now)
        if mover is None:
            return holder
        table.ok(mover, now, "move", table.game(mover), "--bot", "random", "--as", mover)
        holder = mover
    raise AssertionError("the game did not end")


def test_a_resignation_in_a_hidden_game_ends_with_the_others_and_the_forfeiter_last(uptown, tmp_path):
    """Cy resigns at his first turn; Ana and Bo play to the end; everyone reveals (Cy too), and
    the game is valid with Cy last."""
    table = _hidden_table(uptown, tmp_path)
    holder = "Cy"
    for _ in range(2):  # Ana and Bo play a move each
        mover = _holder_to(table, holder, LATER)
        table.ok(mover, LATER, "move", table.game(mover), "--bot", "random", "--as", mover)
        holder = mover
    assert _holder_to(table, holder, LATER) == "Cy"
    refused = table.run("Ana", LATER, "move", table.game("Cy"), "forfeit", "--as", "Ana")
    assert refused.exit_code == 1 and "it is Cy's turn, not Ana's" in refused.stderr
    resigned = table.ok("Cy", LATER, "move", table.game("Cy"), "forfeit", "--as", "Cy")
    assert resigned.stdout.startswith("Move 3: green (Cy) forfeits")
    assert re.search(r"  - green: forfeit\n    at: \"[^\"]+\"\n    link: [0-9a-f]{128}\n$",
                     table.game("Cy").read_text())
    last = _play_to_end(table, "Cy", LATER)
    end = "2026-12-01T17:00:00Z"
    holder = last
    for name in ("Ana", "Bo", "Cy"):  # the file goes round: each reveals in turn
        if name != holder:
            assert table.carry(holder, name, end).exit_code == 0
        table.ok(name, end, "reveal", table.game(name), "--as", name)
        holder = name
    checked = table.run("Cy", end, "validate", table.game("Cy"))
    assert checked.exit_code == 0, checked.output
    _, score = table.uptown.json("score", table.game("Cy"), "--json", env=table.env("Cy", end))
    ranks = {row["name"]: (row["rank"], row["forfeit"]) for row in score["players"]}
    assert ranks["Cy"] == (3, 3) and ranks["Ana"][1] is None and ranks["Bo"][1] is None
