"""The club judge's rulings (``club.judge``), through the players' command line: Ana, Bo and
Cy each have a working folder and a key folder, and mail every copy to the judge, whose
rulings the table applies as its machinery would (``support.tables.JudgedTable``). The judge
keeps the time no player can be trusted with."""

import json

import pytest
from support.tables import JudgedTable, zeroed

CLOCK = ("--clock", "move 24h", "--late", "forfeit")


@pytest.fixture
def table(tmp_path):
    """A hidden game under the judge, with a clock of 24 hours a move, every join mailed to
    the judge and its copy back to every player."""
    table = JudgedTable(tmp_path)
    table.start("--hidden", *CLOCK)
    return table


def test_every_entry_the_judge_takes_is_stamped_and_mailed_to_every_player(table):
    record = table.judges_copy()
    assert [s.judged for s in record.joins.signatures["commitments"]] == [
        "2026-12-01T12:00:00Z"] * 3
    table.wait(2)
    table.play("Ana")
    said = table.post("Ana")
    assert "stamped move 1 (Ana's red)" in said, said
    for name in ("Ana", "Bo", "Cy"):
        copy = table.game(name).read_text()
        assert copy == table.games[record.game_id][1]
        assert 'judged: "2026-12-01T14:00:00Z"' in copy
    assert table.show("Bo")["to_move"] == "Bo"


def test_a_backdated_move_counts_from_when_the_judge_received_it(tmp_path):
    """Cy (third) holds the file two days and stamps his move a minute after Bo's: the
    judge's stamp says when it came, and Ana's 72 hours start there, not at Cy's word."""
    table = JudgedTable(tmp_path)
    table.start("--hidden", "--clock", "move 72h", "--late", "forfeit")
    table.play("Ana")
    table.post("Ana")
    table.wait(1)
    table.play("Bo")
    table.post("Bo")
    table.play("Cy")  # Cy's move, dated a minute after Bo's ...
    table.wait(47)  # ... mailed two days later
    said = table.post("Cy")
    assert "stamped move 3 (Cy's green)" in said
    record = table.judges_copy()
    assert record.moves[2].at == "2026-12-01T13:00:00Z"  # Cy's word, kept as written
    assert record.moves[2].judged == "2026-12-03T12:00:00Z"  # when the judge had it
    table.wait(71)
    assert table.tick() == []  # Ana has 72 hours from the judge's stamp, not from Cy's word
    table.wait(2)
    [ruled] = table.tick()
    assert "Ana out of time: the judge wrote forfeit" in ruled


def test_nobody_but_the_judge_writes_for_a_late_player(table):
    """Bo, late by his own clock, is forfeited by Cy: Cy's tool refuses, and the entry
    written by hand and mailed to the judge is refused, the refusal mailed back to Cy."""
    table.play("Ana")
    table.post("Ana")
    table.wait(30)
    result = table.attempt("Cy", "move", "club.yaml", "forfeit", "--for", "Bo", "--as", "Cy")
    assert result.exit_code == 1
    assert "only the judge writes for a player out of time" in result.output
    [ruled] = table.tick()
    assert "Bo out of time: the judge wrote forfeit" in ruled
    assert table.show("Cy")["to_move"] == "Cy"


def test_a_move_that_comes_after_its_time_finds_the_judges_forfeit(table):
    """Ana's move reaches the judge after her 24 hours: the judge forfeited her first, the
    refusal goes back to her, and her tool takes the judge's copy, keeping hers beside it."""
    table.wait(30)
    table.play("Ana")
    said = table.post("Ana")
    assert "Ana out of time: the judge wrote forfeit" in said and "refused" in said
    assert table.refusals["Ana"] and "move 1 (Ana's red, written by judge)" in table.refusals[
        "Ana"][0]
    assert table.judges_copy().moves[0].by == "judge"
    assert table.show("Ana")["to_move"] == "Bo"
    assert list(table.folders["Ana"].glob("club.received-*.yaml"))


def test_the_first_clock_starts_when_the_last_join_comes(tmp_path):
    """Cy joins three days after the game was made: Ana's 24 hours start then."""
    table = JudgedTable(tmp_path)
    table.new("--hidden", *CLOCK)
    for name in ("Ana", "Bo"):
        table.uptown(name, "join", "club.yaml", "--as", name)
        table.post(name)
    table.wait(72)
    table.uptown("Cy", "join", "club.yaml", "--as", "Cy")
    table.post("Cy")
    table.wait(23)
    assert table.tick() == []
    table.wait(2)
    assert "Ana out of time" in table.tick()[0]


def without_cy(tmp_path):
    """A game under a judge with join days of 3 that Ana and Bo have joined and Cy has not."""
    table = JudgedTable(tmp_path, join_days=3)
    table.new("--hidden", *CLOCK)
    for name in ("Ana", "Bo"):
        table.uptown(name, "join", "club.yaml", "--as", name)
        table.post(name)
    return table


def test_a_game_nobody_finished_joining_is_void_after_the_join_days(tmp_path):
    """Cy never joins: after the judge's join days the game is void, every player is told, and
    a join that comes later is refused."""
    table = without_cy(tmp_path)
    table.wait(71.99)
    assert table.tick() == []
    table.wait(0.01)  # the join days are up to the minute
    [ruled] = table.tick()
    assert "void: Cy did not join by 2026-12-04T12:00:00Z" in ruled
    for name in ("Ana", "Bo", "Cy"):
        assert "void:" in table.game(name).read_text()
    said = table.attempt("Ana", "validate", "club.yaml")
    assert said.exit_code == 0 and ("club.yaml: void: Cy did not join by 2026-12-04T12:00:00Z, "
                                    "as the club judge ruled") in said.output, said.output
    [status] = json.loads(table.uptown("Ana", "status", "--json").stdout)
    assert status["state"] == "void"
    assert "void: Cy did not join" in table.uptown("Ana", "status").output
    table.uptown("Cy", "join", "club.yaml", "--as", "Cy")
    assert "the game is void" in table.post("Cy")


def test_a_copy_sent_around_the_judge_is_refused_by_every_player(table):
    """Ana mails her move straight to Bo: Bo's tool refuses it, naming the unstamped move and
    the judge; his copy is unchanged."""
    table.play("Ana")
    message = table.folders["Ana"] / "to-bo.eml"  # the message send writes, mailed to Bo
    table.uptown("Ana", "send", "club.yaml", "--as", "Ana", "-o", message)
    before = table.game("Bo").read_bytes()
    result = table.receive("Bo", message)
    assert result.exit_code == 1
    assert "move 1 (Ana's red) carries no stamp of the judge" in result.output
    assert "judge@club.example" in result.output
    assert table.game("Bo").read_bytes() == before


def test_a_vacation_booked_through_the_judge_stops_the_clock(tmp_path):
    """Ana books two days of vacation and mails it to the judge: it is stamped, and her clock
    stands still for them."""
    table = JudgedTable(tmp_path)
    table.start("--hidden", *CLOCK, "--vacation", "14d")
    table.uptown("Ana", "pause", "club.yaml", "--as", "Ana", "--days", "2")
    assert "stamped Ana's vacation of 2 days before the first move" in table.post("Ana")
    table.wait(24 + 47)
    assert table.tick() == []
    table.wait(2)
    assert "Ana out of time" in table.tick()[0]


def test_a_stranger_gets_no_answer(table, tmp_path):
    """A copy the judge refuses gets an answer only when it comes from a player of the game
    (by their address): a stranger's gets none, so that the judge cannot be made to mail
    anyone."""
    from uptown_cli.club.mail import GameFile, carrying, wire_bytes
    from uptown_cli.fairplay.replay import replay
    from uptown_cli.records.schema import load_record_text

    text = table.game("Bo").read_text()
    lines = text.splitlines(keepends=True)
    stamp = next(i for i, line in enumerate(lines) if line.startswith("    stamp: "))
    changed = "".join(lines[:stamp - 1] + lines[stamp + 1:])  # Ana's join's stamp taken off
    record = load_record_text(changed, "club.yaml")
    game = GameFile("club.yaml", changed.encode(), record, replay(record).game)
    for sender in ("eve@example.org", "bo@example.org"):
        message = carrying(game, ("", sender), [("judge", "judge@club.example")], "game", "")
        path = tmp_path / "m.eml"
        path.write_bytes(wire_bytes(message))
        said = table.post("Bo", path)
        assert f"refused a copy from {sender}" in said, said
    assert table.refusals["Ana"] == table.refusals["Cy"] == []
    assert len(table.refusals["Bo"]) == 1


@pytest.mark.slow
def played_to_the_end(table):
    """Every player plays in turn, each move mailed to the judge, until the game is over."""
    for _turn in range(300):
        to_move = table.show("Ana")["to_move"]
        if to_move is None:
            break
        table.play(to_move)
        table.post(to_move)


def test_a_reveal_after_the_deadline_changes_nothing_settled(tmp_path):
    """A two-player game played to its end under the judge: Ana reveals in time, Bo two weeks
    late. The judge refuses Bo's key, so every tool settles the game as it stood at the
    deadline, and keeps it so."""
    table = JudgedTable(tmp_path, names=("Ana", "Bo"))
    table.start("--hidden", "--clock", "move 24h grace 24h", "--late", "forfeit")
    played_to_the_end(table)
    assert table.show("Ana")["finished"]
    table.uptown("Ana", "reveal", "club.yaml", "--as", "Ana")
    assert "stamped Ana's revealed key" in table.post("Ana")
    table.wait(24 * 14)
    table.uptown("Bo", "reveal", "club.yaml", "--as", "Bo")
    said = table.post("Bo")
    assert "refused" in said and "Bo's key comes after Bo's reveal deadline" in said
    assert "reveal deadline" in table.refusals["Bo"][0]
    settled = table.uptown("Ana", "score", "club.yaml").output
    assert "Bo" in settled and "not revealed" in settled or "reveal" in settled


def test_a_forfeit_a_rival_writes_by_hand_is_refused_by_the_judge(table):
    """Cy writes a forfeit for Bo by hand, signed with her own key, and mails it to the judge:
    refused, naming why, and the refusal goes back to Cy."""
    from support.tables import last_entry, signed_again, stamp

    table.play("Ana")
    table.post("Ana")
    table.wait(10)
    path = table.game("Cy")
    path.write_text(path.read_text() + f"  - blue: forfeit\n    at: \"{stamp(table.now)}\"\n"
                    "    by: Cy\n")
    signed_again(path, last_entry(table, "Cy"), table.seed("Cy"))
    message = table.folders["Cy"] / "forged.eml"
    from uptown_cli.club.mail import GameFile, carrying, wire_bytes
    from uptown_cli.fairplay.replay import replay
    from uptown_cli.records.reading import load_record

    record = load_record(path)
    game = GameFile("club.yaml", path.read_bytes(), record, replay(record).game)
    message.write_bytes(wire_bytes(carrying(game, ("Cy", "cy@example.org"),
                                            [("judge", "judge@club.example")], "game", "")))
    said = table.post("Cy", message)
    assert "only the judge writes for a player out of time, not Cy" in said, said
    assert table.refusals["Cy"]


def test_a_header_changed_by_the_first_joiner_is_refused(tmp_path):
    """Before anyone joined there is no signed entry to compare: Ana gives herself a week a
    move in her copy, joins and mails it. The judge compares the header with its own copy's and
    refuses it."""
    table = JudgedTable(tmp_path)
    table.new("--hidden", *CLOCK)
    path = table.game("Ana")
    path.write_text(path.read_text().replace("move 24h", "move 168h"))
    table.uptown("Ana", "join", "club.yaml", "--as", "Ana")
    said = table.post("Ana")
    assert "refused" in said and "its header" in said, said
    assert table.judges_copy().timing.written["clock"] == "move 24h"


def test_a_copy_around_the_judge_is_refused_by_a_player_without_a_copy(table):
    """Bo has lost his copy: a copy Ana mails him around the judge is still not the game."""
    table.play("Ana")
    message = table.folders["Ana"] / "to-bo.eml"
    table.uptown("Ana", "send", "club.yaml", "--as", "Ana", "-o", message)
    table.game("Bo").unlink()
    result = table.receive("Bo", message)
    assert result.exit_code == 1 and "carries no stamp of the judge" in result.output
    assert not table.game("Bo").exists()


def test_ones_own_entry_back_stamped_is_taken_with_no_copy_kept(table):
    """Ana's move comes back from the judge stamped: her tool takes it as the same entry, the
    judge's stamps added, and keeps no copy of hers beside it."""
    table.play("Ana")
    table.post("Ana")
    assert not list(table.folders["Ana"].glob("club.received-*.yaml"))
    assert "judged:" in table.game("Ana").read_text()


def test_a_reminder_of_a_judged_game_tells_nobody_to_act_for_the_late_player(table):
    """Under a judge only the judge writes for a late player: a club's reminders say nothing of
    acting for them."""
    from uptown_cli.club.reminders import awaited_games, notice_text, read_games

    table.wait(30)
    [awaited] = awaited_games(read_games([str(table.game("Bo"))]).values())
    assert awaited.stand_ins == ()
    _subject, body = notice_text(awaited, awaited.others[0], table.now)
    assert "act for them" not in body


def test_a_game_under_another_judge_is_refused_as_such(table):
    """A copy naming another judge's key: this judge takes nothing of it."""
    path = table.game("Bo")
    text = path.read_text()
    key = table.judge.key
    path.write_text(text.replace(key, "ab" * 32))
    said = table.post("Bo", table.forged_message("Bo"))
    assert "refused: the game it carries is not under this judge" in said, said


def test_a_stamp_changed_in_a_copy_is_named_as_not_the_judges(table):
    """Ana's copy holds her join with a stamp she changed: the judge says the stamp is not
    its own, not that the join is missing."""
    table.play("Ana")
    zeroed(table.game("Ana"), "stamp")
    said = table.post("Ana", table.forged_message("Ana"))
    assert "the judge's stamp under Ana's join is not the judge's" in said, said


def test_a_late_players_bot_move_is_written_by_the_judge_in_an_open_game(tmp_path):
    """An open game whose late policy lets a bot play: once Ana is out of time the judge
    plays the bot's move for her, which every tool checks by playing the bot again."""
    table = JudgedTable(tmp_path)
    table.start("--clock", "move 24h", "--late", "bot greedy")
    table.wait(25)
    [ruled] = table.tick()
    assert "Ana out of time: the judge wrote" in ruled
    move = table.judges_copy().moves[0]
    assert (move.by, move.bot) == ("judge", "greedy")
    assert table.attempt("Bo", "validate", "club.yaml").exit_code == 0


def test_an_older_copy_of_the_judges_changes_nothing(table):
    """Two copies of the judge's come out of order: the older, received last, is older."""
    table.play("Ana")
    table.post("Ana")
    old = table.folders["Bo"] / "old.eml"
    messages = sorted(table.folders["Bo"].glob("from-judge-*.eml"),
                      key=lambda path: int(path.stem.rsplit("-", 1)[1]))
    old.write_bytes(messages[-2].read_bytes())  # the copy from before Ana's move
    result = table.receive("Bo", old)
    assert result.exit_code == 0 and "is newer than the received copy" in result.output
    assert not list(table.folders["Bo"].glob("club.received-*.yaml"))


def test_a_judges_copy_of_another_game_does_not_replace_ones_game(table, tmp_path):
    from support.tables import Table

    other = Table(tmp_path / "other", ("Ana", "Bo"))
    other.uptown("Ana", "new", "club.yaml", "-p", "Ana", "-p", "Bo", "--seed", "1")
    before = other.game("Ana").read_bytes()
    message = sorted(table.folders["Bo"].glob("from-judge-*.eml"))[-1]
    result = other.receive("Ana", message)
    assert result.exit_code == 1 and other.game("Ana").read_bytes() == before


@pytest.mark.parametrize("kept", ["stamp", "judged"])
def test_a_joins_stamp_without_its_time_is_one_line(table, kept):
    """A join whose judge's time or stamp was taken off: one line at the join, no traceback."""
    path = table.game("Bo")
    lines = path.read_text().splitlines(keepends=True)
    gone = "judged" if kept == "stamp" else "stamp"
    at = next(i for i, line in enumerate(lines) if line.startswith(f"    {gone}: "))
    path.write_text("".join(lines[:at] + lines[at + 1:]))
    result = table.attempt("Bo", "validate", "club.yaml")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "carries the judge's time and stamp together" in result.output, result.output


def test_a_stamp_in_a_game_under_no_judge_is_refused(tmp_path):
    from support.tables import Table

    table = Table(tmp_path)
    table.start()
    path = table.game("Bo")
    text = path.read_text().replace("    sig: ", "    judged: \"2026-12-01T12:00:00Z\"\n"
                                    "    stamp: " + "ab" * 64 + "\n    sig: ", 1)
    path.write_text(text)
    result = table.attempt("Bo", "validate", "club.yaml")
    assert result.exit_code == 1 and "belong to a game under a club judge" in result.output


def test_judge_is_no_players_name(tmp_path):
    from support.tables import Table

    table = Table(tmp_path, ("Ana", "Bo"))
    result = table.attempt("Ana", "new", "club.yaml", "-p", "Ana", "-p", "Judge")
    assert result.exit_code == 2 and "the club judge's word" in result.output


def test_a_void_game_is_shown_apart_on_the_clubs_page(tmp_path):
    from uptown_cli.club.page import INDEX, club_page

    table = JudgedTable(tmp_path, join_days=1)
    table.new("--hidden", *CLOCK)
    table.wait(25)
    table.tick()
    page = club_page([str(table.game("Ana"))], table.now)[INDEX].decode()
    assert 'id="void"' in page and "Games in play (0)" in page


def test_a_pauses_stamp_that_is_not_text_is_one_problem(tmp_path):
    table = JudgedTable(tmp_path)
    table.start("--hidden", *CLOCK, "--vacation", "14d")
    table.uptown("Ana", "pause", "club.yaml", "--as", "Ana", "--days", "2")
    table.post("Ana")
    path = table.game("Bo")
    text = path.read_text()
    at = text.index("    judged: ", text.index("pause 2d"))
    path.write_text(text[:at] + "    judged: [1]\n" + text[text.index("\n", at) + 1:])
    said = table.attempt("Bo", "validate", "club.yaml").output
    assert [line for line in said.splitlines() if "judged" in line] == [
        next(line for line in said.splitlines() if "the judged under a pause must be text" in line)]


def test_status_counts_a_wait_from_the_judges_stamp(table):
    """Cy's move is dated by his clock a day before it reached the judge: status says the game
    has waited since the judge had it."""
    table.play("Ana")
    table.wait(24)
    table.post("Ana")
    [status] = json.loads(table.uptown("Bo", "status", "--json").stdout)
    assert status["since"].startswith("2026-12-02T12:00:00")


def test_a_join_undone_before_the_first_move_is_taken_by_the_judge(tmp_path):
    """Bo joins through the judge, then takes his join back before any move (``join --undo``):
    the judge's copy holds Bo's stamped join, Bo's copy does not, but his withdrawn key gives
    it, so the judge takes the copy and stamps the undoing; Bo may then join again."""
    table = JudgedTable(tmp_path)
    table.new("--hidden", *CLOCK)
    for name in ("Ana", "Bo"):
        table.uptown(name, "join", "club.yaml", "--as", name)
        table.post(name)
    table.uptown("Bo", "join", "club.yaml", "--as", "Bo", "--undo")
    said = table.post("Bo")
    assert "stamped Bo's withdrawn join" in said, said
    record = table.judges_copy()
    assert [name for name, _ in record.joins.commitments] == ["Ana"]
    assert [name for name, _ in record.joins.withdrawn] == ["Bo"]
    table.uptown("Bo", "join", "club.yaml", "--as", "Bo")
    assert "stamped Bo's join" in table.post("Bo")


def test_nothing_new_names_whom_the_copy_came_from(table):
    said = table.post("Bo")
    assert "nothing new in the copy from bo@" in said, said


def test_a_game_given_to_the_judge_names_the_first_player_without_an_address(tmp_path):
    """The judge mails every player the game: one without an address is refused, the first
    such player named."""
    from uptown_cli.club.judge import add_game
    from uptown_cli.errors import RecordError

    table = JudgedTable(tmp_path)
    table.uptown("Ana", "new", "game.yaml", *(arg for name in ("Ana", "Bo", "Cy")
                                               for arg in ("-p", f"{name} <{name.lower()}@example.org>")),
                 "--judge", table.judge.card, "--hidden")
    text = (table.folders["Ana"] / "game.yaml").read_text()
    # Bo's and Cy's addresses taken out by hand (``new`` refuses a judged game without them)
    text = text.replace("    email: bo@example.org\n", "").replace("    email: cy@example.org\n", "")
    with pytest.raises(RecordError, match="needs an address .*: Bo has none"):
        add_game(table.judge, text, "club.yaml")


def test_a_player_is_out_of_time_at_the_very_second_of_the_deadline(tmp_path):
    """Ana's 24 hours start when the last join came: a second before they are up the judge
    waits, at the second itself it writes her forfeit."""
    table = JudgedTable(tmp_path)
    table.start("--hidden", *CLOCK)
    table.wait(24 - 1 / 3600)
    assert table.tick() == []
    table.wait(1 / 3600)
    [ruled] = table.tick()
    assert "Ana out of time: the judge wrote forfeit" in ruled


def test_a_reveal_that_comes_at_the_very_second_of_its_deadline_is_late(tmp_path):
    """The reveal deadline is the first moment the key is late: a key a second before it is
    taken, one at the second itself is refused."""
    table = JudgedTable(tmp_path, names=("Ana", "Bo"))
    table.start("--hidden", "--clock", "move 24h grace 24h", "--late", "forfeit")
    played_to_the_end(table)
    from uptown_cli.records.times import reveal_deadlines

    record = table.judges_copy()
    deadline = reveal_deadlines(record, ["Ana", "Bo"])
    until = (deadline["Bo"] - table.now).total_seconds() / 3600
    table.uptown("Ana", "reveal", "club.yaml", "--as", "Ana")
    table.wait(until - 1 / 3600)
    assert "stamped Ana's revealed key" in table.post("Ana")
    table.wait(1 / 3600)
    table.uptown("Bo", "reveal", "club.yaml", "--as", "Bo")
    said = table.post("Bo")
    assert "refused" in said and "Bo's key comes after Bo's reveal deadline" in said, said


def test_a_stamp_after_an_entry_the_judge_never_stamped_is_named_after_a_vacation_too(tmp_path):
    """Cy strips the judge's stamp from Ana's move 1 in his copy of a game whose history holds
    a vacation: Bo's stamped move 2 after it tells that the copy was written around the judge
    (the judge stamps in order), however many pauses come before."""
    table = JudgedTable(tmp_path)
    table.start("--hidden", *CLOCK, "--vacation", "14d")
    table.uptown("Ana", "pause", "club.yaml", "--as", "Ana", "--days", "2")
    table.post("Ana")
    for name in ("Ana", "Bo"):
        table.play(name)
        table.post(name)
    path = table.game("Cy")
    lines = path.read_text().splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines)
                 if line.startswith("  - red: ") and "pause" not in line)
    end = next(i for i in range(first + 1, len(lines)) if lines[i].startswith("  - "))
    unstamped = [line for line in lines[first:end]
                 if not line.startswith(("    judged: ", "    stamp: "))]
    path.write_text("".join(lines[:first] + unstamped + lines[end:]))
    result = table.attempt("Cy", "validate", "club.yaml")
    assert result.exit_code == 1
    assert ("move 2 (Bo's blue) carries the judge's stamp, but move 1 (Ana's red) before it does "
            "not") in result.output, result.output


@pytest.mark.parametrize("field, named", [
    ("sig", "move 1 (Ana's red) does not carry Ana's signature"),
    ("stamp", "move 1 (Ana's red) does not carry the judge's stamp as it is written"),
])
def test_a_signature_or_stamp_changed_in_a_players_copy_is_named_by_validate(table, field, named):
    """Bo changes Ana's signature, or the judge's stamp, under her stamped move 1 in his copy:
    his own tool names what is wrong (a good stamp does not make a changed signature good)."""
    table.play("Ana")
    table.post("Ana")
    zeroed(table.game("Bo"), field, below="  - red: ")
    result = table.attempt("Bo", "validate", "club.yaml")
    assert result.exit_code == 1
    assert named in result.output, result.output


def test_a_void_ruling_written_by_hand_is_named_by_validate(tmp_path):
    """Ana copies the judge's void ruling into her copy with a stamp of her own making: her
    tool names the ruling as written by hand."""
    table = without_cy(tmp_path)
    table.wait(72)
    table.tick()
    zeroed(table.game("Ana"), "stamp", below="void:")
    said = table.attempt("Ana", "validate", "club.yaml")
    assert said.exit_code == 1
    assert ("the judge's ruling that the game is void does not carry the judge's stamp: it was "
            "written by hand") in said.output, said.output
