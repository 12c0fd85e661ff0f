"""One load per command: ``move``, ``show`` and ``validate`` read the file once, parse it once
and replay its moves once for the viewer they serve (open, or a hidden game as NAME); a move
parses only the new text again, to read it back.  Counted in process, around the functions
that do the work."""

from collections import Counter

import pytest
from support.players import play_to_end

from uptown_cli.engine.game import Game
from uptown_cli.hidden import draws
from uptown_cli.records import reading, schema, yaml_reader

MOVES = 6
"""Moves played before the command counted."""


@pytest.fixture
def counted(monkeypatch):
    """The work done from here on: ``reads`` of a record file, ``parses`` (by the text
    parsed), ``schema`` checks, ``plays`` (``Game.play``) and ``chains`` (hash chains built)."""
    counts: Counter = Counter()
    texts: Counter = Counter()

    def count(owner, name, key, texts_of=None):
        real = getattr(owner, name)

        def counting(*args, **kwargs):
            counts[key] += 1
            if texts_of is not None:
                texts[texts_of(*args)] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)

    count(reading, "_read_to_limit", "reads")
    count(yaml_reader._Composer, "guarded_document", "parses", lambda composer: composer.text)
    count(schema.SchemaReader, "check", "schema")
    count(Game, "play", "plays")

    def start():
        counts.clear()
        texts.clear()
        draws._chain.cache_clear()

    def result():
        return {**counts, "chains": draws._chain.cache_info().misses}, texts

    return start, result


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


def run(uptown, counted, *args, env=None):
    start, result = counted
    start()
    outcome = uptown.invoke(*args, env=env)
    assert outcome.exit_code == 0, outcome.output
    return result()


def test_show_reads_parses_and_replays_the_file_once(uptown, counted, game):
    path, env, viewer = game
    counts, texts = run(uptown, counted, "show", path, *viewer, env=env)
    assert (counts["reads"], counts["parses"], counts["schema"]) == (1, 1, 1)
    assert list(texts.values()) == [1]
    assert counts["plays"] == MOVES
    assert counts["chains"] == (1 if viewer else 0)


def test_validate_reads_parses_and_replays_the_file_once(uptown, counted, game):
    path, env, _ = game
    counts, _ = run(uptown, counted, "validate", path, env=env)
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
    counts, texts = run(uptown, counted, "move", path, *move.split(), *viewer, env=env)
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


def test_a_revealed_hidden_game_is_replayed_once_and_dealt_its_revealed_bags(
        uptown, counted, tmp_path):
    """Every key revealed, the moves are played once (with the check), then the position is
    re-dealt the bags the keys drew (``Game.redealt``), not played again on them; a position
    before the end (``--at``) is taken back from that one replay."""
    path = revealed_game(uptown, tmp_path)
    from uptown_cli.records.reading import load_record

    moves = len(load_record(path).moves)
    counts, _ = run(uptown, counted, "validate", path)
    assert counts["plays"] == moves
    counts, _ = run(uptown, counted, "show", path, "--json")
    assert counts["plays"] == moves
    _, data = uptown.json("show", path, "--json", "--at", str(moves - 1))
    assert data["racks"] is not None  # dealt, though the last draws come after
    counts, _ = run(uptown, counted, "show", path, "--json", "--at", str(moves - 1))
    assert counts["plays"] == moves


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
    assert found[0][-1][1:] == (MOVES, "the seal is not Bo's: this move or an entry before it "
                                "was changed after Bo played it (compare copies with uptown diff)")
