"""Players who do not trust each other, each at their own computer: a working folder (their
copy of the game is ``club.yaml`` there) and a key folder of their own. The file goes from one
to another only as a message written by ``send -o`` and read by ``receive``; the clock is
``UPTOWN_NOW``, the same for all. A cheater's tools are here too: a message made of any file
(``send`` refuses one that does not validate) and a pen that signs an entry with the
cheater's own key (``signed_again``). No tests here."""

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

from support.cli import Uptown

from uptown_cli.fairplay.keys import load_signing_key
from uptown_cli.fairplay.signatures import sign, signed_entries
from uptown_cli.records.reading import load_record

CLUB = ("Ana", "Bo", "Cy")
START = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
"""When the players' clocks say the game begins."""

uptown = Uptown()


def stamp(moment):
    """A time as records and ``UPTOWN_NOW`` write it."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Table:
    """Players ``names`` with a folder each under ``tmp_path``, and the time on every clock."""

    def __init__(self, tmp_path, names=CLUB):
        self.names = names
        self.folders = {}
        for name in names:
            folder = tmp_path / name.lower()
            (folder / "keys").mkdir(parents=True)
            (folder / "keys").chmod(0o700)
            self.folders[name] = folder
        self.now = START
        self.sent = 0

    def game(self, name):
        return self.folders[name] / "club.yaml"

    def keys(self, name):
        return self.folders[name] / "keys"

    def wait(self, hours):
        """Every clock moves on ``hours``."""
        self.now += timedelta(hours=hours)

    def attempt(self, name, *args):
        """``uptown ARGS`` run by ``name`` in their folder, with their keys: click's result."""
        env = {"UPTOWN_KEYS": str(self.keys(name)), "UPTOWN_GAME": None,
               "UPTOWN_NOW": stamp(self.now), "UPTOWN_LANG": "en"}
        here = Path.cwd()
        try:
            os.chdir(self.folders[name])
            return uptown.invoke(*args, env=env)
        finally:
            os.chdir(here)

    def uptown(self, name, *args):
        """``attempt``, which must succeed."""
        result = self.attempt(name, *args)
        assert result.exit_code == 0, (name, args, result.output)
        return result

    def show(self, name):
        """What ``show --json --as NAME`` says of ``name``'s copy."""
        return json.loads(self.uptown(name, "show", "club.yaml", "--json", "--as", name).stdout)

    def message(self, sender, receiver):
        """The message ``send -o`` writes of ``sender``'s copy for ``receiver``: its path."""
        self.sent += 1
        path = self.folders[sender] / f"to-{receiver.lower()}-{self.sent}.eml"
        self.uptown(sender, "send", "club.yaml", "--as", sender, "--to", receiver, "-o", path)
        return path

    def forged_message(self, sender):
        """A message carrying ``sender``'s copy as it is, made by hand (``send`` would refuse a
        copy that does not validate): its path."""
        from support.club import message_of

        self.sent += 1
        path = self.folders[sender] / f"forged-{self.sent}.eml"
        path.write_bytes(message_of(self.folders[sender]).as_bytes())
        return path

    def receive(self, name, message):
        """``name`` reads ``message`` with ``receive`` (into ``club.yaml``): click's result."""
        into = [] if self.game(name).exists() else ["--into", "club.yaml"]
        return self.attempt(name, "receive", message, *into)

    def carry(self, sender, *receivers):
        """``sender`` sends their copy to each of ``receivers``, who each receive it (and must
        take it)."""
        for receiver in receivers:
            result = self.receive(receiver, self.message(sender, receiver))
            assert result.exit_code == 0, (receiver, result.output)

    def start(self, *options):
        """A new game with hidden racks made by Ana (``options`` for ``new``), joined in turn
        order, each join carried to the next player; the last joiner sends it to all. Every
        player then holds the whole game."""
        players = [arg for name in self.names
                   for arg in ("-p", f"{name} <{name.lower()}@example.org>")]
        self.uptown(self.names[0], "new", "club.yaml", "--hidden", *players, *options)
        for name, after in zip(self.names, self.names[1:]):
            self.uptown(name, "join", "club.yaml", "--as", name)
            self.carry(name, after)
        last = self.names[-1]
        self.uptown(last, "join", "club.yaml", "--as", last)
        self.carry(last, *self.names[:-1])

    def play(self, name, *move):
        """``name`` plays ``move`` (a bot's choice when none) on their copy."""
        self.uptown(name, "move", "club.yaml", *(move or ("--bot", "random")), "--as", name)

    def seed(self, name):
        """``name``'s private signing key for the game in their folder."""
        return self.signing_key(self.game(name), self.keys(name), name)

    @staticmethod
    def signing_key(path, keys, name):
        """``name``'s private signing key, from the key folder ``keys``, for the game at
        ``path``."""
        return load_signing_key(str(keys), load_record(path).game_id, name)


def signed_again(path, line, seed):
    """The entry at ``line`` of the game at ``path`` signed with the private key ``seed``, as a
    cheater's own tool signs what they wrote by hand: its ``sig:`` replaced, or added under it."""
    record = load_record(path)
    entry = next(e for e in signed_entries(record) if e.line == line)
    signature = sign(seed, entry.digest).hex()
    lines = path.read_text().splitlines(keepends=True)
    end = line
    while end < len(lines) and lines[end].startswith("    "):
        if lines[end].startswith("    sig: "):
            lines[end] = f"    sig: {signature}\n"
            break
        end += 1
    else:
        lines.insert(end, f"    sig: {signature}\n")
    path.write_text("".join(lines))


def entry_lines(path, line):
    """The lines of the entry at ``line`` of the file at ``path`` (the entry and the keys under
    it), as (first index, last index + 1) of its lines."""
    lines = path.read_text().splitlines()
    end = line
    while end < len(lines) and lines[end].startswith("    "):
        end += 1
    return line - 1, end


def without_entry(path, line):
    """The file at ``path`` without the entry at ``line`` (and the keys under it)."""
    first, end = entry_lines(path, line)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:first] + lines[end:]))


def forget(table, name):
    """``name`` throws away their tool's memory of every game (as a cheater does whose own
    tool would refuse their edit)."""
    for seen in table.keys(name).glob("*.seen"):
        seen.unlink()
