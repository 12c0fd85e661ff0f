"""``validate_text`` and ``validate_file`` given the reader's clock (``now``): a move from the
reader's future is a problem, and the moves bots made for late players are played again only
on a record found valid so far. (A stalled reveal settled at ``now``: tests/club/test_deadlines.py.)"""

from datetime import datetime

from uptown_cli.errors import RecordError
from uptown_cli.turns.validation import validate_file, validate_text

TIMED = """\
uptown: 1
variant: standard
players:
  - name: Cy
    colors: [red, green]
  - name: Dee
    colors: [blue, yellow]
seed: s
clock: move 24h grace 24h
late: wait
vacation: none
started: "2026-12-01T15:36:00Z"
moves:
  - red: 1 I1
    at: "2026-12-01T16:00:00Z"
"""


def at(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_validate_at_now_refuses_a_move_from_the_readers_future():
    assert validate_text(TIMED, "g.yaml").valid  # without now, no time is checked
    assert validate_text(TIMED, "g.yaml", now=at("2026-12-01T15:56:00Z")).valid  # 4m: tolerated
    (error,) = validate_text(TIMED, "g.yaml", now=at("2026-12-01T15:50:00Z")).errors
    assert error.report_line() == ("g.yaml:14: move 1 is dated 2026-12-01T16:00:00Z, 10m after "
                                   "this computer's clock (2026-12-01T15:50:00Z)")


def test_validate_file_at_now_says_the_same_as_validate_text(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(TIMED)
    early = at("2026-12-01T15:50:00Z")
    assert ([e.report_line() for e in validate_file(path, shown="g.yaml", now=early).errors]
            == [e.report_line() for e in validate_text(TIMED, "g.yaml", now=early).errors])


def test_validate_plays_the_stand_ins_bots_again_only_on_a_record_valid_so_far(monkeypatch):
    from uptown_cli.turns import validation

    seen = []

    def stand_in_errors(record):
        seen.append(record.path)
        return [RecordError("the bot would not play that", path=record.path, line=14, move=1)]

    monkeypatch.setattr(validation, "stand_in_errors", stand_in_errors)
    result = validate_text(TIMED, "g.yaml", now=at("2026-12-01T16:00:00Z"))
    assert seen == ["g.yaml"] and not result.valid
    assert [e.message for e in result.errors] == ["the bot would not play that"]
    late = validate_text(TIMED, "g.yaml", now=at("2026-12-01T15:50:00Z"))
    assert seen == ["g.yaml"] and len(late.errors) == 1  # the future move only
