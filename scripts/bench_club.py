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
  was read twice and the nearest known key looked for at every unknown one).
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

from bench import compare_processes, compile_bytecode, make_corpus, seats, uptown_command
from bench_figures import table

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="fewer runs and games")
    args = parser.parse_args()
    compile_bytecode()
    results = bench_club(uptown_command(), 3 if args.quick else 7, 40 if args.quick else 400)
    machine = {"date": datetime.date.today().isoformat(), "cores": os.cpu_count(),
               "python": platform.python_version()}
    if args.json:
        print(json.dumps({"machine": machine, "results": results}, indent=1))
    else:
        print(f"{machine['date']}, {machine['cores']} cores, Python {machine['python']}")
        print(table(results))


if __name__ == "__main__":
    main()
