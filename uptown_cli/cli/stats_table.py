"""The tables of ``uptown stats`` for people: their titles, headers and cells (rates in
percent, moves as ``mean (fewest-most)``), marked for the catalogs and translated where shown."""

from typing import cast

from ..i18n import N_, _, pgettext
from ..pictures.tile_names import variant_label
from .output import percent

__all__ = ["STATS_TITLES", "STATS_HEADERS", "stats_row", "header_text"]

STATS_TITLES = {
    "games": N_("Games:"),
    "seats": N_("Results by seat (finished games):"),
    "tables": N_("Finished games (moves per game; groups and captures per player):"),
}
"""Each table of the figures (``analysis.corpus.corpus_stats``) by its key: its title."""
STATS_HEADERS = {
    "players": N_("players"), "variant": N_("variant"), "games": N_("games"),
    "finished": N_("finished"), "seat": N_("seat"), "wins": N_("wins"),
    "win_rate": N_("win\nrate"),
    "mean_score": N_("mean\nscore"),
    "moves": N_("moves\nmean (range)"),
    "mean_final_groups": N_("mean\ngroups"),
    "mean_captures": N_("mean\ncaptures"),
    "tiebreak_decided": N_("won on\ntie-break"),
    "shared_wins": N_("shared\nwins"),
}
"""A column's header by its key in the figures (the key itself when not here)."""


def header_text(header: str) -> str:
    """A column's header (of STATS_HEADERS) in the language in use; "finished" counts games,
    which some languages say apart from a game's state (Spanish: terminadas)."""
    # TRANSLATORS: the header of a column that counts finished games
    return pgettext("column", "finished") if header == "finished" else _(header)


def stats_row(row: dict[str, int | float | str]) -> dict[str, int | float | str]:
    """A row of figures as text cells: rates in percent, moves as ``mean (fewest-most)``."""
    cells: dict[str, int | float | str] = {}
    for key, value in row.items():
        if key in ("min_moves", "max_moves"):
            continue
        if key == "mean_moves":
            key, value = "moves", f"{value:g} ({row['min_moves']}-{row['max_moves']})"
        elif key == "win_rate":
            value = percent(cast(float, value))
        elif key == "variant":
            value = variant_label(str(value))
        elif isinstance(value, float):
            value = f"{value:.2f}"
        cells[STATS_HEADERS.get(key, key)] = value
    return cells
