"""Forfeits in games with hidden racks (docs/DEADLINES.md, docs/HIDDEN_DRAWS.md "Forfeits"):
a player resigns at their turn with their own tool (the entry carries their link and seal),
another player makes a player out of time forfeit (the entry carries no link), and neither can
be faked: a forfeit for a player still in time, or a resignation written by hand, is refused
by the command and by ``validate``, naming its line. Each player has a working folder and a key
folder; the file goes from one to the next by ``send -o`` and ``receive``."""

import re

import pytest

from club.test_deadlines import T0, Table

LATER = "2026-12-01T16:00:00Z"


def _hidden_table(uptown, tmp_path, sealed=False):
    """A hidden game of Ana, Bo and Cy with a clock, whose late players may be made to forfeit;
    of protocol 4 (moves sealed, not signed) when ``sealed``: an entry written by hand is then
    judged by the rules alone (from protocol 5 it is unsigned, and refused as such first)."""
    table = Table(uptown, tmp_path, 3)
    table.new(T0, "--clock", "move 24h grace 24h reveal 48h", "--late", "forfeit", hidden=True,
              sealed=sealed)
    return table


def _holder_to(table, holder, now):
    """The player to move, given the copy of ``holder`` (who last wrote): carried to them."""
    mover = table.to_move(holder, now)
    if mover is not None and mover != holder:
        assert table.carry(holder, mover, now).exit_code == 0
    return mover


def _play_to_end(table, holder, now):
    """Everyone still in play moves in turn (a random bot) until the game ends; returns who
    made the last move."""
    for _ in range(300):
        mover = _holder_to(table, holder, now)
        if mover is None:
            return holder
        table.ok(mover, now, "move", table.game(mover), "--bot", "random", "--as", mover)
        holder = mover
    raise AssertionError("the game did not end")


def _to_cys_first_turn(table):
    """``_to_cy``, then Bo's copy carried to Cy, whose turn it is."""
    _to_cy(table)
    assert _holder_to(table, "Bo", LATER) == "Cy"


def test_a_resignation_in_a_hidden_game_ends_with_the_others_and_the_forfeiter_last(uptown, tmp_path):
    """Cy resigns at his first turn; Ana and Bo play to the end; everyone reveals (Cy too), and
    the game is valid with Cy last."""
    table = _hidden_table(uptown, tmp_path)
    _to_cys_first_turn(table)
    refused = table.run("Ana", LATER, "move", table.game("Cy"), "forfeit", "--as", "Ana")
    assert refused.exit_code == 1 and "it is Cy's turn, not Ana's" in refused.stderr
    resigned = table.ok("Cy", LATER, "move", table.game("Cy"), "forfeit", "--as", "Cy")
    assert resigned.stdout.startswith("Move 3: green (Cy) forfeits")
    assert re.search(r"  - green: forfeit\n    at: \"[^\"]+\"\n    link: (\"?)[0-9a-f]{64}\1\n"
                     r"    sig: (\"?)[0-9a-f]{128}\2\n$",  # hex quoted when YAML could read it as a number
                     table.game("Cy").read_text())
    last = _play_to_end(table, "Cy", LATER)
    end = "2026-12-01T17:00:00Z"
    holder = last
    for name in ("Ana", "Bo", "Cy"):  # the file goes round: each reveals in turn
        if name != holder:
            assert table.carry(holder, name, end).exit_code == 0
        table.ok(name, end, "reveal", table.game(name), "--as", name)
        holder = name
    checked = table.run("Cy", end, "validate", table.game("Cy"))
    assert checked.exit_code == 0, checked.output
    _, score = table.uptown.json("score", table.game("Cy"), "--json", env=table.env("Cy", end))
    ranks = {row["name"]: (row["rank"], row["forfeit"]) for row in score["players"]}
    assert ranks["Cy"] == (3, 3) and ranks["Ana"][1] is None and ranks["Bo"][1] is None


def _to_cy(table):
    """Ana and Bo play a move each at LATER; Cy's copy holds the game, Cy to move. Returns
    Bo's copy (the last written)."""
    holder = "Cy"
    for _ in range(2):
        mover = _holder_to(table, holder, LATER)
        table.ok(mover, LATER, "move", table.game(mover), "--bot", "random", "--as", mover)
        holder = mover
    return table.game("Bo")


def test_a_forfeit_for_a_player_still_in_time_is_refused_by_move_and_by_validate(uptown, tmp_path):
    """Bo makes Cy forfeit a day after Cy's turn came (out of time only after 48h): move refuses
    it, and the same entry written by hand is refused by validate at its line."""
    table = _hidden_table(uptown, tmp_path, sealed=True)
    game = _to_cy(table)
    early = "2026-12-02T16:00:00Z"
    refused = table.run("Bo", early, "move", game, "forfeit", "--for", "Cy", "--as", "Bo")
    assert refused.exit_code == 1 and "Cy is out of time only from" in refused.stderr
    assert "nothing was written" in refused.stderr
    text = game.read_text()
    game.write_text(text + f'  - green: forfeit\n    at: "{early}"\n    by: Bo\n')
    line = text.count("\n") + 1
    checked = table.run("Bo", early, "validate", game)
    assert checked.exit_code == 1
    assert f"{game}:{line}: move 3: Cy is out of time only from" in checked.output


def test_a_resignation_written_by_hand_is_refused_by_validate_at_its_line(uptown, tmp_path):
    """Bo writes 'Cy resigns' into the file: without Cy's link, or with a link Cy's key did not
    make, validate refuses it at its line, and only there."""
    table = _hidden_table(uptown, tmp_path, sealed=True)
    game = _to_cy(table)
    text = game.read_text()
    for link in ("", "    link: " + "ab" * 64 + "\n"):
        game.write_text(text + f'  - green: forfeit\n    at: "{LATER}"\n' + link)
        line = text.count("\n") + 1
        checked = table.run("Bo", LATER, "validate", game)
        assert checked.exit_code == 1, checked.output
        errors = [row for row in checked.output.splitlines()
                  if "not yet checkable" not in row and row.startswith(str(game))]
        assert len(errors) == 1 and errors[0].startswith(f"{game}:{line}: move 3: Cy's forfeit")
        assert "by hand" in errors[0]


@pytest.mark.parametrize("cy_reveals", [True, False])
def test_a_forfeit_for_a_player_out_of_time_stands_and_the_others_play_on(uptown, tmp_path,
                                                                         cy_reveals):
    """Cy is out of time; Ana makes him forfeit (no link under the entry); Ana and Bo play to
    the end and reveal; Cy reveals too (valid), or never does (settled after his reveal
    deadline); either way Cy ranks last, and status names his forfeit once."""
    table = _hidden_table(uptown, tmp_path)
    _to_cy(table)
    assert table.carry("Bo", "Ana", LATER).exit_code == 0
    late = "2026-12-04T16:00:00Z"
    made = table.ok("Ana", late, "move", table.game("Ana"), "forfeit", "--for", "Cy",
                    "--as", "Ana")
    assert "forfeits, written by Ana for Cy (out of time)" in made.stdout
    assert re.search(f'  - green: forfeit\n    at: "{late}"\n    by: Ana\n    sig: ("?)[0-9a-f]{{128}}\\1\n$',
                     table.game("Ana").read_text())
    last = _play_to_end(table, "Ana", late)
    holder = last
    for name in ("Ana", "Bo", "Cy") if cy_reveals else ("Ana", "Bo"):
        if name != holder:
            assert table.carry(holder, name, late).exit_code == 0
        table.ok(name, late, "reveal", table.game(name), "--as", name)
        holder = name
    game = table.game(holder)
    if not cy_reveals:
        waiting = table.run(holder, late, "validate", game)
        assert waiting.exit_code == 3, waiting.output
        late = "2026-12-09T16:00:00Z"  # past Cy's reveal deadline
    checked = table.run(holder, late, "validate", game)
    assert checked.exit_code == 0, checked.output
    assert f"{game}: settled: Cy forfeited at move 3 (out of time)\n" in checked.output
    assert ("Cy did not reveal" in checked.output) != cy_reveals
    _, [data] = table.uptown.json("validate", game, "--json", env=table.env(holder, late))
    assert data["status"] == "settled" and data["valid"]
    _, rated = table.uptown.json("ratings", game, "--json", env=table.env(holder, late))
    assert rated["games"] == 1 and rated["ratings"][-1]["player"] == "Cy"
    _, [status] = table.uptown.json("status", game.parent, "--json", env=table.env(holder, late))
    assert status["forfeited"] == [{"name": "Cy", "move": 3}]  # forfeited, then not revealed: once
    line = table.ok(holder, late, "status", game.parent).stdout
    assert line.rstrip().endswith("(Cy forfeited)"), line
    _, score = table.uptown.json("score", game, "--json", env=table.env(holder, late))
    ranks = {row["name"]: (row["rank"], row["forfeit"], row["forfeit_reason"])
             for row in score["players"]}
    assert ranks["Cy"] == (3, 3, "out of time") and ranks["Ana"][2] is None


def test_a_resignation_at_the_first_turn_of_a_two_player_hidden_game_ends_it(uptown, tmp_path):
    """Ana resigns before playing: the game is over, Bo wins; after both reveal, it is valid,
    and the resigner's own view still opens."""
    table = Table(uptown, tmp_path, 2)
    table.new(T0, "--clock", "judges", hidden=True)
    assert table.carry("Bo", "Ana", LATER).exit_code == 0
    resigned = table.ok("Ana", LATER, "move", table.game("Ana"), "forfeit", "--as", "Ana")
    assert "Final standings:" in resigned.stdout
    table.ok("Ana", LATER, "show", table.game("Ana"), "--as", "Ana")
    table.ok("Ana", LATER, "reveal", table.game("Ana"), "--as", "Ana")
    assert table.carry("Ana", "Bo", LATER).exit_code == 0
    table.ok("Bo", LATER, "reveal", table.game("Bo"), "--as", "Bo")
    checked = table.run("Bo", LATER, "validate", table.game("Bo"))
    assert checked.exit_code == 0, checked.output
    assert checked.stdout == (f"{table.game('Bo')}: settled: Ana forfeited at move 1 (resigned)\n"
                              "1 record, 1 valid (1 settled), 0 invalid\n")
    _, [data] = uptown.json("validate", table.game("Bo"), "--json", env=table.env("Bo", LATER))
    assert data["status"] == "settled" and data["valid"] and data["unchecked_players"] == []
    _, [status] = uptown.json("status", tmp_path / "Bo", "--json", env=table.env("Bo", LATER))
    assert status["winners"] == ["Bo"] and status["forfeited"] == [{"name": "Ana", "move": 1}]


def test_passes_written_for_a_player_out_of_time_let_the_others_play_to_the_end(uptown, tmp_path):
    """Policy 'pass, forfeit after 2': Cy goes quiet; Ana passes for him once he is out of time,
    then Bo, then Ana makes him forfeit; the game is played to the end, everyone reveals, and
    it is valid with Cy last. A pass for Cy before he is out of time is refused."""
    table = Table(uptown, tmp_path, 3)
    table.new(T0, "--clock", "move 24h grace 24h reveal 48h", "--late", "pass, forfeit after 2",
              hidden=True)
    _to_cy(table)
    assert table.carry("Bo", "Ana", LATER).exit_code == 0
    early = table.run("Ana", "2026-12-02T16:00:00Z", "move", table.game("Ana"), "pass",
                      "--for", "Cy", "--as", "Ana")
    assert early.exit_code == 1 and "Cy is out of time only from" in early.stderr
    now, holder = "2026-12-04T16:00:00Z", "Ana"
    for day, writer in ((4, "Ana"), (7, "Bo"), (10, "Ana")):
        now = f"2026-12-{day:02d}T16:00:00Z"
        if writer != holder:
            assert table.carry(holder, writer, now).exit_code == 0
        action = "forfeit" if day == 10 else "pass"
        made = table.ok(writer, now, "move", table.game(writer), action, "--for", "Cy",
                        "--as", writer)
        assert f"written by {writer} for Cy (out of time)" in made.stdout
        holder = writer
        if day < 10:  # Ana and Bo play their turns at once; Cy is out of time again later
            holder = _play_round(table, holder, now)
    assert "link:" not in table.game(holder).read_text().rsplit("- green:", 1)[1]
    last = _play_to_end(table, holder, now)
    holder = _all_reveal_and_validate(table, last, now)
    _, score = table.uptown.json("score", table.game(holder), "--json", env=table.env(holder, now))
    ranks = {row["name"]: row["rank"] for row in score["players"]}
    assert ranks["Cy"] == 3


def _all_reveal_and_validate(table, holder, now):
    """The file carried round from ``holder``, each player revealing in turn; then ``validate``
    must pass. Returns who holds the file last."""
    for name in ("Ana", "Bo", "Cy"):
        if name != holder:
            assert table.carry(holder, name, now).exit_code == 0
        table.ok(name, now, "reveal", table.game(name), "--as", name)
        holder = name
    checked = table.run(holder, now, "validate", table.game(holder))
    assert checked.exit_code == 0, checked.output
    return holder


def _play_round(table, holder, now):
    """Everyone to move before Cy plays a move at ``now`` (a random bot); returns the holder."""
    while (mover := _holder_to(table, holder, now)) not in ("Cy", None):
        table.ok(mover, now, "move", table.game(mover), "--bot", "random", "--as", mover)
        holder = mover
    return holder


def test_a_player_passed_for_plays_on_with_his_own_links_and_the_game_is_valid(uptown, tmp_path):
    """Policy 'pass': Ana passes for Cy once he is out of time; Cy comes back and plays his own
    turns (his next link follows his last one); played to the end, revealed: valid."""
    table = Table(uptown, tmp_path, 3)
    table.new(T0, "--clock", "move 24h grace 24h reveal 48h", "--late", "pass", hidden=True)
    _to_cy(table)
    assert table.carry("Bo", "Ana", LATER).exit_code == 0
    now = "2026-12-04T16:00:00Z"
    table.ok("Ana", now, "move", table.game("Ana"), "pass", "--for", "Cy", "--as", "Ana")
    last = _play_to_end(table, "Ana", now)
    text = table.game(last).read_text()
    assert text.count("- green:") > 2  # Cy played on after the pass written for him
    _all_reveal_and_validate(table, last, now)


def test_score_shows_a_resignation_in_a_hidden_game_in_its_table_and_json(uptown, tmp_path):
    table = _hidden_table(uptown, tmp_path)
    _to_cys_first_turn(table)
    table.ok("Cy", LATER, "move", table.game("Cy"), "forfeit", "--as", "Cy")
    shown = table.ok("Cy", LATER, "score", table.game("Cy"))
    header, rule, *rows = shown.stdout.splitlines()[1:]
    assert header.split()[-1] == "forfeit"
    assert [row.split()[1] for row in rows if row.endswith("move 3")] == ["Cy"]
    assert sum(row.endswith("move 3") for row in rows) == 1
    _, score = uptown.json("score", table.game("Cy"), "--json", env=table.env("Cy", LATER))
    assert {row["name"]: row["forfeit"] for row in score["players"]} == {
        "Ana": None, "Bo": None, "Cy": 3}
