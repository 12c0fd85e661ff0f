"""Players who do not trust each other, each at their own computer: a working folder (their
copy of the game is ``club.yaml`` there) and a key folder of their own. The file goes from one
to another only as a message written by ``send -o`` and read by ``receive``; the clock is
``UPTOWN_NOW``, the same for all. A cheater's tools are here too: a message made of any file
(``send`` refuses one that does not validate) and a pen that signs an entry with the
cheater's own key (``signed_again``). No tests here."""

import email
import email.policy
import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

from support.cli import Uptown
from support.players import refused  # noqa: F401  (the tests of these tables take it here)

from uptown_cli.fairplay.keys import load_signing_key
from uptown_cli.fairplay import signatures
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
        """``uptown ARGS`` run by ``name`` in their folder, with their keys, as a process of
        their own (nothing verified by another player's commands is known to it): click's
        result."""
        signatures._VERIFIED.clear()
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

    def forged_message(self, sender, file="club.yaml"):
        """A message carrying ``sender``'s copy of ``file`` as it is, made by hand (``send``
        would refuse a copy that does not validate): its path."""
        from support.club import message_of

        self.sent += 1
        path = self.folders[sender] / f"forged-{self.sent}.eml"
        path.write_bytes(message_of(self.folders[sender], file, sender=sender).as_bytes())
        return path

    def receive(self, name, message):
        """``name`` reads ``message`` with ``receive`` (into ``club.yaml``): click's result."""
        into = [] if self.game(name).exists() else ["--into", "club.yaml"]
        return self.attempt(name, "receive", message, *into)

    def from_judge(self, address, data):
        """The judge's message ``data`` to the player at ``address`` (none: nobody here): a
        game to their ``receive``, which must take it; a refusal (its subject says so) kept in
        ``refusals``."""
        name = self.address.get(address)
        if name is None:
            return
        self.sent += 1
        path = self.folders[name] / f"from-judge-{self.sent}.eml"
        path.write_bytes(data)
        if b"refused" in data.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]:
            self.refusals[name].append(email.message_from_bytes(
                data, policy=email.policy.default).get_content())
            return
        result = self.receive(name, path)
        assert result.exit_code == 0, (name, result.output)

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


JUDGE_SEED = bytes(range(32))
"""The test judge's private signing key."""


class JudgedTable(Table):
    """A table whose game is under a club judge: the players mail every copy to the judge
    (``send -o``), whose rulings (``club.judge``) this table applies as the judge's machinery
    would: it keeps the judge's copy of each game and delivers the judge's mail to each
    player's ``receive``. ``said`` holds what the judge decided, ``refusals`` each refusal
    mailed back, by player."""

    def __init__(self, tmp_path, names=CLUB, **judge):
        from uptown_cli.club.judge import Judge

        super().__init__(tmp_path, names)
        self.judge = Judge("judge@club.example", JUDGE_SEED, **judge)
        self.games = {}
        self.said = []
        self.refusals = {name: [] for name in names}
        self.address = {f"{name.lower()}@example.org": name for name in names}

    def new(self, *options):
        """Ana makes a game under the judge (``options`` for ``new``) and the club gives it to
        the judge, which mails it to every player."""
        from uptown_cli.club.judge import add_game

        players = [arg for name in self.names
                   for arg in ("-p", f"{name} <{name.lower()}@example.org>")]
        self.uptown(self.names[0], "new", "game.yaml", *players, "--judge", self.judge.card,
                    *options)
        text = (self.folders[self.names[0]] / "game.yaml").read_text()
        (self.folders[self.names[0]] / "game.yaml").unlink()
        self.apply(add_game(self.judge, text, "club.yaml"))

    def start(self, *options):
        """``new``, then every player joins in turn, each mailing their join to the judge."""
        self.new(*options)
        for name in self.names:
            self.uptown(name, "join", "club.yaml", "--as", name)
            self.post(name)

    def post(self, name, message=None):
        """``name`` mails their copy to the judge (``send -o``, or ``message``, a path), which
        rules on it at the table's time: what the judge said."""
        from uptown_cli.club.judge import rule_on_message

        if message is None:
            self.sent += 1
            message = self.folders[name] / f"to-judge-{self.sent}.eml"
            self.uptown(name, "send", "club.yaml", "--as", name, "-o", message)
        return self.apply(rule_on_message(self.judge, message.read_bytes(), self.now,
                                          self.games.get))

    def tick(self):
        """The judge's time rulings at the table's time (as its cron run makes them)."""
        from uptown_cli.club.judge import rule_on_time
        from uptown_cli.records.schema import load_record_text

        said = []
        for path, text in list(self.games.values()):
            ruling = rule_on_time(self.judge, load_record_text(text, path), self.now)
            if ruling is not None:
                said.append(self.apply(ruling))
        return said

    def apply(self, ruling):
        """The judge's ruling applied: its copy kept, its mail delivered to each player."""
        from uptown_cli.club.mail import wire_bytes

        self.said.append(ruling.outcome)
        if ruling.text is not None:
            self.games[ruling.game_id] = (ruling.path, ruling.text)
        for outgoing in ruling.mail:
            for _entry, address in outgoing.recipients:
                self.from_judge(address, wire_bytes(outgoing.message))
        return ruling.outcome

    def judges_copy(self):
        """The judge's copy of the game (the only one), as a record."""
        from uptown_cli.records.schema import load_record_text

        [(path, text)] = self.games.values()
        return load_record_text(text, path)


def last_entry(table, name):
    """The line of the newest entry among the moves of ``name``'s copy."""
    record = load_record(table.game(name))
    return max([m.line for m in record.moves] + [p.line for p in record.pauses])


class ClubJudge(Table):
    """Players and a club judge as a club runs one: ``uptown judge init``, ``judge add``, and
    one ``judge run --stdin`` for each message, as the mail server delivers it, at the table's
    time. The judge's mail goes to a real SMTP server (``server``, of ``support.club``) and
    from there to each player's ``receive``; a game is a file of its own name in each folder.
    ``refusals`` holds each refusal the judge mailed back, by player; ``runs`` what each run
    printed."""

    def __init__(self, tmp_path, server, names=CLUB):
        super().__init__(tmp_path, names)
        self.server = server
        self.folder = tmp_path / "judge"
        self.refusals = {name: [] for name in names}
        self.address = {f"{name.lower()}@example.org": name for name in names}
        self.runs = []
        self.card = self.judge("init", self.folder, "--address", "judge@club.example").stdout.strip()

    def judge(self, *args, input=None, code=0):
        """``uptown judge ARGS`` as the club's secretary (or its mail server) runs it, with the
        judge's SMTP settings, at the table's time: click's result, whose exit status must be
        ``code``. Then the mail the server took is delivered."""
        env = {**self.server.env, "UPTOWN_NOW": stamp(self.now), "UPTOWN_LANG": "en",
               "UPTOWN_GAME": None, "UPTOWN_KEYS": None}
        result = uptown.invoke("judge", *args, input=input, env=env)
        assert result.exit_code == code, (args, result.output)
        self.runs.append(result.output)
        self.deliver()
        return result

    def new(self, file, names, *options):
        """``names[0]`` makes the game ``file`` under the judge with the players ``names``, and
        the club gives it to the judge, which mails it to them."""
        players = [arg for name in names for arg in ("-p", f"{name} <{name.lower()}@example.org>")]
        self.uptown(names[0], "new", file, *players, "--judge", self.card, *options)
        self.judge("add", self.folder, self.folders[names[0]] / file)

    def post(self, name, file, code=0):
        """``name`` mails their copy of ``file`` to the judge (``send``), whose mail server
        hands it to ``judge run --stdin``: what the run printed."""
        self.sent += 1
        message = self.folders[name] / f"to-judge-{self.sent}.eml"
        self.uptown(name, "send", file, "--as", name, "-o", message)
        return self.mail(message, code)

    def mail(self, message, code=0):
        """The message at ``message`` delivered to the judge: what its run printed."""
        return self.judge("run", self.folder, "--stdin", input=message.read_bytes(),
                          code=code).output

    def receive(self, name, message):
        """``name`` reads ``message`` with ``receive``, into the file it names."""
        return self.attempt(name, "receive", message)

    def tick(self):
        """The judge's cron run, with no message: what it printed."""
        return self.judge("run", self.folder).output

    def deliver(self):
        """Every message the SMTP server took, to each player it was for: a game to their
        ``receive`` (which must take it), a refusal to ``refusals``."""
        for recipients, data in self.server.capture.take():
            for address in recipients:
                self.from_judge(address, data)


def zeroed(path, field, below=None, last=False):
    """Rewrite, by hand, the first line ``FIELD: ...`` of the file at ``path`` (after the first
    line that starts with ``below``; the last such line with ``last``), at its own indent, as 128
    zeros: a signature or stamp someone changed."""
    lines = path.read_text().splitlines(keepends=True)
    start = 0 if below is None else next(i for i, line in enumerate(lines)
                                         if line.startswith(below))
    found = [i for i in range(start, len(lines)) if lines[i].strip().startswith(f"{field}: ")]
    at = found[-1] if last else found[0]
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines[at] = f"{indent}{field}: " + "0" * 128 + "\n"
    path.write_text("".join(lines))
