"""Fixtures of the hidden-racks tests."""

import pytest
from support.cli import Uptown
from support.hidden import older_protocol
from support.players import play_to_end

PLAYED = ("Ana", "Bo", "Cy")


def played_game(folder, sealed=False):
    """A three-player game with hidden racks (Ana, Bo, Cy, each with an address at
    example.org), joined and played to its end by random bots, no key revealed: the folder
    holding ``g.yaml`` and each player's key folder ``keys-NAME`` (no memories kept); of
    protocol 4 when ``sealed`` (``support.hidden.older_protocol``)."""
    uptown = Uptown()
    path = folder / "g.yaml"
    players = [arg for name in PLAYED for arg in ("-p", f"{name} <{name.lower()}@example.org>")]
    assert uptown.invoke("new", path, "--hidden", *players).exit_code == 0
    if sealed:
        older_protocol(path)
    env = {name: {"UPTOWN_KEYS": str(folder / f"keys-{name}"), "UPTOWN_GAME": None}
           for name in PLAYED}
    for name in PLAYED:
        joined = uptown.invoke("join", path, "--as", name, *(["--older-protocol"] if sealed else []),
                               env=env[name])
        assert joined.exit_code == 0, joined.output
    play_to_end(path, env)
    for seen in folder.glob("keys-*/*.seen"):
        seen.unlink()
    return folder


@pytest.fixture(scope="session")
def played_hidden_game(tmp_path_factory):
    """``played_game`` of the latest protocol, made once per session: copy what you need
    (``support.players.prepared_copy``)."""
    return played_game(tmp_path_factory.mktemp("played"))


@pytest.fixture(scope="session")
def played_sealed_game(tmp_path_factory):
    """``played_game`` of protocol 4 (its moves sealed, not signed), made once per session:
    for the attacks whose blame the seals name."""
    return played_game(tmp_path_factory.mktemp("sealed"), sealed=True)
