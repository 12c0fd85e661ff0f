"""The catalogs' tools (scripts/catalogs.py, build_backend/mo_files.py) importable by the tests,
and records compared but for their game id."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def catalog_tools(monkeypatch):
    """(scripts/catalogs.py, build_backend/mo_files.py) as modules."""
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    monkeypatch.syspath_prepend(str(ROOT / "build_backend"))
    import catalogs
    import mo_files

    return catalogs, mo_files


@pytest.fixture
def without_game_id():
    """``without_game_id(data)``: a record's bytes without its ``game:`` line (quoted when YAML
    could read the id as a number): two games ``new`` made alike differ only there."""
    return lambda data: re.sub(rb'(?m)^game: ("?)[0-9a-f]{32}\1\n', b"", data)
