"""Writing the game file safely: new records never overwrite; a move is appended under a lock,
whole or not at all, whatever step fails; and in a shared folder nothing is left beside it,
symbolic links, modes, owners, read-only files and folders (also for root), stale temporary
files and lock errors."""

import errno
import fcntl
import os
import stat

import pytest

from uptown_cli.errors import RecordError
from uptown_cli.records import file_lock
from uptown_cli.records import safe_file
from uptown_cli.records.editing import record_with_move
from uptown_cli.records.safe_file import create_record

AT_LINE = '    at: "2026-12-01T12:00:00Z"\n'
"""What ``uptown move`` writes under a move at the tests' now (``support.games.NOW``)."""

START = "uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\n  - name: Cy\nmoves:\n"
AFTER = START + "  - red: 7 B7\n"
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="needs root")


def append_move(path, color, move_text, expected, on_wait=None):
    """Append a move to the game at ``path``, read as ``expected``, as the commands do: the
    record edited, then put in the file's place (``safe_file.replace_record``)."""
    new = record_with_move(expected, color, move_text, path)
    safe_file.replace_record(path, new, expected, on_wait)
    return new


@pytest.fixture
def game(game_file):
    return game_file(START)


@pytest.fixture
def umask():
    """Set the process umask for one test."""
    saved = []
    yield lambda mask: saved.append(os.umask(mask))
    if saved:
        os.umask(saved[0])


# -- nothing beside the game -----------------------------------------------------------------


def test_a_move_and_a_new_game_leave_nothing_beside_the_game(tmp_path, game):
    append_move(str(game), "red", "7 B7", START)
    create_record(str(tmp_path / "other.yaml"), START)
    assert sorted(os.listdir(tmp_path)) == ["game.yaml", "other.yaml"]


def test_selfplay_out_leaves_only_the_records(uptown, tmp_path):
    out = tmp_path / "games"
    result = uptown.invoke("selfplay", "--players", "3", "--bots", "random,random,random", "--games", "3",
                           "--seed", "x", "--out", out)
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(out)) == ["game-0001.yaml", "game-0002.yaml", "game-0003.yaml"]


# -- symbolic links --------------------------------------------------------------------------


def test_new_refuses_a_dangling_symlink_at_the_name(uptown, tmp_path):
    (tmp_path / "d.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    result = uptown.invoke("new", tmp_path / "d.yaml", "--player", "Ana", "--player", "Bo")
    assert result.exit_code == 1
    assert result.stderr == f"Error: {tmp_path / 'd.yaml'} already exists; not overwritten\n"
    assert (tmp_path / "d.yaml").is_symlink() and not (tmp_path / "elsewhere.yaml").exists()


def test_a_lock_symlink_beside_the_game_is_not_followed(tmp_path, game):
    (tmp_path / "game.yaml.lock").symlink_to(tmp_path / "victim")
    append_move(str(game), "red", "7 B7", START)
    assert game.read_text() == AFTER and not (tmp_path / "victim").exists()


def test_a_game_path_that_is_a_symlink_writes_the_real_file(uptown, tmp_path):
    """``game.yaml -> games/club.yaml``: the link is followed once, at the start; the move goes
    to the real file, written in its own folder, and the link stays a link."""
    real = tmp_path / "games" / "club.yaml"
    real.parent.mkdir()
    real.write_text(START)
    link = tmp_path / "game.yaml"
    link.symlink_to("games/club.yaml")
    result = uptown.invoke("move", link, "7", "B7")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and real.read_text() == AFTER + AT_LINE
    assert os.listdir(tmp_path / "games") == ["club.yaml"]
    assert sorted(os.listdir(tmp_path)) == ["game.yaml", "games"]


def test_a_folder_swapped_for_a_symlink_mid_move_cannot_redirect_the_write(tmp_path, monkeypatch):
    """Once the writer has the game locked, the folder is renamed away and a link to another
    folder, holding a file with the same text, takes its name: the other file stays as it
    was, the move goes to the game that was locked."""
    games, other = tmp_path / "games", tmp_path / "other"
    games.mkdir()
    other.mkdir()
    (games / "game.yaml").write_text(START)
    victim = other / "game.yaml"
    victim.write_text(START)
    real_read = safe_file._read_bytes

    def swap_then_read(*args):
        if not games.is_symlink():
            games.rename(tmp_path / "moved")
            games.symlink_to(other)
        return real_read(*args)

    monkeypatch.setattr(safe_file, "_read_bytes", swap_then_read)
    append_move(str(games / "game.yaml"), "red", "7 B7", START)
    assert victim.read_text() == START and os.listdir(other) == ["game.yaml"]
    assert (tmp_path / "moved" / "game.yaml").read_text() == AFTER


def test_a_game_that_is_not_a_regular_file_is_refused(tmp_path):
    os.mkfifo(tmp_path / "game.yaml")
    with pytest.raises(RecordError, match="game.yaml is not a regular file; nothing was written"):
        append_move(str(tmp_path / "game.yaml"), "red", "7 B7", START)


# -- mode and owner --------------------------------------------------------------------------


@pytest.mark.parametrize("mode, mask", [(0o600, 0o022), (0o600, 0o000), (0o664, 0o077), (0o640, 0o027)])
def test_the_temporary_file_has_the_games_mode_before_any_data(game, modes_written, umask, mode, mask):
    game.chmod(mode)
    umask(mask)
    append_move(str(game), "red", "7 B7", START)
    assert modes_written == [mode] and stat.S_IMODE(game.stat().st_mode) == mode


@AS_ROOT
def test_owner_and_group_are_kept(game):
    os.chown(game, 1234, 5678)
    game.chmod(0o660)
    append_move(str(game), "red", "7 B7", START)
    info = game.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (1234, 5678, 0o660)


@AS_ROOT
def test_a_player_who_may_not_give_the_file_away_keeps_its_group(game, monkeypatch):
    os.chown(game, 1234, 5678)
    real_fchown = os.fchown
    calls = []

    def as_a_player(fd, uid, gid):
        calls.append((uid, gid))
        if uid != -1:
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))
        real_fchown(fd, uid, gid)

    monkeypatch.setattr(os, "fchown", as_a_player)
    append_move(str(game), "red", "7 B7", START)
    assert calls == [(1234, 5678), (-1, 5678)]
    assert (game.stat().st_uid, game.stat().st_gid) == (os.geteuid(), 5678)


# -- read-only, also for root ----------------------------------------------------------------


def test_a_game_file_with_no_write_bit_is_refused(uptown, game):
    game.chmod(0o444)
    with pytest.raises(RecordError, match="game.yaml is read-only; nothing was written"):
        append_move(str(game), "red", "7 B7", START)
    result = uptown.invoke("move", game, "7", "B7")
    assert (result.exit_code, result.stderr) == (1, f"Error: {game} is read-only; nothing was written\n")
    assert game.read_text() == START and stat.S_IMODE(game.stat().st_mode) == 0o444


def test_a_folder_with_no_write_bit_is_refused(uptown, game):
    game.parent.chmod(0o555)
    try:
        result = uptown.invoke("move", game, "7", "B7")
        created = uptown.invoke("new", game.parent / "new.yaml", "--player", "Ana", "--player", "Bo")
    finally:
        game.parent.chmod(0o755)
    assert result.exit_code == 1
    assert result.stderr == f"Error: {game} is in a read-only folder; nothing was written\n"
    assert (created.exit_code, created.stderr) == (
        1, f"Error: could not create {game.parent / 'new.yaml'}: the folder is read-only\n")
    assert game.read_text() == START and os.listdir(game.parent) == ["game.yaml"]


# -- stale temporary files -------------------------------------------------------------------


def test_only_our_own_stale_temporary_files_are_removed(tmp_path):
    game = tmp_path / "g[1].yaml"
    game.write_text(START)
    ours = [".g[1].yaml.uptown-0123456789ab.tmp", ".g[1].yaml.uptown-ffffffffffff.tmp"]
    theirs = [".g[1].yaml.notes-for-bo.tmp", ".g[1].yaml.uptown-0123456789ab.tmp.bak",
              ".g1.yaml.uptown-0123456789ab.tmp", ".g[1].yaml.uptown-0123456789AB.tmp",
              ".other.yaml.uptown-0123456789ab.tmp", "g[1].yaml.uptown-0123456789ab.tmp"]
    for name in ours + theirs:
        (tmp_path / name).write_text("half a record")
    (tmp_path / "victim").write_text("precious")
    link = tmp_path / ".g[1].yaml.uptown-aaaaaaaaaaaa.tmp"
    link.symlink_to(tmp_path / "victim")
    folder = tmp_path / ".g[1].yaml.uptown-bbbbbbbbbbbb.tmp"
    folder.mkdir()
    append_move(str(game), "red", "7 B7", START)
    assert sorted(os.listdir(tmp_path)) == sorted(["g[1].yaml", "victim", link.name, folder.name, *theirs])
    assert (tmp_path / "victim").read_text() == "precious"


# -- lock errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("code", [errno.ENOLCK, errno.EBADF, errno.EINVAL])
def test_a_lock_that_fails_other_than_busy_is_one_line(uptown, game, monkeypatch, code):
    def refuse(*args):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(fcntl, "flock", refuse)
    with pytest.raises(RecordError, match=f"^cannot lock {game}: {os.strerror(code)}$"):
        append_move(str(game), "red", "7 B7", START)
    result = uptown.invoke("move", game, "7", "B7")
    assert (result.exit_code, result.stderr) == (1, f"Error: cannot lock {game}: {os.strerror(code)}\n")
    assert game.read_text() == START and os.listdir(game.parent) == ["game.yaml"]


# -- new records ---------------------------------------------------------------------------


def test_create_record(tmp_path):
    path = tmp_path / "game.yaml"
    create_record(str(path), "uptown: 1\n")
    assert path.read_text() == "uptown: 1\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()
    with pytest.raises(RecordError, match="already exists; not overwritten"):
        create_record(str(path), "something else\n")
    assert path.read_text() == "uptown: 1\n"
    assert os.listdir(tmp_path) == ["game.yaml"]


def test_a_new_record_whose_folder_cannot_be_synced_is_said_to_be_created(tmp_path,
                                                                         monkeypatch):
    path = tmp_path / "game.yaml"
    monkeypatch.setattr(safe_file, "_sync_dir", _fail)
    with pytest.raises(RecordError, match="game.yaml was created, but its folder could not be "
                                          r"synced to disk \(injected failure\)"):
        create_record(str(path), "uptown: 1\n")
    assert path.read_text() == "uptown: 1\n" and os.listdir(tmp_path) == ["game.yaml"]


def test_create_record_in_a_missing_folder(tmp_path):
    with pytest.raises(RecordError):
        create_record(str(tmp_path / "nope" / "game.yaml"), "uptown: 1\n")


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- appending a move -------------------------------------------------------------------

SEEDED = "uptown: 1\nplayers:\n  - name: Ana\n    colors: [red]\n  - name: Bo\n    colors: [blue]\n" \
         "  - name: Cy\n    colors: [green]\nseed: 7f3a9c01\nmoves:   # play on\n  - red: woman B8\n"


@pytest.fixture
def seeded_game(game_file):
    """A seeded game of Ana, Bo and Cy after one move, mode 0640."""
    return game_file(SEEDED, mode=0o640)


def test_append_move_writes_and_keeps_the_mode(seeded_game):
    new = append_move(str(seeded_game), "blue", "I I9", SEEDED)
    assert seeded_game.read_text() == new.text == SEEDED + "  - blue: I I9\n"
    assert stat.S_IMODE(seeded_game.stat().st_mode) == 0o640
    assert os.listdir(seeded_game.parent) == ["game.yaml"]


def test_append_move_through_a_symlink_keeps_the_link(seeded_game):
    link = seeded_game.parent / "link.yaml"
    link.symlink_to(seeded_game.name)
    append_move(str(link), "blue", "I I9", SEEDED)
    assert link.is_symlink() and seeded_game.read_text().endswith("  - blue: I I9\n")


def test_stale_file_refused(seeded_game):
    append_move(str(seeded_game), "blue", "I I9", SEEDED)
    now = seeded_game.read_bytes()
    with pytest.raises(RecordError, match=r"changed since it was read \(the game moved on\); nothing was written"):
        append_move(str(seeded_game), "blue", "I I9", SEEDED)
    assert seeded_game.read_bytes() == now


def test_bad_append_leaves_the_file_untouched(seeded_game):
    with pytest.raises(RecordError, match="yellow does not play"):
        append_move(str(seeded_game), "yellow", "I I9", SEEDED)
    assert seeded_game.read_text() == SEEDED


def test_missing_file(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        append_move(str(tmp_path / "game.yaml"), "blue", "I I9", SEEDED)


def test_lock_held_elsewhere_refuses_after_the_timeout(seeded_game, monkeypatch):
    monkeypatch.setattr(file_lock, "LOCK_TIMEOUT", 0.2)
    fd = os.open(seeded_game, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(RecordError, match="is locked by another process"):
            append_move(str(seeded_game), "blue", "I I9", SEEDED)
    finally:
        os.close(fd)
    assert seeded_game.read_text() == SEEDED
    append_move(str(seeded_game), "blue", "I I9", SEEDED)


def _fail(*args):
    raise OSError(5, "injected failure")


@pytest.mark.parametrize("step", ["_make_temp", "_set_owner", "_set_mode", "_write_all", "_fsync", "_rename",
                                  "_sync_dir", "_read_back"])
def test_failure_at_any_step_leaves_the_file_untouched(seeded_game, monkeypatch, step):
    before = seeded_game.read_bytes()
    monkeypatch.setattr(safe_file, step, _fail)
    with pytest.raises(RecordError, match="could not write .*injected failure"):
        append_move(str(seeded_game), "blue", "I I9", SEEDED)
    assert seeded_game.read_bytes() == before
    assert stat.S_IMODE(seeded_game.stat().st_mode) == 0o640
    assert os.listdir(seeded_game.parent) == ["game.yaml"]


def test_short_write_is_caught_by_reading_back(seeded_game, monkeypatch):
    writes = []

    def short_first(fd, data):
        writes.append(data)
        os.write(fd, data[:-3] if len(writes) == 1 else data)

    monkeypatch.setattr(safe_file, "_write_all", short_first)
    with pytest.raises(RecordError, match="differs from what was written; the file was put back"):
        append_move(str(seeded_game), "blue", "I I9", SEEDED)
    assert seeded_game.read_text() == SEEDED


def test_a_short_write_that_cannot_be_undone_is_reported(seeded_game, monkeypatch):
    monkeypatch.setattr(safe_file, "_write_all", lambda fd, data: os.write(fd, data[:-3]))
    with pytest.raises(RecordError, match="the original could not be put back"):
        append_move(str(seeded_game), "blue", "I I9", SEEDED)


def test_failure_while_putting_the_original_back_is_reported(seeded_game, monkeypatch):
    renames = []

    def rename_once(folder, tmp, name):
        if renames:
            raise OSError(5, "disk gone")
        renames.append(tmp)
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)

    monkeypatch.setattr(safe_file, "_rename", rename_once)
    monkeypatch.setattr(safe_file, "_read_back", lambda *args: b"garbage")
    with pytest.raises(RecordError, match="the original could not be put back"):
        append_move(str(seeded_game), "blue", "I I9", SEEDED)
    assert os.listdir(seeded_game.parent) == ["game.yaml"]


def test_interrupt_after_the_rename_puts_the_original_back(seeded_game, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(safe_file, "_read_back", interrupted)
    with pytest.raises(KeyboardInterrupt):
        append_move(str(seeded_game), "blue", "I I9", SEEDED)
    assert seeded_game.read_text() == SEEDED


def test_a_wait_for_another_writer_is_told_once_after_a_second(seeded_game, monkeypatch):
    monkeypatch.setattr(file_lock, "LOCK_TIMEOUT", 0.6)
    monkeypatch.setattr(file_lock, "WAIT_NOTICE", 0.2)
    told = []
    fd = os.open(seeded_game, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(RecordError, match="is locked by another process"):
            append_move(str(seeded_game), "blue", "I I9", SEEDED, on_wait=lambda: told.append(1))
    finally:
        os.close(fd)
    assert told == [1]
    append_move(str(seeded_game), "blue", "I I9", SEEDED, on_wait=lambda: told.append(2))
    assert told == [1]  # no wait, no word
