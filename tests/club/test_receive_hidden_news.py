"""``receive`` of a game with hidden racks whose only news is no move (a join, a join undone,
a key revealed): the message must come from the player whose entry is newest, else a
warning names both, as for a move. Each player has a folder and a key folder; the copies go
by ``send -o`` and ``receive``."""

import shutil

import pytest
from support.club import ok, run
from support.players import play_to_end

PLAYERS = ["-p", "Ana <ana@example.org>", "-p", "Bo <bo@example.org>"]


def env(folder, name):
    return {"UPTOWN_KEYS": str(folder / f"keys-{name}"), "UPTOWN_GAME": None}


def forged(data, sender):
    """The message ``data`` with its From header made ``sender``."""
    head, sep, body = data.partition(b"\n\n")
    lines = [line for line in head.split(b"\n") if not line.lower().startswith(b"from:")]
    return b"\n".join([f"From: {sender}".encode(), *lines]) + sep + body


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A two-player hidden game joined and played to its end by random bots, no key revealed:
    the folder holding ``g.yaml`` and the key folders ``keys-Ana``, ``keys-Bo``."""
    folder = tmp_path_factory.mktemp("finished")
    path = folder / "g.yaml"
    ok(run(["new", path, "--hidden", *PLAYERS]))
    for name in ("Ana", "Bo"):
        ok(run(["join", path, "--as", name], env=env(folder, name)))
    play_to_end(path, {name: env(folder, name) for name in ("Ana", "Bo")})
    for seen in folder.glob("keys-*/*.seen"):
        seen.unlink()
    return folder


@pytest.fixture
def players(tmp_path):
    """Ana's and Bo's folders, each with their key folder."""
    folders = {}
    for name in ("Ana", "Bo"):
        folders[name] = tmp_path / name.lower()
        folders[name].mkdir()
    return folders


def mail(folder, name, *args):
    """``uptown send g.yaml --as NAME ARGS -o m.eml --force`` in ``folder`` (the message file
    of an earlier send replaced): the message's bytes."""
    ok(run(["send", "g.yaml", "--as", name, *args, "-o", "m.eml", "--force"], cwd=folder,
           env=env(folder, name)))
    return (folder / "m.eml").read_bytes()


def receive(folder, name, data):
    return ok(run(["receive", "-"], input=data, cwd=folder, env=env(folder, name)))


def warning(whose, what, sender):
    return (f"Warning: the message is from {sender}, but {what} is {whose}'s "
            f"({whose.lower()}@example.org): check with {whose} that it is theirs\n")


def test_a_key_revealed_mailed_by_another_player_warns(finished, players):
    ana, bo = players["Ana"], players["Bo"]
    for name, folder in players.items():
        shutil.copy(finished / "g.yaml", folder / "g.yaml")
        shutil.copytree(finished / f"keys-{name}", folder / f"keys-{name}")
    ok(run(["reveal", "g.yaml", "--as", "Ana"], cwd=ana, env=env(ana, "Ana")))
    data = mail(ana, "Ana", "--to", "Bo")
    result = receive(bo, "Bo", forged(data, "Bo <bo@example.org>"))
    assert "Ana revealed their key" in result.stdout
    assert result.stderr == warning("Ana", "the newest key revealed", "bo@example.org (Bo)")
    shutil.copy(finished / "g.yaml", bo / "g.yaml")
    result = receive(bo, "Bo", data)  # from Ana herself
    assert "Ana revealed their key" in result.stdout and result.stderr == ""


@pytest.fixture
def new_game(players):
    """Ana made the game and sent Bo a copy; both have it."""
    ana, bo = players["Ana"], players["Bo"]
    ok(run(["new", "g.yaml", "--hidden", *PLAYERS], cwd=ana))
    shutil.copy(ana / "g.yaml", bo / "g.yaml")
    return ana, bo


def test_a_join_mailed_by_another_player_warns(new_game):
    ana, bo = new_game
    ok(run(["join", "g.yaml", "--as", "Ana"], cwd=ana, env=env(ana, "Ana")))
    data = mail(ana, "Ana")
    result = receive(bo, "Bo", forged(data, "mallory@example.net"))
    assert result.stdout.startswith("Saved g.yaml: Ana joined")
    assert result.stderr == warning("Ana", "the newest join", "mallory@example.net")


def test_a_join_undone_mailed_by_another_player_warns(new_game):
    ana, bo = new_game
    ok(run(["join", "g.yaml", "--as", "Ana"], cwd=ana, env=env(ana, "Ana")))
    ok(receive(bo, "Bo", mail(ana, "Ana")))
    ok(run(["join", "g.yaml", "--as", "Ana", "--undo"], cwd=ana, env=env(ana, "Ana")))
    data = mail(ana, "Ana")
    result = receive(bo, "Bo", forged(data, "Bo <bo@example.org>"))
    assert result.stdout.startswith("Saved g.yaml: Ana's join was undone")
    assert result.stderr == warning("Ana", "the newest join undone", "bo@example.org (Bo)")
    shutil.copy(ana / "g.yaml", bo / "g.yaml")
    ok(run(["join", "g.yaml", "--as", "Ana"], cwd=ana, env=env(ana, "Ana")))
    result = receive(bo, "Bo", mail(ana, "Ana"))  # joined again, from Ana herself
    assert result.stdout.startswith("Saved g.yaml: Ana joined") and result.stderr == ""
