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
    lines = ok(run(["status", folder, "--as", "ana"], env={"COLUMNS": "80"})).output.splitlines()
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


# -- one game id, one game; names that look alike (issue 40) -----------------------------------

GAME_ID = "0123456789abcdef0123456789abcdef"


def copies_of_one_game(folder, names=("a.yaml", "b.yaml", "c.yaml")):
    """A finished game with a game id, under each of ``names`` in ``folder``."""
    text = open(os.path.join(RECORDS, "3p-blockers.yaml")).read()
    for name in names:
        (folder / name).write_text(text.replace("seed:", f"game: {GAME_ID}\nseed:"))


def test_status_shows_one_game_id_once_naming_its_other_files(tmp_path):
    """Copies of one game under three names are one row, naming the others: the copy shown
    is the one that carries the game furthest (an older copy, of fewer moves, changed last,
    is not), then the one changed last."""
    copies_of_one_game(tmp_path)
    text = (tmp_path / "a.yaml").read_text()
    (tmp_path / "a.yaml").write_text(text[:text.rindex("  - ")])
    for hour, name in enumerate(("c.yaml", "b.yaml", "a.yaml")):
        os.utime(tmp_path / name, (1_700_000_000 + 3600 * hour,) * 2)
    lines = ok(run(["status"], cwd=tmp_path)).output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("  b.yaml  2023-11-1")
    assert lines[0].endswith("  won by Ana (the same game as a.yaml and c.yaml)")
    [row] = json.loads(ok(run(["status", tmp_path, "--json"])).output)
    assert row["game_id"] == GAME_ID and len(row["copies"]) == 2


def test_status_keeps_records_without_a_game_id_apart_as_before(folder):
    """The bundled records have no game id: a copy of one under another name is a row too."""
    shutil.copy(folder / "3p-blockers.yaml", folder / "copy.yaml")
    lines = ok(run(["status", folder])).output.splitlines()
    assert len(lines) == 9


def test_ratings_rate_one_game_id_once_whatever_its_file_names(tmp_path):
    """One player who plays every seat and files the win three times gets one game."""
    copies_of_one_game(tmp_path)
    result = ok(run(["ratings"], cwd=tmp_path))
    assert result.stdout.startswith("Ratings over 1 finished game ")
    assert "Rated once: b.yaml and c.yaml hold the same game as a.yaml." in result.stderr
    data = rated(tmp_path)
    assert {r["player"]: r["games"] for r in data} == {"Ana": 1, "Bo": 1, "Cy": 1}
    whole = json.loads(ok(run(["ratings", "--json"], cwd=tmp_path)).output)
    assert whole["games"] == 1 and whole["copies"] == {"a.yaml": ["b.yaml", "c.yaml"]}


def test_ratings_warn_of_two_players_whose_names_look_alike(tmp_path):
    """'Ana' and 'Аna' (a Cyrillic А) are two rows, and a warning says they look alike."""
    for name, player in (("3p-blockers.yaml", "Ana"), ("4p-standard.yaml", "\u0410na")):
        text = open(os.path.join(RECORDS, name)).read()
        (tmp_path / name).write_text(text.replace("name: Ana", f"name: {player}"))
    result = ok(run(["ratings"], cwd=tmp_path))
    assert result.stderr.splitlines() == [
        "Warning: the names 'Ana' and '\u0410na' look alike (U+0410 CYRILLIC CAPITAL LETTER A): "
        "check that they are two players"]
    whole = json.loads(ok(run(["ratings", "--json"], cwd=tmp_path)).output)
    assert whole["look_alike"] == [["Ana", "\u0410na"]]


def long_named_game(folder):
    """A game waiting for a player of a 120-character name, in a file of a 60-character name."""
    name = "B" + "o" * 119
    ok(run(["new", "g" * 56 + ".yaml", "-p", "Ana", "-p", name, "--seed", "1"], cwd=folder))
    ok(run(["move", "g" * 56 + ".yaml", "--bot", "random"], cwd=folder))
    return name


def test_status_cuts_no_line_when_its_output_is_not_a_terminal(tmp_path):
    """As cron and pipes read it: the whole path and the whole name (COLUMNS unset: pytest-xdist
    sets it)."""
    name = long_named_game(tmp_path)
    [line] = ok(run(["status"], cwd=tmp_path, env={"COLUMNS": None})).output.splitlines()
    assert line.startswith("  " + "g" * 56 + ".yaml  ") and line.endswith(f"{name} to move")


def test_status_cuts_its_lines_to_columns_when_it_is_set(tmp_path):
    long_named_game(tmp_path)
    [line] = ok(run(["status"], cwd=tmp_path, env={"COLUMNS": "100"})).output.splitlines()
    assert len(line) <= 100 and line.endswith("...")
