"""Whole games played by email through a real SMTP server (aiosmtpd, STARTTLS, AUTH): each
player keeps their copy (and key folder) in their own folder, moves only with ``move --send``
and takes the messages in only with ``receive``."""

import email
import email.policy
import json

import pytest
from support.club import ok, run, smtp_server  # noqa: F401 (a fixture)

from uptown_cli.records.replay import validate_file

NAMES = ("Ana", "Bo", "Cy")
MAX_MOVES = 200
"""More moves than any 3-player game has: a game that does not end fails the test."""


class Club:
    """Three players, each with a folder (their copy is club.yaml there) and a key folder."""

    def __init__(self, tmp_path, server):
        self.server = server
        self.folders = {}
        for name in NAMES:
            folder = tmp_path / name.lower()
            (folder / "keys").mkdir(parents=True)
            self.folders[name] = folder
        self.address = {f"{name.lower()}@example.org": name for name in NAMES}
        self.received = []

    def game(self, name):
        return self.folders[name] / "club.yaml"

    def uptown(self, name, *args, input=None):
        return ok(run(args, env=self.server.env, input=input, cwd=self.folders[name]))

    def deliver(self):
        """Each captured message, received by each of its recipients in their folder (with
        --into the first time, when they have no copy yet); returns how many were delivered."""
        messages = self.server.capture.take()
        for recipients, data in messages:
            parsed = email.message_from_bytes(data, policy=email.policy.default)
            assert parsed["Subject"].startswith("[uptown] club.yaml: ")
            for address in recipients:
                name = self.address[address]
                into = [] if self.game(name).exists() else ["--into", "club.yaml"]
                result = self.uptown(name, "receive", "-", *into, input=data)
                self.received.append((name, result.output))
        return len(messages)

    def to_move(self, name):
        data = json.loads(self.uptown(name, "show", "club.yaml", "--json").output)
        return data["to_move"]


def players_option():
    return [arg for name in NAMES for arg in ("-p", f"{name} <{name.lower()}@example.org>")]


@pytest.mark.slow
def test_a_whole_seeded_game_is_played_by_move_send_and_receive(tmp_path, smtp_server):
    club = Club(tmp_path, smtp_server)
    club.uptown("Ana", "new", "club.yaml", *players_option(), "--seed", "club-7")
    mover = "Ana"
    for _ in range(MAX_MOVES):
        club.uptown(mover, "move", "club.yaml", "--bot", "random", "--as", mover, "--send")
        assert club.deliver() == 1
        data = json.loads(club.uptown(mover, "show", "club.yaml", "--json").output)
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
    club.uptown("Ana", "new", "club.yaml", "--hidden", *players_option())
    for name in NAMES:  # each joins on their own copy, then sends it to the next to join
        if name != "Ana":
            assert club.deliver() == 1
        club.uptown(name, "join", "club.yaml", "--as", name, "--keys", "keys")
        club.uptown(name, "send", "club.yaml", "--as", name)
    assert club.deliver() == 1  # Cy's copy, everyone joined, goes to Ana, first to move
    mover = "Ana"
    for _ in range(MAX_MOVES):
        club.uptown(mover, "move", "club.yaml", "--bot", "random", "--as", mover, "--keys", "keys",
                    "--send")
        assert club.deliver() >= 1
        status = json.loads(club.uptown(mover, "status", "--json").output)[0]
        if status["state"] == "finished":
            break
        mover = status["waiting_for"]
    else:
        pytest.fail("the game did not end")
    for name in NAMES:  # every key revealed, in turn, each copy sent to all
        club.uptown(name, "reveal", "club.yaml", "--as", name, "--keys", "keys")
        club.uptown(name, "send", "club.yaml", "--as", name, "--to", "all")
        assert club.deliver() == 1
    texts = {name: club.game(name).read_bytes() for name in NAMES}
    assert texts["Ana"] == texts["Bo"] == texts["Cy"]
    checked = validate_file(club.game("Cy"))
    assert checked.valid and not checked.unchecked
    assert any("revealed their key" in said for _, said in club.received)
    assert any("joined" in said for _, said in club.received)
