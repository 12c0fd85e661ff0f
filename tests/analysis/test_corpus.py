"""Figures over many records and the export of their moves, against hand-worked figures for
the four games of tests/analysis_records (see the comments in each file)."""

import io
import json
from pathlib import Path

import pytest

from uptown_cli.analysis.corpus import RecordedGame, corpus_stats, move_rows, write_rows
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay

RECORDS = Path(__file__).parents[1] / "analysis_records"


def recorded(name, folder=RECORDS):
    record = load_record(folder / name)
    return RecordedGame(name, record.variant, replay(record).game)


ALL = ["blockers-3p.yaml", "seeded-3p.yaml", "shared-3p.yaml", "tiebreak-2p.yaml"]

EXPECTED_STATS = {
    "games": [
        {"players": 2, "variant": "standard", "games": 1, "finished": 1},
        {"players": 3, "variant": "blockers", "games": 1, "finished": 1},
        {"players": 3, "variant": "standard", "games": 2, "finished": 1},  # seeded-3p is not over
    ],
    "seats": [
        # tiebreak-2p: both on 2; Ana (seat 1) wins on fewer captures
        {"players": 2, "seat": 1, "games": 1, "wins": 1.0, "win_rate": 1.0, "mean_score": 2.0},
        {"players": 2, "seat": 2, "games": 1, "wins": 0.0, "win_rate": 0.0, "mean_score": 2.0},
        # blockers-3p: scores 0, 1, 2 (Ana wins); shared-3p: 1, 1, 1 (a third each)
        {"players": 3, "seat": 1, "games": 2, "wins": 4 / 3, "win_rate": 2 / 3, "mean_score": 0.5},
        {"players": 3, "seat": 2, "games": 2, "wins": 1 / 3, "win_rate": 1 / 6, "mean_score": 1.0},
        {"players": 3, "seat": 3, "games": 2, "wins": 1 / 3, "win_rate": 1 / 6, "mean_score": 1.5},
    ],
    "tables": [
        {"players": 2, "games": 1, "mean_moves": 7.0, "min_moves": 7, "max_moves": 7, "mean_final_groups": 2.0,
         "mean_captures": 0.5, "tiebreak_decided": 1, "shared_wins": 0},
        # groups 0+1+1 and 1+1+1 over six players; one capture
        {"players": 3, "games": 2, "mean_moves": 6.0, "min_moves": 6, "max_moves": 6,
         "mean_final_groups": 5 / 6, "mean_captures": 1 / 6, "tiebreak_decided": 0, "shared_wins": 1},
    ],
}

TIEBREAK_ROWS = [
    # move, player, colour, tile, square, capture, captured colour and tile, Ana's or Bo's groups after
    (1, "Ana", "red", "1", "A1", False, None, None, 1),
    (2, "Bo", "blue", "5", "E5", False, None, None, 1),
    (3, "Ana", "green", "9", "I9", False, None, None, 2),
    (4, "Bo", "yellow", "1", "A1", True, "red", "1", 2),
    (5, "Ana", "red", "2", "A2", False, None, None, 2),  # red on A2, green on I9
    (6, "Bo", "blue", None, None, False, None, None, 2),
    (7, "Ana", "red", None, None, False, None, None, 2),
]
COLUMNS = ("move", "player", "color", "tile", "square", "capture", "captured_color", "captured_tile", "groups_after")


def approx_equal(got, want):
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(approx_equal(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return len(got) == len(want) and all(approx_equal(g, w) for g, w in zip(got, want))
    if isinstance(want, float):
        return abs(got - want) < 1e-9
    return got == want


def test_stats_match_the_hand_count():
    assert approx_equal(corpus_stats(recorded(name) for name in ALL), EXPECTED_STATS)


def test_export_rows_match_the_hand_count():
    rows = list(move_rows([recorded("tiebreak-2p.yaml")]))
    assert {row["game"] for row in rows} == {"tiebreak-2p.yaml"}
    assert [tuple(row[c] for c in COLUMNS) for row in rows] == TIEBREAK_ROWS


def test_rows_as_csv_and_json_lines():
    rows = list(move_rows([recorded("tiebreak-2p.yaml")]))
    out = io.StringIO()
    write_rows(rows[3:6], out, "csv")
    assert out.getvalue() == (
        "game,move,player,color,tile,square,capture,captured_color,captured_tile,groups_after\n"
        "tiebreak-2p.yaml,4,Bo,yellow,1,A1,true,red,1,2\n"
        "tiebreak-2p.yaml,5,Ana,red,2,A2,false,,,2\n"
        "tiebreak-2p.yaml,6,Bo,blue,,,false,,,2\n"
    )
    out = io.StringIO()
    write_rows(rows[5:6], out, "jsonl")
    assert json.loads(out.getvalue()) == {
        "game": "tiebreak-2p.yaml", "move": 6, "player": "Bo", "color": "blue", "tile": None, "square": None,
        "capture": False, "captured_color": None, "captured_tile": None, "groups_after": 2,
    }


def test_stats_command_over_a_folder(uptown):
    result = uptown.invoke("stats", RECORDS, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["skipped"] == 0
    assert approx_equal({k: data[k] for k in EXPECTED_STATS}, EXPECTED_STATS)
    text = uptown.invoke("stats", RECORDS).output
    assert "Results by seat (finished games):" in text


def test_stats_and_export_skip_invalid_records_and_say_so(uptown, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("uptown: 1\nplayers: [{name: A}, {name: B}]\nmoves: [red: 7 B8]\n")
    result = uptown.invoke("stats", RECORDS / "shared-3p.yaml", bad, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["skipped"] == 1
    assert f"{bad}:3: move 1: red plays 7 on B8, but 7 goes in column 7" in result.stderr
    result = uptown.invoke("export", bad, RECORDS / "shared-3p.yaml", "--jsonl")
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 6


def test_export_command_writes_every_move_of_every_record(uptown):
    result = uptown.invoke("export", RECORDS)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "game,move,player,color,tile,square,capture,captured_color,captured_tile,groups_after"
    assert len(lines) == 1 + 6 + 9 + 6 + 7
    assert lines[-1] == f"{RECORDS / 'tiebreak-2p.yaml'},7,Ana,red,,,false,,,2"


def test_a_folder_without_records_is_one_line(uptown, tmp_path):
    result = uptown.invoke("stats", tmp_path)
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {tmp_path} is a folder with no .yaml records in it"


def test_stats_over_the_sample_records_count_24_tiles_a_colour():
    folder = Path(__file__).parents[2] / "records"
    paths = sorted(folder.glob("*.yaml"))
    figures = corpus_stats(recorded(path.name, folder) for path in paths)
    assert sum(row["games"] for row in figures["games"]) == len(paths)
    for row in figures["tables"]:  # a finished game ends when every colour has played 24 tiles
        colours = 4 if row["players"] == 2 else row["players"]
        assert row["min_moves"] == row["max_moves"] == 24 * colours
    for players in {row["players"] for row in figures["seats"]}:
        wins = [row["wins"] for row in figures["seats"] if row["players"] == players]
        finished = [row["games"] for row in figures["tables"] if row["players"] == players][0]
        assert sum(wins) == pytest.approx(finished)
