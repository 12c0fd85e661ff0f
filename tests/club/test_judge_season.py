"""A season under a club judge, run as a club runs one (issue 40): the judge made with ``uptown
judge init``, given its games with ``judge add``, each message handed to ``judge run --stdin``
as the mail server delivers it, cron's ``judge run`` for the time, its mail through a real SMTP
server to each player's ``receive``. Ana, Bo, Cy and Di each have a working folder and a key
folder, and mail only the judge; ``UPTOWN_NOW`` moves every clock over 20 days. Each griefing
attack of the issue is tried on the way and must be refused or harmless, and the standings at
the end must be those of the season replayed from the judge's database."""

import json
import sqlite3
from datetime import timedelta

import pytest
from support.club import smtp_server  # noqa: F401  (a fixture)
from support.tables import START, ClubJudge, Table, refused, signed_again, stamp

from uptown_cli.records.reading import load_record

FOUR = ("Ana", "Bo", "Cy", "Di")
CLOCK = ("--clock", "move 24h", "--late", "forfeit")


@pytest.fixture
def club(tmp_path, smtp_server):
    """The four players and their judge, whose mail goes through a real SMTP server."""
    return ClubJudge(tmp_path, smtp_server, FOUR)


def at_day(club, days):
    """Every clock set to ``days`` after the season's start."""
    club.now = START + timedelta(days=days)


def join_all(club, file, names):
    for name in names:
        club.uptown(name, "join", file, "--as", name)
        assert f"{file}: stamped {name}'s join" in club.post(name, file)


def play(club, name, file):
    club.uptown(name, "move", file, "--bot", "random", "--as", name)
    return club.post(name, file)


def ratings(club, *folders):
    return json.loads(club.uptown("Ana", "ratings", *map(str, folders), "--json").stdout)


def test_a_season_under_a_judge(club, tmp_path):
    folders = [club.folders[name] for name in FOUR]

    # Day 0: three games, and a fourth that one player will never join.
    alike = club.attempt("Ana", "new", "x.yaml", "-p", "Ana <ana@example.org>", "-p",
                         "\u0410na <anna@example.org>", "--judge", club.card)
    assert alike.exit_code == 2 and "look alike" in alike.output  # a confusable name
    club.new("open.yaml", ("Ana", "Bo", "Cy"), *CLOCK, "--vacation", "14d")
    club.new("hidden.yaml", ("Bo", "Cy", "Di"), "--hidden", *CLOCK)
    club.new("duo.yaml", ("Ana", "Di"))
    club.server.capture.refused.add("di@example.org")  # an address the server refuses
    club.new("void.yaml", FOUR, *CLOCK)
    assert "refused di@example.org" in club.runs[-1]  # the others got it all the same
    club.server.capture.refused.clear()
    club.judge("add", club.folder, club.folders["Ana"] / "void.yaml", code=1)  # given twice
    assert "keeps this game already" in club.runs[-1]
    join_all(club, "open.yaml", ("Ana", "Bo", "Cy"))
    join_all(club, "hidden.yaml", ("Bo", "Cy"))
    join_all(club, "duo.yaml", ("Ana", "Di"))
    join_all(club, "void.yaml", ("Ana", "Bo", "Cy"))  # Di never got it, and never joins

    # Day 0 to 3: Bo books a vacation through the judge; Di joins hidden.yaml late.
    at_day(club, 0.1)
    play(club, "Ana", "open.yaml")
    at_day(club, 0.2)
    club.uptown("Bo", "pause", "open.yaml", "--as", "Bo", "--days", "3")
    assert "stamped" in club.post("Bo", "open.yaml")
    play(club, "Ana", "duo.yaml")
    at_day(club, 2)
    assert "out of time" not in club.tick()  # Bo on vacation; Bo's hidden clock not started
    at_day(club, 3)
    join_all(club, "hidden.yaml", ("Di",))
    at_day(club, 3.5)
    assert "out of time" not in club.tick()  # Bo's first move counts from Di's join
    play(club, "Bo", "open.yaml")
    play(club, "Bo", "hidden.yaml")

    # hidden.yaml is played out at once: Di wins when Bo and Cy resign; Cy stalls his reveal.
    at_day(club, 3.6)
    for name in ("Cy", "Di"):
        play(club, name, "hidden.yaml")
    for name in ("Bo", "Cy"):
        club.uptown(name, "move", "hidden.yaml", "forfeit", "--as", name)
        club.post(name, "hidden.yaml")
    for name in ("Bo", "Di"):
        club.uptown(name, "reveal", "hidden.yaml", "--as", name)
        club.post(name, "hidden.yaml")

    # A backdated move: Cy writes his move at day 3.6 by his clock, and mails it at day 4.4.
    club.uptown("Cy", "move", "open.yaml", "--bot", "random", "--as", "Cy")
    at_day(club, 4.4)
    assert "stamped move 3 (Cy's green)" in club.post("Cy", "open.yaml")
    # A rival's forfeit: at day 5, Ana is out of time by Cy's word (24 hours from day 3.6),
    # not by the judge's stamp. Cy's own tool will not write the forfeit; written by hand and
    # mailed, the judge refuses it.
    at_day(club, 5)
    refused(club.attempt("Cy", "move", "open.yaml", "forfeit", "--for", "Ana", "--as", "Cy"),
            "judge")
    path = club.folders["Cy"] / "open.yaml"
    text = path.read_text()
    path.write_text(text + f"  - red: forfeit\n    at: \"{stamp(club.now)}\"\n    by: Cy\n")
    signed_again(path, load_record(path).moves[-1].line,
                 club.signing_key(path, club.keys("Cy"), "Cy"))  # by Cy's own hand and key
    forged = club.forged_message("Cy", "open.yaml")
    path.write_text(text)
    assert ("refused a copy from cy@example.org: standard input ('open.yaml'):60: move 4: in "
            "a game under a club judge only the judge writes for a player out of time, not Cy"
            ) in club.mail(forged)
    assert club.refusals["Cy"] and not club.refusals["Ana"]
    assert "out of time" not in club.tick()

    # A copy sent around the judge: Di mails duo.yaml straight to Ana, who refuses it.
    club.uptown("Di", "move", "duo.yaml", "--bot", "random", "--as", "Di")
    refused(club.attempt("Di", "send", "duo.yaml", "--as", "Di", "--to", "Ana", "-o", "x.eml"),
            "every copy goes to the judge")
    refused(club.attempt("Ana", "receive", club.forged_message("Di", "duo.yaml")), "judge")
    assert "stamped move 2" in club.post("Di", "duo.yaml")

    # Ten thousand vacations in a copy mailed to the judge: refused, at once.
    vacations = "".join(f"  - blue: pause 1d\n    at: \"{stamp(club.now)}\"\n"
                        for _ in range(10_000))
    path = club.folders["Bo"] / "open.yaml"
    text = path.read_text()
    path.write_text(text + vacations)
    assert "refused a copy from bo@example.org" in club.mail(club.forged_message("Bo", "open.yaml"))
    path.write_text(text)

    # Day 5.5: Ana is out of time by the judge's clock: the judge forfeits her.
    at_day(club, 5.5)
    assert "Ana out of time: the judge wrote forfeit" in club.tick()
    assert load_record(club.folders["Bo"] / "open.yaml").moves[-1].by == "judge"
    club.uptown("Bo", "move", "open.yaml", "forfeit", "--as", "Bo")
    club.post("Bo", "open.yaml")
    club.uptown("Ana", "move", "duo.yaml", "forfeit", "--as", "Ana")
    club.post("Ana", "duo.yaml")

    # Day 7.5: void.yaml, which Di never joined, is void.
    at_day(club, 7.5)
    assert "void.yaml: void: Di did not join" in club.tick()

    # Day 20: Cy's reveal, past his deadline, is refused; the result stands.
    at_day(club, 20)
    club.tick()
    club.uptown("Cy", "reveal", "hidden.yaml", "--as", "Cy")
    assert "refused" in club.post("Cy", "hidden.yaml")

    # The standings: those of every player's copies, of the judge's folder, and of the
    # season replayed from the judge's database, all the same.
    season = tmp_path / "replayed"
    season.mkdir()
    with sqlite3.connect(club.folder / "judge.db") as db:
        for path, text in db.execute("SELECT path, text FROM games"):
            (season / path).write_text(text)
    from_players = ratings(club, *folders)
    assert from_players["ratings"] == ratings(club, season)["ratings"]
    assert from_players["ratings"] == ratings(club, club.folder / "games")["ratings"]
    assert from_players["games"] == 3  # open, hidden and duo; void.yaml has no result
    won = {game["path"]: game["winners"] for game in json.loads(
        club.uptown("Ana", "status", str(season), "--json").stdout)}
    assert won[str(season / "open.yaml")] == ["Cy"]
    assert won[str(season / "duo.yaml")] == ["Di"]
    assert won[str(season / "hidden.yaml")] == ["Di"]


def test_the_same_season_without_a_judge_leaves_a_disputed_forfeit_unrated(tmp_path):
    """Without a judge, Cy holds his move a day and forfeits Ana by his own clock: Ana's
    tool shows her the claim, she disputes it, ``status`` marks the game and ``ratings`` rates
    only the game nobody disputes."""
    table = Table(tmp_path)
    table.start(*CLOCK)
    table.play("Ana")
    table.carry("Ana", "Bo", "Cy")
    table.play("Bo")
    table.carry("Bo", "Cy")
    table.play("Cy")  # Cy's move, dated as soon as Bo's came ...
    table.wait(25)  # ... but held a day: then he forfeits Ana, out of time by his word
    table.uptown("Cy", "move", "club.yaml", "forfeit", "--for", "Ana", "--as", "Cy")
    table.carry("Cy", "Bo")
    table.uptown("Bo", "move", "club.yaml", "forfeit", "--as", "Bo")  # Bo resigns: Cy wins
    table.carry("Bo", "Ana", "Cy")
    assert "Cy wrote move 4 for you" in table.uptown("Ana", "show", "club.yaml", "--as",
                                                     "Ana").output
    table.uptown("Ana", "dispute", "club.yaml", "--as", "Ana")
    [status] = json.loads(table.uptown("Ana", "status", "--json").stdout)
    assert status["disputed"] == [{"name": "Ana", "move": 4}]
    for name in ("Ana", "Bo", "Cy"):
        others = [other for other in ("Ana", "Bo", "Cy") if other != name]
        table.uptown(name, "reveal", "club.yaml", "--as", name)
        table.carry(name, *others)
    rated = json.loads(table.uptown("Cy", "ratings", "--json").stdout)
    assert (rated["games"], rated["skipped_disputed"]) == (0, ["club.yaml"])
