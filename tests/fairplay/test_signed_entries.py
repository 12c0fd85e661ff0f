"""Griefing attacks on a game of protocol 5, each through the command line (issue 39): Ana, Bo
and Cy have a working folder and a key folder each, and the file goes from one to another only
as a message of ``send -o`` read by ``receive``. Every entry carries its writer's signature,
checked the moment a copy arrives: nobody writes in another's name, removes an entry unnoticed,
or gets another player blamed for their own edit."""

import json

import pytest
from support.tables import (
    START,
    Table,
    forget,
    last_entry,
    refused,
    signed_again,
    stamp,
    uptown,
    without_entry,
)

from uptown_cli.records.reading import load_record

CLOCK = ("--clock", "move 72h", "--vacation", "14d")


@pytest.fixture
def table(tmp_path):
    """Ana, Bo and Cy at a game with hidden racks and a clock of 72 hours a move, 14 days of
    vacation each, every join done and carried: Ana to move."""
    table = Table(tmp_path)
    table.start(*CLOCK)
    return table


def legal_moves(table, name):
    """The legal moves of ``name``, to move, as their own tool lists them."""
    return json.loads(table.uptown(name, "moves", "club.yaml", "--json", "--as", name).stdout)[
        "moves"]


# -- framing by one's own edit --------------------------------------------------------------


def test_an_edit_of_ones_own_move_is_refused_on_arrival_naming_its_writer(table):
    """Ana plays, then, before anyone saw it, edits her move to another of her rack and mails
    that. Bo's receive refuses it in one line naming Ana's move and Ana's signature, his copy
    unchanged; validate of the attachment names Ana and never Bo; Cy's tool refuses it too. Once Ana
    sends her move as she signed it, Bo takes it and plays on."""
    choices = legal_moves(table, "Ana")
    table.play("Ana", *choices[0].split())
    path = table.game("Ana")
    honest = path.read_text()
    record = load_record(path)
    entry = record.moves[0]
    edited = next(move for move in choices if move != entry.text)
    path.write_text(honest.replace(f"- red: {entry.text}\n", f"- red: {edited}\n"))
    message = table.forged_message("Ana")
    before = table.game("Bo").read_bytes()
    line = refused(table.receive("Bo", message), "move 1 (Ana's red) does not carry Ana's "
                   "signature", "nothing was written")
    assert "Bo" not in line.replace(str(table.folders["Ana"]), "")
    assert table.game("Bo").read_bytes() == before
    saved = table.folders["Bo"] / "attached.yaml"  # Bo saves the attachment by hand
    saved.write_bytes(path.read_bytes())
    result = table.attempt("Bo", "validate", saved.name)
    assert result.exit_code == 1 and "Ana's signature" in result.output
    blamed = [line for line in result.output.splitlines() if "not yet checkable" not in line]
    assert not [line for line in blamed if "Bo" in line], result.output
    refused(table.receive("Cy", message), "move 1 (Ana's red)", "Ana's signature")
    path.write_text(honest)
    table.carry("Ana", "Bo", "Cy")
    table.play("Bo")


# -- entries written in another's name ------------------------------------------------------


def ana_holds_a_pause_written_by_cy(table, sign):
    """Ana plays and sends to all; Cy, holding the file, writes a vacation of 14 days for Ana
    under Bo's move (an entry under Ana's colour), signed by her own key when ``sign``, and
    mails it to all: the forged message."""
    table.play("Ana")
    table.carry("Ana", "Bo", "Cy")
    table.wait(1)
    table.play("Bo")
    table.carry("Bo", "Cy")
    path = table.game("Cy")
    path.write_text(path.read_text() + f"  - red: pause 14d\n    at: \"{stamp(table.now)}\"\n")
    if sign:
        signed_again(path, last_entry(table, "Cy"), table.seed("Cy"))
    return table.forged_message("Cy")


def test_a_vacation_written_in_anothers_name_is_refused_naming_its_signer(table):
    """Cy writes a vacation for Ana and signs it with her own key: Ana's and Bo's tools refuse
    the copy, each in one line naming the vacation and Cy as the player who wrote it in Ana's
    name; Ana can still take her own vacation."""
    message = ana_holds_a_pause_written_by_cy(table, sign=True)
    for name in ("Ana", "Bo"):
        before = table.game(name).read_bytes()
        refused(table.receive(name, message), "Ana's vacation of 14 days after move 2 is "
                "signed by Cy, not by Ana: Cy wrote it in Ana's name")
        assert table.game(name).read_bytes() == before
    table.uptown("Bo", "pause", "club.yaml", "--as", "Bo", "--days", "3")


def test_an_unsigned_vacation_in_anothers_name_is_refused_as_written_by_hand(table):
    """The same vacation left unsigned: refused as written by hand, blaming nobody."""
    message = ana_holds_a_pause_written_by_cy(table, sign=False)
    line = refused(table.receive("Ana", message), "Ana's vacation of 14 days after move 2 is not "
                   "signed", "written by hand")
    assert "Bo" not in line and "Cy" not in line.replace(str(table.folders["Cy"]), "")


# -- entries that vanish --------------------------------------------------------------------


def bo_moves_and_books_a_vacation(table):
    """Ana and Bo play; Bo books 3 days of vacation after his move and sends his copy to Ana
    and Cy, who take it. Cy is to move."""
    table.play("Ana")
    table.carry("Ana", "Bo", "Cy")
    table.wait(1)
    table.play("Bo")
    table.uptown("Bo", "pause", "club.yaml", "--as", "Bo", "--days", "3")
    table.carry("Bo", "Ana", "Cy")


def test_a_deleted_vacation_is_refused_by_its_writer_and_by_every_tool_that_saw_it(table):
    """Cy deletes Bo's vacation, throws away her tool's memory, plays and mails the copy to Ana
    and Bo. Bo's receive says that the sender removed his own entry, and his copy stays as it
    was; Ana's tool, which saw the vacation, refuses the copy too."""
    bo_moves_and_books_a_vacation(table)
    pause = last_entry(table, "Cy")
    without_entry(table.game("Cy"), pause)
    forget(table, "Cy")
    table.wait(1)
    table.play("Cy")
    message = table.forged_message("Cy")
    before = table.game("Bo").read_bytes()
    refused(table.receive("Bo", message), "Bo's vacation of 3 days after move 2, signed by Bo, is "
            "missing from this copy: it was removed after Bo wrote it (move 3 (Cy's green) is "
            "signed over a history without it); Bo's copy stays as it was")
    assert table.game("Bo").read_bytes() == before
    refused(table.receive("Ana", message), "Bo's vacation of 3 days after move 2, signed by Bo, "
            "is missing from this copy: it was removed (move 3 (Cy's green)")


def test_a_deleted_move_on_time_and_a_forfeit_in_its_place_are_refused(tmp_path):
    """Bo plays on time and sends to all; Cy deletes Bo's move, forgets it, waits until Bo
    would be out of time and forfeits him, and mails that to all. Bo's tool refuses it, saying
    that his move was removed after he wrote it, his copy unchanged (he is not locked out: he
    plays on from it); Ana's tool, which holds the longer copy, refuses it too."""
    table = Table(tmp_path)
    table.start("--clock", "move 72h", "--late", "forfeit")
    table.play("Ana")
    table.carry("Ana", "Bo", "Cy")
    table.wait(1)
    table.play("Bo")
    table.carry("Bo", "Ana", "Cy")
    without_entry(table.game("Cy"), last_entry(table, "Cy"))
    forget(table, "Cy")
    table.wait(100)
    table.uptown("Cy", "move", "club.yaml", "forfeit", "--for", "Bo", "--as", "Cy")
    message = table.message("Cy", "Bo")  # Cy's copy is valid as it stands
    before = table.game("Bo").read_bytes()
    refused(table.receive("Bo", message), "move 2 (Bo's blue), signed by Bo, is missing from "
            "this copy: it was removed after Bo wrote it", "Bo's copy stays as it was")
    assert table.game("Bo").read_bytes() == before
    refused(table.receive("Ana", table.message("Cy", "Ana")), "move 2 (Bo's blue), signed by "
            "Bo, is missing from this copy: it was removed")
    assert table.show("Bo")["to_move"] == "Cy"


# -- stand-ins ------------------------------------------------------------------------------


def test_a_pass_and_a_forfeit_written_for_a_late_player_are_not_taken_for_his_own(tmp_path):
    """Bo lets his time run out: Cy writes a pass for him, then, once the policy allows, a
    forfeit. No later move warns that Bo's pass looks unforced, every tool takes the copies,
    and show and replay say that Cy wrote them for Bo."""
    table = Table(tmp_path)
    table.start("--clock", "move 24h", "--late", "pass, forfeit after 1")
    said = []
    for action in ("pass", "forfeit"):
        table.play("Ana")
        table.carry("Ana", "Bo", "Cy")
        table.wait(25)
        said.append(table.uptown("Cy", "move", "club.yaml", action, "--for", "Bo", "--as",
                                 "Cy").output)
        said.append(table.uptown("Cy", "move", "club.yaml", "--bot", "random", "--as",
                                 "Cy").output)
        table.carry("Cy", "Ana", "Bo")
    said.append(table.uptown("Ana", "move", "club.yaml", "--bot", "random", "--as",
                             "Ana").output)
    assert not [text for text in said if "unforced" in text], said
    shown = table.uptown("Ana", "replay", "club.yaml").output
    assert shown.count("written by Cy for Bo") == 2, shown
    assert "written by Cy for Bo" in table.uptown("Bo", "show", "club.yaml", "--as", "Bo",
                                                  "--at", "2").output


# -- forged, moved and replayed signatures --------------------------------------------------


def three_moves(table):
    """Ana, Bo and Cy each play once, each copy carried to all."""
    for name, others in (("Ana", ("Bo", "Cy")), ("Bo", ("Cy", "Ana")), ("Cy", ("Ana", "Bo"))):
        table.play(name)
        table.carry(name, *others)


def sig_lines(path):
    """The indexes of the ``sig:`` lines under the moves of the file at ``path``, in order."""
    lines = path.read_text().splitlines()
    start = lines.index("moves:")
    return [i for i, line in enumerate(lines) if i > start and line.startswith("    sig: ")]


def test_a_forged_signature_is_refused_naming_the_entry_and_whose_it_should_be(table):
    """Cy writes another signature under Bo's move (64 random-looking bytes): Ana's tool
    refuses the copy naming Bo's move and Bo's signature."""
    three_moves(table)
    path = table.game("Cy")
    lines = path.read_text().splitlines(keepends=True)
    lines[sig_lines(path)[1]] = "    sig: " + "ab" * 64 + "\n"
    path.write_text("".join(lines))
    refused(table.receive("Ana", table.forged_message("Cy")),
            "move 2 (Bo's blue) does not carry Bo's signature")


def test_a_signature_moved_to_another_entry_is_refused(table):
    """Cy swaps the signatures of Ana's and Bo's moves: Bo's tool refuses the copy at the
    first of them, naming Ana's move."""
    three_moves(table)
    path = table.game("Cy")
    lines = path.read_text().splitlines(keepends=True)
    first, second = sig_lines(path)[:2]
    lines[first], lines[second] = lines[second], lines[first]
    path.write_text("".join(lines))
    refused(table.receive("Bo", table.forged_message("Cy")),
            "move 1 (Ana's red) does not carry Ana's signature")


def open_signed_game(folder, keys):
    """An open game signed by its players, Ana and Bo, seed 7 (the README's), both joined in
    ``folder`` with the key folder ``keys``, and Ana's first move played: the environment."""
    env = {"UPTOWN_KEYS": str(keys), "UPTOWN_GAME": None, "UPTOWN_LANG": "en",
           "UPTOWN_NOW": stamp(START)}
    path = folder / "game.yaml"
    for args in (("new", path, "--signed", "--seed", "7", "-p", "Ana", "-p", "Bo"),
                 ("join", path, "--as", "Ana"), ("join", path, "--as", "Bo"),
                 ("move", path, "C", "C3", "--as", "Ana")):
        result = uptown.invoke(*args, env=env)
        assert result.exit_code == 0, result.output
    return env


def test_an_entry_replayed_from_another_game_is_refused(tmp_path):
    """Two open signed games with the same players and seed, the same first move: Ana's move
    and its signature copied from one into the other are refused there (the signature covers
    the game's id), and so is her join."""
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    env = open_signed_game(tmp_path / "one", tmp_path / "keys")
    open_signed_game(tmp_path / "two", tmp_path / "keys")
    one, two = tmp_path / "one" / "game.yaml", tmp_path / "two" / "game.yaml"
    honest = two.read_text()
    moved = one.read_text().splitlines()[sig_lines(one)[0]]
    lines = honest.splitlines()
    lines[sig_lines(two)[0]] = moved
    two.write_text("\n".join(lines) + "\n")
    refused(uptown.invoke("show", two, "--as", "Bo", env=env), "move 1 (Ana's red) does not "
            "carry Ana's signature")
    join_one = one.read_text().split("commitments:\n")[1].split("  - Bo:")[0]
    join_two = honest.split("commitments:\n")[1].split("  - Bo:")[0]
    two.write_text(honest.replace(join_two, join_one))
    checked = uptown.invoke("validate", two, env=env)
    assert checked.exit_code == 1 and "Ana's join does not carry Ana's signature" in checked.output


def test_a_forfeit_written_before_its_player_is_out_of_time_is_refused(tmp_path):
    """Cy writes by hand a forfeit for Bo, 10 hours into Bo's 24, and signs it with her own
    key (as a stand-in is signed by its writer): Bo's tool refuses the copy, naming the
    forfeit and when Bo's time runs out, by the time Cy herself wrote under it."""
    table = Table(tmp_path)
    table.start("--clock", "move 24h", "--late", "forfeit")
    table.play("Ana")
    table.carry("Ana", "Bo", "Cy")
    table.wait(10)
    path = table.game("Cy")
    path.write_text(path.read_text() + f"  - blue: forfeit\n    at: \"{stamp(table.now)}\"\n"
                    "    by: Cy\n")
    signed_again(path, last_entry(table, "Cy"), table.seed("Cy"))
    line = refused(table.receive("Bo", table.forged_message("Cy")), "move 2")
    assert "out of time" in line or "not late" in line, line


def test_the_seeded_example_played_twice_is_two_games(tmp_path):
    """A newcomer plays the README's seeded example (seed 7, Ana and Bo) as each player, then
    again in a new file: the second game is a game of its own (Bo moves in it as in the first),
    and the first is not reported as edited."""
    env = {"UPTOWN_KEYS": str(tmp_path / "keys"), "UPTOWN_GAME": None, "UPTOWN_LANG": "en"}
    for name in ("first.yaml", "second.yaml"):
        path = tmp_path / name
        for args in (("new", path, "--player", "Ana", "--player", "Bo", "--seed", "7"),
                     ("move", path, "C", "C3", "--as", "Ana"),
                     ("move", path, "man", "xC3", "--as", "Bo"),
                     ("move", path, "green", "8", "B8", "--as", "Ana"),
                     ("show", path, "--as", "Bo")):
            result = uptown.invoke(*args, env=env)
            assert result.exit_code == 0, (name, args, result.output)
    assert load_record(tmp_path / "first.yaml").game_id != load_record(
        tmp_path / "second.yaml").game_id
    for name in ("first.yaml", "second.yaml"):
        result = uptown.invoke("show", tmp_path / name, "--as", "Ana", env=env)
        assert result.exit_code == 0 and "Warning" not in result.output, result.output


# -- open games signed by their players -----------------------------------------------------


def test_an_open_signed_game_takes_only_moves_signed_by_their_player(tmp_path):
    """In an open game made with --signed, a move needs --as (the key signs it), and a move
    written by another player's hand is refused naming who signed it."""
    env = open_signed_game(tmp_path, tmp_path / "keys")
    path = tmp_path / "game.yaml"
    refused(uptown.invoke("move", path, "man", "xC3", env=env), "signed by its writer",
            "--as NAME")
    bo = dict(env, UPTOWN_KEYS=str(tmp_path / "keys"))
    assert uptown.invoke("move", path, "man", "xC3", "--as", "Bo", env=bo).exit_code == 0
    text = path.read_text()
    record = load_record(path)
    entry = record.moves[1]
    path.write_text(text.replace("  - yellow: man xC3\n", "  - yellow: man xC3\n", 1))
    signed_again(path, entry.line, Table.signing_key(path, tmp_path / "keys", "Ana"))
    refused(uptown.invoke("show", path, env=env), "move 2 (Bo's yellow) is signed by Ana, not "
            "by Bo: Ana wrote it in Bo's name")


def test_the_judge_named_in_a_game_is_under_every_signature(tmp_path):
    """Bo's copy of a game under a judge names another judge's address: every join's signature
    breaks (the header's digest covers the judge), so no tool reads it."""
    from support.tables import JudgedTable

    judged = JudgedTable(tmp_path)
    judged.start("--hidden", *CLOCK)
    path = judged.game("Bo")
    path.write_text(path.read_text().replace("judge@club.example", "judge@elsewhere.example"))
    refused(judged.attempt("Bo", "show", "club.yaml"), "Ana's join")


@pytest.mark.parametrize("kind, whose, writer, number, color, days, words", [
    ("pause", "Bo", "Bo", 0, "", 1, "Bo's vacation of 1 day before the first move"),
    ("pause", "Bo", "Bo", 0, "", 3, "Bo's vacation of 3 days before the first move"),
    ("pause", "Bo", "Bo", 2, "", 1, "Bo's vacation of 1 day after move 2"),
    ("move", "Bo", "Bo", 3, "blue", 0, "move 3 (Bo's blue)"),
    ("move", "Bo", "Cy", 4, "blue", 0, "move 4 (Bo's blue, written by Cy)"),
    ("withdrawn", "Bo", "Bo", None, "", 0, "Bo's withdrawn join"),
    ("dispute", "Bo", "Bo", 5, "", 0, "Bo's dispute of move 5"),
    ("settled", "Bo", "Bo", 5, "", 0, "Bo's settling of the dispute of move 5"),
    ("revealed", "Bo", "Bo", None, "", 0, "Bo's revealed key"),
    ("join", "Bo", "Bo", None, "", 0, "Bo's join"),
])
def test_every_signed_entry_is_named_in_words(kind, whose, writer, number, color, days, words):
    """The words every message uses for a signed entry, one kind after another."""
    from uptown_cli.fairplay.signatures import entry_words

    assert entry_words(kind, whose, writer, number, color, days) == words


def test_a_withdrawn_join_without_its_players_signature_is_refused(table):
    """Cy undoes his join before the first move; his withdrawn key proves the commitment it
    undoes, but the entry is his word too and must carry his signature: with it taken out,
    Ana's tool refuses the copy, naming Cy's withdrawn join."""
    table.uptown("Cy", "join", "club.yaml", "--as", "Cy", "--undo")
    path = table.game("Cy")
    lines = path.read_text().splitlines(keepends=True)
    start = lines.index("withdrawn:\n")
    signed = next(i for i in range(start, len(lines)) if lines[i].startswith("    sig: "))
    path.write_text("".join(lines[:signed] + lines[signed + 1:]))
    refused(table.receive("Ana", table.forged_message("Cy")),
            "Cy's withdrawn join is not signed", "it was written by hand")
