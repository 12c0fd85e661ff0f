"""What a player can trust the command line with: an illegal extension is not called one, a file
name cannot forge output, a capture mark is meant, a closed pipe and Ctrl-C end quietly."""

from pathlib import Path
import os
import select
import signal
import subprocess
import time

import pytest
from support.processes import _default_signals
from support.games import new_game

from uptown_cli.fairplay.copies import compare_records, Relation
from uptown_cli.records.reading import load_record

ROOT = Path(__file__).resolve().parents[2]

POSITION = ROOT / "records" / "in-progress.yaml"
"""17 moves, seed "0123"; Cy (green) to move."""


# -- diff: an extension must be legal -----------------------------------------------------------


def with_move(tmp_path, name, move):
    path = tmp_path / name
    path.write_text(POSITION.read_text() + f"  - green: {move}\n")
    return path


def test_diff_reports_an_illegal_extension_at_its_move(uptown, tmp_path):
    illegal = with_move(tmp_path, "illegal.yaml", "6 B8")  # 6 goes in column 6
    result = compare_records(load_record(str(illegal)), load_record(str(POSITION)))
    assert (result.relation, result.move, result.longer, result.line_a) == (Relation.ILLEGAL_EXTENSION, 18, "a", 31)
    assert not result.consistent
    shown = uptown.invoke("diff", POSITION, illegal)
    assert shown.exit_code == 1
    assert shown.stdout.startswith(f"{illegal}:31: {illegal} extends {POSITION}, but its move 18 is illegal: ")
    assert "6 goes in column 6" in shown.stdout


def test_diff_still_accepts_a_legal_extension(uptown, tmp_path):
    legal = with_move(tmp_path, "legal.yaml", "H H1")
    assert compare_records(load_record(str(legal)), load_record(str(POSITION))).relation == Relation.EXTENDS
    assert uptown.invoke("diff", legal, POSITION).exit_code == 0


# -- file names are text to show, not output to obey ------------------------------------------


@pytest.mark.parametrize("name, shown", [
    ("two\nlines.yaml", "two\\nlines.yaml"),
    ("bell\x1b[31m.yaml", "bell\\x1b[31m.yaml"),
])
def test_file_names_are_escaped_in_output(uptown, tmp_path, name, shown):
    path = tmp_path / name
    path.write_text(POSITION.read_text().replace("seed: \"0123\"", "seed: \"0123\"\nbogus: 1"))
    result = uptown.run("validate", name, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith(f"{shown}:")
    assert "\x1b" not in result.stdout and len(result.stdout.splitlines()) == 2
    missing = uptown.run("show", "no\nsuch.yaml", cwd=tmp_path)
    assert missing.stderr == "Error: no\\nsuch.yaml: no such file (uptown new creates a game)\n"


def test_a_file_name_that_is_not_utf8_is_shown_escaped(uptown, tmp_path):
    name = b"caf\xe9.yaml"
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as stream:
        stream.write(POSITION.read_bytes())
    env = {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    result = subprocess.run([str(uptown.path), "score", os.fsdecode(name)], cwd=tmp_path, capture_output=True,
                            env=dict(os.environ, **env), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().startswith("caf\\xe9.yaml: standard, not finished")
    assert b"Traceback" not in result.stderr


# -- move: a capture mark must mean a capture ---------------------------------------------------


def test_a_capture_mark_on_an_empty_square_is_refused(uptown, tmp_path):
    game = new_game(tmp_path / "g.yaml")
    before = game.read_bytes()
    result = uptown.invoke("move", game, "woman", "xB8")
    assert result.exit_code == 1
    assert result.stderr == ("Error: woman xB8 marks a capture, but B8 is empty (write woman B8); "
                             "nothing was written\n")
    assert game.read_bytes() == before


# -- a closed pipe, and Ctrl-C ------------------------------------------------------------------


def test_a_closed_pipe_ends_the_output_quietly(uptown):
    with subprocess.Popen([str(uptown.path), "replay", str(ROOT / "records" / "2p-standard.yaml")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        process.stdout.readline()
        process.stdout.close()
        _, errors = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGPIPE
    assert errors == b""


def test_ctrl_c_stops_selfplay_quietly_with_the_finished_games(uptown, tmp_path):
    out = tmp_path / "games"
    process = subprocess.Popen(
        [str(uptown.path), "selfplay", "--players", "2", "--bots", "random", "--games", "400",
         "--jobs", "2", "--seed", "1", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_default_signals)  # Ctrl-C works even if the suite started in the background
    try:
        deadline = time.monotonic() + 60
        while len(list(out.glob("*.yaml"))) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C does: the parent and its workers
        output, errors = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors
    finished = int(errors.split("Interrupted: ")[1].split()[0])
    assert 2 <= finished < 400  # game 3's record is written before its result is counted
    assert output.startswith(f"{finished} games, 2 players, standard, seed 1")
    assert "random" in output


def test_move_says_it_waits_for_another_players_lock(uptown, new_record):
    import fcntl

    holder = os.open(new_record, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        process = subprocess.Popen([str(uptown.path), "move", str(new_record), "9", "B9"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([process.stderr], [], [], 30)  # the notice, however busy
        notice = process.stderr.readline() if ready else ""
        os.close(holder)  # the other player's move is done
        holder = None
        output, errors = process.communicate(timeout=60)
        errors = notice + errors
    finally:
        if holder is not None:
            os.close(holder)
    assert process.returncode == 0, errors
    assert errors == (f"{new_record} is locked by another program (a move being written, or a "
                      "program reading it); waiting...\n")
    assert output.startswith("Move 1: red (Ana) 9 B9")
