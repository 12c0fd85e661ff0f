"""The library's validation and ``uptown validate`` give the same answer: every sample record,
every game of the acceptance set (when the checkout has it beside it), and records broken on
purpose, among them a bot's move for a late player that the bot would not play (which only the
layer above the records can check)."""

import json
from pathlib import Path

import pytest

from uptown_cli.engine.moments import parse_time
from uptown_cli.turns.validation import validate_file

ROOT = Path(__file__).resolve().parents[2]
NOW = "2026-12-01T12:00:00Z"
SAMPLES = sorted((ROOT / "records").glob("*.yaml")) + sorted(
    (ROOT / "tests" / "analysis_records").glob("*.yaml"))
ACCEPTANCE = sorted((ROOT.parent / "shared" / "acceptance").glob("*.yaml"))

STAND_IN = """\
uptown: 1
players:
  - name: Ana
  - name: Bo
  - name: Cy
seed: "7"
clock: move 24h
late: bot greedy
vacation: none
started: "2026-11-20T12:00:00Z"
moves:
  - red: {move}
    at: "2026-11-22T12:00:00Z"
    by: Bo
    bot: greedy
"""
BROKEN = {
    "a bot's move its bot would not play": STAND_IN.format(move="$ E5"),
    "a move from the future": STAND_IN.replace('"2026-11-22T12:00:00Z"', '"2026-12-09T12:00:00Z"'),
    "an illegal move": "uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\nmoves:\n  - red: 9 A1\n",
    "not a record": "- just a list\n",
    "a tile played twice": ("uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\n  - name: Cy\n"
                            "moves:\n  - red: 7 B7\n  - blue: 1 A1\n  - green: 2 A2\n"
                            "  - red: 7 C7\n"),
}


def agree(uptown, path):
    """The library's JSON of ``path`` and ``uptown validate --json``'s, at the same clock."""
    library = validate_file(path, shown=str(path), now=parse_time(NOW)).to_json()
    result, data = uptown.json("validate", str(path), "--json", env={"UPTOWN_NOW": NOW})
    assert result.exit_code in (0, 1, 3), result.output
    assert data == [library]
    return library


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_the_library_and_validate_agree_on_every_sample(uptown, path):
    assert agree(uptown, path)["valid"]


@pytest.mark.skipif(not ACCEPTANCE, reason="no acceptance games beside this checkout")
def test_the_library_and_validate_agree_on_every_acceptance_game(uptown):
    for path in ACCEPTANCE:
        agree(uptown, path)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_the_library_and_validate_agree_on_a_broken_record(uptown, tmp_path, name):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN[name])
    assert not agree(uptown, path)["valid"]


def test_a_bots_move_for_a_late_player_is_checked_by_the_library_too(tmp_path):
    path = tmp_path / "bot.yaml"
    path.write_text(BROKEN["a bot's move its bot would not play"])
    (error,) = validate_file(path, now=parse_time(NOW)).errors
    assert error.move == 1 and "greedy plays" in error.message
    assert json.loads(json.dumps(validate_file(path).to_json()))["valid"] is False
