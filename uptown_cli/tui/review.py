"""``uptown review``: step through a game with the arrow keys, as lichess's analysis board
does: the board after each move, the evaluation graph (each mover's chance to win after their
move, in their colour) with the current move marked, the mover's chances before and after
with whose knowledge they come from, why a marked move was worse (``analysis.reasons``), the
best line, the better move's board (``b``), and "play from here" against a bot (``p``). A game
not annotated is reviewed first, in a worker thread."""

from __future__ import annotations

import os
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from ..engine.game import Game
from ..errors import UptownError
from ..i18n import _
from ..pictures.svg import FILLS
from ..pictures.tile_names import written_move_label
from ..records.annotations import parse_line_move
from ..turns.bot_games import DEFAULT_LEVEL, LEVELS, game_from
from .board import Board, bind_keys
from .plain import review_text
from .studied import Study

__all__ = ["ReviewApp", "graph_text"]

CSS = """
#status { height: 1; text-style: bold; }
#main { height: 1fr; }
#left { width: 59; }
#board { layout: grid; grid-size: 10 10; grid-columns: 3 6 6 6 6 6 6 6 6 6; grid-rows: 1;
         width: 57; height: 10; }
#graph { height: 3; margin: 1 0 0 0; }
#right { width: 1fr; padding: 0 1; }
#said { height: auto; }
#message { height: auto; margin: 1 0 0 0; color: $warning; }
"""

BARS = " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
"""A chance from 0 to 1 as one character of the graph."""

GRAPH_WIDTH = 56


def graph_text(game: Game, study: Study, current: int, width: int = GRAPH_WIDTH) -> Text:
    """The evaluation graph: one column a move (the moves around ``current`` when there are
    more than ``width``), the mover's chance to win after it as a bar in the mover's colour, a
    mark under a marked move, and ``^`` under the current move."""
    count = len(study.reviews)
    first = max(0, min(current - width // 2, count - width))
    bars, marks = Text(), Text()
    for number in range(first + 1, min(count, first + width) + 1):
        review = study.reviews[number - 1]
        color = game.history[number - 1].color
        bar = BARS[round(review.after.win * (len(BARS) - 1))]
        bars.append(bar, style=f"{FILLS[color]}{' reverse' if number == current else ''}")
        mark = "^" if number == current else (review.mark or " ")[0]
        marks.append(mark, style="bold" if number == current else "bold #ff5555")
    return Text.assemble(bars, "\n", marks, "\n",
                         _("Each bar: the mover's chance to win after their move, as they "
                           "saw it."), style="")


class ReviewApp(App[str | None]):
    """The review of ``study``; it exits with the path of a game to play from a position
    (``p``), or None."""

    CSS = CSS
    TITLE = "uptown review"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("home", "go(0)", show=False), Binding("end", "go(-1)", show=False)]

    def __init__(self, study: Study, **options: Any) -> None:
        super().__init__(**options)
        self.study = study
        self.current = study.moves if study.reviews else 0
        self.better, self.message = False, ""
        bind_keys(self, [("left", "step(-1)", _("previous")), ("right", "step(1)", _("next")),
                         ("b", "better", _("better move")), ("p", "play_here", _("play from here")),
                         ("q", "quit", _("quit"))])

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                board = Board()
                board.can_focus = False  # the arrows step through the moves here
                yield board
                yield Static(id="graph")
            with Vertical(id="right"):
                yield Static(id="said")
                yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        """Drawn; a game not annotated is reviewed in a worker."""
        self.redraw()
        if not self.study.annotated:
            self.run_worker(self._analyse, thread=True, exclusive=True)

    def _analyse(self) -> None:
        """(In the worker.) Review every move, the screen told of each."""
        for reviewed in self.study.analyse():
            if reviewed.number == self.study.moves:
                self.current = reviewed.number
            self.call_from_thread(self.redraw)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A review that failed says why."""
        if event.worker.state == WorkerState.ERROR:
            self.message = str(event.worker.error)
            self.redraw()

    def redraw(self) -> None:
        """Everything drawn again for the current move."""
        study, number = self.study, self.current
        reviewed = len(study.reviews)
        status = self.query_one("#status", Static)
        said = self.query_one("#said", Static)
        if reviewed < study.moves:
            status.update(_("Analysing move {number} of {count}, from what each mover could "
                            "know...").format(number=reviewed + 1, count=study.moves))
        if number == 0 or number > reviewed:
            self.query_one(Board).show(study.position(number))
            if reviewed == study.moves:
                status.update(_("The start: {count} moves to step through with the arrows.")
                              .format(count=study.moves))
            said.update("")
        else:
            lines = review_text(study, number)
            status.update(lines[0])
            said.update(Text("\n\n".join(lines[1:])))
            self.query_one(Board).show(self._position())
        self.query_one("#graph", Static).update(graph_text(study.game, study, number))
        self.query_one("#message", Static).update(self.message)

    def _position(self) -> Game:
        """The board shown: after the current move, or (``b``) after the better move."""
        number = self.current
        review = self.study.reviews[number - 1]
        if not self.better or review.best is None:
            return self.study.position(number)
        game = self.study.position(number - 1)
        color, move = parse_line_move(review.best)
        game.play(move, color)  # type: ignore[arg-type]
        return game

    def action_step(self, step: int) -> None:
        """The arrows: the previous or the next move."""
        self.action_go(self.current + step)

    def action_go(self, number: int) -> None:
        """Move ``number`` (0: the start; -1: the last reviewed)."""
        last = len(self.study.reviews)
        self.current = last if number < 0 else max(0, min(last, number))
        self.better, self.message = False, ""
        self.redraw()

    def action_better(self) -> None:
        """Key b: the better move's board, and back."""
        if 0 < self.current <= len(self.study.reviews):
            review = self.study.reviews[self.current - 1]
            self.better = not self.better and review.best is not None
            self.message = _("The board after the better move: {move} (b again: the move "
                             "played).").format(move=written_move_label(review.best or "")) \
                if self.better else ""
            self.redraw()

    def action_play_here(self) -> None:
        """A new game from the position shown, the player to move there against the bots."""
        stem = os.path.splitext(self.study.path)[0]
        path, tried = f"{stem}-from-{self.current}.yaml", 1
        while os.path.lexists(path):
            tried += 1
            path = f"{stem}-from-{self.current}-{tried}.yaml"
        try:
            game_from(self.study.record, self.current, path, LEVELS[DEFAULT_LEVEL])
        except UptownError as exc:
            self.message = str(exc)
            self.redraw()
            return
        self.exit(path)
