"""What is not a regular file: only a regular file or a pipe is read as a record, and nothing
makes a reader wait for ever (a terminal, /dev/zero, a socket, a silent pipe)."""

import contextlib
import os
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from uptown_cli.records import reading
from uptown_cli.turns.validation import validate_file
from uptown_cli.errors import RecordError
from uptown_cli.records.reading import read_file

ROOT = Path(__file__).resolve().parents[2]
RECORD = (ROOT / "records" / "in-progress.yaml").read_bytes()
PATIENCE = 10
"""Seconds after which a reader that has not answered counts as hung."""


def answer(function, *args):
    """``function(*args)``, run in a thread that is given up after ``PATIENCE`` seconds, so that
    a reader stuck on a device fails the test instead of hanging it.  Returns what it returned
    or raised."""
    outcome = []

    def call():
        try:
            outcome.append(function(*args))
        except Exception as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(PATIENCE)
    assert not thread.is_alive(), f"{function.__name__} still waits after {PATIENCE} s"
    return outcome[0]


@pytest.fixture
def terminal():
    """The path of a terminal nobody types on (the far end of a pseudo-terminal)."""
    master, slave = os.openpty()
    try:
        yield os.ttyname(slave)
    finally:
        os.close(slave)
        os.close(master)  # lets go of a reader still stuck on the terminal


def linked(tmp_path, target, name="x.yaml"):
    link = tmp_path / name
    link.symlink_to(target)
    return link


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_link_to_a_device_is_refused_before_reading(tmp_path, device):
    error = answer(read_file, linked(tmp_path, device), "x.yaml")
    assert isinstance(error, RecordError)
    assert str(error) == "x.yaml: cannot read the file: it is a device (a terminal, /dev/zero...), not a regular file"


def test_a_link_to_a_terminal_is_refused_without_waiting(tmp_path, terminal):
    error = answer(read_file, linked(tmp_path, terminal), "x.yaml")
    assert isinstance(error, RecordError) and "it is a device" in error.message


def test_validating_a_folder_with_a_link_to_a_terminal_returns(uptown, tmp_path, terminal):
    (tmp_path / "game.yaml").write_bytes(RECORD)
    linked(tmp_path, terminal)
    result = subprocess.run([str(uptown.path), "validate", str(tmp_path)], capture_output=True, text=True,
                            timeout=PATIENCE * 3, stdin=subprocess.DEVNULL)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stdout.splitlines() == [
        f"{tmp_path / 'x.yaml'}: cannot read the file: it is a device (a terminal, /dev/zero...), not a regular file",
        "2 records, 1 valid, 1 invalid",
    ]


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s.yaml"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        server.listen()
        error = answer(read_file, path, "s.yaml")
    assert str(error) == "s.yaml: cannot read the file: it is a socket, not a regular file"


def test_a_folder_is_refused(tmp_path):
    result = validate_file(tmp_path, shown="folder")
    assert [str(e) for e in result.errors] == ["folder: cannot read the file: Is a directory"]


@contextlib.contextmanager
def fifo_with_a_writer(path):
    """A FIFO at ``path`` and the descriptor of its write end, opened without any race (a
    reader is kept open meanwhile, so nothing written is lost when the writer closes)."""
    os.mkfifo(path)
    keeper = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    writer = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    try:
        yield writer
    finally:
        with contextlib.suppress(OSError):
            os.close(writer)
        os.close(keeper)


def test_a_fifo_whose_writer_sends_nothing_is_given_up(tmp_path, monkeypatch):
    monkeypatch.setattr(reading, "PIPE_WAIT", 0.2)
    with fifo_with_a_writer(tmp_path / "f.yaml") as writer:
        os.write(writer, b"uptown: 1\n")
        error = answer(read_file, tmp_path / "f.yaml", "f.yaml")
    assert str(error) == "f.yaml: cannot read the file: the pipe stayed silent for 0.2 s without ending"


def test_a_fifo_with_a_writer_is_read(tmp_path):
    with fifo_with_a_writer(tmp_path / "f.yaml") as writer:
        os.write(writer, RECORD)
        os.close(writer)
        assert answer(read_file, tmp_path / "f.yaml") == RECORD.decode()
