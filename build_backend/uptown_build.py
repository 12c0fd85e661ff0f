"""uptown's build: setuptools' own (``setuptools.build_meta``), with the gettext catalogs
compiled first (``mo_files``), so that a wheel (``pip install .``) and an editable install
(``pip install -e .``) both carry every language of po/ (docs/TRANSLATING.md). With
``UPTOWN_COMPILE=1`` a wheel's engine is compiled by mypyc (``setup.py``), which the build then
installs; an editable install stays Python, as its sources are what it runs."""

from __future__ import annotations

import os
import sys
from typing import Any

from mo_files import compile_catalogs
from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F401,F403 (the hooks not changed here)


def build_wheel(wheel_directory: str, config_settings: Any = None,
                metadata_directory: Any = None) -> str:
    compile_catalogs()
    return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    # setuptools reads setup.py here, before mypy (mypyc) is there to compile with.
    compiling = os.environ.pop("UPTOWN_COMPILE", None)
    try:
        requires = build_meta.get_requires_for_build_wheel(config_settings)
    finally:
        if compiling is not None:
            os.environ["UPTOWN_COMPILE"] = compiling
    return requires + (["mypy>=1.8"] if compiling == "1" else [])


def _python_only() -> None:
    """An editable install runs its sources: ``UPTOWN_COMPILE`` is set aside (each hook of the
    build may run in a process of its own, so each calls this)."""
    if os.environ.pop("UPTOWN_COMPILE", None) == "1":
        print("UPTOWN_COMPILE is for a wheel (pip install .): an editable install stays Python",
              file=sys.stderr)


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    _python_only()
    return build_meta.get_requires_for_build_editable(config_settings)


def prepare_metadata_for_build_editable(metadata_directory: str,
                                        config_settings: Any = None) -> str:
    _python_only()
    return build_meta.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_editable(wheel_directory: str, config_settings: Any = None,
                   metadata_directory: Any = None) -> str:
    _python_only()
    compile_catalogs()
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
