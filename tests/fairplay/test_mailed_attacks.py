"""Cheats against a game with hidden racks played by email (issue 26), each through the command
line: Ana, Bo and Cy have a folder and a key folder each, and the file goes from one to the
next only by ``send`` and ``receive`` through a real SMTP server. Each cheat is caught, the
victim is not blamed, and the honest players then finish, reveal and validate the game.

To stay quick, most start from a game played to near its end by bots (``played_hidden_game``),
each player's copy, keys and memory set up as if they had played it."""

import re

import pytest
from support.club import CLUB, Club, message_of, smtp_server  # noqa: F401 (a fixture)
from support.hidden import older_protocol
from support.players import copy_keys, prepared_copy, refused

from uptown_cli.records.reading import load_record

MAX_TURNS = 200
"""More turns than any three-player game has."""
FAKE = "5" * 64


def club_at(tmp_path, server, played, moves_left):
    """A club whose players each hold the played game without its last ``moves_left`` moves,
    their own keys, and the memory of having seen it."""
    club = Club(tmp_path, server)
    text = prepared_copy(played, moves_left)
    for name in CLUB:
        copy_keys(played, name, club.keys(name))
        club.game(name).write_text(text)
        club.uptown(name, "show", "club.yaml", "--as", name)
    return club


def order(club, name="Ana"):
    """(the player to move, the next one, the one after) in ``name``'s copy."""
    first = club.show(name)["to_move"]
    seat = CLUB.index(first)
    return tuple(CLUB[(seat + k) % 3] for k in range(3))


def move_and_send(club, name):
    club.uptown(name, "move", "club.yaml", "--bot", "random", "--as", name, "--send")
    club.deliver()


def play_on(club, mover):
    """The players move in turn by mail, from ``mover``, to the end of the game."""
    for _ in range(MAX_TURNS):
        move_and_send(club, mover)
        data = club.show(mover)
        if data["finished"]:
            return
        mover = data["to_move"]
    pytest.fail("the game did not end")


def reveal_and_send(club, name):
    club.uptown(name, "reveal", "club.yaml", "--as", name)
    club.uptown(name, "send", "club.yaml", "--as", name, "--to", "all")


def all_validate(club):
    """Every player's copy validates (exit 0: every key revealed, every draw checked)."""
    for name in CLUB:
        result = club.attempt(name, "validate", "club.yaml")
        assert result.exit_code == 0, (name, result.output)


def test_a_made_up_key_for_bo_is_not_taken_and_his_real_key_replaces_it(
        tmp_path, smtp_server, played_hidden_game):
    """(1) Cy, holding the finished game, writes a made-up key for Bo and mails it to all.
    Neither Ana's nor Bo's receive takes it (it counts as not revealed); Bo reveals and mails,
    and his real key replaces the made-up one in Cy's copy; every memory accepts it."""
    club = club_at(tmp_path, smtp_server, played_hidden_game, 0)
    cy = club.game("Cy")
    cy.write_text(cy.read_text() + f"revealed:\n  - Bo: {FAKE}\n")
    line = cy.read_text().splitlines().index(f"  - Bo: {FAKE}") + 1
    result = club.attempt("Cy", "validate", "club.yaml")
    assert result.exit_code == 3, result.output  # unchecked, not invalid
    assert (f"club.yaml: the key at line {line} does not give Bo's commitment: that entry was "
            "not written by Bo, and counts as not revealed") in result.output
    club.uptown("Cy", "send", "club.yaml", "--as", "Cy", "--to", "all")
    for name, result in club.deliver():
        assert "already holds this copy" in result.output, result.output
        assert FAKE not in club.game(name).read_text()
    reveal_and_send(club, "Bo")
    said = dict((name, result.output) for name, result in club.deliver())
    assert "Bo revealed their key" in said["Cy"]
    assert FAKE not in cy.read_text() and cy.read_text().splitlines()[line - 1].startswith("  - Bo: ")
    for name in ("Ana", "Cy"):
        reveal_and_send(club, name)
        club.deliver()
    all_validate(club)
    for name in CLUB:  # no memory blames Bo
        club.uptown(name, "show", "club.yaml", "--as", name)


def test_a_made_up_key_passed_by_copy_is_replaced_by_reveal(uptown, tmp_path, played_hidden_game):
    """(1) The same, the file passed by copy: Bo's reveal writes his key over the made-up one
    (saying so), where before he was told that he had already revealed; Ana's tool, which saw
    the made-up key, does not blame Bo for the change."""
    path = tmp_path / "g.yaml"
    path.write_text(prepared_copy(played_hidden_game, 0) + f"revealed:\n  - Bo: {FAKE}\n")
    line = path.read_text().splitlines().index(f"  - Bo: {FAKE}") + 1
    env = {}
    for name in CLUB:
        copy_keys(played_hidden_game, name, tmp_path / f"keys-{name}")
        env[name] = {"UPTOWN_KEYS": str(tmp_path / f"keys-{name}"), "UPTOWN_GAME": None}
        assert uptown.invoke("show", path, "--as", name, env=env[name]).exit_code == 0
    assert uptown.json("show", path, "--json")[1]["to_reveal"] == list(CLUB)  # Bo too
    result = uptown.invoke("reveal", path, "--as", "Bo", env=env["Bo"])
    assert result.exit_code == 0, result.output
    assert (f"It replaces the entry at line {line}, which did not give Bo's commitment: Bo did "
            "not write it.") in result.stdout
    assert FAKE not in path.read_text()
    assert uptown.invoke("show", path, "--as", "Ana", env=env["Ana"]).exit_code == 0
    for name in ("Ana", "Cy"):
        assert uptown.invoke("reveal", path, "--as", name, env=env[name]).exit_code == 0
    assert uptown.invoke("validate", path).exit_code == 0


def test_a_respelled_move_is_refused_by_receive_naming_the_move_and_its_mover(
        tmp_path, smtp_server, played_sealed_game):
    """(2) The cheater (whoever is to move after a round) respells the last move of the next
    player (a square in lower case, or PASS), throws her memory away, plays and mails the
    file on. His receive refuses
    it, naming the move, its mover and both spellings, and keeps his copy; diff says the
    same. Once the cheater takes the true copy back, the game goes on to its end."""
    club = club_at(tmp_path, smtp_server, played_sealed_game, 9)
    cheater, victim, third = order(club)
    for name in order(club):
        move_and_send(club, name)
    path = club.game(cheater)
    record = load_record(path)
    color = ("red", "blue", "green")[CLUB.index(victim)]
    number, entry = len(record.moves) - 1, record.moves[-2]  # the victim's last move
    assert entry.color == color
    tile, *square = entry.text.split()
    respelled = "PASS" if entry.text == "pass" else f"{tile} {square[0].lower()}"
    lines = path.read_text().splitlines(keepends=True)
    lines[entry.line - 1] = lines[entry.line - 1].replace(entry.text, respelled)
    path.write_text("".join(lines))
    for seen in club.keys(cheater).glob("*.seen"):
        seen.unlink()
    club.uptown(cheater, "move", "club.yaml", "--bot", "random", "--as", cheater)
    club.uptown(cheater, "send", "club.yaml", "--as", cheater, "--to", victim)
    before = club.game(victim).read_bytes()
    ((who, result),) = club.deliver(strict=False)
    assert who == victim
    line = refused(result, f"move {number} ({victim}'s {color}) is {color}: '{entry.text}' in "
                   f"club.yaml, {color}: '{respelled}' in", "the same move respelled",
                   "refused: your copy is unchanged")
    assert club.game(victim).read_bytes() == before
    kept = re.search(r"kept as (\S+)$", line).group(1)
    result = club.attempt(victim, "diff", "club.yaml", kept)
    assert result.exit_code == 1 and f"({victim}'s {color})" in result.output
    club.game(cheater).unlink()  # she takes the true copy back; her tool saw her cheat:
    for seen in club.keys(cheater).glob("*.seen"):  # she throws that memory away too
        seen.unlink()
    club.uptown(third, "send", "club.yaml", "--as", third, "--to", cheater)
    club.deliver()
    play_on(club, cheater)
    for name in CLUB:
        reveal_and_send(club, name)
        club.deliver()
    all_validate(club)


def test_a_redirected_address_is_refused_naming_whose_address_changed(
        uptown, tmp_path, smtp_server, played_sealed_game):
    """(3) The player to move plays, writes her own address as the third player's and mails
    the file on: the next player's receive refuses it, naming the third player and both
    addresses, and his copy is unchanged (his next mail cannot be redirected); passed by
    copy, his tool refuses it too at that line. Once she sends the true copy, play goes on."""
    club = club_at(tmp_path, smtp_server, played_sealed_game, 6)
    cheater, victim, third = order(club)
    club.uptown(cheater, "move", "club.yaml", "--bot", "random", "--as", cheater)
    path = club.game(cheater)
    honest = path.read_text()
    theirs, mine = f"{third.lower()}@example.org", f"{cheater.lower()}@example.org"
    path.write_text(honest.replace(f"email: {theirs}", f"email: {mine}"))
    lines = path.read_text().splitlines()
    email_line = lines.index(f"    email: {mine}", lines.index(f"  - name: {third}")) + 1
    club.uptown(cheater, "send", "club.yaml", "--as", cheater)
    before = club.game(victim).read_bytes()
    ((who, result),) = club.deliver(strict=False)
    assert who == victim
    refused(result, f"{third}'s e-mail address differs ({theirs} in club.yaml, {mine} in",
            f"mail for {third} would go elsewhere", "refused: your copy is unchanged")
    assert club.game(victim).read_bytes() == before
    copied = club.folders[victim] / "copied.yaml"
    copied.write_bytes(path.read_bytes())
    result = club.attempt(victim, "show", "copied.yaml", "--as", victim)
    refused(result, f"copied.yaml:{email_line}: {third}'s e-mail address changed since {victim} "
            f"saw it (was {theirs}, now {mine})")
    path.write_text(honest)
    club.uptown(cheater, "send", "club.yaml", "--as", cheater)
    ((who, result),) = club.deliver()
    assert who == victim and "is new" in result.output
    play_on(club, victim)
    for name in CLUB:
        reveal_and_send(club, name)
        club.deliver()
    all_validate(club)


def test_two_players_who_reveal_at_once_do_not_deadlock_the_game(
        tmp_path, smtp_server, played_hidden_game):
    """(4) Ana and Bo each reveal on their own copy and mail it to all at once: every receive
    merges the keys; Bo may publish his spent key again on a copy that lacks it; Cy reveals
    last and every copy validates."""
    club = club_at(tmp_path, smtp_server, played_hidden_game, 0)
    reveal_and_send(club, "Ana")
    other = club.folders["Bo"] / "anas-copy.yaml"
    other.write_bytes(club.game("Ana").read_bytes())
    reveal_and_send(club, "Bo")
    said = [result.output for _, result in club.deliver()]
    assert any("merged with the keys of your copy" in line for line in said), said
    result = club.uptown("Bo", "reveal", "anas-copy.yaml", "--as", "Bo")
    assert "Still to reveal: Cy" in result.output
    reveal_and_send(club, "Cy")
    club.deliver()
    all_validate(club)


@pytest.mark.slow
def test_a_join_as_the_wrong_player_is_undone_before_the_first_move_visibly_to_all(
        tmp_path, smtp_server):
    """(5) Bo joins, then by mistake joins as Cy too, and mails the file to all. Cy is told that
    someone else joined as him and how it is undone; Bo undoes it (his key folder holds that
    key) and mails it to all; every tool, Ana's too (she saw the wrong join), accepts the file;
    Cy joins, and the game is played, revealed and validated."""
    club = Club(tmp_path, smtp_server)
    club.uptown("Ana", "new", "club.yaml", "--hidden", *club.options())
    club.uptown("Ana", "join", "club.yaml", "--as", "Ana")
    club.uptown("Ana", "send", "club.yaml", "--as", "Ana")
    club.deliver()
    club.uptown("Bo", "join", "club.yaml", "--as", "Bo")
    club.uptown("Bo", "join", "club.yaml", "--as", "Cy")
    club.uptown("Bo", "send", "club.yaml", "--as", "Bo", "--to", "all")
    club.deliver()
    club.uptown("Ana", "show", "club.yaml", "--as", "Ana")  # Ana's tool sees the wrong join
    refused(club.attempt("Cy", "join", "club.yaml", "--as", "Cy"), "someone else joined as Cy",
            "uptown join --undo --as Cy")
    result = club.uptown("Bo", "join", "club.yaml", "--undo", "--as", "Cy")
    assert "Cy's join (line " in result.output and "withdrawn" in result.output
    club.uptown("Bo", "send", "club.yaml", "--as", "Bo", "--to", "all")
    said = dict((name, result.output) for name, result in club.deliver())
    assert "Cy's join was undone" in said["Ana"] and "Cy's join was undone" in said["Cy"]
    club.uptown("Cy", "join", "club.yaml", "--as", "Cy")
    club.uptown("Cy", "send", "club.yaml", "--as", "Cy", "--to", "all")
    club.deliver()
    play_on(club, "Ana")
    for name in CLUB:
        reveal_and_send(club, name)
        club.deliver()
    all_validate(club)
    assert "withdrawn:" in club.game("Ana").read_text()


def other_legal_move(path, number):
    """Another move the board allows in place of move ``number`` of the game at ``path``:
    another tile of that colour not played yet, on a square it may take, that no later move
    takes."""
    from uptown_cli.engine.geometry import FIT_SQUARES, square_name, tile_name
    from uptown_cli.engine.passes import can_place
    from uptown_cli.engine.notation import parse_move
    from uptown_cli.fairplay.replay import replay

    record = load_record(path)
    entry = record.moves[number - 1]
    before = replay(record, upto=number - 1).game
    later = {m.text.split()[-1].lstrip("x").upper() for m in record.moves[number:]}
    tile = parse_move(entry.text).tile
    return next(text for other in before.unplayed_tiles(entry.color) if other != tile
                for square in FIT_SQUARES[other] if can_place(before, entry.color, other, square)
                for text in [f"{tile_name(other)} {square_name(square)}"]
                if text != entry.text and square_name(square).upper() not in later)


def rewrite_move(path, number, text):
    record = load_record(path)
    entry = record.moves[number - 1]
    lines = path.read_text().splitlines(keepends=True)
    lines[entry.line - 1] = lines[entry.line - 1].replace(entry.text, text)
    path.write_text("".join(lines))
    return entry


def play_by_hand(path, name, keys):
    """``name`` writes their next move by hand (their tool refuses to play), with the link and
    seal their key gives, as the docs say: a tile of their rack that the board allows."""
    from uptown_cli.engine.geometry import FIT_SQUARES, square_name, tile_name
    from uptown_cli.engine.passes import can_place
    from uptown_cli.fairplay.keys import load_key
    from uptown_cli.fairplay.check import HiddenCheck, own_link
    from uptown_cli.fairplay.replay import replay

    record = load_record(path)
    key = load_key(keys, record.hidden.game_id, name)
    public = HiddenCheck(record)
    game = replay(record, hidden=public).game
    own = HiddenCheck(record, own=(name, key))
    replay(record, hidden=own)  # stops where the seals name the forger: the rack is known
    player = next(p for p in record.players if p.name == name)
    color, tile, square = next((c, t, sq) for c in player.colors for t in own.deal.racks[c]
                               for sq in FIT_SQUARES[t] if can_place(game, c, t, sq))
    text = f"{tile_name(tile)} {square_name(square)}"
    turn = public.deal.turns[name] + 1
    link = own_link(record, name, key, turn, color, text, public.digest, public.previous_seal)
    path.write_text(path.read_text() + f"  - {color}: {text}\n    link: {link}\n")


def test_a_move_forged_by_the_next_player_is_proven_and_its_forger_named_on_every_screen(
        tmp_path, smtp_server, played_sealed_game):
    """(N1) The player to move (the victim) plays and mails the file to the next player only,
    who rewrites her move (another move the board allows, her link kept), throws his memory
    away, plays on top and mails it to the third, who never saw her move and accepts it. The
    victim's receive refuses the copy, but her tool proves with her key that her seal does
    not cover the move and names the forger's seal as the next over it: she plays on. Her
    link lets every tool check her seal: every screen says so and names the forger as the
    one whose seal is checked next; his own tool refuses him, naming him; when he plays on
    (by hand), every receive refuses his copy naming him, and validate names him."""
    club = club_at(tmp_path, smtp_server, played_sealed_game, 15)
    victim, forger, third = order(club)
    color = ("red", "blue", "green")[CLUB.index(victim)]
    club.uptown(victim, "move", "club.yaml", "--bot", "random", "--as", victim)
    club.uptown(victim, "send", "club.yaml", "--as", victim, "--to", forger)
    club.deliver()
    path = club.game(forger)
    number = len(load_record(path).moves)
    forged = other_legal_move(path, number)
    entry = rewrite_move(path, number, forged)
    for seen in club.keys(forger).glob("*.seen"):
        seen.unlink()
    club.uptown(forger, "move", "club.yaml", "--bot", "random", "--as", forger)
    club.uptown(forger, "send", "club.yaml", "--as", forger, "--to", third)
    ((who, result),) = club.deliver()
    assert who == third and "are new" in result.output
    club.uptown(third, "move", "club.yaml", "--bot", "random", "--as", third)
    club.uptown(third, "send", "club.yaml", "--as", third, "--to", "all")
    said = dict(club.deliver(strict=False))
    line = refused(said[victim], f"move {number} ({victim}'s {color}) is {color}: "
                   f"'{entry.text}' in club.yaml, {color}: '{forged}' in",
                   f"(uptown show --as {victim} on the kept copy tells which one {victim} sealed)")
    kept = club.folders[victim] / re.search(r"kept as (\S+)$", line).group(1)
    proven = (f"move {number} ({victim}'s {color}), or an entry before it, was changed after "
              f"{victim} played it: {victim}'s seal does not cover it; who changed it is named "
              f"when {forger} plays next ({forger}'s seal of move {number + 1} is the next over "
              "the change)")
    result = club.uptown(victim, "show", kept.name, "--as", victim)
    assert result.stderr.strip() == (
        f"Warning: {kept.name}:{entry.line}: {proven}; {victim} can play on from this copy, "
        f"which the others hold: {victim}'s next link shows the change to every tool")
    club.game(victim).write_bytes(kept.read_bytes())  # she takes the copy everyone else holds
    club.uptown(victim, "move", "club.yaml", "--bot", "random", "--as", victim)
    club.uptown(victim, "send", "club.yaml", "--as", victim, "--to", "all")
    club.deliver()
    for name in (victim, third):  # every screen: the public file proves it now
        for args in (["show", "club.yaml"], ["show", "club.yaml", "--as", name]):
            result = club.uptown(name, *args)
            assert result.stderr.strip() == f"Warning: club.yaml:{entry.line}: {proven}"
    named = (f"club.yaml:{entry.line}: move {number} ({victim}'s {color}), or an entry before "
             f"it, was changed after {victim} played it: {victim}'s seal does not cover it; "
             f"{forger}'s seal of move {number + 1} is the first over the change: {forger} "
             "changed it")
    refused(club.attempt(forger, "move", "club.yaml", "--bot", "random", "--as", forger), named)
    play_by_hand(club.game(forger), forger, club.keys(forger))
    result = club.attempt(forger, "validate", "club.yaml")
    assert result.exit_code == 1 and named in result.stdout, result.output
    refused(club.attempt(forger, "send", "club.yaml", "--as", forger, "--to", "all"), named)
    data = message_of(club.folders[forger]).as_bytes()  # so he mails it by hand
    for name in (victim, third):
        result = club.attempt(name, "receive", "-", input=data)
        refused(result, "the attached game is invalid", named[len("club.yaml"):])
        club.uptown(name, "show", "club.yaml", "--as", name)  # their copy is unchanged


def test_a_game_downgraded_to_an_older_protocol_is_not_joined_unless_asked(
        tmp_path, smtp_server):
    """(N5) Ana makes a game, joins, rewrites its protocol to uptown-hidden-2 and mails it.
    The mail and show say which version it is, and that it is older; Bo's join refuses it
    at the protocol's line, naming both versions, and writes nothing, unless he asks for it
    (--older-protocol); then every later change of the version is refused by his memory."""
    club = Club(tmp_path, smtp_server)
    club.uptown("Ana", "new", "club.yaml", "--hidden", *club.options())
    path = club.game("Ana")
    assert "protocol: uptown-hidden-5\n" in path.read_text()
    assert "(protocol uptown-hidden-5)" in club.uptown("Ana", "show", "club.yaml").output
    path.write_text(path.read_text().replace("uptown-hidden-5", "uptown-hidden-2"))
    club.uptown("Ana", "join", "club.yaml", "--as", "Ana", "--older-protocol")
    club.uptown("Ana", "send", "club.yaml", "--as", "Ana")
    data = club.server.capture.messages[-1][1].decode()
    assert "Hidden racks, protocol uptown-hidden-2, older than uptown-hidden-5." in data
    club.deliver()
    line = club.game("Bo").read_text().splitlines().index("protocol: uptown-hidden-2") + 1
    assert ("(protocol uptown-hidden-2, older than uptown-hidden-5)"
            in club.uptown("Bo", "show", "club.yaml").output)
    before = club.game("Bo").read_bytes()
    refused(club.attempt("Bo", "join", "club.yaml", "--as", "Bo"),
            f"club.yaml:{line}: the game uses uptown-hidden-2, older than uptown-hidden-5",
            "--older-protocol", "nothing was written")
    assert club.game("Bo").read_bytes() == before and not list(club.keys("Bo").glob("*.key"))
    club.uptown("Bo", "join", "club.yaml", "--as", "Bo", "--older-protocol")
    bo = club.game("Bo")
    bo.write_text(bo.read_text().replace("uptown-hidden-2", "uptown-hidden-5"))
    refused(club.attempt("Bo", "show", "club.yaml", "--as", "Bo"), "the protocol changed since Bo "
            "saw it (was 'uptown-hidden-2', now 'uptown-hidden-5')")


def test_made_up_keys_for_a_player_or_for_no_player_are_ignored_never_a_veto(
        uptown, tmp_path, smtp_server, played_hidden_game):
    """(N7) Cy writes two made-up keys for Bo and one for Zed, who is no player, into the
    finished game and mails it to all. Each entry is ignored with a warning at its line,
    the game is not invalid for anyone (unchecked, exit 3, until Bo reveals); Bo's reveal
    writes his real key over the first, and the game validates (exit 0) on every copy."""
    club = club_at(tmp_path, smtp_server, played_hidden_game, 0)
    cy = club.game("Cy")
    other = "6" * 64
    cy.write_text(cy.read_text() + f"revealed:\n  - Bo: {FAKE}\n  - Zed: {FAKE}\n"
                  f"  - Bo: {other}\n")
    lines = cy.read_text().splitlines()
    bo, zed, second = (lines.index(f"  - {who}: {key}") + 1
                       for who, key in (("Bo", FAKE), ("Zed", FAKE), ("Bo", other)))
    result = club.attempt("Cy", "validate", "club.yaml")
    assert result.exit_code == 3, result.output  # unchecked, not invalid
    for said in (f"club.yaml:{zed}: warning: 'Zed' in 'revealed' is not a player of this game, "
                 "so it is ignored",
                 f"club.yaml:{second}: warning: another key revealed for Bo (line {bo} is the "
                 "one counted): ignored; Bo did not write it",
                 f"club.yaml: the key at line {bo} does not give Bo's commitment: that entry "
                 "was not written by Bo, and counts as not revealed"):
        assert said in result.output, result.output
    club.uptown("Cy", "send", "club.yaml", "--as", "Cy", "--to", "all")
    for name, result in club.deliver():
        assert "already holds this copy" in result.output
    reveal_and_send(club, "Bo")
    said = dict((name, result.output) for name, result in club.deliver())
    assert "Bo revealed their key" in said["Cy"] and "Bo revealed their key" in said["Ana"]
    for name in ("Ana", "Cy"):
        reveal_and_send(club, name)
        club.deliver()
    all_validate(club)


@pytest.mark.slow
def test_a_hand_written_withdrawn_join_is_refused_naming_its_line(tmp_path, smtp_server):
    """(N2) A griefer's ``withdrawn:`` entries. Before the first move, Cy takes Bo's join out
    and writes a key of his own under withdrawn: for Bo: Bo's tool refuses the file at his
    commitment (it is gone, and no withdrawn key gives it). After the first move, Cy
    adds a withdrawn join: every receive refuses the copy (a join is undone only before the
    first move) and every memory names the line; the game goes on from the true copy. (Of
    protocol 4: from protocol 5 a withdrawn join carries its writer's signature, and the
    griefer's own tool will not send one written by hand.)"""
    club = Club(tmp_path, smtp_server)
    club.uptown("Ana", "new", "club.yaml", "--hidden", *club.options())
    older_protocol(club.game("Ana"))
    for name, after in (("Ana", "Bo"), ("Bo", "Cy")):
        club.uptown(name, "join", "club.yaml", "--as", name, "--older-protocol")
        club.uptown(name, "send", "club.yaml", "--as", name, "--to", "all")
        club.deliver()
    cy = club.game("Cy")
    honest = cy.read_text()
    bo_entry = next(line for line in honest.splitlines() if line.startswith("  - Bo: "))
    cy.write_text(re.sub(re.escape(bo_entry) + r"\n(    \w+: \w+\n)*", "", honest)
                  + f"withdrawn:\n  - Bo: {FAKE}\n")
    copied = club.folders["Bo"] / "copied.yaml"
    copied.write_bytes(cy.read_bytes())
    refused(club.attempt("Bo", "show", "copied.yaml", "--as", "Bo"),
            "copied.yaml:", "Bo's commitment is gone since Bo saw it")
    cy.write_text(honest)
    club.uptown("Cy", "join", "club.yaml", "--as", "Cy", "--older-protocol")
    club.uptown("Cy", "send", "club.yaml", "--as", "Cy", "--to", "all")
    club.deliver()
    first = club.show("Ana")["to_move"]
    club.uptown(first, "move", "club.yaml", "--bot", "random", "--as", first)
    club.uptown(first, "send", "club.yaml", "--as", first, "--to", "all")
    club.deliver()
    for name in CLUB:  # each looks at the first move
        club.uptown(name, "show", "club.yaml", "--as", name)
    honest = cy.read_text()
    cy.write_text(honest + f"withdrawn:\n  - Bo: {FAKE}\n")
    line = len(honest.splitlines()) + 2
    club.uptown("Cy", "send", "club.yaml", "--as", "Cy", "--to", "all")
    for name, result in club.deliver(strict=False):
        if name == first:
            continue  # (her copy moved on: checked with the others')
        refused(result, "the withdrawn joins differ, though both copies have moves",
                "written by hand", "your copy is unchanged")
        copied = club.folders[name] / "copied.yaml"
        copied.write_bytes(cy.read_bytes())
        refused(club.attempt(name, "show", "copied.yaml", "--as", name),
                f"copied.yaml:{line}: Bo's withdrawn join was added since {name} saw it, after "
                "the first move: a join cannot be undone then")
    cy.write_text(honest)
    play_on(club, club.show("Ana")["to_move"])
