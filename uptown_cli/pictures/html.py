"""A game as one self-contained HTML page that replays it: no network, no other file.

The page holds the board drawn by ``pictures.svg`` (showing the final position, so it reads
even without JavaScript), the moves, and for every position the standings and the racks as
JSON. A small script places the tiles of the position asked for, reusing the tile parts the
SVG defines. Every text from the record is escaped. Pure functions; nothing here reads files.
"""

import base64
import json
from typing import TYPE_CHECKING, Any

from ..engine.geometry import SQUARE_NAMES, TILE_NAMES, shown_color
from ..i18n import _, current_language, names_list
from .text import turn_text, winner_text
from .tile_names import variant_label
from ..engine.scoring import standings
from ..engine.sha256 import sha256
from ..records.annotations import MARK_WORDS
from .svg import FILLS, board_svg, face_id, square_origin, xml_text

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..records.entries import MoveNotes
    from ..records.schema import Record

__all__ = ["page_start", "replay_html"]


def page_start(title: str, style: str, script: str | None = None) -> str:
    """A page up to its body: in the language in use, allowed to load nothing and to run
    nothing but ``script`` (``content_policy``), under ``title`` (escaped), with ``style``."""
    return f"""<!DOCTYPE html>
<html lang="{current_language().replace("_", "-")}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{content_policy(style, script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="uptown">
<title>{xml_text(title)}</title>
<style>{style}</style>
</head>
"""


def content_policy(style: str, script: str | None = None) -> str:
    """A page's Content-Security-Policy: it may load nothing, and only its own style and
    script (named by their hashes; no script at all without ``script``) apply, so even a
    stray script in the page could not run."""

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(sha256(text.encode()).digest()).decode() + "'"

    scripts = "'none'" if script is None else digest(script)
    return (
        f"default-src 'none'; style-src {digest(style)}; script-src {scripts}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


STYLE = """
body{font-family:"DejaVu Sans",Verdana,Arial,Helvetica,sans-serif;margin:1em;color:#111;background:#fff}
h1{font-size:1.4em;margin:0 0 .2em}
.about{margin:0 0 .8em;color:#333}
main{display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start}
#board{flex:1 1 460px;max-width:620px}
#board svg{width:100%;height:auto;display:block}
aside{flex:1 1 320px;max-width:520px}
nav{display:flex;gap:.3em;align-items:center;flex-wrap:wrap}
nav button{font-size:1.1em;min-width:2.6em;padding:.25em .5em}
#status{font-weight:bold;margin-left:.4em}
#turn{min-height:1.4em;margin:.5em 0}
table{border-collapse:collapse;margin:.4em 0 .8em}
th,td{padding:.15em .5em;text-align:right;border-bottom:1px solid #ccc}
th:nth-child(2),td:nth-child(2){text-align:left}
tr.to-move td:nth-child(2)::after{content:" \\25C0  to move";font-weight:normal;font-size:.85em}
tr.to-move{font-weight:bold}
.chip{width:1.2em;height:1.2em;vertical-align:-.25em;margin-right:.15em}
.rack{margin:.25em 0}
.rack svg{width:2em;height:2em;vertical-align:middle;margin-right:.1em}
#moves{position:relative;max-height:18em;overflow:auto;border:1px solid #ccc;padding:.3em 0 .3em 3.2em;margin:.4em 0}
#moves button{border:0;background:none;font:inherit;text-align:left;cursor:pointer;padding:.05em .3em;width:100%}
#moves button[aria-current=step]{background:#111;color:#fff}
.hint{color:#555;font-size:.85em}
#graph{width:100%;max-width:640px;height:auto;display:block;margin:.4em 0}
#graph [data-move]{cursor:pointer}
#graph text{font-size:11px;fill:#333}
.mark{font-weight:bold;color:#B00020}
@media print{nav,.hint,#moves{display:none}}
"""

SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var SVG = "http://www.w3.org/2000/svg";
  var board = document.querySelector("#board svg");
  var tiles = board.querySelector(".tiles"), marks = board.querySelector(".marks");
  var last = data.turns.length, step = last;
  var moveButtons = document.querySelectorAll("#moves button");
  var standingBody = document.querySelector("#standings tbody"), standingRows = [];
  standingBody.querySelectorAll("tr").forEach(function (row) {
    standingRows[parseInt(row.getAttribute("data-seat"), 10)] = row;
  });
  var result = document.getElementById("result");

  function svg(name, attrs) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    return node;
  }
  function tileParts(parent, color, tile) {
    parent.appendChild(svg("use", {href: "#tile-" + color}));
    if (tile !== null) parent.appendChild(svg("use", {href: "#face-" + data.tiles[tile][0]}));
    return parent;
  }
  function placeTile(sq, color, tile) {
    var at = data.squares[sq];
    tiles.appendChild(tileParts(svg("g", {"class": "tile", "data-square": at[0], "data-color": color,
      "data-tile": data.tiles[tile][1], transform: "translate(" + at[1] + " " + at[2] + ")"}), color, tile));
  }
  function mark(name, sq) {
    var at = data.squares[sq];
    marks.appendChild(svg("use", {"class": name, "data-square": at[0], href: "#" + name, x: at[1], y: at[2]}));
  }
  function chip(color, tile) {
    return tileParts(svg("svg", {viewBox: "0 0 54 54", "aria-hidden": "true"}), color, tile);
  }

  function show(n) {
    step = Math.max(0, Math.min(last, n));
    var held = new Array(81).fill(null), captureAt = null, i;
    for (i = 0; i < step; i++) {
      var turn = data.turns[i];
      if (turn.sq !== null) held[turn.sq] = [turn.color, turn.tile];
      if (turn.captured) captureAt = turn.sq;
    }
    tiles.replaceChildren();
    marks.replaceChildren();
    held.forEach(function (h, sq) { if (h) placeTile(sq, h[0], h[1]); });
    var lastTurn = step ? data.turns[step - 1] : null;
    if (lastTurn && lastTurn.sq !== null) mark("mark-last", lastTurn.sq);
    if (captureAt !== null) mark("mark-capture", captureAt);
    document.body.setAttribute("data-step", step);
    document.getElementById("status").textContent =
      data.words.status.replace("{step}", step).replace("{last}", last);
    document.getElementById("turn").textContent = step ?
      data.words.turn.replace("{step}", step).replace("{move}", moveButtons[step].textContent) :
      data.words.start;
    var position = data.positions[step];
    standingRows.forEach(function (row, p) {
      var cells = row.querySelectorAll("td");
      position.standings[p].forEach(function (value, k) { cells[k === 0 ? 0 : k + 1].textContent = value; });
      row.classList.toggle("to-move", position.to_move === p);
    });
    standingRows.map(function (row, p) { return [position.standings[p][0], p, row]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .forEach(function (ranked) { standingBody.appendChild(ranked[2]); });
    if (result) result.hidden = step !== last;
    showRacks(position);
    moveButtons.forEach(function (button, k) {
      if (k === step) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    keepInView(moveButtons[step].parentNode);
    document.getElementById("first").disabled = document.getElementById("prev").disabled = step === 0;
    document.getElementById("last").disabled = document.getElementById("next").disabled = step === last;
    var cursor = document.getElementById("graph-cursor");
    if (cursor) {
      var x = step ? document.querySelector('#graph [data-move="' + step + '"]') : null;
      cursor.setAttribute("visibility", x ? "visible" : "hidden");
      if (x) { cursor.setAttribute("x1", x.getAttribute("cx")); cursor.setAttribute("x2", x.getAttribute("cx")); }
    }
    if (location.hash !== "#move=" + step) history.replaceState(null, "", "#move=" + step);
  }
  function keepInView(item) {
    var list = item.parentNode, top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
  function showRacks(position) {
    var racks = document.getElementById("racks");
    if (!position.racks) return;
    racks.replaceChildren();
    data.colors.forEach(function (color, c) {
      var line = document.createElement("div");
      line.className = "rack";
      line.appendChild(document.createTextNode(data.colorNames[c] + " (" + data.owners[c] + "): "));
      position.racks[c].forEach(function (tile) { line.appendChild(chip(color, tile)); });
      line.appendChild(document.createTextNode(" " + data.words.bag.replace("{count}", position.bags[c])));
      racks.appendChild(line);
    });
  }
  function fromHash() {
    var found = /^#move=(\\d+)$/.exec(location.hash);
    return found ? parseInt(found[1], 10) : null;
  }

  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(step - 1); };
  document.getElementById("next").onclick = function () { show(step + 1); };
  document.getElementById("last").onclick = function () { show(last); };
  moveButtons.forEach(function (button, k) { button.onclick = function () { show(k); }; });
  document.querySelectorAll("#graph [data-move]").forEach(function (point) {
    point.onclick = function () { show(parseInt(point.getAttribute("data-move"), 10)); };
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var to = {ArrowLeft: step - 1, ArrowUp: step - 1, ArrowRight: step + 1, ArrowDown: step + 1,
              Home: 0, End: last}[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  });
  window.addEventListener("hashchange", function () {
    var wanted = fromHash();
    if (wanted !== null && wanted !== step) show(wanted);
  });
  var wanted = fromHash();
  show(wanted === null ? last : wanted);
})();
"""


def json_for_script(data: Any) -> str:
    """``data`` as JSON that cannot end the ``<script>`` element holding it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def positions(game: "Game", variant: str) -> list[dict[str, Any]]:
    """For every position of ``game`` (after 0, 1, ... moves): the standings, whose turn it is
    and the racks and bag sizes when known. The game is rewound and played forward again."""
    played = game.rewind()
    colors = game.colors
    out: list[dict[str, Any]] = []
    for index in range(len(played) + 1):
        if index:
            turn = played[index - 1]
            game.redo(turn)
        racks, bags = game.racks, game.bag_sizes
        out.append({
            "standings": [[s.rank, s.groups, s.captures, s.score] for s in standings(game, variant)],
            "to_move": None if game.to_move is None else game.players.index(game.to_move),
            "racks": None if racks is None else [racks[c] for c in colors],
            "bags": None if bags is None else [bags[c] for c in colors],
        })
    return out


def replay_data(game: "Game", variant: str) -> dict[str, Any]:
    """What the page's script needs: squares, tiles, the moves and every position."""
    squares = [[name, *square_origin(sq)] for sq, name in enumerate(SQUARE_NAMES)]
    turns = [
        {
            "color": turn.color,
            "sq": None if turn.move.is_pass else turn.move.square,
            "tile": None if turn.move.is_pass else turn.move.tile,
            "captured": turn.captured is not None,
        }
        for turn in game.history
    ]
    return {
        "squares": squares,
        "tiles": [[face_id(t), name] for t, name in enumerate(TILE_NAMES)],
        "colors": list(game.colors),
        "colorNames": [shown_color(c) for c in game.colors],
        "owners": [game.owner(c).name for c in game.colors],
        "words": {"status": _("Move {step} of {last}"), "turn": _("Move {step}: {move}"),
                  "start": _("The start: no tile placed yet."), "bag": _("bag {count}")},
        "turns": turns,
        "positions": positions(game, variant),
    }


def _chip(color: str) -> str:
    return (
        f'<svg class="chip" viewBox="0 0 54 54" aria-label="{xml_text(shown_color(color))}">'
        f'<use href="#tile-{color}"/></svg>'
    )


def _standings_table(game: "Game", variant: str) -> str:
    """The players with the standings as they are now, best first (the script fills in each
    step's and puts them in its order: each row keeps its player's seat)."""
    ranked = sorted(enumerate(zip(game.players, standings(game, variant))),
                    key=lambda seated: seated[1][1].rank)
    rows = "".join(
        f'<tr data-seat="{seat}"><td>{s.rank}</td>'
        f"<td>{''.join(_chip(c) for c in p.colors)}{xml_text(p.name)}</td>"
        f"<td>{s.groups}</td><td>{s.captures}</td><td>{s.score}</td></tr>"
        for seat, (p, s) in ranked
    )
    return (
        f'<table id="standings"><thead><tr><th>{_("rank")}</th><th>{_("player")}</th>'
        f'<th>{_("groups")}</th><th>{_("captures")}</th><th>{_("score")}</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


def _result_line(game: "Game", variant: str) -> str:
    """Who won, once the game is over (shown at its last move), else nothing."""
    if not game.finished:
        return ""
    return f'<p id="result"><strong>{xml_text(winner_text(standings(game, variant)))}</strong></p>\n'


def _move_list(game: "Game", notes: "list[MoveNotes | None]") -> str:
    """The moves as buttons, each with its mark (``?!``, ``?``, ``??``...) when annotated."""
    start = xml_text(_("start"))  # outside the f-string, where Babel's extraction finds it
    items = [f'<li value="0"><button type="button">{start}</button></li>']
    for turn, note in zip(game.history, notes):
        mark = "" if note is None or note.mark is None else f' <span class="mark">{note.mark}</span>'
        items.append(f'<li value="{turn.number}"><button type="button">'
                     f'{xml_text(turn_text(turn))}{mark}</button></li>')
    return f'<ol id="moves" start="0">{"".join(items)}</ol>'


GRAPH_WIDTH, GRAPH_HEIGHT = 640, 180
_LEFT, _RIGHT, _TOP, _BOTTOM = 40, 10, 12, 40


def evaluation_graph(game: "Game", notes: "list[MoveNotes | None]") -> str:
    """An inline SVG of the chance to win after each annotated move, from its mover's point of
    view: one line per player through their moves, a point per move (clicked, it shows that
    move), marked moves ringed and labelled; empty when no move carries an evaluation."""
    points: dict[int, list[tuple[int, MoveNotes]]] = {}
    for turn, note in zip(game.history, notes):
        if note is not None and note.eval is not None:
            points.setdefault(game.players.index(turn.player), []).append((turn.number, note))
    if not points:
        return ""
    last = max(game.ply, 2)
    width = GRAPH_WIDTH - _LEFT - _RIGHT
    height = GRAPH_HEIGHT - _TOP - _BOTTOM

    def x(number: int) -> float:
        return round(_LEFT + (number - 1) * width / (last - 1), 1)

    def y(win: float) -> float:
        return round(_TOP + (1 - win) * height, 1)

    label = xml_text(_("Chance to win after each move, from the mover's point of view"))
    parts = [f'<svg id="graph" viewBox="0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}" role="img" '
             f'aria-label="{label}">']
    for level in (0, 0.5, 1):
        parts.append(f'<line x1="{_LEFT}" x2="{GRAPH_WIDTH - _RIGHT}" y1="{y(level)}" y2="{y(level)}" '
                     'stroke="#ccc"/>'
                     f'<text x="{_LEFT - 4}" y="{y(level) + 4}" text-anchor="end">{round(level * 100)}%</text>')
    parts.append(f'<line id="graph-cursor" x1="0" x2="0" y1="{_TOP}" y2="{_TOP + height}" '
                 'stroke="#111" stroke-dasharray="3 3" visibility="hidden"/>')
    legend_x = _LEFT
    for seat, seated in sorted(points.items()):
        player = game.players[seat]
        fill = FILLS[player.colors[0]]
        path = " ".join(f"{x(n)},{y(note.eval[1])}" for n, note in seated)  # type: ignore[index]
        parts.append(f'<polyline points="{path}" fill="none" stroke="{fill}" stroke-width="2"/>')
        for n, note in seated:
            assert note.eval is not None  # only notes with an evaluation are points
            title = (_("Move {number}: {name}, {percent}% to win") if note.mark is None else
                     _("Move {number}: {name}, {percent}% to win, {mark} {judgement}")).format(
                number=n, name=player.name, percent=round(100 * note.eval[1]), mark=note.mark,
                judgement=_(MARK_WORDS[note.mark]) if note.mark is not None else None)
            radius = 5 if note.mark is not None else 3
            ring = ' stroke="#111" stroke-width="1.5"' if note.mark is not None else ""
            parts.append(f'<circle data-move="{n}" cx="{x(n)}" cy="{y(note.eval[1])}" r="{radius}" '
                         f'fill="{fill}"{ring}><title>{xml_text(title)}</title></circle>')
            if note.mark is not None:
                parts.append(f'<text x="{x(n)}" y="{y(note.eval[1]) - 8}" text-anchor="middle" '
                             f'class="graph-mark">{xml_text(note.mark)}</text>')
        parts.append(f'<rect x="{legend_x}" y="{GRAPH_HEIGHT - 14}" width="10" height="10" fill="{fill}"/>'
                     f'<text x="{legend_x + 14}" y="{GRAPH_HEIGHT - 5}">{xml_text(player.name)}</text>')
        legend_x += 20 + 7 * len(player.name)
    first, end = (xml_text(_("move {number}").format(number=n)) for n in (1, game.ply))
    parts.append(f'<text x="{_LEFT}" y="{GRAPH_HEIGHT - 22}">{first}</text>'
                 f'<text x="{GRAPH_WIDTH - _RIGHT}" y="{GRAPH_HEIGHT - 22}" text-anchor="end">'
                 f'{end}</text></svg>')
    return "".join(parts)


def about_line(game: "Game", record: "Record") -> str:
    """Variant, date and the other text fields, and who plays which colours."""
    fields = [variant_label(record.variant)] + [f"{k} {v}" for k, v in record.fields.items()
                                                if k != "event"]
    players = ", ".join(f"{p.name} ({names_list(map(shown_color, p.colors))})"
                        for p in game.players)
    return " \u00b7 ".join([*fields, players])


def replay_html(game: "Game", record: "Record", title: str) -> str:
    """The whole page for ``game`` (replayed from ``record``, whose variant, fields and
    players' names it shows) under ``title``."""
    data = replay_data(game, record.variant)
    notes = [entry.notes for entry in record.moves[:game.ply]]
    graph = evaluation_graph(game, notes)
    rack_note = "" if game.knows_racks else _("Racks unknown: the record has no seed.")
    style = STYLE.replace("to move", "".join(c for c in _("to move") if c not in '"\\'))
    first, previous, following, last = map(xml_text, (
        _("First (Home)"), _("Previous (\u2190)"), _("Next (\u2192)"), _("Last (End)")))
    keys = xml_text(_(
        "Keys: \u2190 \u2192 step, Home and End jump; #move=N in the address opens move N.\n"
        "Tiles: face, and a corner shape per colour (red circle, blue square, green triangle, "
        "yellow diamond,\norange cross); thick frame: last move; \u00d7 badge: last capture."))
    board = board_svg(game, record.variant, title, panel=False)
    return f"""{page_start(title, style, SCRIPT)}<body data-step="{game.ply}">
<h1>{xml_text(title)}</h1>
<p class="about">{xml_text(about_line(game, record))}</p>
<main>
<div id="board">{board}</div>
<aside>
<nav>
<button type="button" id="first" title="{first}">|&#x25C0;</button>
<button type="button" id="prev" title="{previous}">&#x25C0;</button>
<button type="button" id="next" title="{following}">&#x25B6;</button>
<button type="button" id="last" title="{last}">&#x25B6;|</button>
<span id="status">{xml_text(_("Move {step} of {last}").format(step=game.ply, last=game.ply))}</span>
</nav>
<p id="turn"></p>
<p class="hint">{keys}</p>
{_result_line(game, record.variant)}{_standings_table(game, record.variant)}
<div id="racks">{rack_note}</div>
{graph}
{_move_list(game, notes)}
</aside>
</main>
<script type="application/json" id="replay-data">{json_for_script(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
