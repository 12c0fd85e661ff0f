"""Players of a hidden-racks game, each on their own computer (their own key folder), through
the command line."""

import shutil

import pytest
from support.cli import Uptown

uptown = Uptown()

PLAYERS = ("Ana", "Bo", "Cy")


def as_player(tmp_path, name):
    """The environment of ``name``'s computer: their own key folder."""
    return {"UPTOWN_KEYS": str(tmp_path / f"keys-{name}"), "UPTOWN_GAME": None}


def uptown_as(tmp_path, name, *args):
    """``uptown ARGS`` run on ``name``'s computer."""
    return uptown.invoke(*args, env=as_player(tmp_path, name))


def position(tmp_path, path, name=None, *more):
    args = ["show", path, "--json", *more] + (["--as", name] if name else [])
    result, data = uptown.json(*args, env=as_player(tmp_path, name or "nobody"))
    assert result.exit_code == 0, result.output
    return data


def play_bot(tmp_path, path, bot="random"):
    """The player to move lets a bot play from their own view."""
    name = position(tmp_path, path)["to_move"]
    result = uptown_as(tmp_path, name, "move", path, "--bot", bot, "--as", name)
    assert result.exit_code == 0, result.output
    return result


def first_legal(tmp_path, path):
    name = position(tmp_path, path)["to_move"]
    result, data = uptown.json("moves", path, "--json", "--as", name, env=as_player(tmp_path, name))
    assert result.exit_code == 0, result.output
    return name, data["moves"]


def prepared_copy(played, moves_left):
    """The text of the played game (``played_hidden_game``) without its last ``moves_left``
    moves."""
    text = (played / "g.yaml").read_text()
    if not moves_left:
        return text
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("  - ") and ":" in line
              and i > lines.index("moves:\n")]
    return "".join(lines[:starts[-moves_left]])


def copy_keys(played, name, folder):
    """``name``'s key file of the played game, copied into the key folder ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    for key in (played / f"keys-{name}").glob("*.key"):
        shutil.copy2(key, folder / key.name)


def play_to_end(path, env, bot="random", turns=200):
    """The players of the hidden game at ``path`` move in turn with ``bot``, each on their own
    computer (``env[name]``), until the game ends (within ``turns``)."""
    for _ in range(turns):
        _, data = uptown.json("show", path, "--json")
        if data["finished"]:
            return
        name = data["to_move"]
        result = uptown.invoke("move", path, "--bot", bot, "--as", name, env=env[name])
        assert result.exit_code == 0, result.output
    pytest.fail("the game did not end")


def refused(result, *words):
    """``result`` is a refusal in one line on standard error, with ``words`` in it: that line."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    line = result.stderr.strip()
    assert "\n" not in line, line
    for word in words:
        assert word in line, line
    return line
