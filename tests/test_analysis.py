"""The review of one game, against figures worked out by hand for tests/analysis_records."""

import json
from pathlib import Path

import pytest
from test_cli_support import invoke

from uptown_cli.analysis import review
from uptown_cli.record import load_record, replay

RECORDS = Path(__file__).parent / "analysis_records"


def game_of(name):
    return replay(load_record(RECORDS / name)).game


# seeded-3p.yaml: number, player, move, groups before, after, captured, greedy, matched, lost
SEEDED_MOVES = [
    (1, "Ana", "9 C9", 0, 1, None, "9 C9", True, 0),
    (2, "Bo", "4 D4", 0, 1, None, "4 D4", True, 0),
    (3, "Cy", "G G7", 0, 1, None, "G G7", True, 0),
    (4, "Ana", "C C8", 1, 1, None, "C C8", True, 0),  # beside C9
    (5, "Bo", "D D5", 1, 1, None, "D D5", True, 0),  # beside D4
    (6, "Cy", "5 E5", 1, 2, None, "champagne G8", False, 1),  # champagne G8 or H7 joins G7
    (7, "Ana", "skyline xE5", 1, 2, "green 5", "8 B8", False, 1),  # 8 B8 or D8 joins C8
    (8, "Bo", "3 D3", 1, 1, None, "3 D3", True, 0),
    (9, "Cy", "7 H7", 1, 1, None, "7 H7", True, 0),  # Cy is back to one group: E5 was taken
]
# name, moves, as greedy, worse than greedy, captures made, suffered, most groups, final groups
SEEDED_PLAYERS = [
    ("Ana", 3, 2, 1, 1, 0, 2, 2),
    ("Bo", 3, 3, 0, 0, 0, 1, 1),
    ("Cy", 3, 2, 1, 0, 1, 2, 1),
]


def test_review_of_a_seeded_game_matches_the_hand_count():
    result = review(game_of("seeded-3p.yaml"))
    assert result.racks_known
    got = [(m.number, m.player, m.move, m.groups_before, m.groups_after, m.captured, m.greedy, m.matched, m.lost)
           for m in result.moves]
    assert got == SEEDED_MOVES
    assert [m.color for m in result.moves] == ["red", "blue", "green"] * 3
    players = [(p.name, p.moves, p.matched, p.lost_moves, p.captures_made, p.captures_suffered, p.most_groups,
                p.final_groups) for p in result.players]
    assert players == SEEDED_PLAYERS


def test_without_a_seed_the_review_leaves_greedy_out():
    result = review(game_of("tiebreak-2p.yaml"))
    assert not result.racks_known
    assert all(m.greedy is None and m.matched is None and m.lost is None for m in result.moves)
    assert [(m.color, m.move, m.groups_after, m.captured) for m in result.moves] == [
        ("red", "1 A1", 1, None),
        ("blue", "5 E5", 1, None),
        ("green", "9 I9", 2, None),
        ("yellow", "1 xA1", 2, "red 1"),
        ("red", "2 A2", 2, None),
        ("blue", "pass", 2, None),
        ("red", "pass", 2, None),
    ]
    ana, bo = result.players
    ana_figures = (ana.matched, ana.captures_made, ana.captures_suffered, ana.most_groups, ana.final_groups)
    assert ana_figures == (None, 0, 1, 2, 2)
    assert (bo.moves, bo.captures_made, bo.captures_suffered) == (3, 1, 0)


def test_the_reviewed_game_ends_as_it_was_given():
    game = game_of("seeded-3p.yaml")
    board, racks, history = game.board, game.racks, list(game.history)
    review(game)
    assert (game.board, game.racks, game.history) == (board, racks, history)


def test_analyze_prints_the_review():
    result = invoke("analyze", RECORDS / "seeded-3p.yaml")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{RECORDS / 'seeded-3p.yaml'}: standard, 9 moves, not finished"
    assert lines[8].split() == ["6", "Cy", "(green)", "5", "E5", "1->2", "champagne", "G8", "1"]
    assert lines[9].split() == ["7", "Ana", "(red)", "skyline", "xE5", "1->2", "green", "5", "8", "B8", "1"]
    assert lines[10].split() == ["8", "Bo", "(blue)", "3", "D3", "1->1", "same"]
    assert [line.split() for line in lines[-3:]] == [
        ["Ana", "red", "3", "2", "1", "1/0", "2/2"],
        ["Bo", "blue", "3", "3", "0", "0/0", "1/1"],
        ["Cy", "green", "3", "2", "1", "0/1", "2/1"],
    ]


def test_analyze_json():
    result = invoke("analyze", RECORDS / "seeded-3p.yaml", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["variant"] == "standard" and data["racks_known"] is True
    assert data["moves"][6] == {
        "number": 7, "player": "Ana", "color": "red", "move": "skyline xE5", "groups_before": 1, "groups_after": 2,
        "captured": "green 5", "greedy_color": "red", "greedy": "8 B8", "matched": False, "lost": 1,
    }
    assert data["players"][2] == {
        "name": "Cy", "colors": ["green"], "moves": 3, "matched": 2, "lost_moves": 1, "captures_made": 0,
        "captures_suffered": 1, "most_groups": 2, "final_groups": 1,
    }


def test_analyze_without_a_seed_says_why_greedy_is_missing():
    result = invoke("analyze", RECORDS / "tiebreak-2p.yaml")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[1] == "No seed: the racks are unknown, so moves are not compared with greedy's."
    assert lines[2].split() == ["#", "player", "move", "groups", "captured"]


@pytest.mark.parametrize(
    "text,message",
    [
        (None, "no such file"),
        ("uptown: 1\nplayers: [{name: A}, {name: B}]\nmoves: [red: 7 B8]\n", "7 goes in column 7"),
    ],
)
def test_analyze_mistakes_are_one_line(tmp_path, text, message):
    path = tmp_path / "game.yaml"
    if text is not None:
        path.write_text(text)
    result = invoke("analyze", path)
    assert result.exit_code == 1
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_the_sample_game_in_progress_matches_the_hand_count():
    """records/in-progress.yaml: 17 moves and no capture; each player's groups worked out by hand."""
    result = review(replay(load_record(Path(__file__).parent.parent / "records" / "in-progress.yaml")).game)
    assert [m.move for m in result.moves] == [
        "I I9", "2 H2", "B B3", "6 C6", "G G2", "man A3", "skyline D6", "car I2", "$ A2",
        "woman C7", "7 I7", "1 A1", "8 I8", "cards I6", "ring B4", "5 D5", "5 I5",
    ]
    assert [m.groups_after for m in result.moves] == [1, 1, 1, 2, 1, 1, 2, 1, 1, 2, 2, 1, 2, 2, 1, 2, 2]
    assert [m.groups_before for m in result.moves] == [0, 0, 0, 1, 1, 1, 2, 1, 1, 2, 1, 1, 2, 2, 1, 2, 2]
    assert all(m.captured is None for m in result.moves)
    summary = [(p.name, p.moves, p.captures_made, p.captures_suffered, p.most_groups, p.final_groups)
               for p in result.players]
    assert summary == [("Ana", 6, 0, 0, 2, 2), ("Bo", 6, 0, 0, 2, 2), ("Cy", 5, 0, 0, 1, 1)]
