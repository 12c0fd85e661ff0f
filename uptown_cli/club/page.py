"""The club's page: one static HTML page for a folder of games (the games in play, whose turn
it is and the time left on their clock; the finished games, their results and a link to the
replay page of each; the standings of ``ratings``), with those replay pages beside it.

The page needs nothing else: no network, no other file but the replay pages it links to, and
no script (its Content-Security-Policy allows none). Every text from a record or a file name
is escaped. Pure: the games are read, each validated once, and nothing is written; the
caller puts the files on disk (``uptown club page``, a judge after each message).
"""

from __future__ import annotations

import os
import re
from collections.abc import MutableMapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from ..engine.sha256 import sha256
from ..errors import display_path
from ..i18n import _, current_language, figures, moment, names_list, ngettext
from ..pictures.html import page_start, replay_html
from ..pictures.svg import game_title, xml_text
from ..turns.validation import Validation, validate_file
from .ratings import PlayerRating, RatedGame, finished_games, rate
from .status import GameStatus, State, file_time, game_status, one_per_game, order

if TYPE_CHECKING:
    from ..records.schema import Record

__all__ = ["INDEX", "club_page", "replay_key", "replay_names"]

INDEX = "index.html"
"""The name of the club's page among the files ``club_page`` makes."""

STYLE = """
body{font-family:"DejaVu Sans",Verdana,Arial,Helvetica,sans-serif;margin:1em;color:#111;background:#fff;max-width:72em}
h1{font-size:1.5em;margin:0 0 .2em}
h2{font-size:1.2em;margin:1.2em 0 .3em}
.updated{margin:0 0 1em;color:#333}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.3em 0 .8em}
th,td{padding:.2em .6em;text-align:left;border-bottom:1px solid #ccc;vertical-align:top}
td{overflow-wrap:anywhere}
th,td.figure,.file{white-space:nowrap}
td.figure,th.figure{text-align:right}
.file{color:#555;font-size:.85em}
tr.late td.now{color:#8a4b00;font-weight:bold}
tr.out-of-time td.now{color:#B00020;font-weight:bold}
.note{color:#555;font-size:.85em}
"""


class ClubGame(NamedTuple):
    """One game of the page: its path, the name shown for it, its validation and its status."""

    path: str
    shown: str
    checked: Validation
    status: GameStatus


def club_page(paths: Sequence[str], now: datetime, title: str | None = None,
              replays: MutableMapping[str, bytes] | None = None) -> dict[str, bytes]:
    """The club's page of the games at ``paths``, as files to put in one folder: ``{name:
    content}``, the replay page of each finished game (``pictures.html``) under the name
    ``replay_names`` gives it, then the page itself as ``INDEX``. Each game is validated once,
    at ``now``, the time the page is of; ``title`` heads the page (default: "Uptown club").

    ``replays``, which a caller that makes the page again and again keeps between calls (a
    judge), holds the replay pages made before (by ``replay_key``): a finished game's page is
    made once, since it changes only with its record; afterwards it holds this call's alone."""
    unique = list(dict.fromkeys(os.path.normpath(path) for path in paths))
    shown = shown_names(unique)
    games = []
    for path in unique:
        checked = validate_file(path, shown=shown[path], now=now)
        games.append(ClubGame(path, shown[path], checked,
                              game_status(path, shown[path], now, checked)))
    rated, _invalid = finished_games(unique, now=now,
                                     validations={game.path: game.checked for game in games})
    kept = {status.path for status in one_per_game([game.status for game in games])}
    games = [game for game in games if game.shown in kept]  # copies of one game: one row
    finished = sorted((game for game in games if game.status.state == State.FINISHED),
                      key=lambda game: (-game.status.since, game.shown))
    pages = replay_names([game.shown for game in finished])
    made = {} if replays is None else replays
    files, used = {}, {}
    for game in finished:
        record, replayed = game.checked.record, game.checked.game
        assert record is not None and replayed is not None  # a finished game was replayed
        key = replay_key(record)
        if key not in made:
            made[key] = replay_html(replayed, record, game_title(record)).encode()
        files[pages[game.shown]] = used[key] = made[key]
    if replays is not None:
        replays.clear()
        replays.update(used)
    files[INDEX] = index_html(games, finished, pages, rated, now, title).encode()
    return files


def replay_key(record: Record) -> str:
    """What a game's replay page is made of: its record's text, the name it is shown by (its
    title without an event) and the language in use, hashed."""
    made_of = "\0".join((current_language(), record.path, record.text))
    return sha256(made_of.encode("utf-8", "surrogatepass")).hexdigest()


def shown_names(paths: list[str]) -> dict[str, str]:
    """Each path's name on the page: the path from the folder that holds all the games (the
    file's name alone when they share one), escaped as every command prints a path; no
    reader of the page learns where the club keeps its games."""
    if not paths:
        return {}
    absolute = {path: os.path.abspath(path) for path in paths}
    common = os.path.commonpath([os.path.dirname(a) for a in absolute.values()])
    return {path: display_path(os.path.relpath(absolute[path], common)) for path in paths}


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def replay_names(shown: list[str]) -> dict[str, str]:
    """A file name for the replay page of each game named ``shown``: the name without its
    extension, kept to ASCII letters, digits, ``-`` and ``_`` (others made ``_``); when two
    games would get the same name (ignoring case, as some file systems do) or one would be
    ``INDEX``, a part of the hash of its shown name is added to theirs, the same whatever
    order the games come in. A game's page keeps its name (and its links their target) as
    long as its own name does and no other game's name differs from it only there."""
    taken = {INDEX.casefold()}
    names = {}
    plain = {name: _UNSAFE.sub("_", os.path.splitext(name)[0]).strip("_-")[:80] or "game"
             for name in shown}
    counts: dict[str, int] = {}
    for stem in plain.values():
        counts[stem.casefold()] = counts.get(stem.casefold(), 0) + 1
    for name in sorted(shown):
        stem = plain[name]
        if counts[stem.casefold()] > 1 or f"{stem}.html".casefold() in taken:
            stem = f"{stem}-{sha256(name.encode()).hexdigest()[:8]}"
        page, more = f"{stem}.html", 1
        while page.casefold() in taken:
            more += 1
            page = f"{stem}-{more}.html"
        taken.add(page.casefold())
        names[name] = page
    return names


def index_html(games: list[ClubGame], finished: list[ClubGame], pages: dict[str, str],
               rated: list[RatedGame], now: datetime, title: str | None) -> str:
    """The club's page: its sections, in the language in use."""
    heading = _("Uptown club") if title is None else title
    statuses = order([game.status for game in games])
    by_shown = {game.shown: game for game in games}
    playing = [by_shown[s.path] for s in statuses if s.state in (State.TO_MOVE, State.TO_JOIN)]
    invalid = [by_shown[s.path] for s in statuses if s.state == State.INVALID]
    void = [by_shown[s.path] for s in statuses if s.state == State.VOID]
    updated = _paragraph(_("Updated {time}").format(time=moment(now)), "updated")
    return f"""{page_start(heading, STYLE)}<body>
<h1>{xml_text(heading)}</h1>
{updated}
{_in_play(playing)}
{_finished(finished, pages, rated)}
{_standings(rated)}
{_void(void)}{_left_out(invalid)}</body>
</html>
"""


def _paragraph(text: str, kind: str | None = None) -> str:
    """``text`` escaped, as a paragraph (of the class ``kind``)."""
    return f'<p class="{kind}">{xml_text(text)}</p>' if kind else f"<p>{xml_text(text)}</p>"


def _section(name: str, heading: str, body: str) -> str:
    return f'<section id="{name}">\n<h2>{xml_text(heading)}</h2>\n{body}\n</section>\n'


def _table(headers: list[tuple[str, str]], rows: list[str]) -> str:
    """A table of ``rows`` (each ``<tr>...</tr>``) under ``headers`` (class, text)."""
    head = "".join(f'<th class="{kind}">{xml_text(text)}</th>' if kind else
                   f"<th>{xml_text(text)}</th>" for kind, text in headers)
    return (f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
            f'<tbody>\n{"".join(rows)}</tbody></table></div>')


def _game_row(game: ClubGame, now: str, page: str | None = None, kind: str | None = None) -> str:
    """A game's row: the game (its event, else its file's name; a link to its replay ``page``
    when it has one; its file's name under an event), its players in the order they sit, the
    moves played, ``now`` (what its status says, as HTML) and the time of its last move."""
    record = game.checked.record
    event = record.fields.get("event") if record is not None else None
    shown = xml_text(event or game.shown)
    if page is not None:
        shown = f'<a href="{xml_text(page)}">{shown}</a>'
    if event:
        shown += f'<br><span class="file">{xml_text(game.shown)}</span>'
    players = names_list(player.name for player in record.players) if record is not None else ""
    when = file_time(game.status.since, utc=True)
    since = moment(when) if when is not None else _("after year 9999")
    row = f'<tr class="{kind}">' if kind else "<tr>"
    return (f'{row}<td>{shown}</td><td>{xml_text(players)}</td>'
            f'<td class="figure">{game.status.moves}</td><td class="now">{now}</td>'
            f'<td class="when">{xml_text(since)}</td></tr>\n')


def _in_play(playing: list[ClubGame]) -> str:
    """The games in play, the longest waiting first: whose turn and what the clock says."""
    heading = _("Games in play ({count})").format(count=len(playing))
    if not playing:
        return _section("in-play", heading, _paragraph(_("No game in play.")))
    rows = []
    for game in playing:
        state = game.status.clock_state
        kind = state.replace(" ", "-") if state in ("late", "out of time") else None
        rows.append(_game_row(game, xml_text(game.status.text()), kind=kind))
    headers = [("", _("game")), ("", _("players")), ("figure", _("moves")), ("", _("now")),
               ("", _("waiting since"))]
    return _section("in-play", heading, _table(headers, rows))


def _finished(finished: list[ClubGame], pages: dict[str, str], rated: list[RatedGame]) -> str:
    """The finished games, the latest first: the result, and a link to the replay page."""
    heading = _("Finished games ({count})").format(count=len(finished))
    if not finished:
        return _section("finished", heading, _paragraph(_("No game is finished yet.")))
    rated_paths = {path for game in rated if not game.disputed
                   for path in (game.path, *game.copies)}
    rows = []
    for game in finished:
        result = xml_text(game.status.text())
        if game.path not in rated_paths:
            result += '<br><span class="note">' + xml_text(_("not rated")) + "</span>"
        rows.append(_game_row(game, result, page=pages[game.shown]))
    headers = [("", _("game")), ("", _("players")), ("figure", _("moves")), ("", _("result")),
               ("", _("last move"))]
    return _section("finished", heading, _table(headers, rows))


def _standings(rated: list[RatedGame]) -> str:
    """The players' ratings over the rated games, best first (``uptown ratings``)."""
    heading = _("Standings")
    counted = sum(not game.disputed for game in rated)  # a disputed game is not rated
    if not counted:
        return _section("standings", heading, _paragraph(
            _("No game is rated yet.") if rated else _("No game is finished yet.")))
    about = ngettext("Ratings over {count} finished game (openskill Plackett-Luce, mu - 3 sigma):",
                     "Ratings over {count} finished games (openskill Plackett-Luce, mu - 3 sigma):",
                     counted).format(count=counted)
    rows = [_rating_row(rank, rating) for rank, rating in enumerate(rate(rated), 1)]
    headers = [("figure", _("rank")), ("", _("player")), ("figure", _("rating")),
               ("figure", "sigma"), ("figure", _("games")), ("figure", _("wins"))]
    return _section("standings", heading, f"{_paragraph(about)}\n{_table(headers, rows)}")


def _rating_row(rank: int, rating: PlayerRating) -> str:
    texts = [str(rank), xml_text(rating.name), figures(f"{rating.ordinal:.1f}"),
             figures(f"\u00b1{rating.sigma:.1f}"), str(rating.games), str(rating.wins)]
    cells = "".join(f"<td>{text}</td>" if column == 1 else f'<td class="figure">{text}</td>'
                    for column, text in enumerate(texts))
    return f"<tr>{cells}</tr>\n"


def _void(void: list[ClubGame]) -> str:
    """The games the club judge ruled void: no result, nobody rated."""
    if not void:
        return ""
    items = "".join(f"<li>{xml_text(game.shown)}: {xml_text(game.status.text())}</li>\n"
                    for game in void)
    return _section("void", _("Void games ({count})").format(count=len(void)),
                    f"<ul>{items}</ul>")


def _left_out(invalid: list[ClubGame]) -> str:
    """The records that are not valid, with the first problem of each: not counted anywhere."""
    if not invalid:
        return ""
    items = "".join(f"<li>{xml_text(game.shown)}: {xml_text(game.status.problem)}</li>\n"
                    for game in invalid)
    about = ngettext("{count} record is left out: it is not valid (see uptown validate).",
                     "{count} records are left out: they are not valid (see uptown validate).",
                     len(invalid)).format(count=len(invalid))
    return _section("left-out", _("Records left out"), f"{_paragraph(about)}\n<ul>{items}</ul>")
