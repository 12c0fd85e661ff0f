"""Key files on disk: the file and then its folder synced, so that a key just made survives a
crash; a folder that cannot be synced is said as it is."""

import errno
import os
import stat

import pytest

from uptown_cli.errors import KeyFileError
from uptown_cli.fairplay import keys
from uptown_cli.fairplay.keys import create_key, has_key, load_key, mark_spent

GAME = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def folder(tmp_path):
    return str(tmp_path / "keys")


def test_a_key_file_and_then_its_folder_are_synced_to_disk(folder, monkeypatch):
    synced = []
    real = os.fsync

    def fsync(fd):
        status = os.fstat(fd)
        synced.append((stat.S_ISDIR(status.st_mode), status.st_ino))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    create_key(folder, GAME, "Ana")
    assert synced == [(False, os.stat(keys.key_path(folder, GAME, "Ana")).st_ino),
                      (True, os.stat(folder).st_ino)]
    synced.clear()
    mark_spent(folder, GAME, "Ana")
    assert synced[-1] == (True, os.stat(folder).st_ino)


def _unsyncable(folder):
    raise OSError(errno.EIO, os.strerror(errno.EIO))


def test_a_new_key_whose_folder_cannot_be_synced_is_taken_back_and_can_be_made_again(
        folder, monkeypatch):
    monkeypatch.setattr(keys, "_sync_folder", _unsyncable)
    with pytest.raises(KeyFileError, match=f"cannot write .*Ana.key: {os.strerror(errno.EIO)}"):
        create_key(folder, GAME, "Ana")
    assert not has_key(folder, GAME, "Ana") and os.listdir(folder) == []
    monkeypatch.undo()
    key, _ = create_key(folder, GAME, "Ana")
    assert load_key(folder, GAME, "Ana") == key


def test_a_replaced_key_file_whose_folder_cannot_be_synced_is_said_to_be_written(
        folder, monkeypatch):
    key, path = create_key(folder, GAME, "Ana")
    monkeypatch.setattr(keys, "_sync_folder", _unsyncable)
    with pytest.raises(KeyFileError, match="Ana.key was written, but its folder could not be "
                                           "synced to disk"):
        mark_spent(folder, GAME, "Ana")
    assert load_key(folder, GAME, "Ana", spent_ok=True) == key
    assert os.listdir(folder) == [os.path.basename(path)]
