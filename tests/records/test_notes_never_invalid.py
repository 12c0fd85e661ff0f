"""Notes never make a game invalid (issue 26, item 5): ``best``, ``variations``, ``eval``,
``comment`` and any ``x-`` key under a move are outside what is checked for fair play. A note
that does not fit the rules or the rack is a warning (``validate``: ``PATH:LINE: warning: move
N: ...``, ``--json``: ``"warnings"``), and stops neither ``show``, ``score``, ``replay``,
``analyze`` nor ``ratings``."""

import pytest
from support.players import PLAYERS, as_player, play_bot, position, uptown_as

from uptown_cli.engine.game import Game
from uptown_cli.engine.geometry import FIT_SQUARES, TILE_NAMES, parse_tile, square_name
from uptown_cli.engine.notation import parse_move
from uptown_cli.errors import IllegalMove
from uptown_cli.records.reading import load_record
from uptown_cli.turns.validation import validate_file


def off_rack_move(path, number, rack):
    """A move legal on the board before move ``number`` of the record at ``path`` whose tile
    is not in ``rack`` (the mover's, as they saw it) nor played before: what a griefer writes
    as the ``best`` move of someone else's move."""
    record = load_record(path)
    game = Game(record.game_players(), None)  # the racks unknown: the board's rules alone
    for entry in record.moves[:number - 1]:
        game.play(parse_move(entry.text), entry.color)
    color = record.moves[number - 1].color
    played = {turn.move.tile for turn in game.history if turn.color == color}
    for name in TILE_NAMES:
        if name in rack or name == "$" or parse_tile(name) in played:
            continue
        for square in FIT_SQUARES[parse_tile(name)]:
            text = f"{name} {square_name(square)}"
            try:
                game.play(parse_move(text), color)
            except IllegalMove:
                continue
            game.pop()
            return color, text
    raise AssertionError("no such move")


def add_note(path, number, note, after_link=False):
    """Write ``note`` (lines, indented as keys under a move) under move ``number``; the line
    it lands on."""
    lines = path.read_text().splitlines(keepends=True)
    at = load_record(path).moves[number - 1].line + (1 if after_link else 0)
    lines[at:at] = [f"    {line}\n" for line in note.splitlines()]
    path.write_text("".join(lines))
    return at + 1


def everything_still_works(uptown, path, env=None):
    """``show``, ``score``, ``replay`` and ``analyze`` read the game; ``ratings`` counts it."""
    for args in (["show", path], ["score", path], ["replay", path],
                 ["analyze", path, "--iterations", "2", "--seed", "1"]):
        result = uptown.invoke(*args, env=env)
        assert result.exit_code == 0, (args, result.output)
    result, data = uptown.json("ratings", path.parent, "--json", env=env)
    assert result.exit_code == 0, result.output
    assert (data["games"], data["skipped_invalid"]) == (1, [])
    assert len(data["ratings"]) == len(load_record(path).players)


def test_a_best_move_off_the_rack_is_a_warning_in_a_seeded_game(uptown, finished_record):
    path, _ = finished_record
    _, data = uptown.json("show", path, "--json", "--at", "2")
    rack = data["racks"][load_record(path).moves[2].color]
    color, move = off_rack_move(path, 3, rack)
    line = add_note(path, 3, f"best: {move}")
    result = uptown.invoke("validate", path)
    assert result.exit_code == 0, result.output
    says = f"best ({move}): {color} has no {move.split()[0]} on its rack ({' '.join(rack)})"
    assert result.stdout.splitlines() == [f"{path}:{line}: warning: move 3: {says}",
                                          "1 record, 1 valid, 0 invalid, 1 warning"]
    result, [checked] = uptown.json("validate", "--json", path)
    assert checked["valid"] and checked["errors"] == []
    assert checked["warnings"] == [{"line": line, "move": 3, "message": says}]
    assert validate_file(path).record is not None
    everything_still_works(uptown, path)


@pytest.mark.parametrize("note, says", [
    ("best: sax", "best (sax): "),
    ("best: [7 B7]", "move 3's best must be a move like '7 B7', not a list"),
    ("variations:\n  - [zz Z9]", "variation 1, move 1 (zz Z9): 'zz' is not a tile"),
    ("variations: 7 B7", "variations are a list of lines"),
    ("variations:\n  - 7 B7", "a variation is a list of moves"),
    ("eval: {score: many, win: 25%}", "move 3's eval is {score: NUMBER, win: PERCENT%}"),
    ("eval: {score: 1, win: 250%}", "move 3's eval is {score: NUMBER, win: PERCENT%}"),
    ("comment: {a: b}", "move 3's comment must be text, not a mapping"),
], ids=["best unreadable", "best a list", "variation illegal", "variations not a list",
        "variation not a list", "eval score", "eval win", "comment a mapping"])
def test_a_note_that_does_not_fit_is_a_warning(uptown, record_after, note, says):
    path = record_after(4)
    line = add_note(path, 3, note)
    checked = validate_file(path)
    assert checked.valid and checked.errors == [] and checked.record is not None
    [warning] = checked.warnings
    assert (warning.line, warning.move) == (line + note.count("\n") * note.startswith("variations:\n"), 3)
    assert says in warning.message, warning.message
    result = uptown.invoke("validate", path)
    assert result.exit_code == 0 and f"{path}:{warning.line}: warning: move 3: {says}" in result.stdout
    data = uptown.json("moves", path, "--json")[1]
    color = next(c for c, moves in data["by_color"].items() if moves)
    moved = uptown.invoke("move", path, data["by_color"][color][0], "--rack", color)
    assert moved.exit_code == 0, moved.output  # the game goes on, the note kept
    assert "\n".join(f"    {n}" for n in note.splitlines()) in path.read_text()


def test_keys_of_your_own_under_a_move_are_notes(uptown, record_after):
    path = record_after(3)
    add_note(path, 2, "x-clock: {Bo: 12m}\nx-said:\n  - well played")
    text = path.read_text()
    checked = validate_file(path)
    assert checked.valid and not checked.warnings
    data = uptown.json("moves", path, "--json")[1]
    color = next(c for c, moves in data["by_color"].items() if moves)
    assert uptown.invoke("move", path, data["by_color"][color][0], "--rack", color).exit_code == 0
    assert path.read_text().startswith(text)  # kept byte for byte
    add_note(path, 1, "mine: 1")  # a key that is no note hides a typo: still refused
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1 and "unknown key 'mine' in a move" in result.stdout


@pytest.mark.slow
def test_a_note_never_freezes_a_hidden_game(uptown, tmp_path):
    """The attack of issue 26, item 5: Cy adds under her own move 3 a best move with a tile
    she did not hold; the note travels (nobody's memory seals notes), and once every key is
    revealed the game is still valid: one warning, and show, score, replay, analyze and
    ratings all take it."""
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "--hidden", *[x for n in PLAYERS for x in ("-p", n)]).exit_code == 0
    for name in PLAYERS:
        assert uptown_as(tmp_path, name, "join", path, "--as", name).exit_code == 0
    for _ in range(2):
        play_bot(tmp_path, path)
    assert position(tmp_path, path)["to_move"] == "Cy"
    rack = position(tmp_path, path, "Cy")["racks"]["green"]
    play_bot(tmp_path, path)
    color, move = off_rack_move(path, 3, rack)
    line = add_note(path, 3, f"best: {move}", after_link=True)  # Cy's tool does not object
    assert uptown_as(tmp_path, "Cy", "show", path, "--as", "Cy").exit_code == 0
    while not position(tmp_path, path)["finished"]:
        play_bot(tmp_path, path)  # Ana and Bo play on, the note in their copy
    for name in PLAYERS:
        result = uptown_as(tmp_path, name, "reveal", path, "--as", name)
        assert result.exit_code == 0, result.output
    result = uptown.invoke("validate", path, env=as_player(tmp_path, "nobody"))
    assert result.exit_code == 0, result.output
    [warning, summary] = result.stdout.splitlines()
    assert warning.startswith(f"{path}:{line}: warning: move 3: best ({move}): {color} has no "
                              f"{move.split()[0]} on its rack (")
    assert summary == "1 record, 1 valid, 0 invalid, 1 warning"
    everything_still_works(uptown, path, env=as_player(tmp_path, "nobody"))
    for name in PLAYERS:
        assert uptown_as(tmp_path, name, "show", path, "--as", name).exit_code == 0
