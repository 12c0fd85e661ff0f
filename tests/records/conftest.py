"""Fixtures of the record-writing tests."""

import os
import stat

import pytest

from uptown_cli.records import safe_file


@pytest.fixture
def modes_written(monkeypatch):
    """The permission bits each file written by ``safe_file`` had when its data went in, in
    the order written."""
    modes = []
    real_write = safe_file._write_all

    def spy(fd, data):
        modes.append(stat.S_IMODE(os.fstat(fd).st_mode))
        real_write(fd, data)

    monkeypatch.setattr(safe_file, "_write_all", spy)
    return modes
