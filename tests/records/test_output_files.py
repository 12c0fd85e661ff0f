"""Every file uptown writes with -o is as safe as the game file: never through a link, never
over a device, FIFO or folder, whole or not at all, with its final mode from the start, UTF-8."""

from pathlib import Path
import errno
import os
import stat

import pytest

from uptown_cli.records import safe_file
from uptown_cli.errors import OutputError
from uptown_cli.records.safe_file import write_file

ROOT = Path(__file__).resolve().parents[2]

RECORDS = ROOT / "records"
GAME = RECORDS / "in-progress.yaml"
OLD = b"the old picture\n"


def commands(tmp_path, target):
    """Each command that writes a file, writing ``target``."""
    folder = tmp_path / "records"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_bytes(GAME.read_bytes())
    return [["svg", GAME, "--force", "-o", target], ["html", GAME, "--force", "-o", target],
            ["export", folder, "--force", "-o", target]]


def leftovers(folder, *expected):
    return sorted(set(os.listdir(folder)) - set(expected))


@pytest.mark.parametrize("index", range(3))
def test_output_never_writes_through_a_symbolic_link(uptown, tmp_path, index):
    victim = tmp_path / "other.txt"
    victim.write_bytes(OLD)
    link = tmp_path / "pic.out"
    link.symlink_to(victim)
    result = uptown.invoke(*commands(tmp_path, link)[index])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "is a symbolic link" in result.stderr
    assert victim.read_bytes() == OLD and link.is_symlink()


def test_export_never_overwrites_a_record_through_a_link_named_out_csv(uptown, tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    record = folder / "game.yaml"
    record.write_bytes(GAME.read_bytes())
    (tmp_path / "out.csv").symlink_to(record)
    result = uptown.invoke("export", folder, "--force", "-o", tmp_path / "out.csv")
    assert result.exit_code == 1 and record.read_bytes() == GAME.read_bytes()


@pytest.mark.parametrize("index", range(3))
def test_output_never_replaces_a_fifo(uptown, tmp_path, index):
    fifo = tmp_path / "pipe.out"
    os.mkfifo(fifo)
    result = uptown.invoke(*commands(tmp_path, fifo)[index])
    assert result.exit_code == 1 and "is a FIFO, not a regular file" in result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a device needs root")
def test_output_never_replaces_a_device(uptown, tmp_path):
    device = tmp_path / "mynull"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    result = uptown.invoke("svg", GAME, "--force", "-o", device)
    assert result.exit_code == 1 and "is a device, not a regular file" in result.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_output_to_dev_stdout_is_one_line_not_a_cross_device_error(uptown):
    result = uptown.run("svg", GAME, "--force", "-o", "/dev/stdout")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "Invalid cross-device link" not in result.stderr
    assert "-o - writes to standard output" in result.stderr


@pytest.mark.parametrize("step, code", [
    ("_write_all", errno.ENOSPC), ("_fsync", errno.EIO), ("_rename", errno.EXDEV),
    ("_set_mode", errno.EPERM), ("_make_temp", errno.EROFS),
])
@pytest.mark.parametrize("index", range(3))
def test_a_failed_output_write_leaves_the_old_file_and_no_temporary(uptown, tmp_path, monkeypatch,
                                                                    step, code, index):
    target = tmp_path / "out.file"
    target.write_bytes(OLD)
    os.chmod(target, 0o640)
    command = commands(tmp_path, target)[index]

    def fail(*args):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(safe_file, step, fail)
    result = uptown.invoke(*command)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert os.strerror(code) in result.stderr and "the old file is unchanged" in result.stderr
    assert target.read_bytes() == OLD and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path, "out.file", "records") == []


@pytest.mark.parametrize("exists", [True, False])
def test_an_output_whose_folder_cannot_be_synced_is_said_to_be_written_not_unchanged(
        uptown, tmp_path, monkeypatch, exists):
    """Only the folder's sync failed: the new file is in place, and the line says so."""
    target = tmp_path / "board.svg"
    if exists:
        target.write_bytes(OLD)

    def fail(*args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(safe_file, "_sync_dir", fail)
    result = uptown.invoke("svg", GAME, "--force", "-o", target)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert ("board.svg was written, but its folder could not be synced to disk "
            f"({os.strerror(errno.EIO)})") in result.stderr
    assert "unchanged" not in result.stderr and "nothing was written" not in result.stderr
    assert target.read_bytes().startswith(b"<svg")
    assert leftovers(tmp_path, "board.svg") == []


def test_a_failed_new_output_file_leaves_nothing(uptown, tmp_path, monkeypatch):
    def full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safe_file, "_write_all", full)
    result = uptown.invoke("html", GAME, "--force", "-o", tmp_path / "game.html")
    assert result.exit_code == 1 and "nothing was written" in result.stderr
    assert os.listdir(tmp_path) == []


def test_output_temporary_file_has_the_final_mode_before_any_data(uptown, tmp_path, modes_written):
    target = tmp_path / "board.svg"
    target.write_bytes(OLD)
    os.chmod(target, 0o600)
    assert uptown.invoke("svg", GAME, "--force", "-o", target).exit_code == 0
    assert modes_written == [0o600] and stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_output_file_gets_the_mode_the_umask_allows(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_file(str(tmp_path / "new.svg"), "<svg/>")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.svg").stat().st_mode) == 0o666 & ~umask


def test_output_removes_a_stale_temporary_file_but_not_others(tmp_path):
    stale = tmp_path / ".board.svg.uptown-0123456789ab.tmp"
    mine = tmp_path / ".board.svg.notes.tmp"
    stale.write_text("left by a killed writer")
    mine.write_text("mine")
    assert write_file(str(tmp_path / "board.svg"), "<svg/>") == 6
    assert sorted(os.listdir(tmp_path)) == [".board.svg.notes.tmp", "board.svg"]


def test_write_file_refuses_a_folder_and_a_missing_folder(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        write_file(str(tmp_path), "x")
    with pytest.raises(OutputError, match="No such file or directory"):
        write_file(str(tmp_path / "nosuch" / "a.svg"), "x")


def test_export_output_says_what_it_wrote(uptown, tmp_path):
    out = tmp_path / "moves.csv"
    result = uptown.invoke("export", GAME, "--force", "-o", out)
    assert result.exit_code == 0
    assert result.stderr == f"Wrote {out} ({out.stat().st_size:,} bytes).\n"


def test_svg_to_standard_output_with_a_latin1_terminal_is_utf8(uptown, tmp_path):
    result = uptown.run("svg", GAME, env={"PYTHONIOENCODING": "latin-1"})
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert result.stdout.startswith("<svg") or "<svg" in result.stdout


def test_html_output_file_is_utf8_whatever_pythonioencoding(uptown, tmp_path):
    game = tmp_path / "zoe.yaml"
    game.write_text(GAME.read_text().replace("Ana", "Zoë"), encoding="utf-8")
    page = tmp_path / "game.html"
    for target in (["--force", "-o", page], []):
        result = uptown.run("html", game, *target, env={"PYTHONIOENCODING": "latin-1"})
        assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "Zoë" in page.read_bytes().decode("utf-8")
    assert "Zoë" in result.stdout  # decoded as UTF-8 strictly
