"""The build's hooks (build_backend/uptown_build.py): only ``build_wheel`` runs setuptools with
``UPTOWN_COMPILE`` set, so that the metadata, a source distribution and an editable install stay
Python and never need mypy; ``get_requires_for_build_wheel`` asks for mypy when it is set. Each
hook is run with setuptools' own replaced by one that records whether it saw the variable."""

import importlib
import os
import sys
from pathlib import Path

import pytest
from setuptools import build_meta

ROOT = Path(__file__).resolve().parent.parent

HOOKS = {
    "get_requires_for_build_wheel": ([None], ["setuptools"]),
    "prepare_metadata_for_build_wheel": (["dir", None], "dist-info"),
    "build_wheel": (["dir", None, None], "wheel"),
    "get_requires_for_build_sdist": ([None], []),
    "build_sdist": (["dir", None], "sdist"),
    "get_requires_for_build_editable": ([None], []),
    "prepare_metadata_for_build_editable": (["dir", None], "dist-info"),
    "build_editable": (["dir", None, None], "wheel"),
}
"""Each hook, the arguments pip passes it, and what the stand-in for setuptools' gives back."""


@pytest.fixture
def backend(monkeypatch):
    """The build's module, loaded afresh over stand-ins for setuptools' hooks, and what each
    stand-in saw of ``UPTOWN_COMPILE``."""
    seen = {}
    for name, (_, result) in HOOKS.items():
        def hook(*args, name=name, result=result):
            seen[name] = os.environ.get("UPTOWN_COMPILE")
            return result
        monkeypatch.setattr(build_meta, name, hook)
    monkeypatch.syspath_prepend(str(ROOT / "build_backend"))
    monkeypatch.delitem(sys.modules, "uptown_build", raising=False)
    module = importlib.import_module("uptown_build")
    monkeypatch.setattr(module, "compile_catalogs", lambda: None)
    yield module, seen
    sys.modules.pop("uptown_build", None)


def test_only_the_wheels_build_compiles_and_the_variable_comes_back_after_every_hook(backend, monkeypatch):
    module, seen = backend
    monkeypatch.setenv("UPTOWN_COMPILE", "1")
    for name, (args, _) in HOOKS.items():
        getattr(module, name)(*args)
        assert os.environ.get("UPTOWN_COMPILE") == "1", name
    assert seen == {name: ("1" if name == "build_wheel" else None) for name in HOOKS}


def test_the_wheels_requirements_add_mypy_only_when_asked_to_compile(backend, monkeypatch):
    module, _ = backend
    monkeypatch.setenv("UPTOWN_COMPILE", "1")
    assert module.get_requires_for_build_wheel(None) == ["setuptools", "mypy>=1.8"]
    for value in ("0", "yes"):
        monkeypatch.setenv("UPTOWN_COMPILE", value)
        assert module.get_requires_for_build_wheel(None) == ["setuptools"]
    monkeypatch.delenv("UPTOWN_COMPILE")
    assert module.get_requires_for_build_wheel(None) == ["setuptools"]


def test_an_editable_install_asked_to_compile_says_it_stays_python(backend, monkeypatch, capsys):
    module, _ = backend
    monkeypatch.setenv("UPTOWN_COMPILE", "1")
    module.build_editable("dir", None, None)
    assert "an editable install stays Python" in capsys.readouterr().err
