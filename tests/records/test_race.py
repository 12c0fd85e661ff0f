"""Racing writers: many ``uptown move`` processes at once on one file.  The moves that
succeed are exactly those in the file afterwards, in order, each by the player whose turn it
was; every other process exits 1 saying the game moved on (or whose turn it is now)."""

import fcntl
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from uptown_cli.records.reading import load_record
from uptown_cli.turns.validation import validate_file

AT_LINE = '    at: "2026-12-01T12:00:00Z"\n'
"""What ``uptown move`` writes under a move at the tests' now (``support.games.NOW``)."""

ROOT = Path(__file__).resolve().parents[2]
START = (ROOT / "records" / "in-progress.yaml").read_bytes()
PLAYED = 17
# Moves to empty squares, all different, from the racks after move 17 of records/in-progress.yaml
# (Cy, green, is to move; then Ana, red; then Bo, blue): each is legal on its player's next
# turn, whatever the others played before.
MOVES = {
    "Cy": ("green", ["H H4", "H H5", "6 E6", "6 F6", "sax E8"]),
    "Ana": ("red", ["A A5", "F F2", "man B1"]),
    "Bo": ("blue", ["D D1", "E E2", "ring A6"]),
}
MOVED_ON = "changed since it was read (the game moved on); nothing was written"
NOT_YOUR_TURN = re.compile(r"^Error: it is (Cy|Ana|Bo)'s turn, not (Cy|Ana|Bo)'s; nothing was written$")
ILLEGAL_NOW = re.compile(r"^Error: (green|red|blue)('s \S+ has already been played| has no \S+ on its rack \(.*\))"
                         r"; nothing was written$")

ANNOUNCE = """
import sys
from pathlib import Path
from uptown_cli.records import safe_file
from uptown_cli.cli import main

real = safe_file.replace_record

def announce(*args):
    Path(sys.argv[1]).touch()
    return real(*args)

safe_file.replace_record = announce
main(sys.argv[2:], prog_name="uptown")
"""
"""``python -c ANNOUNCE MARKER ARGS...``: ``uptown ARGS`` that creates MARKER once it has read
the record and decided its move, just before it asks for the lock to append it."""


@pytest.fixture
def game(game_file):
    return game_file(START)


def finish(processes):
    """(exit code, stdout, stderr) of each process, once all have ended."""
    results = []
    for process in processes:
        out, err = process.communicate(timeout=60)
        results.append((process.returncode, out, err))
    return results


def test_all_read_the_same_position_and_exactly_one_wins(game, tmp_path):
    moves = MOVES["Cy"][1]
    lock = os.open(game, os.O_RDONLY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # nobody may write until every process has read
        processes = [subprocess.Popen([sys.executable, "-c", ANNOUNCE, str(tmp_path / f"ready-{i}"), "move",
                                       str(game), *move.split(), "--as", "Cy"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for i, move in enumerate(moves)]
        deadline = time.monotonic() + 30
        while len(list(tmp_path.glob("ready-*"))) < len(moves):
            assert time.monotonic() < deadline, "the processes never got to the write"
            assert all(p.poll() is None for p in processes), finish(processes)
            time.sleep(0.02)
    finally:
        os.close(lock)
    results = finish(processes)
    winners = [move for move, (code, _, _) in zip(moves, results) if code == 0]
    assert len(winners) == 1, results
    assert game.read_bytes() == START + f"  - green: {winners[0]}\n{AT_LINE}".encode()
    for code, out, err in results:
        if code:
            assert (code, out, err) == (1, "", f"Error: {game} {MOVED_ON}\n")
        else:
            assert out.startswith(f"Move {PLAYED + 1}: ")
    assert validate_file(game).valid


def test_many_players_at_once(uptown, game):
    """The real console script, started a few milliseconds apart in a shuffled order, so that
    some read the file before others write it and some after (and may play a later turn,
    or find their tile already played)."""
    jobs = [(name, move) for name, (_, moves) in MOVES.items() for move in moves]
    random.Random(3).shuffle(jobs)
    processes = []
    for name, move in jobs:
        processes.append(subprocess.Popen([str(uptown.path), "move", str(game), *move.split(), "--as", name],
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        time.sleep(0.04)
    results = finish(processes)
    record = load_record(game)
    appended = [(m.color, m.text) for m in record.moves[PLAYED:]]
    assert record.text.encode().startswith(START)
    succeeded = {}
    for (name, move), (code, out, err) in zip(jobs, results):
        assert "Traceback" not in out + err
        if code == 0:
            number = int(re.match(r"Move (\d+): ", out).group(1))
            assert number not in succeeded
            succeeded[number] = (MOVES[name][0], move)
        else:
            assert code == 1 and out == ""
            assert err == f"Error: {game} {MOVED_ON}\n" or NOT_YOUR_TURN.match(err.rstrip("\n")) \
                or ILLEGAL_NOW.match(err.rstrip("\n")), err
    assert [succeeded[n] for n in sorted(succeeded)] == appended
    assert sorted(succeeded) == list(range(PLAYED + 1, PLAYED + 1 + len(appended)))
    assert appended and [color for color, _ in appended] == (["green", "red", "blue"] * 4)[:len(appended)]
    assert validate_file(game).valid
    assert os.listdir(game.parent) == ["game.yaml"]


RACER = """
import sys
from uptown_cli.records.editing import record_with_move
from uptown_cli.records.safe_file import replace_record
from uptown_cli.errors import RecordError
from uptown_cli.records.reading import read_file

path, color, row = sys.argv[1:]
for column in range(1, 10):
    while True:
        try:
            text = read_file(path)
            replace_record(path, record_with_move(text, color, f"$ {row}{column}", path), text)
            break
        except RecordError as exc:
            if "the game moved on" not in str(exc):
                raise
"""
"""``python -c RACER PATH COLOR ROW``: append ``$ ROW1`` to ``$ ROW9`` as COLOR, each read
afresh and tried again for as long as another writer got in first."""


def test_eight_racing_writers_lose_no_move(tmp_path):
    """Eight processes append nine moves each, all at once; writers that find the file
    replaced while they waited for its lock open the new one.  Every move lands, once, in
    each writer's order, and nothing is left beside the game."""
    colors = ["red", "blue", "green", "yellow", "orange"]
    game = tmp_path / "game.yaml"
    game.write_text("uptown: 1\nplayers:\n" + "".join(f"  - name: P{i}\n" for i in range(5)) + "moves:\n")
    writers = [(colors[i % 5], "ABCDEFGH"[i]) for i in range(8)]
    processes = [subprocess.Popen([sys.executable, "-c", RACER, str(game), color, row],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for color, row in writers]
    results = finish(processes)
    assert all(code == 0 for code, _, _ in results), results
    moves = [(m.color, m.text) for m in load_record(game).moves]
    assert len(moves) == len(set(moves)) == 72
    for color, row in writers:
        assert [m for m in moves if m[0] == color and m[1][2] == row] == \
            [(color, f"$ {row}{column}") for column in range(1, 10)]
    assert os.listdir(tmp_path) == ["game.yaml"]
