"""What a player's tool remembers of a game (``fairplay.memory``): each field of the memory changed
alone is refused at its line, naming whose entry it is; what may change without blame (a key
revealed by its player over one they did not write, a key another copy holds, a join undone by
whoever made it) is not. Then, through the command line, the memory of an open game follows the
game, not the file's name, and a refusal by a command that writes nothing says nothing of
writing."""

import hashlib

import pytest
from support.players import as_player

from uptown_cli.fairplay.draws import commitment, head
from uptown_cli.records.schema import load_record_text
from uptown_cli.fairplay.memory import first_change, snapshot

GAME_ID = "00112233445566778899aabbccddeeff"
NAMES = ("Ana", "Bo", "Cy")
KEYS = {name: hashlib.sha256(name.encode()).digest() for name in NAMES + ("Eve",)}
LINK = "ab" * 64


def commitments(keys=KEYS, version=3):
    """Each player's commitment made with ``keys`` (hex), in seat order."""
    game_id, made = bytes.fromhex(GAME_ID), []
    for name in NAMES:
        made.append(commitment(game_id, name, head(game_id, name, keys[name], version),
                               [bytes.fromhex(c) for c in made], version).hex())
    return made


HEADS = commitments()
FAKE = "5" * 64


def hidden_text(moves=("red: 7 B7", "blue: sax E8", "green: $ C3"), revealed=("Ana", "Bo"),
                withdrawn=(), heads=HEADS):
    """A hidden game of Ana, Bo and Cy (each with an address), its lines numbered as in the
    comments; every link is ``LINK``."""
    lines = ["uptown: 1",                          # 1
             "variant: standard",                  # 2
             "players:",                           # 3
             "  - name: Ana",                      # 4
             "    colors: [red]",                  # 5
             "    email: ana@example.org",         # 6
             "  - name: Bo",                       # 7
             "    colors: [blue]",                 # 8
             "    email: bo@example.org",          # 9
             "  - name: Cy",                       # 10
             "    colors: [green]",                # 11
             "    email: cy@example.org",          # 12
             f"hidden: {GAME_ID}",                 # 13
             "protocol: uptown-hidden-3",          # 14
             "commitments:"]                       # 15
    lines += [f"  - {name}: {value}" for name, value in zip(NAMES, heads)]  # 16-18
    lines += ["withdrawn:"] * bool(withdrawn) + [f"  - {n}: {k}" for n, k in withdrawn]
    lines.append("moves:")
    for move in moves:
        lines += [f"  - {move}", f"    link: {LINK}"]
    if revealed:
        lines.append("revealed:")
        lines += [f"  - {name}: {KEYS[name].hex() if name in KEYS else name}"
                  for name in revealed]
    return "\n".join(lines) + "\n"


BASE = hidden_text()
"""Moves on lines 20, 22 and 24; revealed keys of Ana and Bo on lines 27 and 28."""


def seen_by(text):
    """What a tool remembers after seeing ``text``."""
    return snapshot(load_record_text(text, "g.yaml"))


def change(seen_text, text, viewer="Ana", **options):
    return first_change(seen_by(seen_text), load_record_text(text, "g.yaml"), viewer, **options)


@pytest.mark.parametrize("old, new, line, message", [
    (f"hidden: {GAME_ID}", "hidden: " + "f" * 32, 13,
     f"the game id changed since Ana saw it (was '{GAME_ID}', now '{'f' * 32}'): the file was "
     "edited by hand"),
    ("protocol: uptown-hidden-3", "protocol: uptown-hidden-2", 14,
     "the protocol changed since Ana saw it (was 'uptown-hidden-3', now 'uptown-hidden-2'): "
     "the file was edited by hand"),
    ("variant: standard", "variant: blockers", 2,
     "the variant changed since Ana saw it (was 'standard', now 'blockers'): the file was "
     "edited by hand"),
    ("email: cy@example.org", "email: ana@example.org", 12,
     "Cy's e-mail address changed since Ana saw it (was cy@example.org, now ana@example.org): "
     "mail for Cy would go elsewhere; the address was edited by hand"),
    ("    email: cy@example.org\n", "", 10,
     "Cy's e-mail address changed since Ana saw it (was cy@example.org, now none): mail for Cy "
     "would go elsewhere; the address was edited by hand"),
    (f"  - Bo: {HEADS[1]}", f"  - Bo: {'0' * 64}", 17, "Bo's commitment changed since Ana saw it"),
    ("  - blue: sax E8", "  - blue: sax e8", 22,
     "move 2 (Bo's blue) changed since Ana saw it: was 'sax E8', now 'sax e8'"),
    ("  - green: $ C3\n    link: " + LINK, "  - green: $ C3\n    link: " + "cd" * 64, 24,
     "move 3 (Cy's green) changed since Ana saw it (its link)"),
    (f"  - Bo: {KEYS['Bo'].hex()}", f"  - Bo: {FAKE}", 28,
     "the key revealed for Bo changed since Ana saw it: it no longer gives Bo's commitment, so "
     "the entry was not written by Bo (uptown reveal --as Bo writes the key again)"),
])
def test_each_field_changed_alone_is_refused_at_its_line_naming_whose_it_is(old, new, line,
                                                                           message):
    assert old in BASE
    assert change(BASE, BASE.replace(old, new, 1)) == (line, message)


def test_a_player_renamed_is_refused_at_their_line():
    renamed = BASE.replace("  - name: Bo\n", "  - name: Bob\n").replace("  - Bo: ", "  - Bob: ")
    assert change(BASE, renamed) == (
        7, "player 2 (Bo) changed since Ana saw it: now Bob: the players were edited by hand")


def test_a_seed_changed_is_refused_at_its_line():
    text = "uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\nseed: '0123'\nmoves:\n"
    assert change(text, text.replace("'0123'", "'0124'")) == (
        5, "the seed changed since Ana saw it (was '0123', now '0124'): the file was edited by "
           "hand")


def test_colours_changed_are_refused_at_the_players_line():
    text = hidden_text(moves=(), revealed=())
    assert change(text, text.replace("colors: [blue]", "colors: [yellow]")) == (
        7, "Bo's colours changed since Ana saw it (were blue, now yellow): the players were "
           "edited by hand")


def test_a_player_added_or_gone_is_refused_naming_them():
    text = hidden_text(moves=(), revealed=())
    added = text.replace("hidden:", "  - name: Di\n    colors: [yellow]\nhidden:")
    assert change(text, added) == (
        13, "player 4 (Di) was added since Ana saw it: the players were edited by hand")
    assert change(added, text) == (
        3, "player 4 (Di) is gone since Ana saw it: the players were edited by hand")


def test_a_move_or_commitment_gone_is_an_older_copy():
    assert change(BASE, hidden_text(moves=("red: 7 B7",), revealed=())) == (
        19, "move 2 (Bo's blue) is gone since Ana saw it: this is an older copy, or entries "
            "were removed")
    joined = hidden_text(moves=(), revealed=())
    two = joined.replace(f"  - Cy: {HEADS[2]}\n", "")
    assert change(joined, two) == (15, "Cy's commitment is gone since Ana saw it: this is an "
                                       "older copy, or entries were removed")


def test_a_key_revealed_is_a_set_member_a_copy_may_lack():
    assert change(BASE, hidden_text(revealed=("Bo",))) is None
    assert change(BASE, hidden_text(revealed=("Cy", "Ana"))) is None


def test_a_made_up_key_seen_is_not_remembered_so_the_real_one_is_no_change():
    """Ana's tool saw a made-up key for Bo; Bo's real key over it is not blamed on him."""
    faked = BASE.replace(f"  - Bo: {KEYS['Bo'].hex()}", f"  - Bo: {FAKE}")
    assert [name for name, _ in seen_by(faked)["revealed"]] == ["Ana"]
    assert change(faked, BASE) is None


def test_bo_writing_his_key_again_over_another_is_no_change_to_him():
    faked = BASE.replace(f"  - Bo: {KEYS['Bo'].hex()}", f"  - Bo: {FAKE}")
    assert change(BASE, faked, viewer="Bo", rewrites_own_key=True) is None
    assert change(BASE, faked, viewer="Bo")[0] == 28


def test_the_keys_remembered_are_those_of_both_copies():
    record = load_record_text(hidden_text(revealed=("Cy",)), "g.yaml")
    merged = snapshot(record, seen_by(BASE))
    assert sorted(name for name, _ in merged["revealed"]) == ["Ana", "Bo", "Cy"]


def test_a_join_undone_by_whoever_made_it_is_no_change():
    """Before the first move, Cy's commitment made with Eve's key is taken back (its key under
    withdrawn) and Cy joins: the memory that saw the first commitment accepts the file; a
    commitment changed without its key withdrawn, or after a move, is refused."""
    wrong = commitments(dict(KEYS, Cy=KEYS["Eve"]))
    seen = hidden_text(moves=(), revealed=(), heads=wrong)
    undone = hidden_text(moves=(), revealed=(), withdrawn=[("Cy", KEYS["Eve"].hex())])
    assert change(seen, undone) is None
    withdrawn_gone = hidden_text(moves=(), revealed=())
    assert change(seen, withdrawn_gone) == (18, "Cy's commitment changed since Ana saw it")
    assert change(undone, withdrawn_gone) == (
        15, "Cy's withdrawn join is gone since Ana saw it: this is an older copy, or entries "
            "were removed")
    played = hidden_text(moves=("red: 7 B7",), revealed=(), heads=wrong)
    assert change(played, hidden_text(moves=("red: 7 B7",), revealed=(),
                                      withdrawn=[("Cy", KEYS["Eve"].hex())]))[0] == 18


# -- through the command line -------------------------------------------------------------


def test_the_memory_of_an_open_game_follows_the_game_not_its_file(uptown, game_file):
    """Ana plays move 4 on one copy of a seeded game; on a second copy under another name her
    tool refuses another move 4: the memory is the game's, whatever the file is called."""
    first = game_file(moves=3)
    second = first.with_name("copy.yaml")
    second.write_bytes(first.read_bytes())
    assert uptown.invoke("move", first, "--bot", "greedy", "--as", "Ana").exit_code == 0
    result = uptown.invoke("move", second, "--bot", "random", "--as", "Ana")
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {second}:12: move 4 (Ana's red) is gone since Ana saw it: "
                             "this is an older copy, or entries were removed; nothing was "
                             "written\n")


def test_show_on_an_older_copy_says_nothing_of_writing(uptown, game_file):
    path = game_file(moves=3)
    older = path.read_bytes()
    assert uptown.invoke("move", path, "--bot", "greedy", "--as", "Ana").exit_code == 0
    path.write_bytes(older)
    result = uptown.invoke("moves", path, "--as", "Ana")
    assert result.exit_code == 1 and "nothing was written" not in result.stderr
    assert result.stderr.startswith(f"Error: {path}:12: move 4 (Ana's red) is gone since Ana")


def test_show_on_an_older_hidden_copy_says_nothing_of_writing(uptown, game_file, tmp_path):
    path = game_file(hidden=True)
    older = path.read_bytes()
    ana = as_player(tmp_path, "Ana")
    assert uptown.invoke("move", path, "--bot", "random", "--as", "Ana", env=ana).exit_code == 0
    path.write_bytes(older)
    result = uptown.invoke("show", path, "--as", "Ana", env=ana)
    assert result.exit_code == 1 and "nothing was written" not in result.stderr
    assert "move 1 (Ana's red) is gone since Ana saw it" in result.stderr


def test_a_rematch_with_the_same_seed_is_another_game_to_the_memory(uptown, tmp_path):
    """(N3) Ana and Bo play a seeded game, then a rematch: a new file, the same players and the
    same seed, opened with another move. Neither the rematch nor the old game is refused or
    confused by the other's memory; two copies of the old game still cannot take two
    different moves."""
    import json

    env = {"UPTOWN_KEYS": str(tmp_path / "keys"), "UPTOWN_GAME": None}
    old, rematch = tmp_path / "old.yaml", tmp_path / "rematch.yaml"

    def ok(*args):
        result = uptown.invoke(*args, env=env)
        assert result.exit_code == 0, result.output
        return result

    def opening(path):
        return json.loads(ok("moves", path, "--json", "--as", "Ana").stdout)["moves"]

    for path in (old, rematch):
        ok("new", path, "-p", "Ana", "-p", "Bo", "--seed", "7")
    ok("move", old, *opening(old)[0].split(), "--as", "Ana")
    ok("move", old, "--bot", "random", "--as", "Bo")
    ok("moves", rematch, "--as", "Ana")  # before its first move: the same start
    ok("move", rematch, *opening(rematch)[-1].split(), "--as", "Ana")
    ok("move", rematch, "--bot", "random", "--as", "Bo")
    ok("move", old, "--bot", "random", "--as", "Ana")
    ok("move", rematch, "--bot", "random", "--as", "Ana")
    copy = tmp_path / "copy.yaml"
    copy.write_bytes(old.read_bytes())
    ok("move", old, "--bot", "greedy", "--as", "Bo")
    result = uptown.invoke("move", copy, "--bot", "random", "--as", "Bo", env=env)
    assert result.exit_code == 1 and "move 4 (Bo's " in result.stderr
    assert "is gone since Bo saw it" in result.stderr
