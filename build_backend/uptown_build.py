"""uptown's build: setuptools' own (``setuptools.build_meta``), with the gettext catalogs
compiled first (``mo_files``), so that a wheel (``pip install .``) and an editable install
(``pip install -e .``) both carry every language of po/ (docs/TRANSLATING.md)."""

from __future__ import annotations

from typing import Any

from mo_files import compile_catalogs
from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F401,F403 (the hooks not changed here)


def build_wheel(wheel_directory: str, config_settings: Any = None,
                metadata_directory: Any = None) -> str:
    compile_catalogs()
    return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: Any = None,
                   metadata_directory: Any = None) -> str:
    compile_catalogs()
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
