"""Many games at once: figures over a collection of records, and every move as a row of data
(csv or JSON lines) for pandas, DuckDB or Spark."""

import csv
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple, TextIO, TypedDict

from ..engine.game import Game
from ..engine.geometry import square_name, tile_name
from ..engine.scoring import standings, win_shares
from ..errors import SetupError
from ..i18n import _

__all__ = ["RecordedGame", "corpus_stats", "move_rows", "write_rows"]

EXPORT_COLUMNS = (
    "game", "move", "player", "color", "tile", "square", "capture", "captured_color", "captured_tile",
    "groups_after",
)


class RecordedGame(NamedTuple):
    """A record's game as replayed: the record's path, its scoring variant and the game."""

    path: str
    variant: str
    game: Game


class _TableFigures(TypedDict):
    """Running totals over the finished games of one number of players."""

    lengths: list[int]
    groups: int
    captures: int
    seats: int
    decided: int
    shared: int


def corpus_stats(games: Iterable[RecordedGame]) -> dict[str, list[dict[str, int | float | str]]]:
    """Figures over ``games`` (RecordedGames) as tables, each a list of rows (dicts):

    - ``games``: how many games per number of players and variant, and how many are finished;
    - ``seats``: per number of players and seat, over finished games: wins (shared wins as
      fractions), win rate and mean score, to show any advantage of playing first;
    - ``tables``: per number of players, over finished games: game length in moves, mean final
      groups and captures per player, and how often the capture tie-break decided the winner
      (the best score was shared and fewer captures settled it) or could not (a shared win).
    """
    counts: defaultdict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
    seats: defaultdict[tuple[int, int], list[float]] = defaultdict(
        lambda: [0, 0.0, 0])  # games, wins, score total
    tables: defaultdict[int, _TableFigures] = defaultdict(
        lambda: {"lengths": [], "groups": 0, "captures": 0, "seats": 0, "decided": 0, "shared": 0}
    )
    for item in games:
        game = item.game
        players = len(game.players)
        counts[players, item.variant][0] += 1
        if not game.finished:
            continue
        counts[players, item.variant][1] += 1
        table = standings(game, item.variant)
        winners = sum(s.rank == 1 for s in table)
        best = min(s.score for s in table)
        for seat, (s, share) in enumerate(zip(table, win_shares(table)), 1):
            row = seats[players, seat]
            row[0] += 1
            row[1] += share
            row[2] += s.score
        figures = tables[players]
        figures["lengths"].append(game.ply)
        figures["groups"] += sum(s.groups for s in table)
        figures["captures"] += sum(s.captures for s in table)
        figures["seats"] += players
        if sum(s.score == best for s in table) > 1:
            figures["decided" if winners == 1 else "shared"] += 1
    return {
        "games": [
            {"players": players, "variant": variant, "games": n, "finished": done}
            for (players, variant), (n, done) in sorted(counts.items())
        ],
        "seats": [
            {"players": players, "seat": seat, "games": n, "wins": wins, "win_rate": wins / n, "mean_score": score / n}
            for (players, seat), (n, wins, score) in sorted(seats.items())
        ],
        "tables": [
            {
                "players": players,
                "games": len(f["lengths"]),
                "mean_moves": sum(f["lengths"]) / len(f["lengths"]),
                "min_moves": min(f["lengths"]),
                "max_moves": max(f["lengths"]),
                "mean_final_groups": f["groups"] / f["seats"],
                "mean_captures": f["captures"] / f["seats"],
                "tiebreak_decided": f["decided"],
                "shared_wins": f["shared"],
            }
            for players, f in sorted(tables.items())
        ],
    }


def move_rows(games: Iterable[RecordedGame]) -> Iterator[dict[str, str | int | bool | None]]:
    """One dict per move of every game (keys ``EXPORT_COLUMNS``); each game is rewound and
    played forward again to know the groups after every move."""
    for item in games:
        game = item.game
        for turn in game.rewind():
            game.redo(turn)
            move = turn.move
            captured = turn.captured or (None, None)
            yield {
                "game": item.path,
                "move": turn.number,
                "player": turn.player.name,
                "color": turn.color,
                "tile": None if move.is_pass else tile_name(move.tile),
                "square": None if move.is_pass else square_name(move.square),
                "capture": turn.captured is not None,
                "captured_color": captured[0],
                "captured_tile": tile_name(captured[1]) if captured[1] is not None else None,
                "groups_after": game.player_groups(turn.player),
            }


def write_rows(rows: Iterable[Mapping[str, object]], stream: TextIO, fmt: str) -> None:
    """Write ``rows`` to ``stream`` as ``csv`` (with a header; empty cells for nothing,
    ``true``/``false``) or ``jsonl`` (one JSON object a line, null for nothing)."""
    if fmt == "jsonl":
        for row in rows:
            stream.write(json.dumps(row, ensure_ascii=False) + "\n")
        return
    if fmt != "csv":
        raise SetupError(_("unknown export format {format!r} (csv or jsonl)").format(format=fmt))
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for row in rows:
        writer.writerow(_csv_cell(row[column]) for column in EXPORT_COLUMNS)


def _csv_cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
