"""Key files of hidden-draw games: one secret per player and game, kept outside the record.

The folder is ``--keys DIR``, else ``$UPTOWN_KEYS``, else ``$XDG_CONFIG_HOME/uptown/keys``,
else ``~/.config/uptown/keys``; folders made here are mode 0700. A key file is created mode
0600 from the start (``os.open`` with the mode, then linked into place, so it is never seen
half-written or readable by others) and holds JSON: ``{"game", "player", "key"}`` (hex).
A key file that others may read is refused, as ssh refuses such a private key.
"""

import contextlib
import hashlib
import json
import os
import re
import secrets
import stat

from .errors import KeyFileError
from .hidden_draws import KEY_BYTES, new_key

KEYS_ENV = "UPTOWN_KEYS"
_SIMPLE_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def keys_folder(option=None):
    """The folder that holds the key files."""
    if option:
        return option
    if os.environ.get(KEYS_ENV):
        return os.environ[KEYS_ENV]
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "uptown", "keys")


def key_path(folder, game_id, name):
    """Where ``name``'s key for game ``game_id`` (hex) lives."""
    simple = name if _SIMPLE_NAME.fullmatch(name) else "p" + hashlib.sha256(
        name.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"{game_id}-{simple}.key")


def load_or_create_key(folder, game_id, name):
    """``(key, path, created)``: the player's key for the game, made now when there is none."""
    path = key_path(folder, game_id, name)
    if os.path.lexists(path):
        return load_key(folder, game_id, name), path, False
    _make_folder(folder)
    key = new_key()
    data = json.dumps({"game": game_id, "player": name, "key": key.hex()}, ensure_ascii=False)
    tmp = os.path.join(folder, f".{secrets.token_hex(6)}.key.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            view = memoryview((data + "\n").encode("utf-8"))
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.link(tmp, path)
    except FileExistsError:
        return load_key(folder, game_id, name), path, False
    except OSError as exc:
        raise KeyFileError(f"cannot write the key file {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return key, path, True


def load_key(folder, game_id, name):
    """The key of ``name`` for game ``game_id``, read from its file."""
    path = key_path(folder, game_id, name)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise KeyFileError(f"no key for {name} in this game: {path} does not exist "
                        f"(uptown join creates it; --keys or ${KEYS_ENV} name another folder)"
                        ) from None
    except OSError as exc:
        raise KeyFileError(f"cannot read the key file {path}: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise KeyFileError(f"{path} is not a key file (not a regular file)")
    with os.fdopen(fd, "rb") as stream:
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise KeyFileError(f"{path} may be read by others (mode {stat.S_IMODE(mode):o}); "
                            f"make it private with: chmod 600 {path}")
        try:
            raw = stream.read(4096)
        except OSError as exc:
            raise KeyFileError(f"cannot read the key file {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
        key = bytes.fromhex(data["key"])
        matches = data["game"] == game_id and data["player"] == name and len(key) == KEY_BYTES
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise KeyFileError(f"{path} is not an uptown key file") from None
    if not matches:
        raise KeyFileError(f"{path} is the key of another game or player")
    return key


def _make_folder(folder):
    """Create ``folder`` (and its parents) private to the user when it does not exist."""
    if os.path.isdir(folder):
        return
    try:
        os.makedirs(folder, mode=0o700)
        os.chmod(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise KeyFileError(
            f"cannot create the key folder {folder}: {exc.strerror or exc}") from None
