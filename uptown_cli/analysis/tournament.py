"""Tournaments: who plays whom, on which deals, from which seats, written to a folder as it
goes so that a stopped run continues exactly where it stopped.

A round-robin seats every set of ``seats`` entrants at a table (every pair with two seats;
with fewer entrants than seats, one table of them all, cycled to fill it); a gauntlet seats
the first entrant against each other one, who fills the other seats. Each table plays every
deal once from each rotation of its seats, so every entrant plays every deal from every seat.
Game ``n``'s deal and rotation follow from ``n`` alone, and its seed from the run's seed and
its deal alone, so the games are the same however many processes or machines play them.

The folder holds ``tournament.json`` (the settings), ``results.jsonl`` (one line per game, in
game order, written after the game's record), ``game-NNNN.yaml`` (every game as a record) and
``logs/`` (what engines wrote on their standard error).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from typing import Any, NamedTuple

from ..engine.sha256 import sha256
from ..errors import EngineError, SetupError, UptownError
from ..i18n import _, system_reason
from ..records.safe_file import write_file
from .bot_programs import BotProgram, program_signals
from .bots import check_bot_options
from .match import Entrant, GameOutcome, GameTask, Limits, play_game, record_text
from .pool import in_pool
from .sprt import DealScores, Sprt, sprt_llr

__all__ = ["Settings", "Tournament", "trial"]

MODES = ("round-robin", "gauntlet")
SETTINGS_FILE = "tournament.json"
RESULTS_FILE = "results.jsonl"
FORMAT = 1
"""The version of ``tournament.json`` and ``results.jsonl``."""


class Settings(NamedTuple):
    """What a tournament is: its entrants, ``mode`` (one of ``MODES``), seats per game,
    ``deals`` per table (each played from every rotation of the seats), ``seed``, variant,
    time control (``Limits``) and, for a match of two entrants, an optional SPRT that stops it
    early (``analysis.sprt``)."""

    entrants: tuple[Entrant, ...]
    mode: str = "round-robin"
    seats: int = 2
    deals: int = 10
    seed: str = "0"
    variant: str = "standard"
    limits: Limits = Limits()
    sprt: Sprt | None = None

    def check(self) -> None:
        """Raise SetupError unless these settings make a tournament."""
        names = [e.name for e in self.entrants]
        if len(names) < 2:
            raise SetupError(_("a tournament needs two or more entrants"))
        for number, name in enumerate(names):
            if any(other.casefold() == name.casefold() for other in names[:number]):
                raise SetupError(_("two entrants have the same name, {name!r}: give each a name "
                                   "of its own (NAME=BOT, NAME=COMMAND)").format(name=name))
        if self.mode not in MODES:
            raise SetupError(_("unknown mode {mode!r} ({modes})").format(
                mode=self.mode, modes=", ".join(MODES)))
        if not 2 <= self.seats <= 5:
            raise SetupError(_("a game has 2 to 5 seats, not {count}").format(count=self.seats))
        if self.sprt is not None and len(names) != 2:
            raise SetupError(_("an SPRT is for a match of two entrants"))

    def pairs(self) -> list[tuple[str, str]]:
        """The pairs of entrants that meet, by name: every pair in a round-robin, the first
        entrant and each other in a gauntlet."""
        names = [e.name for e in self.entrants]
        if self.mode == "gauntlet":
            return [(names[0], other) for other in names[1:]]
        return list(itertools.combinations(names, 2))

    def to_json(self) -> dict[str, Any]:
        """The settings as the tournament's file keeps them."""
        limits = {k: (dict(v) if k == "bot_options" else v) for k, v in self.limits._asdict().items()}
        return {"uptown-tournament": FORMAT, "mode": self.mode, "seats": self.seats,
                "deals": self.deals, "seed": self.seed, "variant": self.variant,
                "entrants": [e.to_json() for e in self.entrants], "limits": limits,
                "sprt": None if self.sprt is None else self.sprt._asdict()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """Settings read back from ``to_json``'s form."""
        limits = dict(data["limits"])
        limits["bot_options"] = tuple(sorted(limits.get("bot_options", {}).items()))
        return cls(tuple(Entrant.from_json(e) for e in data["entrants"]), data["mode"],
                   data["seats"], data["deals"], data["seed"], data["variant"], Limits(**limits),
                   None if data.get("sprt") is None else Sprt(**data["sprt"]))


def trial(entrant: Entrant, limits: Limits, seats: int) -> UptownError | None:
    """Try ``entrant`` before the first game: a bot's options (and the weights file given to
    vista, for games of ``seats`` players), or a program started once and its handshake (its
    options typed and sent). A SetupError (one line naming the entrant) for an option it does
    not take or a weights file it cannot play with; the EngineError of a program that cannot
    start or answer (its games are then lost by forfeit, each tried as any game is); None when
    it can play. The error is returned, not raised, so that a cluster's worker can give it back
    as it is."""
    try:
        if entrant.bot is not None:
            check_bot_options(entrant.bot, entrant.bot_options(limits), seats)
            return None
        with program_signals(), BotProgram(entrant.command) as program:
            try:
                program.handshake(limits.start, dict(entrant.options))
            except EngineError as exc:  # once the hello is taken, a refusal is of the options
                if exc.reason == "refused" and program.about and entrant.options:
                    program.tell(str(exc))
                    return SetupError(f"{entrant.name}: {exc}")
                raise
    except (EngineError, SetupError) as exc:  # a SetupError comes of a bot's weights only
        if entrant.bot is not None:
            return SetupError(f"{entrant.name}: {exc}")
        return exc
    return None


def tables(settings: Settings) -> list[tuple[Entrant, ...]]:
    """Each table's entrants, in seat order before rotation."""
    entrants, seats = settings.entrants, settings.seats
    if settings.mode == "gauntlet":
        return [(entrants[0],) + (other,) * (seats - 1) for other in entrants[1:]]
    if len(entrants) >= seats:
        return list(itertools.combinations(entrants, seats))
    return [tuple(entrants[i % len(entrants)] for i in range(seats))]


def deal_seed(seed: str, deal: int) -> str:
    """The seed of deal ``deal`` (from 0) of a tournament with seed ``seed``."""
    return sha256(f"uptown-tournament\n{seed}\n{deal}".encode("utf-8")).hexdigest()[:12]


def schedule(settings: Settings) -> list[GameTask]:
    """Every game of the tournament, in order: deal by deal, table by table, rotation by
    rotation."""
    games: list[GameTask] = []
    for deal in range(settings.deals):
        for table in tables(settings):
            for turn in range(settings.seats):
                games.append(GameTask(len(games) + 1, deal, deal_seed(settings.seed, deal),
                                      table[turn:] + table[:turn], settings.variant, settings.limits))
    return games


class Tournament:
    """A tournament in its folder: ``settings``, the ``results`` so far (in game order), and
    ``run`` to play the rest."""

    def __init__(self, folder: str, settings: Settings, results: list[GameOutcome]):
        self.folder, self.settings, self.results = folder, settings, results
        first, second = (e.name for e in settings.entrants[:2])
        self.deals = DealScores(first, second, settings.seats)
        for outcome in results:
            self.deals.add(outcome)

    @classmethod
    def create(cls, folder: str, settings: Settings) -> Tournament:
        """A new tournament in ``folder`` (made if need be; SetupError if it holds one)."""
        settings.check()
        if os.path.exists(os.path.join(folder, SETTINGS_FILE)):
            raise SetupError(_("{folder} holds a tournament already: --resume continues it")
                             .format(folder=folder))
        try:
            os.makedirs(os.path.join(folder, "logs"), exist_ok=True)
        except OSError as exc:
            raise SetupError(_("cannot create {folder}: {reason}").format(
                folder=folder, reason=system_reason(exc))) from None
        write_file(os.path.join(folder, SETTINGS_FILE), json.dumps(settings.to_json(), indent=2) + "\n")
        write_file(os.path.join(folder, RESULTS_FILE), "")
        return cls(folder, settings, [])

    @classmethod
    def resume(cls, folder: str) -> Tournament:
        """The tournament in ``folder``, with the results written so far; a last line cut
        short by a kill is dropped (its game is played again)."""
        path = os.path.join(folder, SETTINGS_FILE)
        try:
            with open(path, encoding="utf-8") as file:
                settings = Settings.from_json(json.load(file))
            settings.check()
            with open(os.path.join(folder, RESULTS_FILE), "rb") as file:
                data = file.read()
        except FileNotFoundError:
            raise SetupError(_("{folder} holds no tournament (no {settings} and {results})").format(
                folder=folder, settings=SETTINGS_FILE, results=RESULTS_FILE)) from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SetupError(_("{path}: not a tournament's settings ({reason})").format(
                path=path, reason=exc)) from None
        whole = data[:data.rfind(b"\n") + 1]
        results = []
        for number, line in enumerate(whole.splitlines(), 1):
            try:
                results.append(GameOutcome.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                raise SetupError(_("{path}:{number}: not a game's result").format(
                    path=os.path.join(folder, RESULTS_FILE), number=number)) from None
        if len(whole) < len(data):
            with open(os.path.join(folder, RESULTS_FILE), "r+b") as file:
                file.truncate(len(whole))
        return cls(folder, settings, results)

    def games(self) -> int:
        """How many games the whole tournament has (an SPRT may stop it before)."""
        return len(schedule(self.settings))

    def llr(self) -> float:
        """The SPRT's log-likelihood ratio on the deals played whole so far (0 without one;
        ``deals`` counts them: with two seats, the pentanomial of the deal pairs)."""
        test = self.settings.sprt
        return 0.0 if test is None else sprt_llr(self.deals.counts, test.elo0, test.elo1)

    def decided(self) -> str | None:
        """The SPRT's decision on the results so far (None without one, or while undecided)."""
        return None if self.settings.sprt is None else self.settings.sprt.decision(self.llr())

    def run(self, jobs: int = 1, cluster: str | None = None) -> Iterator[GameOutcome]:
        """Play the games not played yet, by ``jobs`` processes or on the Dask scheduler at
        ``cluster``; yields each outcome once written, in game order. Stops when the SPRT
        decides."""
        done = {outcome.number for outcome in self.results}
        tasks = [task for task in schedule(self.settings) if task.number not in done]
        if not tasks or self.decided() is not None:
            return
        for outcome in in_pool(play_game, tasks, jobs, cluster):
            self._write(outcome)
            self.results.append(outcome)
            self.deals.add(outcome)
            yield outcome
            if self.decided() is not None:
                return

    def _write(self, outcome: GameOutcome) -> None:
        """The game's record and logs, then its line of results (synced). The results file is
        open only for that: a worker process made meanwhile never holds it."""
        names = " vs ".join(seat.entrant for seat in outcome.seats)
        event = f"uptown tournament, game {outcome.number}: {names}"
        write_file(os.path.join(self.folder, f"game-{outcome.number:04d}.yaml"),
                   record_text(outcome, self.settings.variant, event))
        for player, text in outcome.logs.items():
            if text:
                write_file(os.path.join(self.folder, "logs", f"game-{outcome.number:04d}-{_safe(player)}.log"), text)
        with open(os.path.join(self.folder, RESULTS_FILE), "ab") as results:
            results.write(json.dumps(outcome.to_json(), separators=(",", ":")).encode("utf-8") + b"\n")
            results.flush()
            os.fsync(results.fileno())


def _safe(name: str) -> str:
    """A player's name as part of a file name."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:40] or "_"
