"""Hidden games read back whole: once every key is revealed, the position is dealt the bags the
keys drew (variations then checked against those racks), and a player's view checked on the
moves of the public replay finds what a replay with their key alone finds."""

import pytest
from support.hidden import older_protocol
from support.players import play_to_end

MOVES = 6
"""Moves played in the games made here."""


def hidden_game(uptown, tmp_path, sealed=False):
    """A hidden game of Ana and Bo after ``MOVES`` moves, each with a key folder of their own;
    of protocol 4 (its moves sealed, not signed) when ``sealed``."""
    path = tmp_path / "hidden.yaml"
    env = {name: {"UPTOWN_KEYS": str(tmp_path / f"keys-{name}"), "UPTOWN_GAME": None}
           for name in ("Ana", "Bo")}
    assert uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo").exit_code == 0
    if sealed:
        older_protocol(path)
    for name in ("Ana", "Bo"):
        joined = uptown.invoke("join", path, "--as", name, *(["--older-protocol"] if sealed else []),
                               env=env[name])
        assert joined.exit_code == 0, joined.output
    for number in range(MOVES):
        name = ("Ana", "Bo")[number % 2]
        result = uptown.invoke("move", path, "--bot", "random", "--as", name, env=env[name])
        assert result.exit_code == 0, result.output
    return path, env["Ana"], ["--as", "Ana"]


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
def test_a_revealed_hidden_game_shows_the_racks_the_keys_drew_before_the_end(uptown, tmp_path):
    """Every key revealed, a position before the end (``--at``) is dealt the bags the keys
    drew: its racks are known, though the last draws come after it."""
    path = revealed_game(uptown, tmp_path)
    from uptown_cli.records.reading import load_record

    moves = len(load_record(path).moves)
    _, data = uptown.json("show", path, "--json", "--at", str(moves - 1))
    assert data["racks"] is not None


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
    from uptown_cli.fairplay.check import HiddenCheck
    from uptown_cli.records.reading import load_record
    from uptown_cli.fairplay.replay import replay

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
    rewritten to another move the board allows, which only Bo's key shows (its seal, protocol
    4; from protocol 5 the signature shows it to everyone)."""
    from uptown_cli.engine.geometry import FIT_SQUARES, square_name, tile_name
    from uptown_cli.engine.passes import can_place
    from uptown_cli.fairplay.keys import load_key
    from uptown_cli.records.reading import load_record
    from uptown_cli.fairplay.replay import replay

    path, _, _ = hidden_game(uptown, tmp_path, sealed=True)
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
