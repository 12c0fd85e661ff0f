"""Fixtures of the hidden-racks tests."""

import pytest
from support.cli import Uptown
from support.players import play_to_end

PLAYED = ("Ana", "Bo", "Cy")


@pytest.fixture(scope="session")
def played_hidden_game(tmp_path_factory):
    """A three-player game with hidden racks (Ana, Bo, Cy, each with an address at
    example.org), joined and played to its end by random bots, no key revealed: the folder
    holding ``g.yaml`` and each player's key folder ``keys-NAME`` (no memories kept). Made
    once per session: copy what you need (``support.players.prepared_copy``)."""
    uptown = Uptown()
    folder = tmp_path_factory.mktemp("played")
    path = folder / "g.yaml"
    players = [arg for name in PLAYED for arg in ("-p", f"{name} <{name.lower()}@example.org>")]
    assert uptown.invoke("new", path, "--hidden", *players).exit_code == 0
    env = {name: {"UPTOWN_KEYS": str(folder / f"keys-{name}"), "UPTOWN_GAME": None}
           for name in PLAYED}
    for name in PLAYED:
        assert uptown.invoke("join", path, "--as", name, env=env[name]).exit_code == 0
    play_to_end(path, env)
    for seen in folder.glob("keys-*/*.seen"):
        seen.unlink()
    return folder
