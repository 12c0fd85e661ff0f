"""A careful cheater against hidden racks, through the command line: Ana, Bo and Cy each have
their own key folder (their own computer); the cheater edits the file or their key files as
they like. Each attack is caught, and the right player is named."""

import json
import re

import pytest
from support.hidden import older_protocol
from support.players import PLAYERS, as_player as env, refused, uptown_as

from uptown_cli.fairplay.draws import new_key
from uptown_cli.records.reading import load_record

def new_game(uptown, tmp_path, players=PLAYERS, join=True):
    """A new game with hidden racks of ``players`` (every one joined, unless not ``join``); one
    joined is of protocol 4: these attacks are those the seals catch, and the blame they name
    (protocol 5's signatures: tests/fairplay/test_signed_entries.py)."""
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "--hidden", *[x for n in players for x in ("-p", n)]).exit_code == 0
    if join:
        older_protocol(path)
    for name in players if join else ():
        result = uptown_as(tmp_path, name, "join", path, "--as", name, "--older-protocol")
        assert result.exit_code == 0, result.output
    return path


def to_move(uptown, tmp_path, path):
    result, data = uptown.json("show", path, "--json", env=env(tmp_path, "nobody"))
    assert result.exit_code == 0, result.output
    return data["to_move"], data["finished"]


def bot_move(uptown, tmp_path, path, name=None):
    name = name or to_move(uptown, tmp_path, path)[0]
    result = uptown_as(tmp_path, name, "move", path, "--bot", "random", "--as", name)
    assert result.exit_code == 0, result.output
    return name


def legal(uptown, tmp_path, path, name):
    result, data = uptown.json("moves", path, "--json", "--as", name, env=env(tmp_path, name))
    assert result.exit_code == 0, result.output
    return data["moves"]


def forget(tmp_path, name):
    """The cheater throws their own tool's memory away."""
    for seen in (tmp_path / f"keys-{name}").glob("*.seen"):
        seen.unlink()


def swap_key(tmp_path, path, name):
    """``name`` makes a new key once later seats have joined and writes the commitment it gives
    over theirs (to pick a starting rack): the new key file replaces the old one."""
    from uptown_cli.fairplay.draws import commitment, head

    record = load_record(path)
    game_id = bytes.fromhex(record.hidden.game_id)
    names = record.hidden.joined()
    seat = names.index(name)
    key = new_key()
    earlier = [bytes.fromhex(v) for _, v in record.hidden.commitments[:seat]]
    version = record.hidden.version
    new = commitment(game_id, name, head(game_id, name, key, version), earlier, version).hex()
    old = record.hidden.commitments[seat][1]
    path.write_text(path.read_text().replace(old, new))
    (key_file,) = (tmp_path / f"keys-{name}").glob("*.key")
    data = json.loads(key_file.read_text())
    key_file.write_text(json.dumps({**data, "key": key.hex()}))
    forget(tmp_path, name)
    return key


def key_of(tmp_path, name):
    (key_file,) = (tmp_path / f"keys-{name}").glob("*.key")
    return bytes.fromhex(json.loads(key_file.read_text())["key"])


def write_pass(tmp_path, path, name):
    """``name`` writes a pass by hand, with the link and seal their key gives (their first
    turn)."""
    from uptown_cli.fairplay.check import HiddenCheck, own_link
    from uptown_cli.fairplay.replay import replay

    record = load_record(path)
    key = key_of(tmp_path, name)
    check = HiddenCheck(record, own=(name, key))
    replay(record, hidden=check)
    color = next(p.colors[0] for p in record.players if p.name == name)
    link = own_link(record, name, key, 1, color, "pass", check.digest, check.previous_seal)
    path.write_text(path.read_text() + f"  - {color}: pass\n    link: {link}\n")


@pytest.mark.slow
def test_a_reused_game_id_is_refused_at_join_and_a_revealed_key_is_spent(uptown, tmp_path):
    """(1) The creator copies the id of a finished, revealed game into a new game: joining it
    would commit again to a key already public. join refuses; the old key is marked spent."""
    old = new_game(uptown, tmp_path, ("Ana", "Bo"))
    while not to_move(uptown, tmp_path, old)[1]:
        bot_move(uptown, tmp_path, old)
    for name in ("Ana", "Bo"):
        assert uptown_as(tmp_path, name, "reveal", old, "--as", name).exit_code == 0
    (key_file,) = (tmp_path / "keys-Ana").glob("*.key")
    assert json.loads(key_file.read_text())["spent"] is True
    game_id = load_record(old).hidden.game_id
    reused = tmp_path / "new.yaml"
    uptown.invoke("new", reused, "--hidden", "-p", "Ana", "-p", "Bo")
    reused.write_text(re.sub(r'hidden: ("?)[0-9a-f]{32}\1', f'hidden: "{game_id}"',
                             reused.read_text()))
    before = reused.read_bytes()
    refused(uptown_as(tmp_path, "Ana", "join", reused, "--as", "Ana"),
            "this game id was used before")
    assert reused.read_bytes() == before


def test_seat_0_cannot_re_roll_her_starting_rack(uptown, tmp_path):
    """(2) Ana's starting draws use Bo's commitment. Seeing it, she makes a new key and swaps
    her commitment. Bo's and Cy's tools saw the first one and refuse the file, naming Ana."""
    path = new_game(uptown, tmp_path)
    uptown_as(tmp_path, "Bo", "show", path, "--as", "Bo")
    swap_key(tmp_path, path, "Ana")
    bot_move(uptown, tmp_path, path, "Ana")  # her own tool, memory thrown away, plays
    before = path.read_bytes()
    for name in ("Bo", "Cy"):
        line = refused(uptown_as(tmp_path, name, "move", path, "--bot", "random", "--as", name),
                       "Ana's commitment changed since", "nothing was written")
        assert re.match(r"Error: .*g\.yaml:\d+: ", line)
    assert path.read_bytes() == before


@pytest.mark.parametrize("gone, read", [("moves", False), ("players", False), ("signed", True),
                                        ("addresses", True), ("withdrawn", True)])
def test_a_memory_lacks_only_what_an_older_uptown_did_not_keep(uptown, tmp_path, gone, read):
    """A memory without a list an older uptown did not keep yet (the signed entries, the
    e-mail addresses, the withdrawn joins) is read; one without a list every memory keeps is
    refused as damaged."""
    path = new_game(uptown, tmp_path)
    name = bot_move(uptown, tmp_path, path)
    memory = next((tmp_path / f"keys-{name}").glob("*.seen"))
    data = json.loads(memory.read_text())
    del data[gone]
    memory.write_text(json.dumps(data))
    result = uptown_as(tmp_path, name, "show", path, "--as", name)
    assert (result.exit_code == 0) == read, result.output


def test_a_later_seat_cannot_swap_and_the_swapper_is_blamed(uptown, tmp_path):
    """(3) Bo's starting draws use Cy's commitment; Bo swaps his own after Cy joined, then
    plays. Ana's and Cy's tools name Bo's commitment; the record itself breaks at Cy's first
    link, whose commitment holds Bo's first one."""
    path = new_game(uptown, tmp_path)
    bot_move(uptown, tmp_path, path, "Ana")
    swap_key(tmp_path, path, "Bo")
    bot_move(uptown, tmp_path, path, "Bo")
    for name in ("Ana", "Cy"):
        refused(uptown_as(tmp_path, name, "show", path, "--as", name),
                "Bo's commitment changed since")
    forget(tmp_path, "Cy")  # a tool with no memory cannot build on it either
    refused(uptown_as(tmp_path, "Cy", "move", path, "--bot", "random", "--as", "Cy"),
            "a commitment before it (Ana's or Bo's) was changed after Cy joined")


def test_a_rewritten_earlier_move_is_refused_by_the_players_who_saw_it(uptown, tmp_path):
    """(4) Cy, holding the file, rewrites Ana's first move. Bo's tool refuses it, naming move
    1 and Ana; nothing is written. Ana's key proves that her seal does not cover it: her tool
    says so, and whose seal is checked next, and lets her play on; once she has played on,
    the seals between name nobody, and not her."""
    path = new_game(uptown, tmp_path)
    for _ in range(3):
        bot_move(uptown, tmp_path, path)
    text = path.read_text()
    first = re.search(r"  - red: (.+)", text)
    first_line = text[:first.start()].count("\n") + 1
    other = next(m for m in legal(uptown, tmp_path, path, "Ana") if m != first.group(1))
    path.write_text(text.replace(first.group(0), f"  - red: {other}", 1))
    before = path.read_bytes()
    refused(uptown_as(tmp_path, "Bo", "move", path, "--bot", "random", "--as", "Bo"),
            "move 1 (Ana's red) changed since", f"now '{other}'")
    assert path.read_bytes() == before
    said = ("move 1 (Ana's red), or an entry before it, was changed after Ana played it: Ana's "
            "seal does not cover it")
    result = uptown_as(tmp_path, "Ana", "move", path, "--bot", "random", "--as", "Ana")
    assert result.exit_code == 0 and result.stderr.strip() == (
        f"Warning: {path}:{first_line}: {said}; who changed it is named when Bo plays next "
        "(Bo's seal of move 2 is the next over the change); Ana can play on from this copy, "
        "which the others hold: Ana's next link shows the change to every tool"), result.output
    result = uptown.invoke("validate", path)  # every tool sees it; the game is not over
    assert result.exit_code == 0 and f"{path}:{first_line}: warning: {said}; who" in result.stdout
    bot_move(uptown, tmp_path, path, "Bo")  # the record proves the change: Bo plays on
    bot_move(uptown, tmp_path, path, "Cy")
    refused(uptown_as(tmp_path, "Ana", "move", path, "--bot", "random", "--as", "Ana"),
            f"{path}:{first_line}: {said}, nor do the seals after it to move 3; Ana's own seal "
            "of move 4 is the first that does: the change was made after move 3 was sealed, "
            "before Ana played on")


def rewrite_keeping_later_moves_legal(record):
    """The first move that can be put on another square with every later move still legal:
    (its number, its entry, its new text). The game is random, so the square is searched for."""
    from uptown_cli.engine.game import Game
    from uptown_cli.engine.geometry import FIT_SQUARES, square_name
    from uptown_cli.engine.notation import PASS, parse_move

    texts = [entry.text for entry in record.moves]
    for number, entry in enumerate(record.moves, 1):
        moved = parse_move(entry.text)
        for square in () if moved == PASS else set(FIT_SQUARES[moved.tile]) - {moved.square}:
            rewritten = f"{entry.text.split()[0]} {square_name(square)}"
            game = Game([(p.name, p.colors) for p in record.players])
            played = texts[:number - 1] + [rewritten] + texts[number:]
            try:
                for text, later in zip(played, record.moves):
                    game.play_text(text, later.color)
            except ValueError:
                continue
            return number, entry, rewritten
    raise AssertionError("no move can be rewritten with the rest of the game still legal")


@pytest.mark.slow
def test_a_rewritten_move_breaks_the_movers_seal_once_revealed(uptown, tmp_path):
    """(4) Without anyone's memory, once the keys are revealed, the rewritten move no longer
    carries its mover's seal: validate names it."""
    path = new_game(uptown, tmp_path, ("Ana", "Bo"))
    while not to_move(uptown, tmp_path, path)[1]:
        bot_move(uptown, tmp_path, path)
    for name in ("Ana", "Bo"):
        assert uptown_as(tmp_path, name, "reveal", path, "--as", name).exit_code == 0
    assert uptown.invoke("validate", path).exit_code == 0
    record = load_record(path)
    number, entry, rewritten = rewrite_keeping_later_moves_legal(record)
    lines = path.read_text().splitlines()
    lines[entry.line - 1] = lines[entry.line - 1].replace(entry.text, rewritten)
    path.write_text("\n".join(lines) + "\n")
    mover = next(p.name for p in record.players if entry.color in p.colors)
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1
    assert (f"g.yaml:{entry.line}: move {number} ({mover}'s {entry.color}), or an entry before "
            f"it, was changed after {mover} played it: {mover}'s seal does not cover it, nor "
            "does any seal after it: the change was made after the last move was sealed, by "
            "whoever held the file since") in result.stdout


def test_a_restored_copy_played_differently_is_refused_by_the_next_player(uptown, tmp_path):
    """(5) Ana plays, learns her draw once Bo has moved, restores her old copy and plays
    another move. Bo's tool saw her first move and refuses the new file."""
    path = new_game(uptown, tmp_path)
    copy = path.read_bytes()
    options = legal(uptown, tmp_path, path, "Ana")
    assert uptown_as(tmp_path, "Ana", "move", path, options[0], "--as", "Ana").exit_code == 0
    bot_move(uptown, tmp_path, path, "Bo")
    uptown_as(tmp_path, "Ana", "show", path, "--as", "Ana")  # she sees her draw
    path.write_bytes(copy)
    forget(tmp_path, "Ana")
    assert uptown_as(tmp_path, "Ana", "move", path, options[-1], "--as", "Ana").exit_code == 0
    before = path.read_bytes()
    refused(uptown_as(tmp_path, "Bo", "move", path, "--bot", "random", "--as", "Bo"),
            "move 1 (Ana's red) changed since Bo saw it", f"was '{options[0]}'")
    assert path.read_bytes() == before


def test_a_hand_written_unforced_pass_names_its_writer_and_freezes_nothing_before(uptown, tmp_path):
    """(6) Bo writes a pass by hand (with a correct link) while his rack surely fits. Every
    tool names Bo's move 2; what came before it can still be seen."""
    path = new_game(uptown, tmp_path)
    bot_move(uptown, tmp_path, path, "Ana")
    write_pass(tmp_path, path, "Bo")
    refused(uptown_as(tmp_path, "Cy", "move", path, "--bot", "random", "--as", "Cy"),
            "move 2: Bo's pass cannot be forced", "written by hand")
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1 and "move 2: Bo's pass cannot be forced" in result.stdout
    assert uptown_as(tmp_path, "Cy", "show", path, "--at", "1", "--as", "Cy").exit_code == 0


def test_an_unforced_pass_the_file_cannot_disprove_lets_the_others_play_on(uptown, tmp_path,
                                                                          monkeypatch):
    """(6) Bo writes a pass by hand while blue could play. The file alone disproves such a
    pass only when fewer than five of blue's tiles left fit nowhere; late in a crowded game
    it cannot, as here, where that check is made to find nothing. No deal of Bo's rack fits
    the pass, yet Cy and Ana, whose moves depend only on their own racks, still play, see
    their moves and get hints, each told in one line that Bo's pass is set aside until he
    reveals; his own tool names his pass; once his key is known, validate names it."""
    from uptown_cli.fairplay import check as hidden_check

    monkeypatch.setattr(hidden_check, "surely_unforced", lambda game, player: None)
    path = new_game(uptown, tmp_path)
    bot_move(uptown, tmp_path, path, "Ana")
    write_pass(tmp_path, path, "Bo")
    warning = "Warning: Bo's pass at move 2 looks unforced; checked when Bo reveals"
    for name in ("Cy", "Ana"):
        result, data = uptown.json("moves", path, "--json", "--as", name,
                                   env=env(tmp_path, name))
        assert result.exit_code == 0 and data["moves"], result.output
        assert result.stderr.strip() == warning
        result = uptown_as(tmp_path, name, "hint", path, "--bot", "mc", "--playouts", "2",
                           "--as", name)
        assert result.exit_code == 0 and result.stderr.strip() == warning, result.output
        result = uptown_as(tmp_path, name, "move", path, "--bot", "random", "--as", name)
        assert result.exit_code == 0 and result.stderr.strip() == warning, result.output
    refused(uptown_as(tmp_path, "Bo", "move", path, "--bot", "random", "--as", "Bo"),
            "move 2: Bo passed, but blue could play")
    assert uptown.invoke("validate", path).exit_code == 0  # Bo's draws unchecked: nothing to see
    text = path.read_text()
    path.write_text(text.replace("moves:\n", f"revealed:\n  - Bo: {key_of(tmp_path, 'Bo').hex()}"
                                 "\nmoves:\n", 1))
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1 and "move 2: Bo passed, but blue could play" in result.stdout


def test_a_reveal_before_the_end_is_refused_by_everyone_and_names_no_victim(uptown, tmp_path):
    """(6) A made-up key for Bo, added mid-game: a key is revealed only at the end, so every
    tool refuses the file at that entry's line as written by hand (not by Bo), nothing is
    written; once the line is taken out, the players play on."""
    path = new_game(uptown, tmp_path)
    bot_move(uptown, tmp_path, path, "Ana")
    text = path.read_text()
    path.write_text(text.replace("moves:\n", f"revealed:\n  - Bo: {'5' * 64}\nmoves:\n", 1))
    line = path.read_text().splitlines().index(f"  - Bo: {'5' * 64}") + 1
    for name in ("Bo", "Cy"):
        said = refused(uptown_as(tmp_path, name, "move", path, "--bot", "random", "--as", name),
                       f"g.yaml:{line}: Bo's key is revealed before the game is over",
                       "written by hand")
        assert "(the record is invalid)" in said
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1 and f"g.yaml:{line}: Bo's key is revealed before" in result.stdout
    path.write_text(text)
    bot_move(uptown, tmp_path, path, "Bo")
    bot_move(uptown, tmp_path, path, "Cy")


def test_an_impostor_join_is_named_to_the_real_player(uptown, tmp_path):
    """(6) Eve joins as Bo from her own computer. The real Bo is told that someone else joined
    as him, at the commitment's line, not to run join again."""
    path = new_game(uptown, tmp_path, join=False)
    assert uptown_as(tmp_path, "Ana", "join", path, "--as", "Ana").exit_code == 0
    assert uptown_as(tmp_path, "Eve", "join", path, "--as", "Bo").exit_code == 0
    for command in ("join", "show"):
        refused(uptown_as(tmp_path, "Bo", command, path, "--as", "Bo"),
                "someone else joined as Bo", "g.yaml:")


@pytest.mark.parametrize("mode", [0o777, 0o770])
def test_a_key_folder_others_may_write_is_refused_with_the_fix(uptown, tmp_path, mode):
    path = new_game(uptown, tmp_path, ("Ana", "Bo"), join=False)
    folder = tmp_path / "keys-Ana"
    folder.mkdir()
    folder.chmod(mode)
    result = uptown_as(tmp_path, "Ana", "join", path, "--as", "Ana")
    refused(result, f"chmod 700 {folder}")
    assert list(folder.iterdir()) == []


def test_key_folders_and_their_parents_are_made_private_whatever_the_umask(uptown, tmp_path):
    import os
    import stat

    path = new_game(uptown, tmp_path, ("Ana", "Bo"), join=False)
    folder = tmp_path / "deep" / "er" / "keys"
    old = os.umask(0)
    try:
        assert uptown.invoke("join", path, "--as", "Ana", "--keys", folder).exit_code == 0
    finally:
        os.umask(old)
    for made in (folder, folder.parent, folder.parent.parent):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700


def test_a_bot_in_a_hidden_game_is_not_seeded_from_the_public_file(uptown, tmp_path):
    """(7) Two players with the same public file but different keys: the bot's seed differs,
    so the file alone does not tell what the bot drew."""
    from uptown_cli.turns.own_turn import secret_seed

    record = load_record(new_game(uptown, tmp_path))
    seeds = {secret_seed(new_key(), record) for _ in range(2)}
    assert len(seeds) == 2 and record.text not in seeds


def test_a_game_written_as_version_1_cannot_be_joined(uptown, tmp_path):
    """The creator leaves out the protocol line, for the weaker version 1: nobody can join."""
    path = new_game(uptown, tmp_path, join=False)
    path.write_text(re.sub(r"protocol: uptown-hidden-\d\n", "", path.read_text()))
    refused(uptown_as(tmp_path, "Ana", "join", path, "--as", "Ana"), "uses uptown-hidden-1",
            "uptown new --hidden")
    assert not list((tmp_path / "keys-Ana").glob("*.key"))


@pytest.mark.parametrize("damage", ['"players": 5', '"moves": [["red"]]', '"moves": [[1, "7 B7", null]]',
                                    '"commitments": [["Ana", "not the hex of a commitment"]]'])
def test_a_damaged_memory_file_is_refused_in_one_line(uptown, tmp_path, damage):
    """Ana's memory of the game, edited by hand or damaged, is refused with its name: no
    traceback, nothing written."""
    path = new_game(uptown, tmp_path)
    name = bot_move(uptown, tmp_path, path)
    memory = next((tmp_path / f"keys-{name}").glob("*.seen"))
    data = json.loads(memory.read_text())
    key = damage.split(":")[0].strip('"')
    data[key] = json.loads(damage.split(":", 1)[1])
    memory.write_text(json.dumps(data))
    before = path.read_bytes()
    result = uptown_as(tmp_path, name, "show", path, "--as", name)
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("is not an uptown memory file (it was damaged or edited): "
                                          "move it away to start remembering afresh")
    assert path.read_bytes() == before
