"""Key files of hidden-draw games: one secret per player and game, kept outside the record.

The folder is ``--keys DIR``, else ``$UPTOWN_KEYS``, else ``$XDG_CONFIG_HOME/uptown/keys``,
else ``~/.config/uptown/keys``; folders made here (parents too) are mode 0700 whatever the
umask, and an existing folder that others may write to, or that is someone else's, is refused.
A key file is created mode 0600 from the start (``os.open`` with the mode, then linked into
place, so it is never seen half-written or readable by others) and holds JSON: ``{"game",
"player", "key", "signing"}`` (hex: the chain's secret key and, from protocol 5, the private
signing key, never revealed), with ``"spent": true`` once the key is revealed. A key file that others may read,
or that is someone else's, is refused, as ssh refuses such a private key. A key serves one game:
it is made by ``join`` and never made again for the same game id.

Beside each key, ``GAME-NAME.seen`` remembers what the player last saw of the game
(``fairplay.memory``), written and read as a key file is (``write_private``, ``read_private``).
"""

import contextlib
import json
import os
import re
import stat
from typing import Any

from ..errors import KeyFileError
from ..engine.sha256 import sha256
from .draws import KEY_BYTES, new_key
from .signatures import new_signing_key
from ..i18n import _, system_reason

__all__ = [
    "keys_folder", "create_key", "remove_key", "has_key", "mark_spent", "load_key",
    "load_signing_key", "check_folder",
    "make_folder", "read_private", "write_private"
]

KEYS_ENV = "UPTOWN_KEYS"
_SIMPLE_NAME = r"[A-Za-z0-9_-]{1,40}"  # compiled on first use (re keeps it)


def keys_folder(option: str | None = None) -> str:
    """The folder that holds the key files."""
    if option:
        return option
    if os.environ.get(KEYS_ENV):
        return os.environ[KEYS_ENV]
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "uptown", "keys")


def key_path(folder: str, game_id: str, name: str) -> str:
    """Where ``name``'s key for game ``game_id`` (hex) lives."""
    simple = name if re.fullmatch(_SIMPLE_NAME, name) else "p" + sha256(
        name.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"{game_id}-{simple}.key")


def create_key(folder: str, game_id: str, name: str) -> tuple[bytes, str]:
    """``(key, path)``: a new key of ``name`` for game ``game_id``, in a new file, with a new
    signing key beside it (``load_signing_key``). A key file already there is refused: a key
    serves one game (``join`` says why)."""
    path = key_path(folder, game_id, name)
    make_folder(folder)
    key = new_key()
    try:
        write_private(folder, path, {"game": game_id, "player": name, "key": key.hex(),
                                     "signing": new_signing_key().hex()}, replace=False)
    except FileExistsError:
        raise KeyFileError(_("{path} already exists").format(path=path)) from None
    return key, path


def remove_key(folder: str, game_id: str, name: str) -> None:
    """Remove a key file just made whose commitment could not be written."""
    with contextlib.suppress(OSError):
        os.unlink(key_path(folder, game_id, name))


def has_key(folder: str, game_id: str, name: str) -> bool:
    """Whether a key file of ``name`` for ``game_id`` exists (spent or not)."""
    return os.path.lexists(key_path(folder, game_id, name))


def mark_spent(folder: str, game_id: str, name: str) -> None:
    """Mark ``name``'s key of game ``game_id`` as revealed: it is never used again."""
    data = _key_data(folder, game_id, name)
    write_private(folder, key_path(folder, game_id, name), {**data, "spent": True}, replace=True)


def write_private(folder: str, path: str, data: dict[str, Any], replace: bool,
                   sync: bool = True) -> None:
    """Write ``data`` as JSON to ``path``, mode 0600 from the start, never half-written (and,
    with ``sync``, on disk before it is renamed into place, and the folder after, so that the
    new name survives a crash too: a new file whose folder cannot be synced is taken back)."""
    text = json.dumps(data, ensure_ascii=False) + "\n"
    tmp = os.path.join(folder, f".{os.urandom(6).hex()}.tmp")
    renamed = False
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(text.encode("utf-8"))
            while view:
                view = view[os.write(fd, view):]
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
        renamed = True
        if sync:
            _sync_folder(folder)
    except FileExistsError:
        raise
    except OSError as exc:
        reason = system_reason(exc)
        if renamed and replace:
            raise KeyFileError(_("{path} was written, but its folder could not be synced to disk "
                                 "({reason})").format(path=path, reason=reason)) from None
        if renamed:  # a new file not known to be on disk: taken back, to be made again
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise KeyFileError(_("cannot write {path}: {reason} (its folder could not be synced to "
                                 "disk, so the new key was not kept)")
                               .format(path=path, reason=reason)) from None
        raise KeyFileError(_("cannot write {path}: {reason}").format(path=path, reason=reason)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _sync_folder(folder: str) -> None:
    """Put the folder's entries (a name just renamed or linked) on disk."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def load_key(folder: str, game_id: str, name: str, spent_ok: bool = False) -> bytes:
    """The key of ``name`` for game ``game_id``, read from its file (a spent key is refused
    unless ``spent_ok``)."""
    data = _key_data(folder, game_id, name)
    if data.get("spent") and not spent_ok:
        raise KeyFileError(_("{path} was revealed at the end of its game and is never used again; "
                             "this game id was used before").format(
            path=key_path(folder, game_id, name)))
    return bytes.fromhex(data["key"])


def load_signing_key(folder: str, game_id: str, name: str) -> bytes:
    """The private signing key (an Ed25519 seed) of ``name`` for game ``game_id``, beside their
    key in its file (a key file made by an uptown older than protocol 5 has none)."""
    data = _key_data(folder, game_id, name)
    signing = data.get("signing")
    if not (isinstance(signing, str) and re.fullmatch("[0-9a-f]{64}", signing)):
        raise KeyFileError(_("{path} holds no signing key: it was made for a game of an older "
                             "protocol").format(path=key_path(folder, game_id, name)))
    return bytes.fromhex(signing)


def _key_data(folder: str, game_id: str, name: str) -> dict[str, Any]:
    """The JSON of ``name``'s key file for game ``game_id``, checked to be an uptown key file of
    that game and player (spent or not)."""
    check_folder(folder)
    path = key_path(folder, game_id, name)
    data = read_private(path, _("no key for {name} in this game: {path} does not exist (uptown "
                                "join creates it; --keys or ${env} name another folder)").format(
        name=name, path=path, env=KEYS_ENV))
    try:
        key = bytes.fromhex(data["key"])
        matches = data["game"] == game_id and data["player"] == name and len(key) == KEY_BYTES
    except (ValueError, KeyError, TypeError, AttributeError):
        raise KeyFileError(_("{path} is not an uptown key file").format(path=path)) from None
    if not matches:
        raise KeyFileError(_("{path} is the key of another game or player").format(path=path))
    return data


def read_private(path: str, missing: str) -> dict[str, Any]:
    """The JSON held by a private file of the user's: refused when others may read it or it
    belongs to someone else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise KeyFileError(missing) from None
    except OSError as exc:
        raise KeyFileError(_("cannot read {path}: {value}")
                           .format(path=path, value=system_reason(exc))) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise KeyFileError(_("{path} is not a key file (not a regular file)").format(path=path))
    with os.fdopen(fd, "rb") as stream:
        if info.st_uid != os.geteuid():
            raise KeyFileError(_("{path} belongs to another user (uid {st_uid}); use a key file of your "
                                 "own").format(path=path, st_uid=info.st_uid))
        if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise KeyFileError(_("{path} may be read by others (mode {st_mode:o}); make it private "
                                 "with: chmod 600 {path}")
                               .format(path=path, st_mode=stat.S_IMODE(info.st_mode)))
        try:
            raw = stream.read(1 << 20)
        except OSError as exc:
            raise KeyFileError(_("cannot read {path}: {value}")
                               .format(path=path, value=system_reason(exc))) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        raise KeyFileError(_("{path} is not an uptown key file").format(path=path)) from None
    if not isinstance(data, dict):
        raise KeyFileError(_("{path} is not an uptown key file").format(path=path))
    return data


def check_folder(folder: str) -> None:
    """Refuse a key folder that others may write to or that belongs to someone else."""
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise KeyFileError(_("cannot use the key folder {folder}: {value}")
                           .format(folder=folder, value=system_reason(exc))) from None
    if not stat.S_ISDIR(info.st_mode):
        raise KeyFileError(_("the key folder {folder} is not a folder").format(folder=folder))
    if info.st_uid != os.geteuid():
        raise KeyFileError(_("the key folder {folder} belongs to another user (uid {st_uid}); use a "
                             "folder of your own (--keys DIR)")
                           .format(folder=folder, st_uid=info.st_uid))
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise KeyFileError(_("the key folder {folder} may be written by others (mode {st_mode:o}); "
                             "make it private with: chmod 700 {folder}")
                           .format(folder=folder, st_mode=stat.S_IMODE(info.st_mode)))


def make_folder(folder: str) -> None:
    """Create ``folder`` and the parents it needs, each mode 0700 whatever the umask; refuse
    an existing one that is not safe (``check_folder``)."""
    missing = []
    current = os.path.abspath(folder)
    while not os.path.lexists(current):
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o700)
            os.chmod(path, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise KeyFileError(
                _("cannot create the key folder {folder}: {value}")
                .format(folder=folder, value=system_reason(exc))) from None
    check_folder(folder)
