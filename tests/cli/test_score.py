"""``uptown score``: the standings table, --variant, several files, --json."""

import pytest
from support.games import BROKEN, TWO, finished_game, new_game

from uptown_cli.engine.scoring import standings


@pytest.fixture
def finished(finished_record):
    return finished_record


def expected_json(game, variant, path):
    return {
        "path": str(path),
        "variant": variant,
        "finished": True,
        "players": [
            {
                "name": s.name,
                "colors": list(s.colors),
                "groups": s.groups,
                "captures": s.captures,
                "captured": s.captured,
                "score": s.score,
                "rank": s.rank,
                "forfeit": None,
            }
            for s in standings(game, variant)
        ],
    }


def test_table(uptown, finished):
    path, game = finished
    result = uptown.invoke("score", path)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: standard, finished"
    assert lines[1].split() == ["rank", "player", "colours", "groups", "captures", "score"]
    ranked = sorted(standings(game), key=lambda s: s.rank)
    for line, s in zip(lines[3:], ranked):
        assert line.split() == [
            str(s.rank),
            s.name,
            ",".join(s.colors),
            str(s.groups),
            str(s.captures),
            str(s.score),
        ]
    assert len(lines) == 3 + len(ranked) + 1  # and who won


@pytest.mark.parametrize("variant", ["standard", "blockers"])
def test_json_matches_the_engine(uptown, finished, variant):
    path, game = finished
    result, data = uptown.json("score", path, "--json", "--variant", variant)
    assert result.exit_code == 0
    assert data == expected_json(game, variant, path)


def test_the_files_variant_is_the_default(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    new_game(path, variant="blockers")
    data = uptown.json("score", path, "--json")[1]
    assert data["variant"] == "blockers"
    assert data["finished"] is False
    assert "not finished, after 0 moves" in uptown.invoke("score", path).stdout


def test_two_players_add_their_colours(uptown, tmp_path):
    path = tmp_path / "two.yaml"
    game = finished_game(path, TWO)
    data = uptown.json("score", path, "--json", "--variant", "blockers")[1]
    assert data == expected_json(game, "blockers", path)
    assert data["players"][0]["colors"] == ["red", "green"]


def test_several_files(uptown, tmp_path, finished):
    path, game = finished
    other = tmp_path / "two.yaml"
    other_game = finished_game(other, TWO)
    result, data = uptown.json("score", path, other, "--json")
    assert result.exit_code == 0
    assert data == [expected_json(game, "standard", path), expected_json(other_game, "standard", other)]
    text = uptown.invoke("score", path, other).stdout
    assert f"{path}: standard, finished\n" in text and f"\n\n{other}: standard, finished\n" in text


def test_an_invalid_file_among_several(uptown, tmp_path, finished):
    path, _ = finished
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN)
    result, data = uptown.json("score", bad, path, "--json")
    assert result.exit_code == 1
    assert [entry["path"] for entry in data] == [str(path)]
    assert (
        result.stderr == f"Error: {bad}:10: move 3: green plays 7 on B8, but 7 goes in column 7"
        " (the record is invalid)\n"
    )


def test_errors(uptown, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN)
    assert uptown.invoke("score", bad).exit_code == 1
    assert uptown.invoke("score", tmp_path / "none.yaml").exit_code == 1
    result = uptown.invoke("score", bad, "--variant", "chess")
    assert result.exit_code == 2
    assert "'chess' is not one of" in result.stderr


def test_format(uptown, finished):
    path, _ = finished
    out = uptown.invoke("score", path, "--format", "github").stdout
    assert "|   rank | player   |" in out
    tsv = uptown.invoke("score", path, "--format", "tsv").stdout
    assert tsv.splitlines()[0].split("\t")[0].strip() == "rank"


def test_standard_input(uptown, finished):
    path, game = finished
    result, data = uptown.json("score", "-", "--json", input=path.read_bytes())
    assert data == expected_json(game, "standard", "-")


def test_a_forfeit_has_its_column_in_the_table_and_its_move_in_json(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "-p", "Cy", "--seed", "s")
    assert uptown.invoke("move", path, "--bot", "greedy").exit_code == 0
    assert uptown.invoke("move", path, "forfeit", "--as", "Bo").exit_code == 0
    lines = uptown.invoke("score", path).stdout.splitlines()
    assert lines[1].split() == ["rank", "player", "colours", "groups", "captures", "score",
                                "forfeit"]
    assert lines[-1].split()[:2] == ["3", "Bo"] and lines[-1].endswith("  move 2")
    assert not any(line.endswith("move 2") for line in lines[3:-1])
    result, data = uptown.json("score", path, "--json")
    assert {p["name"]: p["forfeit"] for p in data["players"]} == {"Ana": None, "Bo": 2, "Cy": None}
