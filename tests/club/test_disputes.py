"""Disputes, in games without a club judge (issue 40): every time is its writer's word, so a
pass or forfeit a rival writes for a late player is a claim the victim's tool shows them and
they may dispute (``uptown dispute``). Through the command line, one working folder and one
key folder per player, the file carried by ``send -o`` and ``receive``."""

import json

import pytest
from support.tables import Table, refused, signed_again, stamp, zeroed

from uptown_cli.club.page import INDEX, club_page
from uptown_cli.records.reading import load_record


@pytest.fixture
def forfeited(tmp_path):
    """Ana, Bo and Cy at a hidden game with a clock of 24 hours a move and late forfeits: Ana
    plays, and 30 hours later Cy forfeits Bo and plays on, the copy carried to all."""
    table = Table(tmp_path)
    table.start("--clock", "move 24h", "--late", "forfeit")
    table.play("Ana")
    table.carry("Ana", "Bo", "Cy")
    table.wait(30)
    table.uptown("Cy", "move", "club.yaml", "forfeit", "--for", "Bo", "--as", "Cy")
    table.play("Cy")
    table.carry("Cy", "Ana", "Bo")
    return table


def test_status_says_whose_word_the_times_are(forfeited):
    said = forfeited.uptown("Bo", "status")
    assert "The times of a game without a club judge are its players' word" in said.stderr
    [status] = json.loads(forfeited.uptown("Bo", "status", "--json").stdout)
    assert status["judge"] is None


def test_a_rivals_forfeit_is_shown_to_its_victim_as_a_claim_to_dispute(forfeited):
    shown = forfeited.uptown("Bo", "show", "club.yaml", "--as", "Bo").output
    assert ("Cy wrote move 2 for you (forfeit, at 2026-12-02T18:00:00Z by Cy's own clock)"
            in shown and "uptown dispute club.yaml --as Bo --move 2" in shown)
    assert "no club judge keeps them" in shown
    assert "wrote move 2 for you" not in forfeited.uptown("Ana", "show", "club.yaml", "--as",
                                                          "Ana").output


def test_a_dispute_is_signed_by_its_player_and_carried_to_all(forfeited):
    said = forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo").output
    assert "Bo disputes move 2" in said
    forfeited.carry("Bo", "Ana", "Cy")
    for name in ("Ana", "Cy"):
        [dispute] = load_record(forfeited.game(name)).disputes
        assert (dispute.name, dispute.number, dispute.settled) == ("Bo", 2, False)
    shown = forfeited.uptown("Bo", "show", "club.yaml", "--as", "Bo").output
    assert "wrote move 2 for you" not in shown  # disputed: no longer a claim to act on
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo", "--settle")
    assert load_record(forfeited.game("Bo")).disputes[-1].settled


def test_a_dispute_written_in_anothers_name_is_refused(forfeited):
    """Ana writes a dispute for Bo by hand (to keep Cy's win unrated), signed with her key:
    Cy's tool refuses the copy, naming Ana."""
    path = forfeited.game("Ana")
    path.write_text(path.read_text() + "disputes:\n  - Bo: 2\n"
                    f"    at: \"{stamp(forfeited.now)}\"\n")
    record = load_record(path)
    signed_again(path, record.disputes[0].line, forfeited.seed("Ana"))
    refused(forfeited.receive("Cy", forfeited.forged_message("Ana")),
            "Bo's dispute of move 2 is signed by Ana, not by Bo")


def test_only_an_entry_written_for_oneself_by_another_can_be_disputed(forfeited):
    refused(forfeited.attempt("Ana", "dispute", "club.yaml", "--as", "Ana"),
            "no entry of club.yaml was written for Ana by another player")
    refused(forfeited.attempt("Bo", "dispute", "club.yaml", "--as", "Bo", "--move", "1"),
            "move 1 is not an entry another player wrote for Bo")
    refused(forfeited.attempt("Bo", "dispute", "club.yaml", "--as", "Bo", "--settle"),
            "Bo has no dispute to settle")


def test_a_dispute_taken_out_is_put_back_by_every_tool_that_saw_it(forfeited):
    """Bo disputes and mails it to all; Ana plays on; Cy takes Bo's dispute out, throws his
    tool's memory away and plays on: Bo's tool takes Cy's move and keeps the dispute, saying
    the copy lacked it, and Bo's next copy puts it back in Cy's. Disputes only grow: whoever
    has seen one keeps it."""
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    forfeited.carry("Bo", "Ana", "Cy")
    forfeited.play("Ana")
    forfeited.carry("Ana", "Bo", "Cy")
    path = forfeited.game("Cy")
    text = path.read_text()
    start = text.index("disputes:\n")
    end = text.index("moves:\n") if text.index("moves:\n") > start else len(text)
    path.write_text(text[:start] + text[end:])
    for seen in forfeited.keys("Cy").glob("*.seen"):
        seen.unlink()
    forfeited.play("Cy")
    said = forfeited.receive("Bo", forfeited.message("Cy", "Bo"))
    assert said.exit_code == 0, said.output
    assert ("move 5 (Cy: " in said.output and "Bo's dispute of move 2, not in this copy (written "
            "after it was sent, or taken out), kept from yours" in said.output)
    bo = load_record(forfeited.game("Bo"))
    assert len(bo.moves) == 5 and [(d.name, d.number) for d in bo.disputes] == [("Bo", 2)]
    forfeited.carry("Bo", "Cy")
    assert [(d.name, d.number) for d in load_record(forfeited.game("Cy")).disputes] == [("Bo", 2)]


def test_a_dispute_and_a_move_that_cross_in_the_mail_are_both_kept(forfeited):
    """Bo disputes and mails his copy to Ana; before she reads it, Ana plays and mails hers to
    Bo. Neither copy holds the other's news, and neither player changed anything: each tool
    merges the other's (no refusal, nobody blamed), and the two copies end the same."""
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    from_bo = forfeited.message("Bo", "Ana")
    forfeited.play("Ana")
    from_ana = forfeited.message("Ana", "Bo")
    at_ana = forfeited.receive("Ana", from_bo)
    assert at_ana.exit_code == 0 and "Bo's dispute of move 2" in at_ana.output, at_ana.output
    at_bo = forfeited.receive("Bo", from_ana)
    assert at_bo.exit_code == 0 and "move 4 (Ana: " in at_bo.output, at_bo.output
    ana, bo = (load_record(forfeited.game(name)) for name in ("Ana", "Bo"))
    assert len(ana.moves) == len(bo.moves) == 4
    assert [(d.name, d.number, d.sig) for d in ana.disputes] == [
        (d.name, d.number, d.sig) for d in bo.disputes] and len(bo.disputes) == 1
    assert forfeited.uptown("Cy", "validate", "club.yaml")
    for name in ("Ana", "Bo"):
        assert forfeited.uptown(name, "validate", "club.yaml")
    forfeited.carry("Ana", "Cy")
    forfeited.carry("Bo", "Cy")  # the same game again: nothing new
    assert len(load_record(forfeited.game("Cy")).disputes) == 1


def test_two_copies_that_dispute_one_move_twice_are_not_merged(forfeited):
    """Bo disputes move 2 on his copy, then again on a copy made before it: the two disputes
    cannot stand together, so the second copy is not merged into the first (it counts as
    older, and nothing is written)."""
    before = forfeited.game("Bo").read_text()
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    first = forfeited.game("Bo").read_text()
    forfeited.game("Bo").write_text(before)
    forfeited.wait(1)
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    second = forfeited.message("Bo", "Ana")
    forfeited.game("Bo").write_text(first)
    said = forfeited.receive("Bo", second)
    assert said.exit_code == 0 and "nothing was written" in said.output, said.output
    assert forfeited.game("Bo").read_text() == first


def test_a_disputed_game_is_marked_in_status_and_not_rated_until_settled(tmp_path):
    """A two-player game without a judge: Ana forfeits Bo once his 24 hours are up by her
    clock, which wins it for her; Bo disputes it. ``status`` marks it, ``ratings`` leaves it
    out, in every copy a club folder might hold; settled, it counts."""
    table = Table(tmp_path, ("Ana", "Bo"))
    table.start("--clock", "move 24h", "--late", "forfeit")
    table.play("Ana")
    table.carry("Ana", "Bo")
    table.wait(25)
    table.uptown("Ana", "move", "club.yaml", "forfeit", "--for", "Bo", "--as", "Ana")
    table.carry("Ana", "Bo")
    table.uptown("Bo", "reveal", "club.yaml", "--as", "Bo")
    table.carry("Bo", "Ana")
    table.uptown("Ana", "reveal", "club.yaml", "--as", "Ana")
    table.carry("Ana", "Bo")
    rated = json.loads(table.uptown("Bo", "ratings", "--json").stdout)
    assert rated["games"] == 1
    table.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    status = table.uptown("Bo", "status").output
    assert "won by Ana (Bo forfeited); Bo disputes move 2" in status, status
    [game] = json.loads(table.uptown("Bo", "status", "--json").stdout)
    assert game["disputed"] == [{"name": "Bo", "move": 2}]
    (table.folders["Bo"] / "old-copy.yaml").write_text(table.game("Ana").read_text())
    rated = table.uptown("Bo", "ratings", "--json")
    assert json.loads(rated.stdout)["games"] == 0  # the undisputed copy counts as the same game
    assert json.loads(rated.stdout)["skipped_disputed"] == ["club.yaml"]
    assert "Left out club.yaml: disputed by Bo" in table.uptown("Bo", "ratings").output
    page = club_page([str(table.game("Bo")), str(table.folders["Bo"] / "old-copy.yaml")],
                     table.now)[INDEX].decode()
    assert "No game is rated yet." in page and "not rated" in page
    table.uptown("Bo", "dispute", "club.yaml", "--as", "Bo", "--settle")
    assert json.loads(table.uptown("Bo", "ratings", "--json").stdout)["games"] == 1
    assert "disputes" not in table.uptown("Bo", "status").output


OPEN = "uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\nseed: x\n"


@pytest.mark.parametrize("written, read", [
    ("disputes:\n", []),
    ("disputes:\n  - Bo: 2\n    at: \"2026-12-01T12:00:00Z\"\n", [("Bo", 2, False)]),
    ("disputes:\n  - Bo: 2 settled\n    at: \"2026-12-01T12:00:00Z\"\n    sig: " + "ab" * 64
     + "\n", [("Bo", 2, True)]),
])
def test_the_disputes_a_record_reads(written, read):
    from uptown_cli.records.schema import load_record_text

    record = load_record_text(OPEN + written, "g.yaml")
    assert [(d.name, d.number, d.settled) for d in record.disputes] == read


@pytest.mark.parametrize("written, problem", [
    ("disputes: 5\n", "g.yaml:6: 'disputes' must be a list of '- NAME: MOVE' items, not text"),
    ("disputes:\n  - Bo\n", "g.yaml:7: each item of 'disputes' is a player's name"),
    ("disputes:\n  - Bo: two\n", "g.yaml:7: each item of 'disputes'"),
    ("disputes:\n  - Bo: 2 settled\n    what: x\n", "g.yaml:7: each item of 'disputes'"),
    ("disputes:\n  - Bo: 2\n    sig: zz\n", "g.yaml:8: under a dispute, 'at' is the time"),
    ("disputes:\n  - Bo: 2\n    at: soon\n", "g.yaml:8: under a dispute, 'at' is the time"),
])
def test_a_dispute_not_written_as_the_format_says_is_refused_at_its_line(written, problem):
    from uptown_cli.errors import RecordError
    from uptown_cli.records.schema import load_record_text

    with pytest.raises(RecordError) as refused_here:
        load_record_text(OPEN + written, "g.yaml")
    assert str(refused_here.value).startswith(problem)


def test_a_dispute_is_written_once_and_settled_once(forfeited):
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    refused(forfeited.attempt("Bo", "dispute", "club.yaml", "--as", "Bo", "--move", "2"),
            "Bo disputes move 2 already")
    refused(forfeited.attempt("Bo", "dispute", "club.yaml", "--as", "Bo"),
            "no entry of club.yaml was written for Bo by another player")  # none undisputed
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo", "--settle")
    refused(forfeited.attempt("Bo", "dispute", "club.yaml", "--as", "Bo", "--settle",
                              "--move", "2"), "Bo has not disputed move 2")


def test_a_dispute_is_signed_over_the_move_it_names(forfeited):
    """Bo's dispute of move 2 is signed, with Bo's key, over move 2 itself, found by its line
    in the file: a dispute cannot be moved onto another entry."""
    from uptown_cli.fairplay.signatures import dispute_digest, signed_entries, verify

    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    record = load_record(forfeited.game("Bo"))
    [dispute] = record.disputes
    entries = signed_entries(record)
    [move_2] = [entry for entry in entries if entry.line == record.moves[1].line]
    assert move_2.move == 2
    digest = dispute_digest(move_2.digest, "Bo", "2", dispute.at)
    assert entries[-1].digest == digest
    bo_key = bytes.fromhex(record.joins.signing_keys()["Bo"])
    assert verify(bo_key, bytes.fromhex(dispute.sig), digest)


def test_a_dispute_merged_into_an_invalid_own_copy_writes_nothing(forfeited):
    """Bo's dispute crosses Ana's move in the mail, but Ana's own copy, further along, was
    changed by hand (her move's signature): receive refuses in one line, naming the move, and
    leaves her file as it was (no merge is written over a copy that is not valid)."""
    forfeited.uptown("Bo", "dispute", "club.yaml", "--as", "Bo")
    from_bo = forfeited.message("Bo", "Ana")
    forfeited.play("Ana")
    path = forfeited.game("Ana")
    zeroed(path, "sig", last=True)
    before = path.read_bytes()
    result = forfeited.receive("Ana", from_bo)
    assert result.exit_code == 1, result.output
    assert "move 4 (Ana's red) does not carry Ana's signature" in result.output
    assert "refused: your copy is unchanged" in result.output
    assert path.read_bytes() == before
