"""The catalogs' tools (scripts/catalogs.py, build_backend/mo_files.py) importable by the tests."""

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
