"""The small defects of issue 17: a reader's shared lock, the size of a long pipe, diff of an
invalid record with itself, a player name that is not UTF-8."""

import fcntl
import os
import subprocess

from support.games import BROKEN, new_game

from uptown_cli.records import file_lock


def test_a_readers_shared_lock_is_not_blamed_on_another_uptown(uptown, tmp_path, monkeypatch):
    game = new_game(tmp_path / "g.yaml")
    before = game.read_bytes()
    monkeypatch.setattr(file_lock, "LOCK_TIMEOUT", 0.5)
    monkeypatch.setattr(file_lock, "WAIT_NOTICE", 0.1)
    reader = os.open(game, os.O_RDONLY)
    fcntl.flock(reader, fcntl.LOCK_SH)  # as `flock -s g.yaml sleep 60` does
    try:
        result = uptown.invoke("move", game, "9", "B9")
    finally:
        os.close(reader)
    assert result.exit_code == 1 and "another uptown" not in result.stderr
    assert "a program reading it" in result.stderr and "nothing was written" in result.stderr
    assert game.read_bytes() == before


def test_input_over_1_mib_on_a_pipe_does_not_claim_an_exact_size(uptown):
    data = b"a" * (3 * 1024 * 1024)
    result = subprocess.run([str(uptown.path), "validate", "-"], input=data, capture_output=True,
                            timeout=60)
    assert result.returncode == 1
    assert b"larger than 1 MiB (more than 1048576 bytes)" in result.stdout
    assert b"1048577" not in result.stdout


def test_diff_of_an_invalid_record_with_itself_is_not_identical_and_exits_1(uptown, tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    result = uptown.invoke("diff", path, path)
    assert result.exit_code == 1
    assert "hold the same" in result.stdout and "is illegal" in result.stdout


def test_a_player_name_that_is_not_utf8_is_named_so(uptown, tmp_path):
    result = subprocess.run([os.fsencode(uptown.path), b"new", os.fsencode(tmp_path / "g.yaml"),
                             b"--player", b"A\xff", b"--player", b"Bo"],
                            capture_output=True, timeout=60)
    assert result.returncode == 2
    assert b"the name 'A\\xff' is not UTF-8 text" in result.stderr
    assert b"invalid YAML" not in result.stderr and not (tmp_path / "g.yaml").exists()
