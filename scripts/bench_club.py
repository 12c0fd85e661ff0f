"""Benchmarks of club play by email, each figure beside its target, as ``bench.py`` measures.

Run as ``python scripts/bench_club.py`` in the project's environment (``--quick``: fewer runs
and games; ``--json``). CPU time of whole processes, the median of several runs, against a
bare ``python -c pass``:

- ``uptown send -o`` of a 3-player game of 60 moves (the message built and written);
- ``uptown receive`` of that message onto the local copy one move behind (parsed, compared,
  validated and saved under the lock: the step a player runs on every turn; target 3x, as
  for ``move``);
- ``uptown status`` and ``uptown ratings`` over a folder of finished games of 2 to 5 players;
- ``uptown validate`` of a game of 9,000 one-day vacations, a player on vacation for 25 years
  (each booked within a year of being written: all valid), which took minutes when each
  vacation was checked against all before it (issue 40);
- ``uptown receive`` refusing a 1 MB attachment of 100,000 unknown keys (7.5 s when the record
  was read twice and the nearest known key looked for at every unknown one);
- the club's page (``club.page.club_page``, what a judge makes after each message it handles)
  of a club of 50 games, 40 finished and 10 in play under a clock: its CPU time in this
  process (target 1 s), and again with the replay pages of the call before kept, as a judge
  keeps them (target 250 ms), against validating each game once (their floor: every figure
  of the page comes from that validation), and what it saves against the page made from
  ``game_status``, ``finished_games`` and ``uptown html``'s replay page each validating the
  game again; and ``uptown club page -o DIR`` as a whole process, every file written.
"""

import argparse
import datetime
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time

from bench import (bags_for, compare_processes, compile_bytecode, make_corpus, play_randomly,
                   seats, uptown_command)
from bench_figures import summary, table

from uptown_cli.records.editing import render_record


def with_emails(folder):
    """A 3-player game of 60 random moves with the players' emails, and the same game one
    move behind, written in ``folder``; their paths."""
    from bench import bags_for, play_randomly
    from uptown_cli.engine.game import Game
    from uptown_cli.records.entries import PlayerEntry

    players = seats(3)
    game = play_randomly(Game(players, bags_for(players, "club")), random.Random(3), 60)
    moves = [(turn.color, str(turn.move)) for turn in game.history]
    entries = [PlayerEntry(p.name, p.colors, 0, f"{p.name.lower()}@example.org") for p in players]
    paths = []
    for name, played in (("sent.yaml", moves), ("behind.yaml", moves[:-1])):
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as out:
            out.write(render_record(entries, seed="club", moves=played))
        paths.append(path)
    return paths


def with_vacations(folder, count):
    """A game of Ana and Bo started 2000-01-01, Ana to move and on vacation ever since:
    ``count`` one-day pauses, a year's worth written at a time; its path."""
    start = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
    lines = ["uptown: 1", "players:", "  - name: Ana", "  - name: Bo", "seed: vacations",
             "clock: move 72h grace 168h", "vacation: 366d per year",
             f'started: "{start:%Y-%m-%dT%H:%M:%SZ}"', "moves:"]
    for number in range(count):
        year, day = divmod(number, 365)
        at = start + datetime.timedelta(days=365 * year)
        begins = at + datetime.timedelta(days=day)
        lines += ["  - red: pause 1d", f'    at: "{at:%Y-%m-%dT%H:%M:%SZ}"',
                  f'    from: "{begins:%Y-%m-%dT%H:%M:%SZ}"']
    path = os.path.join(folder, "vacations.yaml")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return path


def with_unknown_keys(folder, record, count):
    """A message carrying ``record`` with ``count`` unknown keys added (1 MB for 100,000);
    its path."""
    from email.message import EmailMessage

    with open(record, "rb") as source:
        data = source.read() + b"".join(b"k%05d: 1\n" % number for number in range(count))
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "p1@example.org", "p2@example.org", "x"
    message.set_content("Your move.")
    message.add_attachment(data, maintype="application", subtype="yaml", filename="keys.yaml")
    path = os.path.join(folder, "keys.eml")
    with open(path, "wb") as out:
        out.write(message.as_bytes())
    return path


def bench_club(uptown, runs, games):
    with tempfile.TemporaryDirectory(prefix="uptown-bench-club-") as folder:
        sent, behind = with_emails(folder)
        message = os.path.join(folder, "move.eml")
        local = os.path.join(folder, "local.yaml")

        def fresh_message():
            if os.path.exists(message):
                os.remove(message)

        def fresh_local():
            shutil.copyfile(behind, local)

        corpus = os.path.join(folder, "corpus")
        os.mkdir(corpus)
        make_corpus(corpus, games)
        commands = [  # run in this order: send writes the message that receive reads
            ("uptown send -o (60 moves)",
             [uptown, "send", sent, "--as", "P1", "--to", "P2", "-o", message], None, fresh_message),
            ("uptown receive (60 moves, 1 new)",
             [uptown, "receive", message, "--into", local], 3.0, fresh_local),
            (f"uptown status ({games} games)", [uptown, "status", corpus], None, None),
            (f"uptown ratings ({games} games)", [uptown, "ratings", corpus], None, None),
            ("uptown validate (9,000 vacations)",
             [uptown, "validate", with_vacations(folder, 9000)], None, None),
            ("uptown receive (100,000 unknown keys)",  # refused: exit status 1 expected
             ["sh", "-c", '"$0" receive "$1" --into "$2"; [ $? -eq 1 ]', uptown,
              with_unknown_keys(folder, behind, 100_000), os.path.join(folder, "keys.yaml")],
             None, None),
        ]
        return compare_processes("python -c pass", [sys.executable, "-c", "pass"], commands, runs)


CLOCK = {"clock": "move 72h grace 168h", "late": "pass", "started": "2026-12-01T12:00:00Z"}
"""The clock of the games in play of the club's page."""


def club_folder(folder, finished, playing):
    """A club's games in ``folder``: ``finished`` random games of 2 to 5 players, and
    ``playing`` games under ``CLOCK`` after 10 to 50 random moves, an hour apart."""
    from uptown_cli.engine.game import Game

    make_corpus(folder, finished)
    rng = random.Random(40)
    for i in range(playing):
        players = seats(2 + i % 4)
        game = play_randomly(Game(players, bags_for(players, f"club-{i}")), rng, 10 + 4 * i)
        text = render_record(players, seed=f"club-{i}", timing=CLOCK)  # ends with "moves:"
        start = datetime.datetime(2026, 12, 1, 12, tzinfo=datetime.timezone.utc)
        for ply, turn in enumerate(game.history, 1):
            at = start + datetime.timedelta(hours=ply)
            text += (f"  - {turn.color}: {turn.move}\n"
                     f'    at: "{at.strftime("%Y-%m-%dT%H:%M:%SZ")}"\n')
        with open(os.path.join(folder, f"playing-{i:02d}.yaml"), "w", encoding="utf-8") as out:
            out.write(text)


def cpu_ms(work, runs):
    """CPU milliseconds of ``work()`` in this process, in each of ``runs`` runs."""
    times = []
    for _ in range(runs):
        before = time.process_time()
        work()
        times.append(1000 * (time.process_time() - before))
    return times


def bench_page(uptown, runs, finished=40, playing=10):
    """The club's page of ``finished`` + ``playing`` games, in this process and as a command."""
    from uptown_cli.club.page import club_page
    from uptown_cli.club.ratings import finished_games
    from uptown_cli.club.status import State, game_status
    from uptown_cli.pictures.html import replay_html
    from uptown_cli.pictures.svg import game_title
    from uptown_cli.turns.validation import validate_file

    now = datetime.datetime(2026, 12, 5, 12, tzinfo=datetime.timezone.utc)
    games = finished + playing
    with tempfile.TemporaryDirectory(prefix="uptown-bench-page-") as folder:
        corpus = os.path.join(folder, "games")
        os.mkdir(corpus)
        club_folder(corpus, finished, playing)
        paths = sorted(os.path.join(corpus, name) for name in os.listdir(corpus))
        problems = [p for p in paths if not validate_file(p, now=now).valid]
        assert not problems, problems
        assert len(club_page(paths, now)) == finished + 1

        def validated_once():
            for path in paths:
                validate_file(path, now=now)

        def each_on_its_own():
            statuses = [game_status(path, None, now) for path in paths]
            finished_games(paths, now=now)
            for path, status in zip(paths, statuses):
                if status.state == State.FINISHED:
                    checked = validate_file(path, now=now)
                    replay_html(checked.game, checked.record, game_title(checked.record))

        replays = {}
        club_page(paths, now, replays=replays)
        page, kept, floor, apart = [], [], [], []
        for _ in range(runs):  # each run of the page beside its floor and the other way
            page += cpu_ms(lambda: club_page(paths, now), 1)
            kept += cpu_ms(lambda: club_page(paths, now, replays=replays), 1)
            floor += cpu_ms(validated_once, 1)
            apart += cpu_ms(each_on_its_own, 1)
        name = f"club_page ({games} games: {finished} finished, {playing} in play)"
        again = f"club_page again, replay pages kept ({games} games)"
        results = {
            name: summary(page, "ms", 1000.0),
            again: summary(kept, "ms", 250.0),
            f"validate each game once ({games} games)": summary(floor, "ms"),
            f"{name} / validating once": summary([p / f for p, f in zip(page, floor)], "x"),
            f"{again} / validating once": summary([k / f for k, f in zip(kept, floor)], "x"),
            f"status, ratings and html apart / {name}": summary(
                [a / p for a, p in zip(apart, page)], "x faster"),
        }
        site = os.path.join(folder, "site")
        command = (f"uptown club page -o DIR ({games} games, every file written)",
                   [uptown, "club", "page", corpus, "-o", site], None,
                   lambda: shutil.rmtree(site, ignore_errors=True))
        results.update(compare_processes("python -c pass", [sys.executable, "-c", "pass"],
                                         [command], runs))
        return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="fewer runs and games")
    args = parser.parse_args()
    compile_bytecode()
    runs = 3 if args.quick else 7
    results = bench_club(uptown_command(), runs, 40 if args.quick else 400)
    results.update(bench_page(uptown_command(), runs))
    machine = {"date": datetime.date.today().isoformat(), "cores": os.cpu_count(),
               "python": platform.python_version()}
    if args.json:
        print(json.dumps({"machine": machine, "results": results}, indent=1))
    else:
        print(f"{machine['date']}, {machine['cores']} cores, Python {machine['python']}")
        print(table(results))


if __name__ == "__main__":
    main()
