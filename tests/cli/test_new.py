"""``uptown new``: players and colours, seed, variant, and every refusal."""

import re

import pytest

from uptown_cli.records.reading import load_record


def players(path):
    return [(p.name, p.colors) for p in load_record(path).players]


def test_three_players_get_red_blue_green_and_a_random_seed(uptown, tmp_path):
    path = tmp_path / "game.yaml"
    result = uptown.invoke("new", path, "--player", "Ana", "--player", "Bo", "--player", "Cy")
    assert result.exit_code == 0
    record = load_record(path)
    assert players(path) == [("Ana", ("red",)), ("Bo", ("blue",)), ("Cy", ("green",))]
    assert record.variant == "standard"
    assert re.fullmatch(r"[0-9a-f]{8}", record.seed)
    assert record.moves == []
    assert (
        f"Created {path}: standard, seed {record.seed}; Ana (red), Bo (blue), Cy (green)."
        in result.stdout
    )
    assert "Ana to move, rack: red " in result.stdout


def test_two_players_get_red_green_and_blue_yellow(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "-p", "Ana", "-p", "Bo").exit_code == 0
    assert players(path) == [("Ana", ("red", "green")), ("Bo", ("blue", "yellow"))]


def test_named_colours_and_the_rest_dealt_in_order(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, "-p", "Ana", "-p", "Bo:Red", "-p", "Cy", "-p", "Di:orange")
    assert result.exit_code == 0
    assert players(path) == [
        ("Ana", ("blue",)),
        ("Bo", ("red",)),
        ("Cy", ("green",)),
        ("Di", ("orange",)),
    ]


def test_two_named_colours_each(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "-p", "Ana:orange,blue", "-p", "Bo").exit_code == 0
    assert players(path) == [("Ana", ("orange", "blue")), ("Bo", ("red", "green"))]


def test_seed_variant_and_names_stay_text(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    result = uptown.invoke(
        "new", path, "-p", "No", "-p", "007", "-p", "On", "--seed", "0123", "--variant", "blockers"
    )
    assert result.exit_code == 0
    record = load_record(path)
    assert (record.seed, record.variant) == ("0123", "blockers")
    assert [p.name for p in record.players] == ["No", "007", "On"]


def test_file_defaults_to_game_yaml_then_uptown_game(uptown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert uptown.invoke("new", "-p", "Ana", "-p", "Bo").exit_code == 0
    assert (tmp_path / "game.yaml").exists()
    assert uptown.invoke("new", "-p", "Ana", "-p", "Bo", env={"UPTOWN_GAME": "other.yaml"}).exit_code == 0
    assert (tmp_path / "other.yaml").exists()


def test_refuses_to_overwrite(uptown, tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("# mine\n")
    result = uptown.invoke("new", path, "-p", "Ana", "-p", "Bo")
    assert result.exit_code == 1
    assert result.stderr == f"Error: {path} already exists; not overwritten\n"
    assert path.read_text() == "# mine\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["-p", "Ana"], "a game has 2 to 5 players; 1 given"),
        (["-p", "A", "-p", "B", "-p", "C", "-p", "D", "-p", "E", "-p", "F"], "2 to 5 players; 6 given"),
        (["-p", "Ana:purple", "-p", "Bo"], "unknown colour 'purple'"),
        (["-p", "Ana", "-p", "Bo", "--variant", "chess"], "'chess' is not one of"),
        ([], "Missing option '--player'"),
    ],
)
def test_usage_errors_exit_2(uptown, tmp_path, args, message):
    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not path.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["-p", "Ana", "-p", "ana"], "two players are named 'Ana' and 'ana'"),
        (["-p", "Ana", "-p", "\u0410na"], "the names 'Ana' and '\u0410na' look alike (U+0410 "
         "CYRILLIC CAPITAL LETTER A): one could be taken for the other; choose names that "
         "differ at a glance"),
        (["-p", "Ana:red", "-p", "Bo:red", "-p", "Cy"], "red is taken twice (Ana and Bo)"),
        (["-p", "Ana:red", "-p", "Bo:red"], "red is taken twice (Ana and Bo)"),
        (["-p", "Ana,Bo", "-p", "Cy"], "give --player once for each player"),
        (["-p", "Ana:red", "-p", "Bo"], "Ana has 1"),
        (["-p", "Ana:red,blue", "-p", "Bo", "-p", "Cy"], "Ana has 2"),
        (["-p", "Ana", "-p", "Bo", "--seed", " "], "Invalid value for '--seed': a seed must not be "
                                                   "blank (leave --seed out for a random one)"),
        (["-p", "Ana", "-p", "Bo", "--seed", ""], "Invalid value for '--seed': a seed must not be "
                                                  "blank (leave --seed out for a random one)"),
    ],
)
def test_bad_players_or_seed_are_usage_errors_and_write_nothing(uptown, tmp_path, args, message):
    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith(("Error: Invalid value for --player: ",
                                                      "Error: Invalid value for '--seed': "))
    assert "line" not in result.stderr and "key" not in result.stderr  # there is no file yet
    assert message in result.stderr
    assert not path.exists()


def test_a_missing_folder_is_one_line(uptown, tmp_path):
    result = uptown.invoke("new", tmp_path / "no" / "g.yaml", "-p", "Ana", "-p", "Bo")
    assert result.exit_code == 1
    assert result.stderr == f"Error: {tmp_path / 'no'}: no such folder; create it first\n"


def test_standard_input_is_refused(uptown, tmp_path):
    result = uptown.invoke("new", "-", "-p", "Ana", "-p", "Bo")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith("Error: new writes a file; give its name, not -\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("colors, message", [
    (["red", "red"], "red is taken twice (Ana and Bo)"),
    (["red", ""], "with 2 players, players have two colours each; Ana has 1"),
])
def test_new_and_a_record_refuse_a_line_up_in_the_same_words(uptown, tmp_path, colors, message):
    """One line-up check (records.lineup.lineup_problems) serves new and the record reader."""
    from uptown_cli.errors import RecordError
    from uptown_cli.records.schema import load_record_text

    options = [arg for name, color in zip(("Ana", "Bo"), colors)
               for arg in ("-p", f"{name}:{color}" if color else name)]
    result = uptown.invoke("new", tmp_path / "g.yaml", *options)
    assert result.exit_code == 2 and message in result.stderr
    lines = [f"  - name: {name}\n" + (f"    colors: [{color}]\n" if color else "")
             for name, color in zip(("Ana", "Bo"), colors)]
    with pytest.raises(RecordError) as raised:
        load_record_text("uptown: 1\nplayers:\n" + "".join(lines), "g.yaml")
    assert message in [problem.message for problem in raised.value.problems]
