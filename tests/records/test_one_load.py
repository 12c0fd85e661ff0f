"""One load per command: ``move``, ``show`` and ``validate`` read the file once, parse it once
and replay its moves once for the viewer they serve (open, or a hidden game as NAME); a move
parses only the new text again, to read it back.  Counted in a process of its own, by a
profile hook that sees each call of the public functions that do the work (nothing patched)."""

import json
import os
import subprocess
import sys

import pytest
from support.players import play_to_end

MOVES = 6
"""Moves played before the command counted."""

COUNTER = """
import collections, json, sys
from uptown_cli.engine.game import Game
from uptown_cli.hidden import draws
from uptown_cli.records import reading, schema, yaml_reader

WORK = {reading.read_file.__code__: "reads", yaml_reader.parse.__code__: "parses",
        schema.SchemaReader.check.__code__: "schema", Game.play.__code__: "plays",
        draws.framed_hash.__code__: "hashes"}
counts, texts = collections.Counter(), collections.Counter()

def seen(frame, event, arg):
    key = WORK.get(frame.f_code) if event == "call" else None
    if key == "parses":
        texts[frame.f_locals["text"]] += 1
    elif key == "hashes":  # a chain starts with one hash tagged "chain"
        key = "chains" if frame.f_locals["fields"][0].endswith(b" chain") else None
    if key:
        counts[key] += 1

from uptown_cli.cli import main
sys.setprofile(seen)
try:
    main(sys.argv[2:], prog_name="uptown")
except SystemExit as done:
    status = done.code
sys.setprofile(None)
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"status": status, "counts": counts, "texts": list(texts.items())}, out)
"""
"""Runs ``uptown ARGS`` (argv: the file for the counts, then ARGS) with the hook on: ``reads``
of a record file, ``parses`` (and the texts parsed), ``schema`` checks of a record,
``plays`` (``Game.play``) and ``chains`` (hash chains built: each starts with a hash tagged
``chain``)."""


@pytest.fixture
def counted(tmp_path):
    """``run(*args, env=)``: ``(counts, {text parsed: times})`` of ``uptown ARGS``."""
    out = tmp_path / "counts.json"

    def run(*args, env=None):
        environment = {**os.environ, **{k: v for k, v in (env or {}).items() if v is not None}}
        for name, value in (env or {}).items():
            if value is None:
                environment.pop(name, None)
        done = subprocess.run([sys.executable, "-c", COUNTER, str(out), *map(str, args)],
                              env=environment, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        found = json.loads(out.read_text(encoding="utf-8"))
        assert found["status"] in (0, None), done.stderr
        return {"reads": 0, "parses": 0, "schema": 0, "plays": 0, "chains": 0,
                **found["counts"]}, dict(found["texts"])

    return run


def open_game(record_after):
    path = record_after(MOVES)
    return path, {}, []


def hidden_game(uptown, tmp_path):
    """A hidden game of Ana and Bo after ``MOVES`` moves, each with a key folder of their own."""
    path = tmp_path / "hidden.yaml"
    env = {name: {"UPTOWN_KEYS": str(tmp_path / f"keys-{name}"), "UPTOWN_GAME": None}
           for name in ("Ana", "Bo")}
    assert uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo").exit_code == 0
    for name in ("Ana", "Bo"):
        assert uptown.invoke("join", path, "--as", name, env=env[name]).exit_code == 0
    for number in range(MOVES):
        name = ("Ana", "Bo")[number % 2]
        result = uptown.invoke("move", path, "--bot", "random", "--as", name, env=env[name])
        assert result.exit_code == 0, result.output
    return path, env["Ana"], ["--as", "Ana"]


@pytest.fixture(params=["open", "hidden"])
def game(uptown, request, record_after, tmp_path):
    """(path, environment, the viewer's options) of a game after ``MOVES`` moves."""
    if request.param == "open":
        return open_game(record_after)
    return hidden_game(uptown, tmp_path)


def test_show_reads_parses_and_replays_the_file_once(uptown, counted, game):
    path, env, viewer = game
    counts, texts = counted("show", path, *viewer, env=env)
    assert (counts["reads"], counts["parses"], counts["schema"]) == (1, 1, 1)
    assert list(texts.values()) == [1]
    assert counts["plays"] == MOVES
    assert counts["chains"] == (1 if viewer else 0)


def test_validate_reads_parses_and_replays_the_file_once(uptown, counted, game):
    path, env, _ = game
    counts, _ = counted("validate", path, env=env)
    assert (counts["reads"], counts["parses"], counts["schema"], counts["plays"]) == (
        1, 1, 1, MOVES)


def test_a_move_parses_the_file_once_and_only_the_new_text_again(uptown, counted, game):
    """The move is inserted at the place the parsed record gives; the new text is read back
    once (that check stays), and what the player saw is remembered without a third parse."""
    path, env, viewer = game
    before = path.read_text()
    name = viewer[1] if viewer else None
    _, data = uptown.json("moves", path, "--json", *viewer, env=env)
    move = data["moves"][0]
    counts, texts = counted("move", path, *move.split(), *viewer, env=env)
    assert counts["reads"] == 1
    assert texts == {before: 1, path.read_text(): 1}
    assert counts["schema"] == 2
    assert counts["chains"] == (1 if name else 0)
    # In a hidden game too: Ana's view is checked on the public replay's moves and re-dealt
    # with the others' racks imagined (Game.redealt), not played again.
    assert counts["plays"] == MOVES + 1


def revealed_game(uptown, tmp_path):
    """A finished hidden game of Ana and Bo whose keys are both revealed."""
    path, _, _ = hidden_game(uptown, tmp_path)
    env = {name: {"UPTOWN_KEYS": str(tmp_path / f"keys-{name}"), "UPTOWN_GAME": None}
           for name in ("Ana", "Bo")}
    play_to_end(path, env, "greedy")
    for name in ("Ana", "Bo"):
        assert uptown.invoke("reveal", path, "--as", name, env=env[name]).exit_code == 0
    return path


@pytest.mark.slow
def test_a_revealed_hidden_game_is_replayed_once_and_dealt_its_revealed_bags(
        uptown, counted, tmp_path):
    """Every key revealed, the moves are played once (with the check), then the position is
    re-dealt the bags the keys drew (``Game.redealt``), not played again on them; a position
    before the end (``--at``) is taken back from that one replay."""
    path = revealed_game(uptown, tmp_path)
    from uptown_cli.records.reading import load_record

    moves = len(load_record(path).moves)
    counts, _ = counted("validate", path)
    assert counts["plays"] == moves
    counts, _ = counted("show", path, "--json")
    assert counts["plays"] == moves
    _, data = uptown.json("show", path, "--json", "--at", str(moves - 1))
    assert data["racks"] is not None  # dealt, though the last draws come after
    counts, _ = counted("show", path, "--json", "--at", str(moves - 1))
    assert counts["plays"] == moves


@pytest.mark.slow
def test_a_revealed_hidden_game_checks_its_variations_against_the_racks_the_keys_drew(
        uptown, tmp_path):
    """Dealt once the whole game checks, the variations are checked against the racks too:
    one playing a tile its colour did not hold is a warning at its line (notes never make a
    game invalid)."""
    from uptown_cli.engine.geometry import FIT_SQUARES, TILE_NAMES, parse_tile, square_name
    from uptown_cli.records.reading import load_record

    path = revealed_game(uptown, tmp_path)
    first = load_record(path).moves[0]
    _, data = uptown.json("show", path, "--json", "--at", "0")
    other = next(name for name in TILE_NAMES if name not in data["racks"][first.color])
    lines = path.read_text().splitlines(keepends=True)
    lines.insert(first.line, f"    variations:\n      - [{first.color} {other} "
                             f"{square_name(FIT_SQUARES[parse_tile(other)][0])}]\n")
    path.write_text("".join(lines))
    result = uptown.invoke("validate", path)
    assert result.exit_code == 0
    assert (f"hidden.yaml:{first.line + 2}: warning: move 1: variation 1, move 1 ({first.color} "
            f"{other} " in result.stdout)
    assert f"{first.color} has no {other} on its rack" in result.stdout
    _, data = uptown.json("show", path, "--json", "--at", "0")
    assert data["racks"] is not None


def views(path, name, key, public_first):
    """(errors, moves played, the deal's racks and draws, digest) of ``name``'s view of the
    record at ``path``: checked on a public replay's moves, or replayed with their key alone."""
    from uptown_cli.records.hidden_check import HiddenCheck
    from uptown_cli.records.reading import load_record
    from uptown_cli.records.replay import replay

    record = load_record(path)
    if public_first:
        replay(record)
    check = HiddenCheck(record, own=(name, key))
    result = replay(record, hidden=check)
    return ([(e.line, e.move, e.message) for e in result.errors], result.game.ply,
            check.deal.racks, check.deal.drawn, check.deal.turns, check.digest)


def test_a_view_checked_on_the_public_replay_finds_what_its_own_replay_finds(uptown, tmp_path):
    """Each player's view, checked on the moves the public replay played (``follow``), knows
    the same racks and finds the same problem as a replay with their key: here a move of Bo's
    rewritten to another move the board allows, which only Bo's key shows (its seal)."""
    from uptown_cli.engine.geometry import FIT_SQUARES, square_name, tile_name
    from uptown_cli.hidden.draws import can_place
    from uptown_cli.hidden.keys import load_key
    from uptown_cli.records.reading import load_record
    from uptown_cli.records.replay import replay

    path, _, _ = hidden_game(uptown, tmp_path)
    record = load_record(path)
    keys = {name: load_key(tmp_path / f"keys-{name}", record.hidden.game_id, name)
            for name in ("Ana", "Bo")}
    for name, key in keys.items():
        assert views(path, name, key, True) == views(path, name, key, False)
    last = record.moves[-1]  # Bo's (moves alternate from Ana's)
    before = replay(record, upto=len(record.moves) - 1).game
    allowed = (f"{tile_name(tile)} {square_name(square)}"
               for tile in before.unplayed_tiles(last.color) for square in FIT_SQUARES[tile]
               if can_place(before, last.color, tile, square))
    other = next(text for text in allowed if text != last.text)
    lines = path.read_text().splitlines(keepends=True)
    lines[last.line - 1] = lines[last.line - 1].replace(last.text, other)
    path.write_text("".join(lines))
    assert replay(load_record(path)).valid  # nothing shows without Bo's key
    found = views(path, "Bo", keys["Bo"], True)
    assert found == views(path, "Bo", keys["Bo"], False)
    assert found[0][-1][1:] == (None, f"move {MOVES} (Bo's {last.color}), or an entry before it, was "
                                "changed after Bo played it: Bo's seal does not cover it, nor "
                                "does any seal after it: the change was made after the last "
                                "move was sealed, by whoever held the file since")


def test_status_reads_parses_and_replays_each_game_once(uptown, counted, game):
    path, env, _ = game
    counts, _ = counted("status", path.parent, env=env)
    assert (counts["reads"], counts["parses"], counts["schema"], counts["plays"]) == (
        1, 1, 1, MOVES)


def mailed(uptown, tmp_path):
    """(the message of a three-player game after ``MOVES`` moves, from the mover of the last
    one to the next, written by ``send -o``; the local copy, one move behind)."""
    players = [x for name in ("Ana", "Bo", "Cy") for x in ("-p", f"{name} <{name.lower()}@example.org>")]
    path, local = tmp_path / "game.yaml", tmp_path / "local" / "game.yaml"
    local.parent.mkdir()
    assert uptown.invoke("new", path, *players, "--seed", "7").exit_code == 0
    for _ in range(MOVES):
        local.write_bytes(path.read_bytes())
        assert uptown.invoke("move", path, "--bot", "random").exit_code == 0
    return path, local


def test_send_reads_parses_and_replays_the_game_once(uptown, counted, tmp_path):
    path, _ = mailed(uptown, tmp_path)
    counts, texts = counted("send", path, "--as", "Ana", "--to", "Bo", "-o", tmp_path / "m.eml")
    assert (counts["reads"], counts["parses"], counts["schema"], counts["plays"]) == (
        1, 1, 1, MOVES)


def test_receive_parses_and_replays_the_attached_game_once(uptown, counted, tmp_path):
    path, local = mailed(uptown, tmp_path)
    letter = tmp_path / "m.eml"
    assert uptown.invoke("send", path, "--as", "Ana", "--to", "Bo", "-o", letter).exit_code == 0
    counts, texts = counted("receive", letter, "--into", local)
    assert local.read_bytes() == path.read_bytes()
    assert texts[path.read_text()] == 1
    assert counts["plays"] == MOVES  # the received copy once (the shorter local one: never)


def test_receive_from_a_mailbox_parses_the_copy_it_takes_once(uptown, counted, tmp_path):
    path, local = mailed(uptown, tmp_path)
    letter, mbox = tmp_path / "m.eml", tmp_path / "bo.mbox"
    assert uptown.invoke("send", path, "--as", "Ana", "--to", "Bo", "-o", letter).exit_code == 0
    mbox.write_bytes(b"From ana@example.org Thu Dec  3 10:00:00 2026\n" + letter.read_bytes())
    counts, texts = counted("receive", "--mbox", mbox, "--into", local)
    assert local.read_bytes() == path.read_bytes()
    assert texts[path.read_text()] == 1
