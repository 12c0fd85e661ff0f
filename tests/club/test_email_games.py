"""Whole games played by email through a real SMTP server (aiosmtpd, STARTTLS, AUTH): each
player keeps their copy (and key folder) in their own folder, moves only with ``move --send``
and takes the messages in only with ``receive``."""

import json

import pytest
from support.club import CLUB, Club, smtp_server  # noqa: F401 (a fixture)

from uptown_cli.turns.validation import validate_file

NAMES = CLUB
MAX_MOVES = 200
"""More moves than any 3-player game has: a game that does not end fails the test."""


@pytest.mark.slow
def test_a_whole_seeded_game_is_played_by_move_send_and_receive(tmp_path, smtp_server):
    club = Club(tmp_path, smtp_server)
    club.uptown("Ana", "new", "club.yaml", *club.options(), "--seed", "club-7")
    mover = "Ana"
    for _ in range(MAX_MOVES):
        club.uptown(mover, "move", "club.yaml", "--bot", "random", "--as", mover, "--send")
        assert club.deliver()
        data = club.show(mover)
        if data["to_move"] is None:
            break
        mover = data["to_move"]
    else:
        pytest.fail("the game did not end")
    texts = {name: club.game(name).read_bytes() for name in NAMES}
    assert texts["Ana"] == texts["Bo"] == texts["Cy"]
    assert all(validate_file(club.game(name)).valid for name in NAMES)
    assert any("are new" in said or "is new" in said for _, said in club.received)


@pytest.mark.slow
def test_a_whole_hidden_game_is_played_by_send_move_send_and_receive(tmp_path, smtp_server):
    club = Club(tmp_path, smtp_server)
    club.uptown("Ana", "new", "club.yaml", "--hidden", *club.options())
    for name in NAMES:  # each joins on their own copy, then sends it to the next to join
        if name != "Ana":
            assert len(club.deliver()) == 1
        club.uptown(name, "join", "club.yaml", "--as", name, "--keys", "keys")
        club.uptown(name, "send", "club.yaml", "--as", name)
    assert len(club.deliver()) == 1  # Cy's copy, everyone joined, goes to Ana, first to move
    mover = "Ana"
    for _ in range(MAX_MOVES):
        club.uptown(mover, "move", "club.yaml", "--bot", "random", "--as", mover, "--keys", "keys",
                    "--send")
        assert club.deliver()
        status = json.loads(club.uptown(mover, "status", "--json").output)[0]
        if status["state"] == "finished":
            break
        mover = status["waiting_for"]
    else:
        pytest.fail("the game did not end")
    for name in NAMES:  # every key revealed, in turn, each copy sent to all
        club.uptown(name, "reveal", "club.yaml", "--as", name, "--keys", "keys")
        club.uptown(name, "send", "club.yaml", "--as", name, "--to", "all")
        assert len(club.deliver()) == 2  # to the two others
    texts = {name: club.game(name).read_bytes() for name in NAMES}
    assert texts["Ana"] == texts["Bo"] == texts["Cy"]
    checked = validate_file(club.game("Cy"))
    assert checked.valid and not checked.unchecked
    assert any("revealed their key" in said for _, said in club.received)
    assert any("joined" in said for _, said in club.received)
