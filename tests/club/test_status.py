"""``uptown status`` (a folder of games at a glance) and ``uptown ratings`` (openskill's
Plackett-Luce model over finished games, in date order)."""

import json
from datetime import datetime, timezone
import os
import shutil

import pytest
from support.club import ok, run
from openskill.models import PlackettLuce

from uptown_cli.club.ratings import finished_games, rate
from uptown_cli.engine.game import name_key

RECORDS = os.path.join(os.path.dirname(__file__), "..", "..", "records")


@pytest.fixture
def folder(tmp_path):
    """The bundled records (five finished games, one in progress), one invalid record, and a
    game waiting for Ana; their times one hour apart, the oldest first."""
    games = tmp_path / "games"
    games.mkdir()
    for name in sorted(os.listdir(RECORDS)):
        if name.endswith(".yaml"):
            shutil.copy(os.path.join(RECORDS, name), games / name)
    (games / "broken.yaml").write_text("uptown: 1\nplayers:\n  - name: Ana\n")
    ok(run(["new", "ana.yaml", "-p", "Ana", "-p", "Bo", "--seed", "1"], cwd=games))
    for hour, name in enumerate(sorted(os.listdir(games))):
        os.utime(games / name, (1_700_000_000 + 3600 * hour,) * 2)
    return games


def test_status_lists_every_game_on_one_line_with_names_turns_first(folder):
    lines = ok(run(["status", folder, "--as", "ana"])).output.splitlines()
    assert len(lines) == 8
    assert lines[0].startswith("* ") and lines[0].endswith("Ana to move")
    assert "in-progress.yaml" in lines[1] and lines[1].endswith("Cy to move")
    assert any(line.endswith("won by Ana") for line in lines)
    (broken,) = [line for line in lines if "broken.yaml" in line]
    assert "invalid: line 3: " in broken
    assert all(len(line) <= 80 for line in lines)


def test_status_json_gives_state_since_and_winners(folder):
    data = json.loads(ok(run(["status", folder, "--json"])).output)
    by_name = {os.path.basename(d["path"]): d for d in data}
    assert by_name["3p-blockers.yaml"]["state"] == "finished"
    assert by_name["3p-blockers.yaml"]["winners"] == ["Ana"]
    assert by_name["ana.yaml"] == {**by_name["ana.yaml"], "state": "to-move", "waiting_for": "Ana",
                                   "moves": 0}
    assert by_name["broken.yaml"]["state"] == "invalid"
    assert by_name["2p-standard.yaml"]["since"].startswith("2023-11-14T")


def test_status_of_a_hidden_game_says_who_joins_next(tmp_path):
    ok(run(["new", "h.yaml", "--hidden", "-p", "Ana", "-p", "Bo"], cwd=tmp_path))
    line = ok(run(["status"], cwd=tmp_path)).output.strip()
    assert line.startswith("h.yaml") and line.endswith("Ana to join")


def expected_ratings(folder):
    """The ratings computed with openskill directly, from ``uptown score --json`` of each
    finished game, rated in the order of the records' dates (the one without a date by its
    file's time, in 2023, before them all here)."""
    games = []
    for name in sorted(os.listdir(folder)):
        result = run(["score", folder / name, "--json"])
        if result.exit_code == 0 and json.loads(result.output)["finished"]:
            data = json.loads(result.output)
            text = (folder / name).read_text()
            file_time = datetime.fromtimestamp(os.stat(folder / name).st_mtime, timezone.utc)
            date = next((line.split('"')[1] for line in text.splitlines()
                         if line.startswith("date:")), file_time.date().isoformat())
            games.append((date, name, data["players"]))
    model = PlackettLuce()
    ratings = {}
    for _, _, players in sorted(games):
        teams = [[ratings.setdefault(p["name"].casefold(), model.rating())] for p in players]
        for p, team in zip(players, model.rate(teams, ranks=[p["rank"] for p in players])):
            ratings[p["name"].casefold()] = team[0]
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def test_ratings_match_openskill_computed_directly(folder):
    expected = expected_ratings(folder)
    data = json.loads(ok(run(["ratings", folder, "--json"])).output)
    assert data["games"] == 5
    got = {r["player"].casefold(): (r["mu"], r["sigma"]) for r in data["ratings"]}
    assert got == {name: (round(mu, 3), round(sigma, 3)) for name, (mu, sigma) in expected.items()}
    ordinals = [r["rating"] for r in data["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert any("broken.yaml" in p for p in data["skipped_invalid"])


def test_ratings_table_fits_80_columns_and_counts_games_and_wins(folder):
    result = ok(run(["ratings", folder]))
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Ratings over 5 finished games")
    assert lines[1].split() == ["rank", "player", "rating", "sigma", "games", "wins"]
    assert all(len(line) <= 80 for line in lines)
    games, _ = finished_games([str(folder / n) for n in os.listdir(folder)])
    table = {r.name: r for r in rate(games)}
    assert sum(r.wins for r in table.values()) >= 5
    assert table["Ana"].games == 5


def test_ratings_match_names_ignoring_case(tmp_path):
    for index, name in enumerate(("3p-blockers.yaml", "4p-standard.yaml")):
        text = open(os.path.join(RECORDS, name)).read()
        if index:
            text = text.replace("name: Ana", "name: ANA")
        (tmp_path / name).write_text(text)
    data = json.loads(ok(run(["ratings", tmp_path, "--json"])).output)
    ana = [r for r in data["ratings"] if r["player"].casefold() == "ana"]
    assert len(ana) == 1 and ana[0]["games"] == 2


def test_ratings_variant_keeps_only_that_variant(folder):
    data = json.loads(ok(run(["ratings", folder, "--variant", "blockers", "--json"])).output)
    assert data["games"] == 2


def test_ratings_in_date_order(tmp_path):
    """The same two games rated in the other order give other ratings: the date decides."""
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, dates in ((first, ("2026-01-01", "2026-02-01")), (second, ("2026-02-01", "2026-01-01"))):
        folder.mkdir()
        for name, date in zip(("3p-blockers.yaml", "4p-standard.yaml"), dates):
            text = open(os.path.join(RECORDS, name)).read()
            (folder / name).write_text(text.replace(text.split("date: ")[1].split("\n")[0],
                                                    f'"{date}"'))
    a = json.loads(ok(run(["ratings", first, "--json"])).output)["ratings"]
    b = json.loads(ok(run(["ratings", second, "--json"])).output)["ratings"]
    assert a != b


def test_status_and_ratings_leave_out_received_copies_kept_beside_a_game(tmp_path):
    """A copy ``receive`` kept (NAME.received-N.yaml) is not a game of its own: listing it
    would show one game twice and count it twice in the ratings."""
    game = tmp_path / "club.yaml"
    ok(run(["new", game, "-p", "Ana", "-p", "Bo", "--seed", "s1"]))
    (tmp_path / "club.received-1.yaml").write_bytes(game.read_bytes())
    listed = json.loads(ok(run(["status", tmp_path, "--json"])).output)
    assert [os.path.basename(s["path"]) for s in listed] == ["club.yaml"]


@pytest.mark.parametrize("command", ["status", "ratings"])
def test_a_folder_that_is_not_there_is_a_usage_error_not_an_invalid_game(tmp_path, command):
    result = run([command, tmp_path / "nope"])
    assert result.exit_code == 2
    assert "does not exist" in result.output and "Traceback" not in result.output


# -- names, long names, odd file times, the default folder ------------------------------------


def rated(folder, *args):
    return json.loads(ok(run(["ratings", *args, "--json"], cwd=folder)).output)["ratings"]


@pytest.mark.parametrize("spellings", [(" Ana", "Ana "), ("Gr\u00e9edy", "Gre\u0301edy"),
                                       ("ANA", " ana")], ids=["blanks", "nfc-nfd", "case"])
def test_ratings_count_two_spellings_of_one_name_as_one_player(tmp_path, spellings):
    """The rule of records (engine.game.name_key): blanks round a name, case and Unicode's
    composed or decomposed forms do not make another player."""
    for name, spelling in zip(("3p-blockers.yaml", "4p-standard.yaml"), spellings):
        text = open(os.path.join(RECORDS, name)).read()
        (tmp_path / name).write_text(text.replace("name: Ana", f"name: {json.dumps(spelling)}"))
    table = rated(tmp_path)
    [one] = [r for r in table if name_key(r["player"]) == name_key(spellings[0])]
    assert one["games"] == 2
    assert len(table) == 4  # Ana, Bo, Cy and Dee: nobody twice


def test_ratings_default_to_this_folder_as_status_does(folder):
    assert rated(folder) == rated(folder.parent, folder)


def test_a_very_long_name_is_cut_in_the_ratings_table_not_in_json(tmp_path):
    long = "A" + "n" * 10_000
    text = open(os.path.join(RECORDS, "3p-blockers.yaml")).read()
    (tmp_path / "g.yaml").write_text(text.replace("name: Ana", f"name: {long}"))
    lines = ok(run(["ratings"], cwd=tmp_path)).stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [len(line) for line in lines]
    assert any("Annnnnnnnnnnnnnnnnnnn..." in line for line in lines)
    assert long in [r["player"] for r in rated(tmp_path)]


def test_a_file_time_past_the_year_9999_is_shown_not_a_traceback():
    from uptown_cli.club.status import GameStatus, State

    status = GameStatus("g.yaml", State.TO_MOVE, 0, 253_436_860_800.0, waiting_for="Ana")
    assert status.since_text() == "after year 9999"
    assert status.to_json()["since"] is None


TMPFS = "/dev/shm"
"""A tmpfs (where a file's time may be past the year 9999), when the system has one."""


@pytest.mark.skipif(not os.access(TMPFS, os.W_OK), reason="no writable tmpfs at /dev/shm")
def test_status_and_ratings_of_files_dated_in_the_year_10000(tmp_path):
    import tempfile

    with tempfile.TemporaryDirectory(dir=TMPFS) as shm:
        for name in ("3p-blockers.yaml", "in-progress.yaml"):
            path = os.path.join(shm, name)
            text = open(os.path.join(RECORDS, name)).read()
            with open(path, "w") as out:
                out.write("\n".join(line for line in text.splitlines() if not line.startswith("date:")))
            os.utime(path, (253_436_860_800,) * 2)
        if os.stat(path).st_mtime < 253_402_300_800:
            pytest.skip("this tmpfs does not keep times past the year 9999")
        lines = ok(run(["status"], cwd=shm)).output.splitlines()
        assert all("after year 9999" in line for line in lines) and len(lines) == 2
        assert [s["since"] for s in json.loads(ok(run(["status", "--json"], cwd=shm)).output)] == [None, None]
        assert rated(shm)[0]["games"] == 1


def test_status_and_ratings_call_a_game_with_a_move_from_the_future_invalid(tmp_path):
    """``game_status`` and ``finished_games`` validate at their ``now`` as ``validate`` does."""
    from uptown_cli.club.status import game_status, State

    ok(run(["new", "g.yaml", "-p", "Ana", "-p", "Bo", "--seed", "s", "--clock", "judges"],
           cwd=tmp_path, env={"UPTOWN_NOW": "2026-12-01T15:36:00Z"}))
    ok(run(["move", "g.yaml", "--bot", "greedy"], cwd=tmp_path,
           env={"UPTOWN_NOW": "2026-12-01T16:00:00Z"}))
    path = str(tmp_path / "g.yaml")
    before = datetime(2026, 12, 1, 15, 40, tzinfo=timezone.utc)
    after = datetime(2026, 12, 1, 17, 0, tzinfo=timezone.utc)
    early = game_status(path, "g.yaml", before)
    assert early.state == State.INVALID and early.problem.startswith("line 15: move 1 is dated")
    assert game_status(path, "g.yaml", after).state == State.TO_MOVE
    assert finished_games([path], now=before) == ([], [path])
    assert finished_games([path], now=after) == ([], [])
