"""Reading and checking records: the schema, then the replay through the engine."""

import json
import re
from pathlib import Path

import pytest

from uptown_cli.records import yaml_reader as yamlsafe
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.notation import parse_move
from uptown_cli.records.lineup import deal_colors
from uptown_cli.records.schema import load_record_text
from uptown_cli.records.entries import MoveEntry, PlayerEntry
from uptown_cli.errors import RecordError
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay
from uptown_cli.turns.validation import validate_file, validate_text
from uptown_cli.records.editing import record_with_move

ROOT = Path(__file__).resolve().parents[2]
ACCEPTANCE = ROOT.parent / "shared" / "acceptance"

THREE = """\
# a game at the club
uptown: 1
variant: blockers
event: Tuesday club night
date: 2026-11-29
players:                   # in turn order
  - name: Ana
    colors: [red]
  - name: Bo
    colors: [blue]
  - name: Cy
    colors: [green]
seed: 7f3a9c01
x-table: {number: 4, seats: [a, b]}
moves:
  - red: woman B8
  - blue: I I9
  - green: man C3
  - red: 9 xI9             # Ana takes Bo's I
"""

HEADER = "uptown: 1\nplayers:\n  - name: Ana\n    colors: [red]\n  - name: Bo\n    colors: [blue]\n" \
         "  - name: Cy\n    colors: [green]\n"


def problems(text, path="game.yaml"):
    with pytest.raises(RecordError) as info:
        load_record_text(text, path)
    return [(p.line, p.move, p.message) for p in info.value.problems]


def only_problem(text):
    found = problems(text)
    assert len(found) == 1, found
    return found[0]


# -- reading -------------------------------------------------------------------------------


def test_reads_a_record():
    record = load_record_text(THREE, "game.yaml")
    assert record.path == "game.yaml" and record.text == THREE
    assert (record.version, record.variant, record.seed) == (1, "blockers", "7f3a9c01")
    assert record.fields == {"event": "Tuesday club night", "date": "2026-11-29"}
    assert record.players == [PlayerEntry("Ana", ("red",), 7), PlayerEntry("Bo", ("blue",), 9),
                              PlayerEntry("Cy", ("green",), 11)]
    assert record.moves[0] == MoveEntry("red", "woman B8", 16)
    assert record.moves[-1] == MoveEntry("red", "9 xI9", 19)
    assert record.extras == {"x-table": {"number": "4", "seats": ["a", "b"]}}
    assert record.colors == ("red", "blue", "green")
    assert record.game_players() == [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]


def test_x_keys_keep_the_users_nested_data():
    text = HEADER + "x-ratings: {Ana: {elo: {2025: [1500]}}}\nmoves:\n  - red: 7 B7\n"
    record = load_record_text(text, "g.yaml")
    assert record.extras == {"x-ratings": {"Ana": {"elo": {"2025": ["1500"]}}}}
    levels = yamlsafe.MAX_DEPTH_UNDER_X - 1
    deep = text.replace("{Ana: {elo: {2025: [1500]}}}", "[" * levels + "]" * levels)
    after = record_with_move(deep, "blue", "sax E8", "g.yaml").text
    assert load_record_text(after, "g.yaml").moves[-1] == MoveEntry("blue", "sax E8", 12)
    assert problems(deep.replace("players:", "players: [[[[[]]]]]\nx-players:")) == [
        (2, None, "nested deeper than a record can be")]


def test_yaml_11_surprises_stay_text():
    text = ("uptown: 1\ndate: 2026-11-29\nround: 010\nnotes: yes\nplayers:\n  - name: No\n    colors: [red]\n"
            "  - name: On\n    colors: [blue]\n  - name: 007\n    colors: [green]\nseed: 0123\n")
    record = load_record_text(text, "g.yaml")
    assert [p.name for p in record.players] == ["No", "On", "007"]
    assert record.seed == "0123"
    assert record.fields == {"date": "2026-11-29", "round": "010", "notes": "yes"}


def test_bytes_are_decoded_strictly():
    assert load_record_text(THREE.encode(), "g.yaml").players[0].name == "Ana"
    err = pytest.raises(RecordError, load_record_text, b"uptown: 1\n\xff\n", "g.yaml").value
    assert (err.line, err.message) == (2, "not UTF-8 text: byte 0xff cannot be read")


def test_load_record_from_a_path(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(THREE)
    assert load_record(path).path == str(path)
    assert load_record(path, "shown.yaml").path == "shown.yaml"


@pytest.mark.parametrize("moves", ["moves:\n", "moves:   # none yet\n", "moves: []\n", ""])
def test_no_moves_yet(moves):
    assert load_record_text(HEADER + moves, "g.yaml").moves == []


def test_flow_moves():
    record = load_record_text(HEADER + "moves: [{red: woman B8}, {blue: 'I I9'},\n  {green: man C3}]\n", "g")
    assert record.moves == [MoveEntry("red", "woman B8", 9), MoveEntry("blue", "I I9", 9),
                            MoveEntry("green", "man C3", 10)]


def test_two_players_without_colours_are_dealt_red_green_and_blue_yellow():
    record = load_record_text("uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\n", "g")
    assert [p.colors for p in record.players] == [("red", "green"), ("blue", "yellow")]


def test_missing_colours_are_dealt_from_the_unused_ones():
    text = "uptown: 1\nplayers:\n  - {name: A}\n  - {name: B, colors: [red]}\n  - {name: C}\n  - {name: D, colors: blue}\n"
    record = load_record_text(text, "g")
    assert [p.colors for p in record.players] == [("green",), ("red",), ("yellow",), ("blue",)]


def test_deal_colors_for_a_new_game():
    entries = [PlayerEntry("A", (), 0), PlayerEntry("B", ("green",), 0), PlayerEntry("C", (), 0)]
    deal_colors(entries)
    assert [e.colors for e in entries] == [("red",), ("green",), ("blue",)]


def test_empty_optional_keys_count_as_missing():
    record = load_record_text("uptown: 1\nvariant:\nevent:\nseed:\n" + HEADER[10:], "g")
    assert (record.variant, record.fields, record.seed) == ("standard", {}, None)


# -- refused -------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("", (1, None, "a record is a mapping of keys (uptown: 1, players: ...), but this file holds nothing")),
    ("- a\n- b\n", (1, None, "a record is a mapping of keys (uptown: 1, players: ...), but this file holds a list")),
    (HEADER[10:], (1, None, "the format version is missing: a record starts with 'uptown: 1'")),
    ('uptown: "1"\n' + HEADER[10:], (1, None, "the format version must be the number 1, not '1'")),
    ("uptown: 1.0\n" + HEADER[10:], (1, None, "the format version must be the number 1, not '1.0'")),
    ("uptown: 01\n" + HEADER[10:], (1, None, "the format version must be the number 1, not '01'")),
    ("uptown: 2\n" + HEADER[10:], (1, None, "format version 2 is not supported (this uptown reads format 1)")),
    (HEADER + "variant: chess\n", (9, None, "unknown variant 'chess' (standard or blockers)")),
    (HEADER + "mvoes: []\n", (9, None, "unknown key 'mvoes': did you mean 'moves'? (keys of your own "
                                         "begin with x-)")),
    (HEADER + "foo: []\n", (9, None, "unknown key 'foo' (records/README.md lists the keys; keys of "
                                       "your own begin with x-)")),
    (HEADER + "event: [a]\n", (9, None, "'event' must be text, not a list")),
    (HEADER + "seed: ''\n", (9, None, "the seed must not be blank (leave the key out for a game without one)")),
    (HEADER + "seed: {a: b}\n", (9, None, "'seed' must be text, not a mapping")),
    ("uptown: 1\n", (1, None, "the players are missing ('players:' with one '- name: ...' per player)")),
    ("uptown: 1\nplayers: Ana\n", (2, None, "'players' must be a list of players, not text")),
    ("uptown: 1\nplayers:\n  - name: Ana\n", (3, None, "a game has 2 to 5 players, this one has 1")),
    ("uptown: 1\nplayers: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}, {name: f}]\n",
     (2, None, "a game has 2 to 5 players, this one has 6")),
    ("uptown: 1\nplayers:\n  - Ana\n  - name: Bo\n",
     (3, None, "a player must be a mapping like 'name: Ana', not text")),
    ("uptown: 1\nplayers:\n  - colors: [red, green]\n  - name: Bo\n", (3, None, "a player needs a name ('name: Ana')")),
    ("uptown: 1\nplayers:\n  - name: ' '\n  - name: Bo\n", (3, None, "a player's name must not be empty")),
    ('uptown: 1\nplayers:\n  - name: "A\\nB"\n  - name: Bo\n',
     (3, None, "a player's name must be one line of printable text, not 'A\\nB'")),
    ("uptown: 1\nplayers:\n  - name: Ana\n  - name: ana\n", (4, None, "two players are named 'ana' (lines 3 and 4)")),
    ("uptown: 1\nplayers:\n  - name: Gr\u00e9edy\n  - name: Gre\u0301edy\n",
     (4, None, "two players are named 'Gre\u0301edy' (lines 3 and 4)")),
    ("uptown: 1\nplayers:\n  - name: Ana\n  - name: \u0410na\n",
     (4, None, "the names 'Ana' (line 3) and '\u0410na' look alike (U+0410 CYRILLIC CAPITAL "
               "LETTER A): one could be taken for the other")),
    ("uptown: 1\nplayers:\n  - name: Ana\n    colours: [red]\n  - name: Bo\n",
     (4, None, "unknown key 'colours' for a player (name, colors, email, lang)")),
    ("uptown: 1\nplayers:\n  - name: Ana\n    colors: [Red, green]\n  - name: Bo\n",
     (4, None, "unknown colour 'Red' (the colours are red, blue, green, yellow, orange)")),
    ("uptown: 1\nplayers:\n  - name: Ana\n    colors: {red: 1}\n  - name: Bo\n",
     (4, None, "a colour must be text, not a mapping")),
    ("uptown: 1\nplayers:\n  - name: Ana\n    colors: [red]\n  - name: Bo\n",
     (3, None, "with 2 players, players have two colours each; Ana has 1")),
    ("uptown: 1\nplayers:\n  - {name: A, colors: [red]}\n  - {name: B, colors: [red]}\n  - {name: C}\n",
     (4, None, "red is taken twice (A and B)")),
    ("uptown: 1\nplayers:\n  - {name: A, colors: [red, blue]}\n  - {name: B}\n  - {name: C}\n",
     (3, None, "with 3 players, players have one colour each; A has 2")),
    (HEADER + "moves: red\n", (9, None, "'moves' must be a list of moves ('- red: 7 B7'), not text")),
    (HEADER + "moves:\n  - red: woman B8\n  - blue\n",
     (11, 2, "a move is one colour and its move, like '- red: 7 B7'")),
    (HEADER + "moves:\n  - {red: woman B8, blue: I I9}\n",
     (10, 1, "a move is one colour and its move, like '- red: 7 B7'")),
    (HEADER + "moves:\n  - link: " + "a" * 64 + "\n",
     (10, 1, "a move is one colour and its move, like '- red: 7 B7'")),
    (HEADER + "moves:\n  - red: woman B8\n  - purple: I I9\n",
     (11, 2, "unknown colour 'purple' (the colours are red, blue, green, yellow, orange)")),
    (HEADER + "moves:\n  - yellow: I I9\n", (10, 1, "yellow does not play in this game")),
    (HEADER + "moves:\n  - red:\n", (10, 1, "move 1 (red) must be a move like '7 B7', not empty")),
    (HEADER + "moves:\n  - red: [a]\n", (10, 1, "move 1 (red) must be a move like '7 B7', not a list")),
])
def test_schema_problem(text, expected):
    assert only_problem(text) == expected


def test_all_schema_problems_are_collected():
    text = "uptown: 3\nvariant: go\nplayers:\n  - name: Ana\n    colors: [red]\n  - name: Bo\n" \
           "    colors: [red]\n  - name: Cy\n    colors: [teal]\nextra: 1\n"
    found = problems(text)
    assert [(line, message.split(" ")[0]) for line, _, message in found] == [
        (1, "format"), (2, "unknown"), (9, "unknown"), (10, "unknown")]
    err = pytest.raises(RecordError, load_record_text, text, "g.yaml").value
    assert str(err) == "g.yaml:1: format version 3 is not supported (this uptown reads format 1)"


def test_yaml_problems_come_through_with_their_line():
    assert only_problem(HEADER + "moves:\n  - red: woman B8\n  - red: 7 B7\nmoves:\n") == \
        (12, None, "the key 'moves' is given twice (first on line 9)")
    assert only_problem(HEADER + "seed: &s abc\n")[:2] == (9, None)


# -- replay --------------------------------------------------------------------------------


def test_replays_a_legal_game():
    result = replay(load_record_text(THREE, "g.yaml"))
    assert result.valid and result.errors == [] and result.moves_ok == 4
    assert [str(turn.move) for turn in result.game.history] == ["woman B8", "I I9", "man C3", "9 xI9"]
    assert result.game.racks is not None


def test_replay_stops_at_the_first_illegal_move():
    text = THREE.replace("  - green: man C3\n", "  - green: man C3\n  - red: woman xB8\n")
    result = replay(load_record_text(text, "g.yaml"))
    assert not result.valid and result.moves_ok == 3 and result.game.ply == 3
    [err] = result.errors
    assert (err.line, err.move) == (19, 4)
    assert str(err) == "g.yaml:19: red's woman has already been played"


def summary(validation):
    return validation.moves, [(e.line, e.move, e.message) for e in validation.errors]


def test_a_move_that_breaks_the_format_counts_the_moves_before_it():
    text = HEADER + "moves:\n  - red: 7 B7\n  - yellow: sax E8\n  - green: 1 A1\n"
    result = validate_text(text, "g.yaml")
    assert summary(result) == (1, [(11, 2, "yellow does not play in this game")])
    assert result.record is None and result.to_json()["moves"] == 1


def test_an_illegal_move_comes_before_a_later_format_problem():
    text = HEADER + "moves:\n  - red: 7 B7\n  - blue: 7 B8\n  - green: 1 A1\n  - red\n"
    assert summary(validate_text(text, "g.yaml")) == (1, [
        (11, 2, "blue plays 7 on B8, but 7 goes in column 7"),
        (13, 4, "a move is one colour and its move, like '- red: 7 B7'"),
    ])


def test_moves_after_a_format_problem_are_not_replayed():
    text = HEADER + "moves:\n  - red: 7 B7\n  - blue: [sax, E8]\n  - green: 7 B8\n"
    assert summary(validate_text(text, "g.yaml")) == (1, [
        (11, 2, "move 2 (blue) must be a move like '7 B7', not a list")])


def test_flow_moves_on_one_line_are_reported_in_move_order():
    text = HEADER + "moves: [{red: 7 B7}, {blue: 7 B8}, {green: 1 A1}, {teal: 2 A2}]\n"
    result = validate_text(text, "g.yaml")
    assert [(e.line, e.move) for e in result.errors] == [(9, 2), (9, 4)] and result.moves == 1


def test_problems_not_tied_to_a_move_keep_their_place_and_moves_still_count():
    text = "event: [a]\n" + HEADER + "moves:\n  - red: 7 B7\n  - blue: 7 B8\nsite: {x: 1}\n"
    assert summary(validate_text(text, "g.yaml")) == (1, [
        (1, None, "'event' must be text, not a list"),
        (12, 2, "blue plays 7 on B8, but 7 goes in column 7"),
        (13, None, "'site' must be text, not a mapping"),
    ])


def test_nothing_is_replayed_when_the_players_are_wrong():
    text = HEADER.replace("[blue]", "[red]") + "moves:\n  - red: 7 B7\n"
    assert summary(validate_text(text, "g.yaml")) == (0, [(5, None, "red is taken twice (Ana and Bo)")])


def test_wrong_square_message_names_the_line():
    text = HEADER + "moves:\n  - red: 7 B7\n  - blue: 7 B8\n"
    [err] = replay(load_record_text(text, "game.yaml")).errors
    assert str(err) == "game.yaml:11: blue plays 7 on B8, but 7 goes in column 7"
    assert err.move == 2


@pytest.mark.parametrize("move, message", [
    ("K A1", "'K' is not a tile (A-I, 1-9, a symbol such as sax, or $)"),
    ("7 J7", "'J7' is not a square (A1 to I9)"),
    ("7B7", "'7B7' is not a move: write TILE SQUARE (7 B7, 4 xB4) or pass"),
])
def test_unreadable_move_is_an_error_at_that_move(move, message):
    text = HEADER + f"moves:\n  - red: woman B8\n  - blue: {move}\n  - green: man C3\n"
    result = replay(load_record_text(text, "g.yaml"))
    [err] = result.errors
    assert (err.line, err.move, result.moves_ok) == (11, 2, 1)
    assert err.message == f"blue's move {move!r} cannot be read: {message}"


def test_seeded_record_playing_a_tile_not_on_the_rack_is_invalid_at_that_move():
    text = THREE.replace("  - red: 9 xI9             # Ana takes Bo's I\n", "  - red: 4 D4\n")
    result = replay(load_record_text(text, "g.yaml"))
    [err] = result.errors
    assert (err.line, err.move, result.moves_ok) == (19, 4, 3)
    assert err.message == "red has no 4 on its rack (G I 9 sign champagne)"


def test_without_a_seed_any_unplayed_tile_may_be_played():
    text = THREE.replace("seed: 7f3a9c01\n", "").replace("  - red: 9 xI9             # Ana takes Bo's I\n",
                                                          "  - red: 4 D4\n")
    result = replay(load_record_text(text, "g.yaml"))
    assert result.valid and result.game.racks is None


def test_replay_upto():
    result = replay(load_record_text(THREE, "g.yaml"), upto=2)
    assert result.valid and result.moves_ok == 2 and result.game.ply == 2


def test_lenient_reading_of_notation():
    text = HEADER + "moves:\n  - red: LADY b8\n  - blue: i xI9\n  - green: man C3\n  - red: 9 I9\n"
    result = replay(load_record_text(text, "g.yaml"))
    assert result.valid and result.moves_ok == 4


def test_strict_reports_every_move_not_written_canonically():
    text = HEADER + "moves:\n  - red: LADY b8\n  - blue: I xI9\n  - green: man C3\n  - red: 9 I9\n"
    result = replay(load_record_text(text, "g.yaml"), strict=True)
    assert result.moves_ok == 4
    assert [(e.move, e.line, e.message) for e in result.errors] == [
        (1, 10, "'LADY b8' is not canonical notation: write 'woman B8'"),
        (2, 11, "'I xI9' is not canonical notation: write 'I I9'"),
        (4, 13, "'9 I9' is not canonical notation: write '9 xI9'"),
    ]
    assert replay(load_record_text(THREE, "g.yaml"), strict=True).valid


def test_strict_wants_a_pass_under_the_first_colour():
    text = "uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\nmoves:\n  - red: 7 B7\n  - yellow: pass\n" \
           "  - green: PASS\n"
    assert replay(load_record_text(text, "g.yaml")).valid
    result = replay(load_record_text(text, "g.yaml"), strict=True)
    assert [(e.move, e.message) for e in result.errors] == [
        (2, "a pass is recorded under the player's first colour, blue"),
        (3, "'PASS' is not canonical notation: write 'pass'"),
    ]


def test_validate_text_and_file(tmp_path):
    bad = validate_text(HEADER + "moves:\n  - red: 7 B7\n  - blue: 7 B8\n", "g.yaml")
    assert bad.to_json() == {"path": "g.yaml", "valid": False, "moves": 1, "errors": [
        {"line": 11, "move": 2, "message": "blue plays 7 on B8, but 7 goes in column 7"}],
        "warnings": []}
    schema = validate_text("uptown: 1\n", "g.yaml")
    assert (schema.valid, schema.moves, schema.record) == (False, 0, None)
    path = tmp_path / "g.yaml"
    path.write_text(THREE)
    good = validate_file(path, shown="shown.yaml")
    assert good.to_json() == {"path": "shown.yaml", "valid": True, "moves": 4, "errors": [],
                              "warnings": []}
    missing = validate_file(tmp_path / "missing.yaml")
    assert not missing.valid and missing.errors[0].line is None


def test_the_format_guide_example_is_a_valid_record():
    guide = (ROOT / "records" / "README.md").read_text()
    example = re.search(r"```yaml\n(.*?)```", guide, re.S).group(1)
    result = validate_text(example, "README.md")
    assert result.valid and result.moves == 4


@pytest.mark.skipif(not (ACCEPTANCE / "expected.json").exists(), reason="no acceptance games here")
def test_acceptance_games():
    expected = json.loads((ACCEPTANCE / "expected.json").read_text())
    for name, want in sorted(expected.items()):
        result = validate_file(ACCEPTANCE / name)
        assert result.valid == want["valid"], (name, [str(e) for e in result.errors])
        if want["valid"]:
            assert result.moves == want["moves"], name
            assert result.record.game_players() and result.moves == len(result.record.moves)
        else:
            assert [e.move for e in result.errors] == [want["first_error_move"]], name
            assert result.moves == want["first_error_move"] - 1, name


def test_replayed_game_matches_playing_the_moves_directly():
    record = load_record_text(THREE, "g.yaml")
    game = Game(record.game_players())
    for entry in record.moves:
        game.play(parse_move(entry.text), entry.color)
    assert replay(record).game.board == game.board


def test_record_owners_names_the_player_of_each_colour():
    two = load_record_text("uptown: 1\nplayers:\n  - {name: Ana, colors: [red, green]}\n"
                           "  - {name: Bo, colors: [blue, yellow]}\nseed: s\n", "g.yaml")
    assert two.owners == {"red": "Ana", "green": "Ana", "blue": "Bo", "yellow": "Bo"}
    assert load_record_text(THREE, "g.yaml").owners == {"red": "Ana", "blue": "Bo", "green": "Cy"}
