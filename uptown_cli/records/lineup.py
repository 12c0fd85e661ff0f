"""Whether the players of a record or of ``uptown new`` can sit at one table
(``lineup_problems``: names that differ and do not look alike, each colour once, the right
number each), and the colours dealt to those who name none (``deal_colors``)."""

from __future__ import annotations

from ..engine.game import PLAYER_COUNTS, dealt_colors, name_key
from ..engine.geometry import shown_color
from ..i18n import _
from .entries import JUDGE, PlayerEntry
from .names import look_alikes, odd_character

__all__ = ["deal_colors", "lineup_problems"]


def deal_colors(entries: list[PlayerEntry]) -> None:
    """Give the players (in place) who have no colours the colours nobody named, dealt round
    the table in the order red, blue, green, yellow, orange; two each with 2 players."""
    if all(entry.colors for entry in entries):  # the usual record: nothing to deal
        return

    for seat, colors in enumerate(dealt_colors([entry.colors for entry in entries])):
        entries[seat] = entries[seat]._replace(colors=colors)


def lineup_problems(entries: list[PlayerEntry]) -> list[tuple[PlayerEntry, str]]:
    """``(entry, message)`` for each reason the players cannot sit at one table: the same
    name twice (as ``game.name_key`` compares them), the judge's word (``entries.JUDGE``) as a
    name, two names that look alike
    (``names.look_alikes``: "Ana" and "Аna"), a colour named twice, or the wrong number of colours for the
    number of players (players who name none are dealt theirs, see ``deal_colors``); the
    colours only when there are 2 to 5 players. Entries read from a file (``line`` > 0) are
    named with their lines."""
    problems: list[tuple[PlayerEntry, str]] = []
    names: dict[str, PlayerEntry] = {}
    for entry in entries:
        key = name_key(entry.name)
        if key == name_key(JUDGE):
            problems.append((entry, _("'{name}' is the club judge's word in a record (by: "
                                      "judge): choose another name").format(name=entry.name)))
        first = names.setdefault(key, entry)
        if first is not entry:
            problems.append((entry, _(
                "two players are named '{name}' (lines {first} and {line})").format(
                name=entry.name, first=first.line, line=entry.line) if entry.line else _(
                "two players are named {first!r} and {name!r}; names must differ (ignoring "
                "case, accents' spelling and blanks round them)").format(
                first=first.name, name=entry.name)))
    for seen, name in look_alikes(entry.name for entry in names.values()):
        entry, other = names[name_key(name)], names[name_key(seen)]
        problems.append((entry, (_(
            "the names {first!r} (line {first_line}) and {name!r} look alike ({character}): one "
            "could be taken for the other") if entry.line else _(
            "the names {first!r} and {name!r} look alike ({character}): one could be taken for "
            "the other; choose names that differ at a glance")).format(
                first=seen, first_line=other.line, name=name,
                character=odd_character(seen, name))))
    if len(entries) not in PLAYER_COUNTS:
        return problems
    owners: dict[str, str] = {}
    for entry in entries:
        for color in entry.colors:
            if color in owners:
                problems.append((entry, _("{color} is taken twice ({first} and {name})").format(
                    color=shown_color(color), first=owners[color], name=entry.name)))
            owners[color] = entry.name
    each = 2 if len(entries) == 2 else 1
    for entry in entries:
        if entry.colors and len(entry.colors) != each:
            problems.append((entry, (_(
                "with {players} players, players have two colours each; {name} has {count}")
                if each == 2 else _(
                "with {players} players, players have one colour each; {name} has {count}"))
                .format(players=len(entries), name=entry.name, count=len(entry.colors))))
    return problems
