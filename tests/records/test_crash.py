"""Crashes: ``uptown move`` killed with SIGKILL anywhere in its write leaves the file exactly
as it was or exactly with the new move, and nothing that upsets the next run.

(tests/records/test_safe_file.py makes each step of the write fail with an error; here the
process dies outright, with no chance to clean up.)
"""

import os
import random
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from support.games import AT_LINE, legal_moves

from uptown_cli.records import safe_file
from uptown_cli.cli import main

ROOT = Path(__file__).resolve().parents[2]
START = (ROOT / "records" / "in-progress.yaml").read_bytes()
MOVE = ("H", "H1")
"""Cy's move in records/in-progress.yaml (green to move, rack H 6 sax cards champagne)."""
TEMP = re.compile(r"^\.game\.yaml\.uptown-[0-9a-f]{12}\.tmp$")


def run_killed(step: str, when: str, args: list) -> int:
    """Run ``uptown ARGS`` in a forked process that kills itself with SIGKILL before, halfway
    through or after the writer's step ``step``; returns the wait status."""
    pid = os.fork()
    if pid:
        return os.waitpid(pid, 0)[1]
    try:
        real = getattr(safe_file, step)

        def hooked(*step_args):
            if when == "halfway":
                fd, data = step_args
                os.write(fd, data[:len(data) // 2])
            elif when == "after":
                real(*step_args)
            os.kill(os.getpid(), signal.SIGKILL)

        setattr(safe_file, step, hooked)
        main(args, prog_name="uptown", standalone_mode=False)
    finally:
        os._exit(99)  # the hook was never reached


# (step, when, whether the new move is in the file afterwards), in the order of the write
KILL_POINTS = [
    ("_read_bytes", "before", False),
    ("_make_temp", "before", False),
    ("_make_temp", "after", False),
    ("_set_owner", "after", False),
    ("_set_mode", "after", False),
    ("_write_all", "halfway", False),
    ("_write_all", "after", False),
    ("_fsync", "after", False),
    ("_rename", "before", False),
    ("_rename", "after", True),
    ("_sync_dir", "after", True),
    ("_read_back", "after", True),
]


@pytest.fixture
def game(game_file):
    return game_file(START, mode=0o640)


def with_move():
    """The file after Cy's move, as ``uptown move`` writes it."""
    return START + f"  - green: {' '.join(MOVE)}\n{AT_LINE}".encode()


def check_after_crash(uptown, path: Path, expected: bytes):
    """The file is exactly ``expected``; only hidden temporary files may be left beside it,
    and neither validate nor the next move is upset by them."""
    assert path.read_bytes() == expected
    assert path.stat().st_mode & 0o777 == 0o640
    others = sorted(set(os.listdir(path.parent)) - {"game.yaml"})
    assert all(TEMP.match(name) for name in others), others
    checked = uptown.invoke("validate", path.parent)
    assert checked.exit_code == 0 and checked.stdout.endswith("1 record, 1 valid, 0 invalid\n")
    before = path.read_bytes()
    data = legal_moves(path)
    played = uptown.invoke("move", path, data["moves"][0])
    assert played.exit_code == 0, played.output
    assert path.read_bytes() == before + f"  - {next(iter(data['by_color']))}: {data['moves'][0]}\n{AT_LINE}".encode()
    return others


@pytest.mark.parametrize("step, when, written", KILL_POINTS, ids=[f"{w}-{s}" for s, w, _ in KILL_POINTS])
def test_killed_at_each_point_of_the_write(uptown, game, step, when, written):
    status = run_killed(step, when, ["move", str(game), *MOVE])
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    leftovers = check_after_crash(uptown, game, with_move() if written else START)
    # Killed while the temporary file existed, the process could not remove it: it stays,
    # hidden and harmless (the next run makes a new one); otherwise nothing is left.
    mid_write = not written and (step, when) not in {("_read_bytes", "before"), ("_make_temp", "before")}
    assert len(leftovers) == (1 if mid_write else 0)


@pytest.mark.slow
def test_killed_at_random_moments(uptown, tmp_path, game_file):
    """The real console script, killed at moments spread over its whole run, many times."""
    path = game_file(START, mode=0o640)
    started = time.monotonic()
    subprocess.run([str(uptown.path), "move", str(path), *MOVE], capture_output=True, check=True, timeout=60)
    whole = time.monotonic() - started
    rng = random.Random(7)
    for attempt in range(6):
        path.write_bytes(START)
        process = subprocess.Popen([str(uptown.path), "move", str(path), *MOVE], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        time.sleep(whole * (0.5 + attempt / 6) * rng.uniform(0.9, 1.1))
        process.kill()
        _, errors = process.communicate(timeout=60)
        assert b"Traceback" not in errors
        now = path.read_bytes()
        assert now in (START, with_move()), f"attempt {attempt}: the file is neither before nor after"
        assert all(TEMP.match(name) for name in set(os.listdir(tmp_path)) - {"game.yaml"})
    check_after_crash(uptown, path, path.read_bytes())
