"""Hidden racks through the command line: three players on three computers (three key folders),
a whole game, and players who try to cheat."""

import json
import os
import re
import stat

import pytest
from support.players import PLAYERS, as_player, first_legal, play_bot, position, uptown_as

from uptown_cli.engine.geometry import FIT, TILE_NAMES, parse_square, parse_tile


@pytest.fixture
def sealed_game(game_file):
    """A three-player hidden game of protocol 4, every player joined: its links carry seals."""
    return game_file(name="g.yaml", hidden=True, sealed=True)


@pytest.fixture
def game(game_file):
    """A hidden 3-player game everyone has joined."""
    return game_file(name="g.yaml", hidden=True)


def test_a_whole_three_player_game_by_email_then_revealed_validates_clean(uptown, tmp_path, game):
    while not position(tmp_path, game)["finished"]:
        play_bot(tmp_path, game)
    result = uptown.invoke("validate", game)
    assert result.exit_code == 3  # finished, no key revealed: not called valid
    assert "the draws of Ana, Bo and Cy are unchecked" in result.stdout
    assert result.stdout.endswith("1 record, 0 valid, 0 invalid, 1 unchecked\n")
    result, data = uptown.json("validate", game, "--json")
    assert result.exit_code == 3 and data[0]["valid"] is False
    assert data[0]["status"] == "unchecked" and data[0]["unchecked_players"] == list(PLAYERS)
    result = uptown_as(tmp_path, "Ana", "reveal", game, "--as", "Ana")
    assert result.exit_code == 0, result.output
    assert "Still to reveal: Bo, Cy, each with" in result.stdout
    assert "Anyone can check" not in result.stdout
    for name in ("Cy", "Bo"):
        assert uptown_as(tmp_path, name, "reveal", game, "--as", name).exit_code == 0
    result, data = uptown.json("validate", game, "--json")
    assert result.exit_code == 0, result.output
    assert data[0]["valid"] and data[0]["unchecked"] == [] and data[0]["moves"] >= 72
    assert uptown.invoke("validate", game).stdout == "1 record, 1 valid, 0 invalid\n"
    assert uptown.invoke("score", game).exit_code == 0


def test_moves_wait_until_everyone_has_joined_in_turn_order(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo", "-p", "Cy")
    result = uptown_as(tmp_path, "Bo", "join", path, "--as", "Bo")
    assert result.exit_code == 1 and "Ana joins next, not Bo" in result.output
    uptown_as(tmp_path, "Ana", "join", path, "--as", "Ana")
    result = uptown_as(tmp_path, "Ana", "join", path, "--as", "Ana")
    assert result.exit_code == 1 and "already joined" in result.output
    uptown_as(tmp_path, "Bo", "join", path, "--as", "Bo")
    before = path.read_bytes()
    result = uptown_as(tmp_path, "Ana", "move", path, "--bot", "random", "--as", "Ana")
    assert result.exit_code == 1 and "Cy must join first" in result.output
    assert path.read_bytes() == before


def test_new_hidden_refuses_a_seed(uptown, tmp_path):
    result = uptown.invoke("new", tmp_path / "g.yaml", "--hidden", "--seed", "1", "-p", "A", "-p", "B")
    assert result.exit_code == 2 and not (tmp_path / "g.yaml").exists()


def test_key_files_are_private_from_the_start(uptown, tmp_path, game):
    old = os.umask(0)
    try:
        path = tmp_path / "g2.yaml"
        uptown.invoke("new", path, "--hidden", "-p", "Di", "-p", "Ed")
        assert uptown_as(tmp_path, "Di", "join", path, "--as", "Di").exit_code == 0
    finally:
        os.umask(old)
    folder = tmp_path / "keys-Di"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (key_file,) = folder.glob("*.key")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key_file.chmod(0o644)
    result = uptown_as(tmp_path, "Di", "show", path, "--as", "Di")
    assert result.exit_code == 1 and "chmod 600" in result.output


# -- cheating ----------------------------------------------------------------------------


def test_a_player_cannot_read_another_rack_from_the_file(uptown, tmp_path, game):
    """(d) The record holds commitments and links only: no rack, no key; without their own
    key file a player sees racks as hidden, and they cannot show another's."""
    play_bot(tmp_path, game)
    data = position(tmp_path, game)
    assert data["racks"] is None and data["bags"] == {"red": 22, "blue": 23, "green": 23}
    assert "Racks are hidden" in uptown.invoke("show", game).stdout
    result = uptown_as(tmp_path, "Ana", "show", game, "--as", "Bo")
    assert result.exit_code == 1 and "not made with a key of yours" in result.output
    result = uptown.invoke("moves", game)
    assert result.exit_code == 1 and "--as Bo" in result.output
    text = game.read_text()
    for name in PLAYERS:
        (key_file,) = (tmp_path / f"keys-{name}").glob("*.key")
        assert json.loads(key_file.read_text())["key"] not in text
    bo = position(tmp_path, game, "Bo")
    assert list(bo["racks"]) == ["blue"] and len(bo["racks"]["blue"]) == 5


def test_a_player_cannot_foresee_their_own_next_draw(tmp_path, game):
    """(c) Right after her move, Ana's own view has 4 tiles and a draw still to come, made
    only when Bo and Cy have published their next links (version 3: every other seat's)."""
    play_bot(tmp_path, game)
    for _ in ("Bo", "Cy"):
        ana = position(tmp_path, game, "Ana")
        assert len(ana["racks"]["red"]) == 4 and ana["to_come"] == {"red": 1}
        assert "+?" in uptown_as(tmp_path, "Ana", "show", game, "--as", "Ana").stdout
        play_bot(tmp_path, game)
    assert len(position(tmp_path, game, "Ana")["racks"]["red"]) == 5


def test_re_running_a_move_draws_the_same_tile(tmp_path, game):
    """(a) Ana keeps a copy, plays, sees her draw, then plays another move from the copy: the
    tile she draws is the same. Playing again on the file itself is refused."""
    copy = game.read_bytes()
    name, legal = first_legal(tmp_path, game)
    start = position(tmp_path, game, "Ana")["racks"]["red"]
    drawn = []
    for choice in (legal[0], legal[-1]):
        game.write_bytes(copy)
        for name in PLAYERS:  # fresh tools: remembering would refuse the restored copy
            for seen in (tmp_path / f"keys-{name}").glob("*.seen"):
                seen.unlink()
        assert uptown_as(tmp_path, "Ana", "move", game, choice, "--as", "Ana").exit_code == 0
        again = uptown_as(tmp_path, "Ana", "move", game, choice, "--as", "Ana")
        assert again.exit_code == 1 and "Bo's turn" in again.output
        assert uptown_as(tmp_path, "Bo", "move", game, "pass", "--as", "Bo").exit_code == 1
        for name in ("Bo", "Cy"):
            other = first_legal(tmp_path, game)[1][0]
            assert uptown_as(tmp_path, name, "move", game, other, "--as", name).exit_code == 0
        rack = list(position(tmp_path, game, "Ana")["racks"]["red"])
        for tile in start:
            if tile != choice.split()[0]:
                rack.remove(tile)
        drawn.append(rack)
    assert legal[0].split()[0] != legal[-1].split()[0] or legal[0] != legal[-1]
    assert drawn[0] == drawn[1] and len(drawn[0]) == 1


def _lines(path):
    return path.read_text().splitlines()


def _link_line(path, move):
    """The 1-based line of the link of move ``move``, and of the move itself."""
    lines = _lines(path)
    start = lines.index("moves:")
    moves = [i for i in range(start + 1, len(lines)) if lines[i].startswith("  - ")]
    link = next(i for i in range(moves[move - 1], len(lines)) if lines[i].startswith("    link:"))
    return link + 1, moves[move - 1] + 1


def test_an_edited_earlier_link_is_reported_at_its_move(uptown, tmp_path, sealed_game):
    """(b) Changing the link of move 2 (say, to re-roll Ana's draw) is caught at move 2."""
    for _ in range(5):
        play_bot(tmp_path, sealed_game)
    link_line, move_line = _link_line(sealed_game, 2)
    lines = _lines(sealed_game)
    lines[link_line - 1] = "    link: " + "0" * 128
    sealed_game.write_text("\n".join(lines) + "\n")
    result = uptown.invoke("validate", sealed_game)
    assert result.exit_code == 1
    assert f"g.yaml:{move_line}: move 2: Bo's first link does not fit their commitment" \
        in result.stdout
    result = uptown_as(tmp_path, "Cy", "move", sealed_game, "--bot", "random", "--as", "Cy")
    assert result.exit_code == 1 and "move 2" in result.output


def _finish_and_reveal(tmp_path, path, moves=None):
    while not position(tmp_path, path)["finished"]:
        play_bot(tmp_path, path)
    for name in PLAYERS:
        assert uptown_as(tmp_path, name, "reveal", path, "--as", name).exit_code == 0


def test_an_edited_earlier_move_is_caught_once_the_keys_are_revealed(uptown, tmp_path, sealed_game):
    """Ana's first move, rewritten afterwards with a tile she did not hold, is reported at
    move 1 once her key is known."""
    rack = position(tmp_path, sealed_game, "Ana")["racks"]["red"]
    play_bot(tmp_path, sealed_game)
    _finish_and_reveal(tmp_path, sealed_game)
    assert uptown.invoke("validate", sealed_game).exit_code == 0
    _, move_line = _link_line(sealed_game, 1)
    lines = _lines(sealed_game)
    tile_text, square_text = lines[move_line - 1].split(": ")[1].split()
    square = parse_square(square_text.lstrip("x"))
    other = next(n for n in TILE_NAMES if n not in rack and FIT[parse_tile(n)] >> square & 1)
    lines[move_line - 1] = f"  - red: {other} {square_text}"
    sealed_game.write_text("\n".join(lines) + "\n")
    result = uptown.invoke("validate", sealed_game)
    assert result.exit_code == 1, result.output
    assert (f"g.yaml:{move_line}: move 1 (Ana's red), or an entry before it, was changed after "
            "Ana played it: Ana's seal does not cover it") in result.stdout, result.output


@pytest.mark.slow
def test_a_revealed_key_other_than_the_committed_one_is_reported(uptown, tmp_path, game):
    """A key swapped after the game (to claim other draws) does not match the commitment."""
    _finish_and_reveal(tmp_path, game)
    text = game.read_text()
    revealed = text[text.index("revealed:"):]
    bo_line = text[:text.index("revealed:")].count("\n") + 1 + revealed.splitlines().index(
        next(line for line in revealed.splitlines() if line.startswith("  - Bo:")))
    cut = text.index("revealed:")
    game.write_text(text[:cut] + re.sub(r'(  - Bo: )"?[0-9a-f]{64}"?', lambda m: m.group(1) + "1" * 64,
                                        text[cut:]))
    result = uptown.invoke("validate", game)
    assert result.exit_code == 3  # unchecked, not invalid: Bo's key counts as not revealed
    assert (f"g.yaml: the key at line {bo_line} does not give Bo's commitment: that entry was "
            "not written by Bo, and counts as not revealed\n") in result.stdout
    assert "the draws of Bo are unchecked" in result.stdout


def test_reveal_waits_for_the_end_of_the_game(tmp_path, game):
    play_bot(tmp_path, game)
    before = game.read_bytes()
    result = uptown_as(tmp_path, "Ana", "reveal", game, "--as", "Ana")
    assert result.exit_code == 1 and "not over" in result.output
    assert game.read_bytes() == before


@pytest.mark.slow
def test_a_two_player_game_draws_for_both_colours_of_each_player(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo").exit_code == 0
    for name in ("Ana", "Bo"):
        assert uptown_as(tmp_path, name, "join", path, "--as", name).exit_code == 0
    ana = position(tmp_path, path, "Ana")
    assert sorted(ana["racks"]) == ["green", "red"] and all(len(r) == 5 for r in ana["racks"].values())
    while not position(tmp_path, path)["finished"]:
        play_bot(tmp_path, path, "greedy")
    for name in ("Ana", "Bo"):
        assert uptown_as(tmp_path, name, "reveal", path, "--as", name).exit_code == 0
    result, data = uptown.json("validate", path, "--json")
    assert result.exit_code == 0 and data[0]["unchecked"] == [] and data[0]["moves"] >= 96


def test_diff_sees_a_copy_whose_earlier_link_was_rewritten(uptown, tmp_path, sealed_game):
    for _ in range(3):
        play_bot(tmp_path, sealed_game)
    forged = tmp_path / "forged.yaml"
    link_line, _ = _link_line(sealed_game, 2)
    lines = _lines(sealed_game)
    lines[link_line - 1] = "    link: " + "0" * 128
    forged.write_text("\n".join(lines) + "\n")
    result, data = uptown.json("diff", sealed_game, forged, "--json")
    assert result.exit_code == 1 and data["relation"] == "diverging" and data["move"] == 2


def test_as_means_the_same_on_every_command_of_an_open_game(uptown, tmp_path):
    """show takes --as on an open game as moves, hint and move do: the name matched as records
    match names, an unknown one refused in one line."""
    path = tmp_path / "open.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--seed", "1")
    plain = uptown.invoke("show", path)
    for command in (["show"], ["moves"], ["hint", "--bot", "greedy"]):
        result = uptown.invoke(*command, path, "--as", "ana")
        assert result.exit_code == 0, result.output
        if command == ["show"]:
            assert result.output == plain.output
        refused = uptown.invoke(*command, path, "--as", "Cy")
        assert refused.exit_code == 1
        assert refused.output == "Error: no player is named 'Cy' (players: Ana, Bo)\n"
    refused = uptown.invoke("move", path, "7", "B7", "--as", "Cy")
    assert refused.output == "Error: no player is named 'Cy' (players: Ana, Bo)\n"


def test_names_yaml_could_misread_join_and_play(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    names = ("No", "Zoë #2")
    assert uptown.invoke("new", path, "--hidden", "-p", names[0], "-p", names[1]).exit_code == 0
    for index, name in enumerate(names):
        assert uptown.invoke("join", path, "--as", name, env=as_player(tmp_path, str(index))).exit_code == 0
    for index in (0, 1, 0):
        result = uptown.invoke("move", path, "--bot", "random", "--as", names[index],
                               env=as_player(tmp_path, str(index)))
        assert result.exit_code == 0, result.output
    assert uptown.invoke("validate", path).exit_code == 0
    assert '- "No": ' in path.read_text()


def test_diff_sees_a_commitment_rewritten_after_the_next_player_joined(uptown, tmp_path, sealed_game):
    """Re-joining with another key once the next head is known (to pick a starting rack)
    leaves a copy that is another sealed_game."""
    forged = tmp_path / "forged.yaml"
    text = sealed_game.read_text()
    ana = re.search(r'  - Ana: "?([0-9a-f]{64})', text)  # (quoted when YAML could read a number)
    forged.write_text(text.replace(ana.group(1), "1" * 64))
    result, data = uptown.json("diff", sealed_game, forged, "--json")
    assert result.exit_code == 1 and data["relation"] == "different-games"
    assert data["fields"] == ["commitments"]
    earlier = tmp_path / "earlier.yaml"
    earlier.write_text(text[:text.index("  - Bo:")] + "moves:\n")
    assert uptown.invoke("diff", earlier, sealed_game).exit_code == 0


def test_a_key_folder_that_cannot_be_made_is_one_clear_error(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo")
    (tmp_path / "file").write_text("not a folder")
    before = path.read_bytes()
    result = uptown.invoke("join", path, "--as", "Ana", "--keys", tmp_path / "file")
    assert result.exit_code == 1
    assert "key folder" in result.stderr and "Traceback" not in result.output
    assert path.read_bytes() == before


def test_a_hint_plays_from_the_players_own_view_and_says_to_play_as_them(tmp_path, game):
    before = game.read_bytes()
    assert uptown_as(tmp_path, "Ana", "hint", game, "--bot", "greedy").exit_code == 1  # no --as
    result = uptown_as(tmp_path, "Ana", "hint", game, "--bot", "greedy", "--as", "Ana")
    assert result.exit_code == 0, result.output
    suggested = result.stdout.splitlines()[0].split(": ", 1)[1]
    assert suggested in first_legal(tmp_path, game)[1]
    assert result.stdout.splitlines()[1] == f"To play it: uptown move {game} {suggested} --as Ana"
    assert game.read_bytes() == before


@pytest.mark.parametrize("edit", ["drop", "garble"])
def test_validate_reports_a_missing_or_garbled_link_without_a_traceback(uptown, tmp_path, game, edit):
    play_bot(tmp_path, game)
    lines = game.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("link:"))
    if edit == "drop":
        del lines[at]
    else:
        lines[at] = lines[at].split("link:")[0] + "link: xyz\n"
    game.write_text("".join(lines))
    result = uptown.invoke("validate", game, "--json")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    data = __import__("json").loads(result.stdout)[0]
    assert data["valid"] is False and data["errors"][0]["move"] == 1


@pytest.mark.parametrize("kind", ["folder", "fifo", "deep"])
def test_a_key_file_that_is_not_one_is_one_clear_error(tmp_path, game, kind):
    import os
    import re

    key_file = next((tmp_path / "keys-Ana").glob("*.key"))
    key_file.unlink()
    if kind == "folder":
        key_file.mkdir(mode=0o700)
    elif kind == "fifo":
        os.mkfifo(key_file, 0o600)
    else:
        key_file.write_text("[" * 4000)
        key_file.chmod(0o600)
    result = uptown_as(tmp_path, "Ana", "show", game, "--as", "Ana")
    assert result.exit_code == 1
    assert re.match(r"Error: .*(not a key file|not an uptown key file)", result.stderr)


# -- what a new player ran into ----------------------------------------------------------


def test_before_everyone_joined_show_names_who_joins_not_who_moves(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo")
    uptown_as(tmp_path, "Ana", "join", path, "--as", "Ana")
    text = uptown.invoke("show", path).stdout
    assert "to move" not in text and f"uptown join {path} --as Bo" in text
    assert position(tmp_path, path)["to_move"] is None


@pytest.mark.slow
def test_join_and_reveal_take_json_and_the_end_says_how_to_reveal(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo")
    result, data = uptown.json("join", path, "--as", "Ana", "--json", env=as_player(tmp_path, "Ana"))
    assert result.exit_code == 0 and data["next_to_join"] == "Bo" and data["key_file"].endswith(".key")
    uptown_as(tmp_path, "Bo", "join", path, "--as", "Bo")
    result = None
    while not position(tmp_path, path)["finished"]:
        result = play_bot(tmp_path, path)
    assert f"uptown reveal {path} --as NAME" in result.stdout
    result, data = uptown.json("reveal", path, "--as", "Bo", "--json", env=as_player(tmp_path, "Bo"))
    assert result.exit_code == 0 and data == {"path": str(path), "player": "Bo", "to_reveal": ["Ana"],
                                          "replaced_line": None}


@pytest.mark.slow
def test_after_every_reveal_every_command_knows_the_racks(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo")
    for name in ("Ana", "Bo"):
        uptown_as(tmp_path, name, "join", path, "--as", name)
    while not position(tmp_path, path)["finished"]:
        play_bot(tmp_path, path)
    assert position(tmp_path, path, None, "--at", "3")["racks"] is None
    for name in ("Ana", "Bo"):
        uptown_as(tmp_path, name, "reveal", path, "--as", name)
    racks = position(tmp_path, path, None, "--at", "3")["racks"]
    assert racks is not None and len(racks["red"]) == 5
    for command in (("replay",), ("export",), ("analyze",), ("html",)):
        result = uptown.invoke(command[0], path, *command[1:])
        assert result.exit_code == 0, result.output
        assert "unknown" not in result.output.lower() and "no seed" not in result.output
    assert uptown.json("replay", path, "--json")[1][0]["drawn"] is not None


def test_show_as_json_counts_the_draws_to_come(tmp_path, game):
    play_bot(tmp_path, game)
    ana = position(tmp_path, game, "Ana")
    assert ana["to_come"] == {"red": 1} and len(ana["racks"]["red"]) == 4


def test_hidden_game_output_fits_80_columns(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    outputs = [uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo", "-p", "Cy")]
    outputs += [uptown_as(tmp_path, n, "join", path, "--as", n) for n in PLAYERS]
    outputs += [play_bot(tmp_path, path), uptown.invoke("validate", path),
                uptown_as(tmp_path, "Bo", "hint", path, "--as", "Bo", "--bot", "greedy"),
                uptown.invoke("show", path, "--format", "nope")]
    for result in outputs:
        for line in result.output.replace(str(tmp_path) + "/", "").splitlines():
            assert len(line) <= 80, line


def test_move_completion_works_in_hidden_games(uptown, tmp_path, game):

    done = uptown.run(env={"UPTOWN_KEYS": str(tmp_path / "keys-Ana"), "COMP_CWORD": "5",
                           "COMP_WORDS": f"uptown move {game} --as Ana ",
                           "_UPTOWN_COMPLETE": "bash_complete"})
    tiles = {line.split(",", 1)[1] for line in done.stdout.splitlines()}
    assert tiles and tiles <= set(TILE_NAMES)


def test_a_mistyped_command_suggests_the_nearest(uptown, tmp_path):
    result = uptown.invoke("shwo")
    assert result.exit_code == 2 and "Did you mean 'show'?" in result.output


def test_score_takes_folders(uptown, tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("a", "b"):
        uptown.invoke("new", folder / f"{name}.yaml", "-p", "Ana", "-p", "Bo", "--seed", name)
    result, data = uptown.json("score", folder, "--json")
    assert result.exit_code == 0 and len(data) == 2
