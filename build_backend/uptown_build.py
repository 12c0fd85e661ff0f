"""uptown's build: setuptools' own (``setuptools.build_meta``), with the gettext catalogs
compiled first (``mo_files``), so that a wheel (``pip install .``) and an editable install
(``pip install -e .``) both carry every language of po/ (docs/TRANSLATING.md).

With ``UPTOWN_COMPILE=1`` a wheel's engine is compiled by mypyc (``setup.py``): only
``build_wheel`` compiles, after ``get_requires_for_build_wheel`` has asked for mypy; every other
hook runs setup.py with the variable set aside (metadata and source distributions do not depend
on it, and mypy is not there yet), and an editable install stays Python, as its sources are
what it runs."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

from mo_files import compile_catalogs
from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F401,F403 (the hooks not changed here)

COMPILE = "UPTOWN_COMPILE"
"""The variable that asks for the compiled engine: ``1``."""


def _compiling() -> bool:
    """Whether the build is asked to compile the engine; a word on stderr for a value that
    asks for nothing (only ``1`` does)."""
    value = os.environ.get(COMPILE)
    if value not in (None, "", "0", "1"):
        print(f"{COMPILE}={value!r} is not 1: the engine stays Python", file=sys.stderr)
    return value == "1"


@contextmanager
def _set_aside() -> Iterator[None]:
    """Run a hook with ``UPTOWN_COMPILE`` unset, and set it back after."""
    value = os.environ.pop(COMPILE, None)
    try:
        yield
    finally:
        if value is not None:
            os.environ[COMPILE] = value


def _without_compiling(hook: Callable[..., Any]) -> Callable[..., Any]:
    """setuptools' ``hook``, run with ``UPTOWN_COMPILE`` set aside."""
    @wraps(hook)
    def run(*args: Any, **kwargs: Any) -> Any:
        with _set_aside():
            return hook(*args, **kwargs)
    return run


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    compiling = _compiling()
    with _set_aside():
        requires: list[str] = build_meta.get_requires_for_build_wheel(config_settings)
    return requires + (["mypy>=1.8"] if compiling else [])


def build_wheel(wheel_directory: str, config_settings: Any = None,
                metadata_directory: Any = None) -> str:
    compile_catalogs()
    return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: Any = None,
                   metadata_directory: Any = None) -> str:
    if os.environ.get(COMPILE) == "1":
        print(f"{COMPILE} is for a wheel (pip install .): an editable install stays Python",
              file=sys.stderr)
    with _set_aside():
        compile_catalogs()
        return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)


prepare_metadata_for_build_wheel = _without_compiling(build_meta.prepare_metadata_for_build_wheel)
get_requires_for_build_sdist = _without_compiling(build_meta.get_requires_for_build_sdist)
build_sdist = _without_compiling(build_meta.build_sdist)
get_requires_for_build_editable = _without_compiling(build_meta.get_requires_for_build_editable)
prepare_metadata_for_build_editable = _without_compiling(
    build_meta.prepare_metadata_for_build_editable)
