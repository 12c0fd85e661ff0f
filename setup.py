"""The build's one choice that pyproject.toml cannot say: with ``UPTOWN_COMPILE=1``, a wheel
(``pip install .``) carries the engine's busiest modules compiled by mypyc, about 1.3 times as
fast (docs/PERFORMANCE.md, "A faster engine"); without it, or in an editable install,
everything is Python."""

import os
import sys

from setuptools import setup

COMPILED = [
    "uptown_cli/engine/geometry.py",
    "uptown_cli/engine/groups.py",
    "uptown_cli/engine/notation.py",
    "uptown_cli/engine/game.py",
    "uptown_cli/engine/playout.py",
]
"""The modules compiled: those every legal move, every move played and every bot's playout
runs through."""


def compiled_modules():
    """The extension modules of the compiled engine, when asked for (``UPTOWN_COMPILE=1``)."""
    if os.environ.get("UPTOWN_COMPILE") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # a build without isolation, in an environment without mypy
        sys.exit("UPTOWN_COMPILE=1 compiles with mypyc: install mypy first, or let pip build in "
                 "an environment of its own (without --no-build-isolation)")

    # The build's environment has mypy alone: the other libraries the package imports, which
    # the compiled modules do not use, are not there to be checked (python -m mypy checks them).
    return mypycify(["--ignore-missing-imports", "--no-warn-return-any", *COMPILED], opt_level="3")


setup(ext_modules=compiled_modules())
