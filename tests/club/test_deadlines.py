"""Deadlines through the command line (docs/DEADLINES.md): the clock written by ``new`` and
kept by every player's memory, times written under every move, and times that go back or come
from the future refused. Time moves with ``UPTOWN_NOW``; each player has a working folder and a
key folder of their own, and the file goes from one to the next by ``send -o`` and ``receive``."""

import json
import shutil

import pytest
from support.hidden import older_protocol
from support.club import smtp_server  # noqa: F401  (a fixture)

T0 = "2026-12-01T15:36:00Z"
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


class Table:
    """Players at their own computers: ``folder/NAME`` holds their copy ``game.yaml`` and
    their keys."""

    def __init__(self, uptown, tmp_path, count):
        self.uptown, self.root, self.names = uptown, tmp_path, NAMES[:count]
        for name in self.names:
            (tmp_path / name / "keys").mkdir(parents=True)

    def game(self, name):
        return self.root / name / "game.yaml"

    def env(self, name, now):
        """``name``'s settings at ``now``."""
        return {"UPTOWN_KEYS": str(self.root / name / "keys"), "UPTOWN_GAME": None,
                "UPTOWN_NOW": now}

    def run(self, name, now, *args):
        return self.uptown.invoke(*args, env=self.env(name, now))

    def ok(self, name, now, *args):
        result = self.run(name, now, *args)
        assert result.exit_code == 0, result.output
        return result

    def new(self, now, *options, hidden=False, sealed=False):
        """A new game (with hidden racks, every player joined; of protocol 4, whose moves are
        sealed, when ``sealed``); its holder's copy."""
        players = [x for n in self.names for x in ("-p", f"{n} <{n.lower()}@example.org>")]
        self.ok(self.names[0], now, "new", self.game(self.names[0]), *players, *options,
                *(["--hidden"] if hidden else []))
        if sealed:
            older_protocol(self.game(self.names[0]))
        if hidden:
            for index, name in enumerate(self.names):
                if index:
                    self.carry(self.names[index - 1], name, now)
                self.ok(name, now, "join", self.game(name), "--as", name,
                        *(["--older-protocol"] if sealed else []))
        return self.game(self.names[-1] if hidden else self.names[0])

    def carry(self, sender, receiver, now):
        """``sender`` mails the game (``send -o``) and ``receiver`` receives it."""
        letter = self.root / f"{sender}-to-{receiver}.eml"
        letter.unlink(missing_ok=True)
        self.ok(sender, now, "send", self.game(sender), "--as", sender, "--to", receiver,
                "-o", letter)
        return self.run(receiver, now, "receive", letter, "--into", self.game(receiver))

    def to_move(self, name, now):
        result, data = self.uptown.json("show", self.game(name), "--json", env=self.env(name, now))
        return data["to_move"]

    def play(self, name, now):
        """``name`` lets a bot play their move at ``now``."""
        return self.run(name, now, "move", self.game(name), "--bot", "random", "--as", name)


@pytest.mark.parametrize("spec, written", [
    ("judges", "move 72h grace 168h"), ("bga", "bank 36h +12h"), ("Bank 3d+1d12h", "bank 72h +36h"),
    ("move 90m reveal 2d grace 1d", "move 1h30m grace 24h reveal 48h")])
def test_new_writes_the_clock_in_its_canonical_form_and_show_says_it(uptown, tmp_path, spec, written):
    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--clock", spec, "--late",
                           "pass, forfeit after 2", "--vacation", "14d", env={"UPTOWN_NOW": T0})
    assert result.exit_code == 0, result.output
    assert f"Clock: {written}; late players: pass, forfeit after 2; vacation 14d" in result.stdout
    text = path.read_text()
    assert (f"clock: {written}\nlate: pass, forfeit after 2\nvacation: 14d\n"
            f'started: "{T0}"\nmoves:\n') in text
    shown = uptown.invoke("show", path, env={"UPTOWN_NOW": T0})
    assert f"Clock: {written}; late players: pass, forfeit after 2; vacation 14d" in shown.stdout
    _, data = uptown.json("show", path, "--json", env={"UPTOWN_NOW": T0})
    assert (data["clock"], data["late_policy"], data["vacation"], data["started"]) == (
        written, "pass, forfeit after 2", "14d", T0)


@pytest.mark.parametrize("options, hidden", [
    (["--clock", "move 72h grace"], False), (["--clock", "bank 12h +36h"], False),
    (["--clock", "move 0h"], False), (["--late", "pass"], False), (["--vacation", "14d"], False),
    (["--clock", "judges", "--late", "sometimes"], False),
    (["--clock", "judges", "--vacation", "forever"], False),
    (["--clock", "judges", "--late", "bot"], True),
    (["--clock", "judges", "--late", "bot zed"], False)])
def test_new_refuses_a_bad_clock_policy_or_vacation_as_a_usage_error(uptown, tmp_path, options, hidden):
    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", *options,
                           *(["--hidden"] if hidden else []))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert not path.exists()


def test_a_game_without_a_clock_writes_no_clock_but_dates_its_moves(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--seed", "s").exit_code == 0
    assert "clock" not in path.read_text() and "started" not in path.read_text()
    assert uptown.invoke("move", path, "--bot", "greedy", env={"UPTOWN_NOW": T0}).exit_code == 0
    assert path.read_text().endswith(f'\n    at: "{T0}"\n')


@pytest.mark.parametrize("count", [2, 3, 5])
@pytest.mark.parametrize("hidden", [False, True])
def test_a_clock_changed_by_hand_after_the_start_is_refused_by_every_players_memory(
        uptown, tmp_path, count, hidden):
    table = Table(uptown, tmp_path, count)
    table.new(T0, "--clock", "judges", hidden=hidden)
    first, second = table.names[0], table.names[1]
    if hidden and count > 1:
        shutil.copy(table.game(table.names[-1]), table.game(first))
    table.ok(first, "2026-12-01T16:00:00Z", "move", table.game(first), "--bot", "random",
             "--as", first)
    assert table.carry(first, second, "2026-12-01T16:10:00Z").exit_code == 0
    assert table.play(second, "2026-12-01T16:20:00Z").exit_code == 0
    path = table.game(second)
    path.write_text(path.read_text().replace("clock: move 72h grace 168h", "clock: move 720h"))
    result = table.play(second, "2026-12-02T10:00:00Z")
    assert result.exit_code == 1
    line = path.read_text().splitlines().index("clock: move 720h") + 1
    assert result.stderr == (f"Error: {path}:{line}: the clock changed since {second} saw it (was "
                             "'move 72h grace 168h', now 'move 720h'): the file was edited by "
                             "hand; nothing was written\n")


def test_a_clock_set_after_the_first_move_is_refused_by_validate(uptown, tmp_path):
    """A clock added by hand, started after the first move: validate can tell."""
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--seed", "s")
    uptown.invoke("move", path, "--bot", "greedy", env={"UPTOWN_NOW": T0})
    text = path.read_text().replace("moves:\n", 'clock: judges\nstarted: "2026-12-02T00:00:00Z"\nmoves:\n')
    path.write_text(text)
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-03T00:00:00Z"})
    assert result.exit_code == 1
    assert (f"move 1 is dated {T0}, before the game's start (2026-12-02T00:00:00Z)"
            in result.stdout)


def test_each_move_is_dated_by_its_players_tool_and_first_seen_is_remembered(uptown, tmp_path):
    table = Table(uptown, tmp_path, 3)
    table.new(T0, "--clock", "move 24h grace 24h", "--seed", "d1")
    times = ["2026-12-01T16:00:00Z", "2026-12-01T20:00:00Z", "2026-12-02T09:30:00Z"]
    for index, now in enumerate(times):
        name, after = table.names[index], table.names[(index + 1) % 3]
        table.ok(name, now, "move", table.game(name), "--bot", "greedy", "--as", name)
        assert table.carry(name, after, now).exit_code == 0
    text = table.game("Ana").read_text()
    assert [line.split('"')[1] for line in text.splitlines() if line.startswith("    at:")] == times
    table.ok("Ana", "2026-12-02T11:00:00Z", "show", table.game("Ana"))
    table.ok("Ana", "2026-12-02T11:00:00Z", "moves", table.game("Ana"), "--as", "Ana")
    memory = [p for p in (tmp_path / "Ana" / "keys").rglob("*") if p.is_file()]
    seen = [json.loads(p.read_text()) for p in memory if p.read_text().startswith("{")]
    assert seen and seen[0]["first_seen"] == ["2026-12-01T16:00:00Z", "2026-12-02T11:00:00Z",
                                              "2026-12-02T11:00:00Z"]
    assert seen[0]["timing"]["clock"] == "move 24h grace 24h"


@pytest.mark.parametrize("hidden", [False, True])
def test_a_move_dated_before_the_one_before_is_refused_naming_it(uptown, tmp_path, hidden):
    table = Table(uptown, tmp_path, 2)
    path = table.new(T0, "--clock", "judges", hidden=hidden)
    name = table.to_move(path.parent.name, "2026-12-01T16:00:00Z")
    if path != table.game(name):
        shutil.copy(path, table.game(name))
    table.ok(name, "2026-12-01T18:00:00Z", "move", table.game(name), "--bot", "random", "--as", name)
    after = table.to_move(name, "2026-12-01T18:00:00Z")
    shutil.copy(table.game(name), table.game(after))
    table.ok(after, "2026-12-01T19:00:00Z", "move", table.game(after), "--bot", "random", "--as", after)
    game = table.game(after)
    game.write_text(game.read_text().replace("2026-12-01T19:00:00Z", "2026-12-01T17:00:00Z"))
    line = game.read_text().splitlines().index('    at: "2026-12-01T17:00:00Z"') + 1 - 1
    expected = (f"{game}:{line}: move 2 is dated 2026-12-01T17:00:00Z, before move 1 "
                "(2026-12-01T18:00:00Z)")
    checked = table.run(after, "2026-12-02T00:00:00Z", "validate", game)
    assert checked.exit_code == 1 and expected in checked.stdout
    shown = table.run(name, "2026-12-02T00:00:00Z", "show", game)
    assert shown.exit_code == 1 and expected in shown.stderr


@pytest.mark.parametrize("hidden", [False, True])
def test_a_move_from_the_future_is_refused_by_validate_receive_and_as_commands(uptown, tmp_path, hidden):
    table = Table(uptown, tmp_path, 3)
    path = table.new(T0, "--clock", "judges", hidden=hidden)
    name = table.to_move(path.parent.name, T0)
    if path != table.game(name):
        shutil.copy(path, table.game(name))
    future = "2026-12-01T20:00:00Z"
    table.ok(name, future, "move", table.game(name), "--bot", "random", "--as", name)
    receiver = next(n for n in table.names if n != name)
    received = table.carry(name, receiver, "2026-12-01T19:56:00Z")  # 4 minutes: tolerated
    assert received.exit_code == 0, received.output
    game = table.game(receiver)
    line = game.read_text().splitlines().index(f'    at: "{future}"')
    third = next(n for n in table.names if n not in (name, receiver))
    before = table.game(third).read_bytes() if table.game(third).exists() else None
    refused = table.carry(receiver, third, "2026-12-01T19:50:00Z")
    assert refused.exit_code == 1
    assert f"move 1 is dated {future}, 10m after this computer's clock (2026-12-01T19:50:00Z)" \
        in refused.output
    assert (table.game(third).read_bytes() if table.game(third).exists() else None) == before
    checked = table.run(receiver, "2026-12-01T19:00:00Z", "validate", game)
    assert checked.exit_code == 1
    assert (f"{game}:{line}: move 1 is dated {future}, 1h after this computer's clock "
            "(2026-12-01T19:00:00Z)") in checked.stdout
    moved = table.play(receiver, "2026-12-01T19:00:00Z")
    assert moved.exit_code == 1 and "move 1 is dated" in moved.stderr
    assert "nothing was written" in moved.stderr
    assert table.run(receiver, "2026-12-01T20:05:00Z", "validate", game).exit_code == 0


@pytest.mark.parametrize("hidden", [False, True])
def test_status_says_whose_turn_since_when_time_left_late_and_out_of_time(uptown, tmp_path, hidden,
                                                                         monkeypatch):
    table = Table(uptown, tmp_path, 3)
    path = table.new(T0, "--clock", "move 24h grace 48h", "--late", "pass", hidden=hidden)
    name = table.to_move(path.parent.name, T0)
    if path != table.game(name):
        shutil.copy(path, table.game(name))
    table.ok(name, "2026-12-01T18:00:00Z", "move", table.game(name), "--bot", "random", "--as", name)
    monkeypatch.chdir(table.game(name).parent)
    folder = "."
    nxt = table.to_move(name, "2026-12-01T18:00:00Z")
    expected = [("2026-12-02T08:00:00Z", f"{nxt} to move, 10h left", "on time", []),
                ("2026-12-02T20:00:00Z", f"{nxt} to move, late by 2h (out of time in 1d 22h)", "late", [nxt]),
                ("2026-12-04T19:00:00Z", f"{nxt} to move, out of time for 1h: others may pass",
                 "out of time", [nxt])]
    for now, text, state, late in expected:
        shown = table.ok(name, now, "status", folder)
        assert shown.stdout.rstrip().endswith(text), shown.stdout
        listed = table.ok(name, now, "status", folder, "--late")
        assert (text in listed.stdout) == bool(late)
        result, [data] = uptown.json("status", folder, "--json", env=table.env(name, now))
        assert data["state"] == "to-move" and data["waiting_for"] == nxt
        assert data["since"] == "2026-12-01T18:00:00+00:00"
        assert (data["clock"], data["late_policy"], data["vacation"]) == (
            "move 24h grace 48h", "pass", "none")
        assert data["deadline"]["state"] == state and data["late"] == late
        assert data["deadline"]["late_at"] == "2026-12-02T18:00:00Z"
        assert data["out_of_time"] == (late if state == "out of time" else [])
        assert data["stand_in"] == "pass"


def test_status_of_a_game_without_a_clock_has_the_clock_fields_empty(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--seed", "s")
    result, [data] = uptown.json("status", tmp_path, "--json")
    assert (data["clock"], data["deadline"], data["late"], data["out_of_time"]) == (None, None, [], [])
    assert data["stand_in"] is None
    assert uptown.invoke("status", tmp_path, "--late").stdout == ""


def members(folder, *names):
    """The club's members file in ``folder``: the addresses of ``names`` (NAME@example.org)."""
    (folder / ".uptown-members").write_text(
        "# the club\n" + "".join(f"{name.lower()}@example.org\n" for name in names))


def test_48_hourly_reminder_runs_send_each_reminder_once_a_day(uptown, tmp_path, smtp_server):
    """A game left waiting from cron: every hour for two days, ``remind`` mails the late
    player and tells the others, once a day from the deadline; a run at the same time sends
    nothing more."""
    import email
    from datetime import datetime, timedelta

    games = tmp_path / "games"
    games.mkdir()
    players = [x for n in NAMES[:3] for x in ("-p", f"{n} <{n.lower()}@example.org>")]
    result = uptown.invoke("new", games / "club.yaml", *players, "--clock", "move 20h grace 20h",
                           "--late", "pass", env={"UPTOWN_NOW": T0})
    assert result.exit_code == 0, result.output
    members(games, *NAMES[:3])
    env = dict(smtp_server.env, UPTOWN_FROM="Club <club@example.org>")
    start = datetime(2026, 12, 1, 15, 36, tzinfo=None)
    sent = []
    for hour in range(1, 49):
        now = (start + timedelta(hours=hour)).strftime("%Y-%m-%dT%H:%M:%SZ")
        run = uptown.invoke("remind", games, env=dict(env, UPTOWN_NOW=now))
        assert run.exit_code == 0, run.output
        again = uptown.invoke("remind", games, env=dict(env, UPTOWN_NOW=now))
        assert again.exit_code == 0 and again.output == ""
        sent += [(hour, recipients, data) for recipients, data in smtp_server.capture.take()]
    # late from hour 20, so periods start at hours 20 and 44: three messages each
    assert sorted({hour for hour, _, _ in sent}) == [20, 44]
    assert sorted(r for _, recipients, _ in sent for r in recipients) == sorted(
        ["ana@example.org", "bo@example.org", "cy@example.org"] * 2)
    first = {recipients[0]: email.message_from_bytes(data) for hour, recipients, data in sent
             if hour == 20}
    reminder = first["ana@example.org"]
    assert reminder["Subject"] == "[uptown] club.yaml: Ana, your move 1 is late"
    body = reminder.get_payload()[0].get_payload(decode=True).decode()
    assert "uptown move club.yaml MOVE --as Ana --send" in body and "1     2     3" in body
    assert reminder.get_payload()[1].get_filename() == "club.yaml"
    notice = first["bo@example.org"]
    assert notice["Subject"] == "[uptown] club.yaml: Ana is late (move 1)"
    later = {recipients[0]: email.message_from_bytes(data) for hour, recipients, data in sent
             if hour == 44}
    notice = later["cy@example.org"].get_payload()[0].get_payload(decode=True).decode()
    assert "uptown move club.yaml pass --for Ana --send --as Cy" in notice
    log = (games / ".uptown-reminders.jsonl").read_text().splitlines()
    assert len(log) == 6 and (games / ".uptown-reminders.jsonl").stat().st_mode & 0o777 == 0o600


def test_remind_dry_run_shows_what_would_go_and_sends_nothing(uptown, tmp_path):
    players = [x for n in NAMES[:2] for x in ("-p", f"{n} <{n.lower()}@example.org>")]
    uptown.invoke("new", tmp_path / "g.yaml", *players, "--clock", "judges", env={"UPTOWN_NOW": T0})
    quiet = uptown.invoke("remind", tmp_path, "--dry-run", env={"UPTOWN_NOW": "2026-12-02T00:00:00Z"})
    assert quiet.exit_code == 0 and quiet.output == ""
    result, data = uptown.json("remind", tmp_path, "--dry-run", "--json",
                               env={"UPTOWN_NOW": "2026-12-05T00:00:00Z"})
    assert [(d["to"], d["kind"]) for d in data] == [("Ana", "reminder"), ("Bo", "notice")]
    assert "uptown move g.yaml MOVE --as Ana --send" in data[0]["body"]
    assert not (tmp_path / ".uptown-reminders.jsonl").exists()


def test_a_remind_run_that_finds_another_at_work_sends_nothing(uptown, tmp_path, smtp_server):
    import fcntl
    import os

    players = [x for n in NAMES[:2] for x in ("-p", f"{n} <{n.lower()}@example.org>")]
    uptown.invoke("new", tmp_path / "g.yaml", *players, "--clock", "judges", env={"UPTOWN_NOW": T0})
    members(tmp_path, *NAMES[:2])
    log = tmp_path / ".uptown-reminders.jsonl"
    fd = os.open(log, os.O_RDWR | os.O_CREAT, 0o600)
    env = dict(smtp_server.env, UPTOWN_FROM="club@example.org", UPTOWN_NOW="2026-12-05T00:00:00Z")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        result = uptown.invoke("remind", tmp_path, env=env)
    finally:
        os.close(fd)
    assert result.exit_code == 0 and result.stdout == ""
    assert "another uptown remind is at work" in result.stderr
    assert smtp_server.capture.take() == []
    assert uptown.invoke("remind", tmp_path, env=env).exit_code == 0
    assert len(smtp_server.capture.take()) == 2


def test_a_player_out_of_time_is_passed_for_then_forfeited_and_ranks_last(uptown, tmp_path):
    """Three players, ``pass, forfeit after 1``: Cy may pass for Bo only once Bo is out of
    time, then make him forfeit; Bo's turns are skipped, and he ranks last in score, status
    and ratings."""
    table = Table(uptown, tmp_path, 3)
    table.new(T0, "--clock", "move 24h grace 24h", "--late", "pass, forfeit after 1", "--seed", "f3")
    game = table.game("Ana")
    table.ok("Ana", "2026-12-01T16:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    early = table.run("Cy", "2026-12-03T15:59:00Z", "move", game, "pass", "--for", "Bo", "--as", "Cy")
    assert early.exit_code == 1 and early.stderr == (
        "Error: Bo is out of time only from 2026-12-03 16:00 UTC, and Cy wrote this at "
        "2026-12-03 15:59 UTC; nothing was written\n")
    forfeit = table.run("Cy", "2026-12-03T16:01:00Z", "move", game, "forfeit", "--for", "Bo", "--as", "Cy")
    assert forfeit.exit_code == 1 and "lets others only pass" in forfeit.stderr
    passed = table.ok("Cy", "2026-12-03T16:01:00Z", "move", game, "pass", "--for", "Bo", "--as", "Cy")
    assert passed.stdout.startswith("Move 2: blue (Bo) passes, written by Cy for Bo (out of time)")
    assert game.read_text().endswith('  - blue: pass\n    at: "2026-12-03T16:01:00Z"\n    by: Cy\n')
    table.ok("Cy", "2026-12-03T17:00:00Z", "move", game, "--bot", "greedy", "--as", "Cy")
    table.ok("Ana", "2026-12-03T18:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    table.ok("Ana", "2026-12-05T18:01:00Z", "move", game, "forfeit", "--for", "Bo", "--as", "Ana")
    for _ in range(4):  # Bo is skipped: Cy and Ana take turns
        for name in ("Cy", "Ana"):
            assert table.to_move("Ana", "2026-12-06T00:00:00Z") == name
            table.ok(name, "2026-12-06T00:00:00Z", "move", game, "--bot", "greedy", "--as", name)
    assert table.ok("Ana", "2026-12-06T00:00:00Z", "validate", game).exit_code == 0
    _, [checked] = uptown.json("validate", game, "--json", env=table.env("Ana", "2026-12-06T00:00:00Z"))
    assert checked["forfeited"] == [{"name": "Bo", "reason": "out of time",
                                     "at": "2026-12-05T18:01:00Z", "move": 5}]
    shown = table.ok("Ana", "2026-12-06T00:00:00Z", "show", game)
    assert "Bo forfeited at move 5 (out of time; Ana wrote it)" in shown.stdout
    _, score = uptown.json("score", game, "--json", env=table.env("Ana", "2026-12-06T00:00:00Z"))
    ranks = {row["name"]: (row["rank"], row["forfeit"]) for row in score["players"]}
    assert ranks["Bo"] == (3, 5) and ranks["Ana"][1] is None
    at = "2026-12-06T00:00:00Z"
    for command in (["replay", game], ["export", game], ["html", game, "-o", tmp_path / "g.html"]):
        played = table.run("Ana", at, *command)  # each plays the game forward again
        assert played.exit_code == 0, played.output


def test_a_turn_written_for_another_takes_the_mail_options_as_a_move_does(uptown, tmp_path):
    """--sendmail without --send, and --send with no mail settings, are usage errors found
    before anything is written, for move --for and move forfeit as for any move."""
    table = Table(uptown, tmp_path, 3)
    table.new(T0, "--clock", "move 24h grace 24h", "--late", "pass", "--seed", "m")
    game = table.game("Ana")
    table.ok("Ana", "2026-12-01T16:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    before = game.read_bytes()
    late = "2026-12-03T16:01:00Z"
    alone = table.run("Cy", late, "move", game, "pass", "--for", "Bo", "--as", "Cy", "--sendmail")
    assert alone.exit_code == 2 and "--sendmail goes with --send" in alone.stderr
    unsent = table.run("Cy", late, "move", game, "pass", "--for", "Bo", "--as", "Cy", "--send")
    assert unsent.exit_code == 2 and "how should it go?" in unsent.stderr
    resign = table.run("Bo", late, "move", game, "forfeit", "--as", "Bo", "--send")
    assert resign.exit_code == 2 and "how should it go?" in resign.stderr
    assert game.read_bytes() == before


@pytest.mark.parametrize("count", [2, 4])
def test_a_player_who_resigns_ranks_last_and_a_two_player_game_ends(uptown, tmp_path, count):
    table = Table(uptown, tmp_path, count)
    table.new(T0, "--seed", "r")
    game = table.game("Ana")
    table.ok("Ana", "2026-12-01T16:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    refused = table.run("Ana", "2026-12-01T16:10:00Z", "move", game, "forfeit", "--as", "Ana")
    assert refused.exit_code == 1 and "it is Bo's turn, not Ana's" in refused.stderr
    resigned = table.ok("Bo", "2026-12-01T17:00:00Z", "move", game, "forfeit", "--as", "Bo")
    assert resigned.stdout.startswith("Move 2: blue (Bo) forfeits")
    assert game.read_text().endswith('  - blue: forfeit\n    at: "2026-12-01T17:00:00Z"\n')
    _, [status] = uptown.json("status", tmp_path / "Ana", "--json", env=table.env("Ana", "2026-12-01T18:00:00Z"))
    assert status["forfeited"] == [{"name": "Bo", "move": 2}]
    if count == 2:
        assert "Final standings:" in resigned.stdout and status["state"] == "finished"
        assert status["winners"] == ["Ana"]
    else:
        assert status["waiting_for"] == "Cy"


def test_a_bot_move_for_another_in_a_hidden_game_is_refused(uptown, tmp_path):
    """(Passes and forfeits for another in hidden games: tests/club/test_hidden_forfeits.py.)"""
    table = Table(uptown, tmp_path, 2)
    path = table.new(T0, "--clock", "judges", "--late", "pass", hidden=True)
    result = table.run("Bo", "2026-12-30T16:00:00Z", "move", path, "--for", "Ana", "--bot",
                       "greedy", "--as", "Bo")
    assert result.exit_code == 1 and "nobody can play a move for another player" in result.stderr


def _stalled_reveals(uptown, tmp_path, revealing=("Ana",)):
    """A hidden game of Ana, Bo and Cy played to the end at the tests' now (clock ``move 24h
    grace 24h reveal 48h``: reveal deadline 2026-12-04 12:00 UTC), where only ``revealing``
    reveal; its path."""
    from support.players import as_player, play_bot, position, uptown_as

    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, "--hidden", "-p", "Ana", "-p", "Bo", "-p", "Cy",
                           "--clock", "move 24h grace 24h reveal 48h")
    assert result.exit_code == 0, result.output
    for name in ("Ana", "Bo", "Cy"):
        assert uptown.invoke("join", path, "--as", name, env=as_player(tmp_path, name)).exit_code == 0
    while not position(tmp_path, path)["finished"]:
        play_bot(tmp_path, path)
    for name in revealing:
        assert uptown_as(tmp_path, name, "reveal", path, "--as", name).exit_code == 0
    return path


def test_a_stalled_reveal_is_settled_after_the_reveal_deadline(uptown, tmp_path):
    """Three players finish a hidden game at the tests' now; only Ana reveals. Before the
    reveal deadline validate says unchecked (exit 3); after it, settled (exit 0), and ratings
    counts the game with Bo and Cy last."""
    from support.games import NOW

    path = _stalled_reveals(uptown, tmp_path)
    before = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-04T11:59:00Z"})
    assert before.exit_code == 3, before.output
    after = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-04T12:00:00Z"})
    assert after.exit_code == 0, after.output
    assert (f"{path}: settled: Bo did not reveal by 2026-12-04 12:00 UTC and ranks last; Bo's "
            "draws are unchecked") in after.stdout
    assert after.stdout.endswith("1 record, 1 valid (1 settled), 0 invalid\n")
    _, [data] = uptown.json("validate", path, "--json", env={"UPTOWN_NOW": "2026-12-05T00:00:00Z"})
    assert data["status"] == "settled" and data["valid"]
    assert data["reveal_deadlines"] == {"Bo": "2026-12-04T12:00:00Z", "Cy": "2026-12-04T12:00:00Z"}
    assert [(f["name"], f["reason"]) for f in data["forfeited"]] == [("Bo", "reveal"), ("Cy", "reveal")]
    _, rated = uptown.json("ratings", tmp_path, "--json", env={"UPTOWN_NOW": "2026-12-05T00:00:00Z"})
    assert rated["games"] == 1 and rated["ratings"][0]["player"] == "Ana"
    _, unrated = uptown.json("ratings", tmp_path, "--json", env={"UPTOWN_NOW": NOW})
    assert unrated["games"] == 0
    _, [status] = uptown.json("status", tmp_path, "--json", env={"UPTOWN_NOW": "2026-12-05T00:00:00Z"})
    assert status["winners"] == ["Ana"] and [f["name"] for f in status["forfeited"]] == ["Bo", "Cy"]


def test_a_vacation_booked_more_than_a_year_ahead_is_refused_in_one_line(uptown, tmp_path):
    """pause refuses it, nothing written; a year ahead to the day is taken; validate refuses
    the same pause written by hand, at its line."""
    table = Table(uptown, tmp_path, 2)
    table.new(T0, "--clock", "judges", "--vacation", "30d per year", "--seed", "v")
    game = table.game("Ana")
    before = game.read_text()
    now = "2026-12-01T16:00:00Z"
    far = table.run("Ana", now, "pause", game, "--as", "Ana", "--days", "2",
                    "--from", "2027-12-02T16:01:00Z")
    assert far.exit_code == 1 and far.stdout == "" and game.read_text() == before
    assert far.stderr == ("Error: a vacation is booked at most a year ahead: Ana's would begin "
                          "2027-12-02 16:01 UTC, more than a year after 2026-12-01 16:00 UTC; "
                          "nothing was written\n")
    table.ok("Ana", now, "pause", game, "--as", "Ana", "--days", "2", "--from",
             "2027-12-02T16:00:00Z")
    game.write_text(before + f'  - red: pause 1d\n    at: "{now}"\n    from: "2028-01-01T00:00:00Z"\n')
    checked = table.run("Ana", now, "validate", game)
    assert checked.exit_code == 1
    assert f"{game}:{before.count(chr(10)) + 1}: the pause after move 0: a vacation is booked at most" \
        in checked.stdout


@pytest.mark.parametrize("count", [2, 3])
def test_a_vacation_stops_the_clock_and_is_refused_when_forbidden_or_used_up(uptown, tmp_path,
                                                                             monkeypatch, count):
    table = Table(uptown, tmp_path, count)
    table.new(T0, "--clock", "move 24h grace 24h", "--vacation", "5d", "--seed", "v")
    game = table.game("Ana")
    monkeypatch.chdir(game.parent)
    table.ok("Ana", "2026-12-01T16:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    away = table.ok("Bo", "2026-12-01T16:05:00Z", "pause", game, "--as", "Bo", "--days", "3")
    assert away.stdout == ("Bo is on vacation from 2026-12-01 16:05 UTC until 2026-12-04 16:05 "
                           "UTC; 2 days of vacation left\n")
    assert game.read_text().endswith('  - blue: pause 3d\n    at: "2026-12-01T16:05:00Z"\n')
    on_leave = table.ok("Ana", "2026-12-02T17:00:00Z", "status", ".")
    assert "Bo to move, on vacation for 1d 23h more" in on_leave.stdout
    back = table.ok("Ana", "2026-12-05T17:00:00Z", "status", ".")
    assert "Bo to move, late by 1h (out of time in 23h)" in back.stdout
    again = table.run("Bo", "2026-12-01T16:10:00Z", "pause", game, "--as", "Bo", "--days", "2")
    assert again.exit_code == 1 and "already" in again.stderr
    more = table.run("Bo", "2026-12-05T16:10:00Z", "pause", game, "--as", "Bo", "--days", "3")
    assert more.exit_code == 1 and "Bo may take 1 to 2 more days of vacation (this game allows 5d), not 3" \
        in more.stderr
    other = table.run(table.names[-1], "2026-12-05T16:10:00Z", "pause", game, "--as",
                      table.names[-1], "--days", "1")
    if count == 3:
        assert other.exit_code == 1 and "only at their turn" in other.stderr
    table.ok("Bo", "2026-12-05T17:00:00Z", "move", game, "--bot", "greedy", "--as", "Bo")
    assert table.ok("Ana", "2026-12-05T17:00:00Z", "validate", game).exit_code == 0


def test_a_game_without_vacation_or_clock_refuses_a_pause(uptown, tmp_path):
    table = Table(uptown, tmp_path, 2)
    table.new(T0, "--clock", "judges", "--seed", "v")
    refused = table.run("Ana", "2026-12-01T16:00:00Z", "pause", table.game("Ana"), "--as", "Ana", "--days", "1")
    assert refused.exit_code == 1 and refused.stderr == (
        "Error: this game allows no vacation; nothing was written\n")
    other = tmp_path / "plain.yaml"
    uptown.invoke("new", other, "-p", "Ana", "-p", "Bo")
    refused = uptown.invoke("pause", other, "--as", "Ana", "--days", "1")
    assert refused.exit_code == 1 and "this game has no clock" in refused.stderr


def test_a_pause_booked_too_far_ahead_is_refused_and_nothing_is_written(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--clock", "judges", "--vacation", "14d",
                  "--seed", "v")
    before = path.read_bytes()
    refused = uptown.invoke("pause", path, "--as", "Ana", "--days", "3",
                            "--from", "9999-12-31T00:00:00Z")
    assert refused.exit_code == 2 and "too far ahead" in refused.stderr
    assert "Traceback" not in refused.output and path.read_bytes() == before


def test_pause_send_checks_the_mail_settings_before_writing_the_pause(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--clock", "judges", "--vacation", "14d",
                  "--seed", "v", env={"UPTOWN_NOW": T0})
    before = path.read_bytes()
    unset = uptown.invoke("pause", path, "--as", "Ana", "--days", "3", "--send",
                          env={"UPTOWN_NOW": T0, "UPTOWN_SMTP": None})
    assert unset.exit_code == 2 and "UPTOWN_SMTP" in unset.stderr
    bad = uptown.invoke("pause", path, "--as", "Ana", "--days", "3", "--send",
                        env={"UPTOWN_NOW": T0, "UPTOWN_SMTP": "ftp://nowhere"})
    assert bad.exit_code == 1 and bad.stderr.rstrip().endswith("; nothing was written")
    assert "Traceback" not in unset.output + bad.output and path.read_bytes() == before

def test_a_pause_added_by_hand_that_the_game_does_not_allow_is_refused_by_validate(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--clock", "judges", "--seed", "v",
                  env={"UPTOWN_NOW": T0})
    path.write_text(path.read_text() + '  - red: pause 3d\n    at: "2026-12-01T16:00:00Z"\n')
    result = uptown.invoke("validate", path, env={"UPTOWN_NOW": "2026-12-02T00:00:00Z"})
    assert result.exit_code == 1
    assert f"{path}:15: the pause after move 0: this game allows no vacation" in result.stdout


@pytest.mark.parametrize("count", [2, 4])
def test_a_bot_moves_for_a_player_out_of_time_and_validate_replays_its_choice(uptown, tmp_path, count):
    table = Table(uptown, tmp_path, count)
    table.new(T0, "--clock", "move 24h grace 12h", "--late", "bot", "--seed", "b")
    game = table.game("Ana")
    table.ok("Ana", "2026-12-01T16:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    helper = table.names[-1] if count > 2 else "Ana"
    early = table.run(helper, "2026-12-02T16:00:00Z", "move", game, "--for", "Bo", "--bot",
                      "greedy", "--as", helper)
    assert early.exit_code == 1 and "Bo is out of time only from 2026-12-03 04:00 UTC" in early.stderr
    wrong = table.run(helper, "2026-12-03T05:00:00Z", "move", game, "--for", "Bo", "--bot",
                      "random", "--as", helper)
    assert wrong.exit_code == 1 and "lets greedy play for a late player, not random" in wrong.stderr
    played = table.ok(helper, "2026-12-03T05:00:00Z", "move", game, "--for", "Bo", "--bot",
                      "greedy", "--as", helper)
    assert ", played by greedy for Bo, out of time (" + helper + " asked)" in played.stdout
    text = game.read_text()
    assert text.endswith(f'    at: "2026-12-03T05:00:00Z"\n    by: {helper}\n    bot: greedy\n')
    assert table.ok("Ana", "2026-12-03T06:00:00Z", "validate", game).exit_code == 0
    entry = [line for line in text.splitlines() if line.startswith("  - ")][-1]
    color, chosen = entry[4:].split(": ")
    from uptown_cli.records.reading import load_record
    from uptown_cli.fairplay.replay import replay

    before = replay(load_record(game), upto=1).game
    own, move = next((c, str(m)) for c, m in before.legal_moves() if (c, str(m)) != (color, chosen))
    game.write_text(text.replace(entry, f"  - {own}: {move}", 1))
    checked = table.run("Ana", "2026-12-03T06:00:00Z", "validate", game)
    assert checked.exit_code == 1
    assert f"move 2: greedy plays {color} {chosen} for Bo here, not {own} {move}" in checked.stdout
    game.write_text(text.replace("    bot: greedy\n", "    bot: zed\n")
                    .replace("late: bot greedy\n", "late: bot zed\n"))  # a bot this uptown does not have: the stand-in's line, no traceback
    unknown = uptown.invoke("validate", game, env={"UPTOWN_NOW": "2026-12-03T06:00:00Z"})
    line = text.splitlines().index("    bot: greedy") - 3 + 1
    assert unknown.exit_code == 1 and unknown.stdout.startswith(
        f"{game}:{line}: move 2: unknown bot 'zed' (the bots are "), unknown.output


@pytest.mark.parametrize("policy", ["pass", "forfeit"])
def test_reminders_and_status_of_a_hidden_game_offer_what_its_policy_allows_and_a_bot_policy_names_its_bot(
        uptown, tmp_path, monkeypatch, policy):
    """Out of time in a hidden game, the others are told the pass or forfeit its late policy
    allows (nobody else knows the rack: no bot), by ``status`` as in an open game and by the
    notice as a command that works as it is given."""
    import shlex

    table = Table(uptown, tmp_path, 2)
    path = table.new(T0, "--clock", "move 24h", "--late", policy, hidden=True)
    now = "2026-12-03T00:00:00Z"
    _, data = uptown.json("remind", path.parent, "--dry-run", "--json", env=table.env("Bo", now))
    assert [d["kind"] for d in data] == ["reminder", "notice"]
    offered = f"uptown move game.yaml {policy} --for Ana --send --as Bo"
    assert offered in data[1]["body"]
    assert "may now act for you" in data[0]["body"]
    _, [status] = uptown.json("status", path.parent, "--json", env=table.env("Bo", now))
    assert status["out_of_time"] == ["Ana"] and status["late_policy"] == policy
    assert status["stand_in"] == policy
    monkeypatch.chdir(path.parent)
    said = {"pass": "others may pass", "forfeit": "others may forfeit"}[policy]
    from datetime import datetime, timezone

    from uptown_cli.club.status import game_status

    at = datetime(2026, 12, 3, tzinfo=timezone.utc)  # the line of status, before it is cut to 80 columns
    assert game_status(str(path), now=at).text() == f"Ana to move, out of time for 8h 24m: {said}"
    words = [word for word in shlex.split(offered)[1:] if word != "--send"]
    done = table.ok("Bo", now, *words)
    assert "written by Bo for Ana (out of time)" in done.stdout
    checked = table.run("Bo", now, "validate", path)  # Ana's forfeit ends a game of two
    assert checked.exit_code == {"pass": 0, "forfeit": 3}[policy], checked.output
    open_game = tmp_path / "open"
    open_game.mkdir()
    players = [x for n in NAMES[:2] for x in ("-p", f"{n} <{n.lower()}@example.org>")]
    uptown.invoke("new", open_game / "g.yaml", *players, "--clock", "move 24h", "--late", "bot",
                  env={"UPTOWN_NOW": T0})
    _, data = uptown.json("remind", open_game, "--dry-run", "--json",
                          env={"UPTOWN_NOW": "2026-12-03T00:00:00Z"})
    assert "uptown move g.yaml --bot greedy --for Ana --send --as Bo" in data[1]["body"]


@pytest.mark.parametrize("hidden", [False, True])
def test_once_a_pass_policy_allows_the_forfeit_status_and_reminders_offer_it(uptown, tmp_path, hidden):
    """Under ``pass, forfeit after 1``, once others have passed for a player once, the next
    time they are out of time others may forfeit them too: status and the notice say so (a
    player who stalls is not passed for again and again without anyone being told)."""
    table = Table(uptown, tmp_path, 2)
    path = table.new(T0, "--clock", "move 24h", "--late", "pass, forfeit after 1", hidden=hidden)
    first = "2026-12-03T00:00:00Z"
    _, [status] = uptown.json("status", path.parent, "--json", env=table.env("Bo", first))
    assert (status["stand_in"], status["stand_ins"]) == ("pass", ["pass"])
    table.ok("Bo", first, "move", path, "pass", "--for", "Ana", "--as", "Bo")
    table.ok("Bo", first, "move", path, "--bot", "random", "--as", "Bo")
    again = "2026-12-05T00:00:00Z"
    _, [status] = uptown.json("status", path.parent, "--json", env=table.env("Bo", again))
    assert status["out_of_time"] == ["Ana"]
    assert (status["stand_in"], status["stand_ins"]) == ("pass", ["pass", "forfeit"])
    from datetime import datetime, timezone

    from uptown_cli.club.status import game_status

    at = datetime(2026, 12, 5, tzinfo=timezone.utc)  # the line before it is cut to 80 columns
    assert game_status(str(path), now=at).text().endswith(": others may pass or forfeit")
    _, data = uptown.json("remind", path.parent, "--dry-run", "--json", env=table.env("Bo", again))
    notice = next(d for d in data if d["kind"] == "notice")["body"]
    assert "uptown move game.yaml pass --for Ana --send --as Bo" in notice
    assert "uptown move game.yaml forfeit --for Ana --send --as Bo" in notice
    table.ok("Bo", again, "move", path, "forfeit", "--for", "Ana", "--as", "Bo")


def test_a_pause_booked_ahead_is_sent_on_and_received(uptown, tmp_path, smtp_server):
    import email

    table = Table(uptown, tmp_path, 2)
    table.new(T0, "--clock", "move 48h", "--vacation", "30d per year", "--seed", "s")
    game = table.game("Ana")
    now = "2026-12-01T16:00:00Z"
    table.ok("Ana", now, "move", game, "--bot", "greedy", "--as", "Ana")
    env = dict(smtp_server.env, **table.env("Ana", now))
    result = uptown.invoke("pause", game, "--as", "Ana", "--days", "7", "--from",
                           "2026-12-20T00:00:00Z", "--send", env=env)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Ana is on vacation from 2026-12-20 00:00 UTC until "
                                    "2026-12-27 00:00 UTC; 23 days of vacation left\n")
    [(recipients, data)] = smtp_server.capture.take()
    assert recipients == ["bo@example.org"]
    letter = tmp_path / "pause.eml"
    letter.write_bytes(data)
    received = table.run("Bo", "2026-12-01T16:10:00Z", "receive", letter, "--into", table.game("Bo"))
    assert received.exit_code == 0, received.output
    assert table.game("Bo").read_text().endswith(
        '  - red: pause 7d\n    at: "2026-12-01T16:00:00Z"\n    from: "2026-12-20T00:00:00Z"\n')
    assert email.message_from_bytes(data)["Subject"].startswith("[uptown]")


def test_a_reminder_quotes_its_commands_as_a_game_mail_does(uptown, tmp_path, smtp_server):
    """A game file named with a quote, blanks and ``$(...)``, a player named with a blank: each
    command of the reminder and the notice is one the shell gives back word for word, and the
    game is attached under its name exactly as it is."""
    import email
    import shlex

    path = tmp_path / "it's $(x) g.yaml"
    made = uptown.invoke("new", path, "-p", "Ana Lu <ana@example.org>", "-p", "Bo <bo@example.org>",
                         "--clock", "move 24h", "--late", "pass", env={"UPTOWN_NOW": T0})
    assert made.exit_code == 0, made.output
    members(tmp_path, "Ana", "Bo")
    env = dict(smtp_server.env, UPTOWN_FROM="Club <club@example.org>",
               UPTOWN_NOW="2026-12-03T00:00:00Z")
    run = uptown.invoke("remind", tmp_path, env=env)
    assert run.exit_code == 0, run.output
    sent = {recipients[0]: email.message_from_bytes(data)
            for recipients, data in smtp_server.capture.take()}
    assert sorted(sent) == ["ana@example.org", "bo@example.org"]

    def command(message):
        body = message.get_payload()[0].get_payload(decode=True).decode()
        return shlex.split(body.rstrip("\n").splitlines()[-1])

    assert command(sent["ana@example.org"]) == [
        "uptown", "move", "it's $(x) g.yaml", "MOVE", "--as", "Ana Lu", "--send"]
    assert command(sent["bo@example.org"]) == [
        "uptown", "move", "it's $(x) g.yaml", "pass", "--for", "Ana Lu", "--send", "--as", "Bo"]
    for message in sent.values():
        attached = message.get_payload()[1]
        assert attached.get_filename() == path.name
        assert attached.get_payload(decode=True) == path.read_bytes()
        assert message["From"] == "Club <club@example.org>"


def test_pause_refuses_standard_input_as_move_does_before_reading_it(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--clock", "judges", "--vacation", "14d",
                  "--seed", "v", env={"UPTOWN_NOW": T0})
    refused = uptown.invoke("pause", "-", "--as", "Ana", "--days", "1", input=path.read_text(),
                            env={"UPTOWN_NOW": T0})
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "pause writes to FILE; standard input cannot be used" in refused.stderr
    moved = uptown.invoke("move", "-", "pass", input=path.read_text(), env={"UPTOWN_NOW": T0})
    assert moved.exit_code == 2 and "move writes to FILE; standard input" in moved.stderr


def test_score_shows_a_player_who_did_not_reveal_in_time_as_forfeited(uptown, tmp_path):
    """Ana and Cy reveal, Bo never does: before Bo's reveal deadline score ranks by the board
    with no forfeit; after it, Bo ranks last as ratings ranks him, marked ``not revealed``
    (``"forfeit_reason": "reveal"`` in --json)."""
    path = _stalled_reveals(uptown, tmp_path, revealing=("Ana", "Cy"))
    _, before = uptown.json("score", path, "--json", env={"UPTOWN_NOW": "2026-12-04T11:59:00Z"})
    assert all(row["forfeit"] is None and "forfeit_reason" not in row for row in before["players"])
    after_env = {"UPTOWN_NOW": "2026-12-04T12:00:00Z"}
    _, after = uptown.json("score", path, "--json", env=after_env)
    rows = {row["name"]: row for row in after["players"]}
    assert rows["Bo"]["rank"] == 3 and rows["Bo"]["forfeit_reason"] == "reveal"
    assert rows["Bo"]["forfeit"] is not None and rows["Ana"]["forfeit_reason"] is None
    assert sorted(rows[n]["rank"] for n in ("Ana", "Cy")) in ([1, 2], [1, 1])
    table = uptown.invoke("score", path, env=after_env)
    assert table.exit_code == 0, table.output
    assert "forfeit" in table.stdout and [line for line in table.stdout.splitlines()
                                          if "Bo" in line and "not revealed" in line]
    early = uptown.invoke("score", path, env={"UPTOWN_NOW": "2026-12-04T11:59:00Z"})
    assert "not revealed" not in early.stdout and "forfeit" not in early.stdout
    _, rated = uptown.json("ratings", tmp_path, "--json", env=after_env)
    assert rated["games"] == 1 and rated["ratings"][-1]["player"] == "Bo"


@pytest.mark.parametrize("written_for", [False, True])
def test_validate_reports_a_finished_game_with_a_forfeit_as_settled(uptown, tmp_path, written_for):
    """Two players, open racks: Bo resigns, or Ana makes Bo forfeit once he is out of time;
    the game is over, and validate says settled (exit 0, counted as settled among the valid,
    ``"status": "settled"``); status and ratings still count it, Bo last."""
    table = Table(uptown, tmp_path, 2)
    table.new(T0, "--clock", "move 24h grace 24h", "--late", "forfeit", "--seed", "s")
    game = table.game("Ana")
    table.ok("Ana", "2026-12-01T16:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    at = "2026-12-03T16:01:00Z"
    if written_for:
        table.ok("Ana", at, "move", game, "forfeit", "--for", "Bo", "--as", "Ana")
    else:
        table.ok("Bo", at, "move", game, "forfeit", "--as", "Bo")
    reason = "out of time" if written_for else "resigned"
    checked = table.run("Ana", at, "validate", game)
    assert checked.exit_code == 0, checked.output
    assert checked.stdout == (f"{game}: settled: Bo forfeited at move 2 ({reason})\n"
                              "1 record, 1 valid (1 settled), 0 invalid\n")
    _, [data] = uptown.json("validate", game, "--json", env=table.env("Ana", at))
    assert data["status"] == "settled" and data["valid"] and data["errors"] == []
    assert data["forfeited"] == [{"name": "Bo", "reason": reason, "at": at, "move": 2}]
    _, [status] = uptown.json("status", tmp_path / "Ana", "--json", env=table.env("Ana", at))
    assert status["state"] == "finished" and status["winners"] == ["Ana"]
    _, rated = uptown.json("ratings", tmp_path / "Ana", "--json", env=table.env("Ana", at))
    assert rated["games"] == 1 and rated["ratings"][-1]["player"] == "Bo"
    _, score = uptown.json("score", game, "--json", env=table.env("Ana", at))
    assert {row["name"]: row["forfeit_reason"] for row in score["players"]} == {
        "Ana": None, "Bo": reason}


def test_a_game_going_on_after_a_forfeit_stays_valid(uptown, tmp_path):
    """Four players, Bo resigns and the others play on: nothing is settled until the game
    is over, so validate says valid, with no ``"status"`` in --json."""
    table = Table(uptown, tmp_path, 4)
    table.new(T0, "--seed", "r")
    game = table.game("Ana")
    table.ok("Ana", "2026-12-01T16:00:00Z", "move", game, "--bot", "greedy", "--as", "Ana")
    table.ok("Bo", "2026-12-01T17:00:00Z", "move", game, "forfeit", "--as", "Bo")
    checked = table.run("Ana", "2026-12-01T18:00:00Z", "validate", game)
    assert checked.exit_code == 0 and checked.stdout == "1 record, 1 valid, 0 invalid\n"
    _, [data] = uptown.json("validate", game, "--json", env=table.env("Ana", "2026-12-01T18:00:00Z"))
    assert "status" not in data and data["forfeited"][0]["reason"] == "resigned"
