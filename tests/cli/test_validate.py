"""``uptown validate``: files and folders, PATH:LINE lines, the summary, --strict, --json."""

import pytest
from support.games import BROKEN, BROKEN_LINE, finished_game


@pytest.fixture
def good(finished_record):
    return finished_record[0]


@pytest.fixture
def bad(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BROKEN)
    return path


def test_a_valid_record(uptown, good):
    result = uptown.invoke("validate", good)
    assert (result.exit_code, result.stdout) == (0, "1 record, 1 valid, 0 invalid\n")


def test_an_invalid_record_names_path_line_and_move(uptown, good, bad):
    result = uptown.invoke("validate", good, bad)
    assert result.exit_code == 1
    assert result.stdout == f"{bad}:{BROKEN_LINE}\n2 records, 1 valid, 1 invalid\n"


def test_json_shape(uptown, good, bad):
    result, data = uptown.json("validate", "--json", good, bad)
    assert result.exit_code == 1
    assert data == [
        {"path": str(good), "valid": True, "moves": 72, "errors": [], "warnings": []},
        {
            "path": str(bad),
            "valid": False,
            "moves": 2,
            "errors": [
                {"line": 10, "move": 3, "message": "green plays 7 on B8, but 7 goes in column 7"}
            ],
            "warnings": [],  # added to the first shape: the notes that do not fit
        },
    ]
    assert uptown.json("validate", "--json", good)[0].exit_code == 0


def test_folders_are_searched_for_yaml(uptown, tmp_path, good):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.yml").write_text(BROKEN)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.yaml").write_text(BROKEN)
    (tmp_path / "notes.txt").write_text("not a record")
    result = uptown.invoke("validate", tmp_path)
    assert result.exit_code == 1
    assert (
        result.stdout == f"{tmp_path / 'sub' / 'b.yml'}:{BROKEN_LINE}\n2 records, 1 valid, 1 invalid\n"
    )


def test_a_folder_without_records(uptown, tmp_path):
    result = uptown.invoke("validate", tmp_path)
    assert result.exit_code == 1
    assert result.stderr == f"Error: {tmp_path} is a folder with no .yaml records in it\n"


def test_missing_and_broken_files_are_invalid_records(uptown, tmp_path, good):
    broken = tmp_path / "broken.yaml"
    broken.write_text("uptown: 1\nplayers: [{name: A}, {name: B}]\nmoves: []\nmoves: []\n")
    result = uptown.invoke("validate", tmp_path / "none.yaml", broken, good)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{tmp_path / 'none.yaml'}: no such file (uptown new creates a game)"
    assert uptown.invoke("show", tmp_path / "none.yaml").stderr == f"Error: {lines[0]}\n"
    assert lines[1].startswith(f"{broken}:4: ")
    assert lines[-1] == "3 records, 1 valid, 2 invalid"


def test_strict_reports_missing_capture_marks(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(BROKEN.replace("green: 7 B8", "green: 7 B7").replace("E xE8", "e e8"))
    assert uptown.invoke("validate", path).exit_code == 0
    result = uptown.invoke("validate", "--strict", path)
    assert result.exit_code == 1
    assert result.stdout == (
        f"{path}:10: move 3: '7 B7' is not canonical notation: write '7 xB7'\n"
        f"{path}:11: move 4: 'e e8' is not canonical notation: write 'E xE8'\n"
        "1 record, 0 valid, 1 invalid\n"
    )


def test_standard_input(uptown):
    result = uptown.invoke("validate", "-", input=BROKEN)
    assert result.exit_code == 1
    assert result.stdout == f"<stdin>:{BROKEN_LINE}\n1 record, 0 valid, 1 invalid\n"


def test_defaults_to_game_yaml(uptown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    finished_game(tmp_path / "game.yaml")
    assert uptown.invoke("validate").stdout == "1 record, 1 valid, 0 invalid\n"
    assert uptown.invoke("validate", env={"UPTOWN_GAME": "none.yaml"}).exit_code == 1


def test_no_progress_bar_off_a_terminal(uptown, tmp_path, good):
    for n in range(25):
        (tmp_path / f"g{n:02}.yaml").write_bytes(good.read_bytes())
    result = uptown.invoke("validate", tmp_path)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == "26 records, 26 valid, 0 invalid\n"
