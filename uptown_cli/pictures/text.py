"""Text for people and data for programs: the ASCII board, racks, table rows and JSON shapes.

Pure functions of a Game (or of standings, or of what a viewer knows of a game with hidden
racks: ``fairplay.viewer.HiddenView``); nothing here reads or writes files or draws tables
(tables are rows and headers, drawn by the command line in the format asked for).
"""

import re
from typing import TYPE_CHECKING, Any, cast

from ..engine.game import RACK_SIZE, TILES_PLAYED_PER_COLOR
from ..engine.geometry import (
    COLUMNS,
    ROWS,
    TILES_PER_COLOR,
    shown_color,
    shown_tile,
    square_name,
    tile_name,
)
from ..errors import display_path
from ..i18n import _, names_list, pgettext
from .tile_names import (
    captured_tile,
    color_letter,
    move_label,
    region_label,
    symbol_words,
    tile_face,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..engine.game import Game, Turn
    from ..engine.players import Player
    from ..engine.notation import Move, Placement
    from ..engine.scoring import Standing
    from ..fairplay.draws import HiddenDeal
    from ..fairplay.viewer import HiddenView
    from ..records.hidden_fields import HiddenFields
    from ..records.schema import Record

__all__ = [
    "board_text", "legend_lines", "turn_text", "drawn_text", "to_move_text", "winner_text",
    "players_rows",
    "standings_rows", "moves_rows", "position_data", "standings_data", "moves_data", "turn_data",
    "protocol_text"
]

COLOR_LETTERS = {"red": "r", "blue": "b", "green": "g", "yellow": "y", "orange": "o"}

ANSI = {"red": "31", "blue": "34", "green": "32", "yellow": "33", "orange": "38;5;208"}
CELL = 6
EMPTY = "."


def _paint(text: str, color: str, use_color: bool, bold: bool = False) -> str:
    if not use_color:
        return text
    return f"\x1b[{'1;' if bold else ''}{ANSI[color]}m{text}\x1b[0m"


def _cell(game: "Game", sq: int, last_square: int | None, use_color: bool) -> str:
    held = game.at(sq)
    if held is None:
        return EMPTY.center(CELL)
    color, tile = held
    text = color_letter(color) + tile_face(tile)
    marked = sq == last_square
    body = _paint(text, color, use_color, bold=marked)
    if marked:
        body = f"[{body}]"
    pad = CELL - len(text) - (2 if marked else 0)
    return " " * (pad // 2) + body + " " * (pad - pad // 2)


def _border(regions: list[str] | None) -> str:
    """A horizontal border; ``regions`` names the three regions below it (or None)."""
    span = 3 * CELL
    parts = []
    for name in regions or ("", "", ""):
        label = f"-- {name} " if name else ""
        parts.append(label + "-" * (span - len(label)))
    return "   +" + "+".join(parts) + "+"


def board_text(game: "Game", use_color: bool = False, legend: bool = True) -> str:
    """The board as text: labelled rows and columns, region borders and names, tiles shown as
    colour letter + face (``r7``, ``bsax``), the last placed tile in brackets, and a legend."""
    last = game.last
    last_square = None if last is None or last.move.is_pass else last.move.square
    header = "    " + "".join(
        (c.center(CELL) + (" " if i in (2, 5) else "")) for i, c in enumerate(COLUMNS)
    )
    lines = [header.rstrip()]
    for r, row in enumerate(ROWS):
        if r % 3 == 0:
            lines.append(_border([region_label(region) for region in range(r, r + 3)]))
        cells = [_cell(game, r * 9 + c, last_square, use_color) for c in range(9)]
        thirds = ["".join(cells[i : i + 3]) for i in (0, 3, 6)]
        lines.append(f" {row} |" + "|".join(thirds) + f"| {row}")
    lines.append(_border(None))
    lines.append(header.rstrip())
    if legend:
        lines.extend(legend_lines(game, use_color))
    return "\n".join(lines)


def legend_lines(game: "Game", use_color: bool = False) -> list[str]:
    """What the letters on the board mean, and what the last move was."""
    colors = "  ".join(
        f"{_paint(color_letter(c), c, use_color)} {shown_color(c)} ({game.owner(c).name})"
        for c in game.colors
    )
    faces = [f"{s.face}={s.shown}" for name, s in symbol_words().items()
             if s.face != s.shown and name != "$"] + [_("$=wild")]
    lines = wrap_line(_("Colours: {colours}").format(colours=colors))
    lines += wrap_line(_("Faces: {faces}").format(faces=" ".join(faces)))
    if game.last is not None:
        lines += wrap_line(_("Last move [in brackets]: move {number}, {turn}").format(
            number=game.last.number, turn=turn_text(game.last)))
    return lines


def wrap_line(text: str, width: int = 80, indent: str = "  ") -> list[str]:
    """``text`` as one line, or (longer than ``width``, as a language's words may make it) in
    lines of at most ``width`` broken at blanks, the further ones indented."""
    def seen(line: str) -> int:  # the columns it takes: colour escapes take none
        return len(re.sub("\x1b\\[[0-9;]*m", "", line))

    if seen(text) <= width:
        return [text]
    lines: list[str] = []
    for word in text.split(" "):
        if lines and seen(lines[-1]) + 1 + seen(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append((indent if lines else "") + word)
    return lines


def rack_text(tiles: "Iterable[int]") -> str:
    """A rack as canonical tile names, in tile order: ``3 7 C sax $``."""
    return " ".join(tile_name(t) for t in sorted(tiles))


def turn_text(turn: "Turn", by: str | None = None, bot: str | None = None) -> str:
    """``red (Ana) 4 xE8, captures blue sax`` (in the language in use); a turn another player
    wrote for a late player (``by``, with their ``bot``) says so: it is not the player's own
    play."""
    shown = {"colour": shown_color(turn.color), "name": turn.player.name,
             "move": move_label(turn.move)}
    if by is not None and bot is not None:
        return _("{colour} ({name}) {move}, played by {bot} for {name}, out of time ({writer} "
                 "asked)").format(**shown, bot=bot, writer=by)
    if by is not None:
        return _("{colour} ({name}) {move}, written by {writer} for {name} (out of time)").format(
            **shown, writer=by)
    if turn.captured is None:
        return _("{colour} ({name}) {move}").format(**shown)
    # TRANSLATORS: {captured} is the captured tile with its colour (the "captured tile"
    # entries: "captura la G roja", "captura el saxofón azul")
    return _("{colour} ({name}) {move}, captures {captured}").format(
        **shown, captured=captured_tile(*turn.captured))


def drawn_text(game: "Game", turn: "Turn", view: "HiddenView | None" = None) -> str:
    """What was drawn after ``turn``, in a sentence; with a ``HiddenView``
    (``fairplay.viewer``), as a game with hidden racks tells it: the tile comes later."""
    colour = shown_color(turn.color)
    if turn.move.is_pass:
        return _("{name} had to pass.").format(name=turn.player.name)
    if view is None and not game.knows_racks:
        return _("{colour} draws a tile (unknown: the game has no seed).").format(colour=colour)
    if turn.drawn is None:
        return _("{colour} draws nothing: its bag is empty.").format(colour=colour)
    if view is not None:
        if _waits_for_next(view):
            text = _("{colour} draws a tile once the next player has moved;\n"
                     "then uptown show --as {name} shows it.")
        else:
            text = _("{colour} draws a tile once every other player has moved;\n"
                     "then uptown show --as {name} shows it.")
        return text.format(colour=colour, name=turn.player.name)
    return _("{colour} draws {tile}.").format(colour=colour, tile=shown_tile(turn.drawn))


def to_move_text(game: "Game", view: "HiddenView | None" = None) -> str:
    """Whose turn it is and their rack(s), or that the game is over. With a ``HiddenView``
    (``fairplay.viewer``): who joins, moves or reveals next, and the viewer's own racks."""
    if view is not None:
        return _hidden_to_move_text(game, view)
    player = game.to_move
    if player is None:
        from ..engine.scoring import standings

        return winner_text(standings(game))
    racks = game.racks
    if racks is None:
        return _("{name} to move ({colours}); racks unknown (no seed).").format(
            name=player.name, colours=", ".join(shown_color(c) for c in player.colors))
    shown = []
    for c in player.colors:
        if game.playable(c):
            shown.append(f"{shown_color(c)} {rack_label(racks[c])}")
        else:
            shown.append(_("{colour} done").format(colour=shown_color(c)))
    return "\n".join(wrap_line(_("{name} to move, rack: {racks}").format(
        name=player.name, racks="; ".join(shown))))


def winner_text(standing_rows: "list[Standing]") -> str:
    """The result of a finished game in one line: who won (those ranked first), with what
    score, and whether fewer captures broke a tie."""
    first = [s for s in standing_rows if s.rank == 1]
    if len(first) == 1:
        tied = any(s.score == first[0].score for s in standing_rows if s.rank > 1)
        return (_("The game is over: {name} wins on fewer captures, with a score of {score}.")
                if tied else _("The game is over: {name} wins, with a score of {score}.")).format(
            name=first[0].name, score=first[0].score)
    return _("The game is over: {names} share first place, with a score of {score}.").format(
        names=names_list(s.name for s in first), score=first[0].score)


def rack_label(tiles: "Iterable[int]") -> str:
    """A rack as players of the language in use read it, in tile order: ``3 7 C saxofón $``
    (``rack_text`` in English)."""
    return " ".join(shown_tile(t) for t in sorted(tiles))


def own_racks_text(game: "Game", deal: "HiddenDeal", player: "Player") -> str:
    """``player``'s racks as their view of a hidden game knows them (``deal``), a draw still to
    come marked ``+?``."""
    parts = []
    for color in player.colors:
        shown = shown_color(color)
        if not game.playable(color) and not deal.racks[color]:
            parts.append(_("{colour} done").format(colour=shown))
            continue
        if not game.playable(color):
            parts.append(_("{colour} {rack} (cannot play)").format(
                colour=shown, rack=rack_label(deal.racks[color])))
            continue
        waiting = deal.pending(color)
        parts.append(" ".join(filter(None, [shown, rack_label(deal.racks[color])] + ["+?"] * waiting)))
    return "; ".join(parts)


def _hidden_to_move_text(game: "Game", view: "HiddenView") -> str:
    lines = [_state_line(view.record, game)]
    if cast("HiddenFields", view.record.hidden).joined() != [p.name for p in view.record.players]:
        return lines[0]
    if view.deal is None:
        if game.to_move is not None:
            lines.append(_("Racks are hidden (with --as NAME, a player sees their own)."))
    else:
        me = next(p for p in game.players if p.name == view.name)
        lines.append(_("{name}'s rack: {racks}").format(
            name=me.name, racks=own_racks_text(game, view.deal, me)))
        if any(view.deal.pending(c) for c in me.colors):
            lines.append(_("(+? is drawn when the next player has moved.)") if _waits_for_next(view)
                         else _("(+? is drawn when every other player has moved.)"))
    return "\n".join(lines)


def protocol_text(hidden: "HiddenFields") -> str:
    """The protocol version of a hidden game, as the record names it, and whether it is older
    than the one new games use: ``uptown-hidden-3, older than uptown-hidden-4``."""
    from ..records.hidden_fields import LATEST, PROTOCOLS  # (hidden games only: records.schema)

    name = PROTOCOLS[hidden.version - 1]
    if hidden.version == LATEST:
        return name
    return _("{name}, older than {latest}").format(name=name, latest=PROTOCOLS[LATEST - 1])


def _waits_for_next(view: "HiddenView") -> bool:
    """Whether a draw of a hidden game waits for the next player's move (protocol versions 1
    and 2, or two players), else for every other player's (version 3)."""
    return cast("HiddenFields", view.record.hidden).version < 3 or len(view.record.players) == 2


def _state_line(record: "Record", game: "Game") -> str:
    """Who acts next in a hidden game: who joins, who moves, or who reveals (with the
    command)."""
    hidden = cast("HiddenFields", record.hidden)
    shown = display_path(record.path)
    waiting = [p.name for p in record.players if p.name not in hidden.joined()]
    if waiting:
        return _("Waiting for {names} to join (protocol {protocol}); next:\n"
                 "  uptown join {path} --as {name}").format(
            names=names_list(waiting), protocol=protocol_text(hidden), path=shown,
            name=waiting[0])
    if game.to_move is not None:
        return _("{name} to move.").format(name=game.to_move.name)
    from ..fairplay.joins import valid_reveals  # (hidden games only: see fairplay.replay)

    left = [n for n in hidden.joined() if n not in valid_reveals(hidden)]
    if left:
        return _("The game is over. Still to reveal: {names}, each with\n"
                 "  uptown reveal {path} --as NAME").format(names=names_list(left), path=shown)
    from ..engine.scoring import standings

    return _("The game is over; every key is revealed. {winner}").format(
        winner=winner_text(standings(game)))


def players_rows(game: "Game",
                 standing_rows: "list[Standing]") -> tuple[list[list[object]], list[str]]:
    """The players table of ``show`` as (rows, headers): who is to move (*), colours, the tiles
    each still has to play (its rack's included), groups, captures and score."""
    rows: list[list[object]] = []
    for player, s in zip(game.players, standing_rows):
        left = sum(TILES_PLAYED_PER_COLOR - game.played_count(c) for c in player.colors)
        mark = "*" if player is game.to_move else ""
        rows.append([mark, player.name, ",".join(map(shown_color, player.colors)), left, s.groups,
                     s.captures, s.score])
    return rows, ["", _("player"), _("colours"), _("to play"), _("groups"), _("captures"),
                  _("score")]


def standings_rows(standing_rows: "list[Standing]", variant: str = "standard",
                   reasons: "Mapping[str, str] | None" = None) -> tuple[list[list[object]], list[str]]:
    """The standings as (rows, headers), best first: rank, player, colours, groups, captures,
    and under Blockers! the most taken from one opponent (what the score adds), then the score;
    when a player forfeited, last the move of each forfeit (``move 5``, or ``not revealed``
    for those whose reason in ``reasons`` is ``reveal``; empty for the others)."""
    blockers = variant == "blockers"
    forfeits = any(s.forfeit is not None for s in standing_rows)
    reasons = reasons or {}
    rows: list[list[object]] = []
    for s in sorted(standing_rows, key=lambda s: s.rank):
        most = [max(s.captured.values(), default=0)] if blockers else []
        out = [] if not forfeits else [
            "" if s.forfeit is None else _("not revealed") if reasons.get(s.name) == "reveal"
            else _("move {number}").format(number=s.forfeit)]
        rows.append([s.rank, s.name, ",".join(map(shown_color, s.colors)), s.groups, s.captures,
                     *most, s.score, *out])
    added = [_("+ most from one")] if blockers else []
    # TRANSLATORS: the column of the standings that says at which move a player forfeited
    forfeit = [pgettext("column", "forfeit")] if forfeits else []
    return rows, [_("rank"), _("player"), _("colours"), _("groups"), _("captures"), *added,
                  _("score"), *forfeit]


def moves_rows(legal: "list[tuple[str, Move]]") -> tuple[list[list[str]], list[str]]:
    """Legal moves as (rows, headers): one row per rack and tile, its squares in one cell."""
    rows: dict[tuple[str, str], list[str]] = {}
    for color, move in legal:
        if move.is_pass:
            rows.setdefault((shown_color(color), move_label(move)), []).append("")
        else:
            rows.setdefault((shown_color(color), shown_tile(move.tile)), []).append(_square_text(move))
    table = [[color, tile, " ".join(squares)] for (color, tile), squares in rows.items()]
    return table, [_("colour"), _("tile"), _("squares")]


def _square_text(move: "Placement") -> str:
    return ("x" if move.capture else "") + square_name(move.square)


def position_data(game: "Game", view: "HiddenView | None" = None) -> dict[str, Any]:
    """The ``show --json`` object. With a ``HiddenView`` (``fairplay.viewer``): the racks the
    viewer knows (their own), per colour the draws waiting for the next public value
    (``"to_come"``), the bags' sizes, and who is still to join and to reveal."""
    to_move = game.to_move
    racks = game.racks
    data = {
        "moves": game.ply,
        "finished": game.finished,
        "to_move": None if to_move is None else to_move.name,
        "board": {
            square_name(sq): {"color": color, "tile": tile_name(tile)}
            for sq, (color, tile) in sorted(game.board.items())
        },
        "racks": None if racks is None else {c: [tile_name(t) for t in r] for c, r in racks.items()},
        "bags": game.bag_sizes,
    }
    if view is not None:
        data.update(_hidden_position_data(game, view))
    return data


def _hidden_position_data(game: "Game", view: "HiddenView") -> dict[str, Any]:
    racks = to_come = None
    if view.deal is not None:
        me = next(p for p in game.players if p.name == view.name)
        racks = {c: [tile_name(t) for t in sorted(view.deal.racks[c])] for c in me.colors}
        to_come = {c: view.deal.pending(c) for c in me.colors}
    bags = {c: max(0, TILES_PER_COLOR - RACK_SIZE - game.played_count(c)) for c in game.colors}
    data: dict[str, Any] = {"racks": racks, "to_come": to_come, "bags": bags}
    hidden = cast("HiddenFields", view.record.hidden)
    data["waiting_to_join"] = [p.name for p in view.record.players
                               if p.name not in hidden.joined()]
    from ..fairplay.joins import valid_reveals  # (hidden games only: see fairplay.replay)

    data["to_reveal"] = [n for n in hidden.joined() if n not in valid_reveals(hidden)]
    if data["waiting_to_join"]:
        data["to_move"] = None
    return data


def standings_data(game: "Game", standing_rows: "list[Standing]", variant: str,
                   reasons: "Mapping[str, str] | None" = None) -> dict[str, Any]:
    """The ``score --json`` object for one game; when someone forfeited (``reasons``: a
    forfeited player's ``resigned``, ``out of time`` or ``reveal``), each player's
    ``forfeit_reason`` (null for those still in play)."""
    players = [s._asdict() for s in standing_rows]
    if reasons:
        for player in players:
            player["forfeit_reason"] = reasons.get(player["name"])
    return {
        "variant": variant,
        "finished": game.finished,
        "players": players,
    }


def moves_data(game: "Game", legal: "list[tuple[str, Move]]") -> dict[str, Any]:
    """The ``moves --json`` object: ``moves`` are written as ``uptown move`` takes them, with the
    rack first (``red 7 B7``) where both of the player's racks could play the same move."""
    to_move = game.to_move
    if to_move is None:
        return {"to_move": None, "moves": [], "by_color": {}}
    by_color: dict[str, list[str]] = {c: [] for c in to_move.colors}
    for color, move in legal:
        by_color[color].append(str(move))
    racks: dict[str, list[str]] = {}
    for color, move in legal:
        racks.setdefault(str(move), []).append(color)
    union: list[str] = []
    for text, colors in racks.items():
        union += [text] if len(colors) == 1 else [f"{color} {text}" for color in colors]
    return {"to_move": to_move.name, "moves": union, "by_color": by_color}


def turn_data(turn: "Turn") -> dict[str, Any]:
    """A move as JSON: its number, player, colour, canonical text, what it captured and drew
    (the tile drawn is null when unknown or when nothing was drawn)."""
    captured = None
    if turn.captured is not None:
        captured = {"color": turn.captured[0], "tile": tile_name(turn.captured[1])}
    return {
        "number": turn.number,
        "player": turn.player.name,
        "color": turn.color,
        "move": str(turn.move),
        "captured": captured,
        "drawn": None if turn.drawn is None else tile_name(turn.drawn),
    }
