"""Fixtures shared by the test files (helper functions are in ``test_cli_support``)."""

import pytest
from test_cli_support import finished_game, new_game, play_first_moves


@pytest.fixture
def new_record(tmp_path):
    """A new seeded game: Ana (red) has H 1 3 8 9, Bo (blue) C F 8 skyline car,
    Cy (green) H 7 man sign cards."""
    return new_game(tmp_path / "game.yaml")


@pytest.fixture
def record_after(tmp_path):
    """``record_after(n)``: a new seeded three-player game after its first ``n`` legal moves."""

    def make(count):
        path = new_game(tmp_path / "game.yaml")
        play_first_moves(path, count)
        return path

    return make


@pytest.fixture
def finished_record(tmp_path):
    """(path, engine game) of a finished seeded three-player game with captures."""
    path = tmp_path / "finished.yaml"
    return path, finished_game(path)


@pytest.fixture(autouse=True)
def private_key_folder(tmp_path_factory, monkeypatch):
    """Each test keeps key files and players' memories (hidden racks, --as) in a folder of its
    own, never in the user's config folder."""
    monkeypatch.setenv("UPTOWN_KEYS", str(tmp_path_factory.mktemp("keys")))
