"""SHA-256 without loading OpenSSL, for the modules on a command's start-up path.

Importing ``hashlib`` loads OpenSSL's library, which takes more of the processor than all
the work of ``uptown show``. Python carries its own SHA-256 module as well (``_sha2`` from
3.12, ``_sha256`` before), which loads in a fraction of that; the digests are the same
either way, as SHA-256 is fixed by its standard. ``hashlib``'s is the fallback for a
Python built without its own.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import _Hash

__all__ = ["sha256"]


def _builtin_sha256() -> Callable[..., _Hash]:
    try:  # only the module this Python has: looking for a missing one searches every folder
        maker: Callable[..., _Hash] = importlib.import_module(
            "_sha2" if sys.version_info >= (3, 12) else "_sha256").sha256
        return maker
    except ImportError:
        pass
    from hashlib import sha256

    return sha256


sha256 = _builtin_sha256()
"""``sha256(data=b"")``: a SHA-256 hash object, as ``hashlib.sha256`` makes."""
