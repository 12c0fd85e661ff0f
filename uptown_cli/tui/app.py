"""``uptown play``: the game on a full-screen board (Textual). Click a tile of your rack (or
press its number), the squares it may go to light up, click one (or move the cursor with the
arrows and press Enter); or type the move (``m``), with completion. The bots answer in a
worker thread, a thinking line showing, so that the screen stays live. ``h`` a hint, ``u``
takes back, ``?`` the keys, ``q`` quits: every move is written when it is played
(``session``)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, Input, LoadingIndicator, Static
from textual.worker import Worker, WorkerState

from ..engine.geometry import shown_color
from ..engine.notation import Move, Placement
from ..errors import UptownError
from ..i18n import _
from ..engine.scoring import Standing
from ..pictures.text import turn_text, winner_text
from ..pictures.tile_names import move_label
from .board import SHAPES, Board, RackTile, Square, bind_keys, regions_text
from .plain import keys_text, taken_text, thinking_text, waiting_text
from .session import BOT, HAND, OVER, WAIT, Session, typed_move

__all__ = ["PlayApp"]

CSS = """
Screen { layout: vertical; }
#top { height: 1; }
#status { width: 1fr; text-style: bold; }
#thinking { width: 12; height: 1; display: none; }
#thinking.busy { display: block; }
#main { height: 1fr; }
#left { width: 59; }
#board { layout: grid; grid-size: 10 10; grid-columns: 3 6 6 6 6 6 6 6 6 6; grid-rows: 1;
         width: 57; height: 10; }
#board:focus { border: none; }
#regions { color: $text-muted; height: 3; margin: 0 0 0 3; }
#message { height: auto; margin: 1 0 0 0; }
#message.refused { color: $error; }
#right { width: 1fr; }
#players { height: auto; }
.rack { height: 1; margin: 1 0 0 0; }
.rack Static { width: auto; }
.rack .tile { width: 5; margin: 0 1 0 0; }
#moves { height: 1fr; border-top: solid $secondary; }
#move { dock: bottom; }
"""


class KeysScreen(ModalScreen[None]):
    """The keys, over the board, until any key."""

    CSS = "KeysScreen { align: center middle; } #keys { width: 70; height: auto; " \
          "border: round $accent; padding: 1 2; background: $panel; }"

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        yield Static("\n".join(self.lines), id="keys")

    def on_key(self) -> None:
        self.dismiss()

    def on_click(self) -> None:
        self.dismiss()


def players_text(standings: list[Standing]) -> Text:
    """The standings as the narrow column beside the board shows them, best first, each
    player's colours as their shapes."""
    lines = [f"{'':2} {'':2} {_('player'):<12}{_('score'):>6}{_('groups'):>7}{_('captures'):>9}"]
    lines += [f"{s.rank:>2} {''.join(SHAPES[c] for c in s.colors):<2} {s.name[:12]:<12}"
              f"{s.score:>6}{s.groups:>7}{s.captures:>9}"
              for s in sorted(standings, key=lambda s: s.rank)]
    return Text("\n".join(lines))


def app_keys() -> list[str]:
    """The keys of the board, in the language in use."""
    return [_("Mouse: click a tile of your rack, then a square that lights up."),
            _("Keys: 1 to 5 choose a tile of your first rack, 6 to 0 of your second; the "
              "arrows move the cursor; Enter places the tile there."),
            _("m: type a move, with completion (the right arrow takes it); Escape goes back "
              "to the board."), *keys_text()[1:]]


class PlayApp(App[None]):
    """The game of ``session`` on the board."""

    CSS = CSS
    TITLE = "uptown"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("escape", "to_board", show=False),
                *[Binding(str((n + 1) % 10), f"choose({n})", show=False) for n in range(10)]]

    def __init__(self, session: Session, **options: Any) -> None:
        super().__init__(**options)
        bind_keys(self, [("h", "hint", _("hint")), ("u", "take_back", _("take back")),
                         ("question_mark", "keys", _("keys")), ("m", "type_move", _("type a move")),
                         ("q", "quit_game", _("quit"))])
        self.session = session
        self.chosen: tuple[str, int] | None = None
        self.message = ""
        self.refused = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="status")
            yield LoadingIndicator(id="thinking")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Board()
                yield Static(Text(regions_text()), id="regions")
                yield Static(id="message")
            with Vertical(id="right"):
                yield Static(id="players")
                yield Vertical(id="racks")
                with VerticalScroll(id="moves"):
                    yield Static(id="move-list")
        yield Input(placeholder=_("m: type a move (7 B7)"), id="move")
        yield Footer()

    def on_mount(self) -> None:
        """The board focused and drawn; the bots answer if it is their turn."""
        self.query_one(Board).focus()
        self.redraw()
        self.answer()

    # -- drawing -------------------------------------------------------------------------

    def redraw_board(self) -> None:
        """The board drawn again: the position, the chosen tile's squares, the cursor."""
        targets = self._targets(self.session.legal())
        game = self.session.game
        self.query_one(Board).show(game, targets, [sq for sq in targets if game.at(sq)])

    def redraw(self) -> None:
        """Everything drawn again from the session."""
        session = self.session
        turn = session.turn()
        legal = session.legal()
        self.redraw_board()
        self.query_one("#status", Static).update(self._status(turn))
        self.query_one("#message", Static).update(self.message)
        self.query_one("#message").set_class(self.refused, "refused")
        self.query_one("#players", Static).update(players_text(session.standings()))
        self._racks()
        history = session.game.history
        self.query_one("#move-list", Static).update(
            "\n".join(f"{t.number:>3}. {turn_text(t)}" for t in history) or _("No move yet."))
        self.query_one("#moves", VerticalScroll).scroll_end(animate=False)
        field = self.query_one("#move", Input)
        field.suggester = SuggestFromList(sorted(self._typed(legal)), case_sensitive=False)
        field.disabled = turn != HAND

    def _status(self, turn: str) -> str:
        session = self.session
        if turn == OVER:
            return winner_text(session.standings())
        mover = session.mover
        assert mover is not None
        if turn == BOT:
            return thinking_text(session)
        if turn == WAIT:
            return waiting_text(session)
        return _("{name} to move: click a tile of your rack, then a square.").format(
            name=mover.name)

    def _racks(self) -> None:
        """The racks drawn: their tiles changed in place, made anew only when a rack or a
        tile comes or goes (so that a click never lands on a tile being replaced)."""
        racks = self.session.racks()
        shown = list(self.query(RackTile))
        if [(t.color, t.index) for t in shown] == [(c, i) for c, tiles in racks.items()
                                                  for i in range(len(tiles))]:
            for tile in shown:
                tile.tile = racks[tile.color][tile.index]
                tile.chosen = self.chosen == (tile.color, tile.index)
                tile.refresh()
            return
        box = self.query_one("#racks", Vertical)
        box.remove_children()
        for color, tiles in racks.items():
            row = Horizontal(classes="rack")
            box.mount(row)
            row.mount(Static(f"{shown_color(color):<9}"))
            row.mount_all(RackTile(color, i, tile, self.chosen == (color, i))
                          for i, tile in enumerate(tiles))

    def _typed(self, legal: list[tuple[str, Move]]) -> set[str]:
        """The legal moves as they may be typed: ``7 B7``, and with the rack first."""
        return {text for color, move in legal
                for text in (move_label(move), f"{shown_color(color)} {move_label(move)}")}

    def _targets(self, legal: list[tuple[str, Move]]) -> list[int]:
        """The squares the chosen tile may go to."""
        tile = self._chosen_tile()
        if tile is None:
            return []
        color, face = tile
        return [move.square for c, move in legal
                if c == color and not move.is_pass and move.tile == face]

    def _chosen_tile(self) -> tuple[str, int] | None:
        if self.chosen is None:
            return None
        color, index = self.chosen
        tiles = self.session.racks().get(color, [])
        return (color, tiles[index]) if index < len(tiles) else None

    def say(self, message: str, refused: bool = False) -> None:
        """Show ``message`` under the board (in the error colour when ``refused``), all drawn again."""
        self.message, self.refused = message, refused
        self.redraw()

    # -- playing -------------------------------------------------------------------------

    def on_rack_tile_chosen(self, event: RackTile.Chosen) -> None:
        """A rack tile clicked: it is the chosen tile."""
        self.chosen = (event.color, event.index)
        self.say("")

    def on_square_picked(self, event: Square.Picked) -> None:
        """A square clicked: the cursor goes there and the chosen tile is placed."""
        self.query_one(Board).cursor = event.square
        self.place(event.square)

    def on_board_placed(self, event: Board.Placed) -> None:
        """Enter at the cursor places the chosen tile; a cursor moved is drawn."""
        if event.square < 0:
            self.redraw_board()
        else:
            self.place(event.square)

    def place(self, square: int) -> None:
        """The chosen tile played on ``square`` (a move refused says why)."""
        tile = self._chosen_tile()
        if self.session.turn() != HAND:
            return
        if tile is None:
            self.say(_("Choose a tile of your rack first (click it, or press its number)."),
                     refused=True)
            return
        color, face = tile
        held = self.session.game.at(square)
        self.play(color, Placement(face, square, held is not None))

    def play(self, rack: str | None, move: Move) -> None:
        """Play ``move`` from ``rack`` for the player here (a refusal said), then the bots answer."""
        try:
            played = self.session.play(rack, move)
        except UptownError as exc:
            self.say(_("Refused: {reason}").format(reason=exc), refused=True)
            return
        self.chosen = None
        self.say(_("Move {number}: {text}").format(number=played.turn.number,
                                                   text=turn_text(played.turn)))
        self.answer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A move typed and entered: played, or its mistake said."""
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        try:
            rack, move = typed_move(text)
        except UptownError as exc:
            self.say(_("Refused: {reason}").format(reason=exc), refused=True)
            return
        self.query_one(Board).focus()
        self.play(rack, move)

    def answer(self) -> None:
        """The bots to move play, in a worker thread, the screen showing that they think."""
        if self.session.turn() != BOT:
            return
        self.query_one("#thinking").add_class("busy")
        self.run_worker(self._bots_play, thread=True, exclusive=True, group="bots")

    def _bots_play(self) -> str:
        """(In the worker.) Every bot to move plays in turn; what the last did, as said."""
        said = ""
        while self.session.turn() == BOT:
            played = self.session.bot_turn()
            said = _("Move {number}: {text}").format(number=played.turn.number,
                                                     text=turn_text(played.turn))
            self.call_from_thread(self.say, said)
        return said

    def _hint(self) -> str:
        """(In the worker.) The strongest bot's move for the player, as said."""
        hint = self.session.hint()
        racks = self.session.racks()
        self.chosen = (hint.rack, racks[hint.rack].index(hint.move.tile)) \
            if not hint.move.is_pass else None
        return _("{bot} suggests: {move}").format(
            bot=hint.bot, move=f"{shown_color(hint.rack)} {move_label(hint.move)}")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A bot's move or a hint done in its worker: said; an error, refused."""
        worker = event.worker
        if worker.state == WorkerState.SUCCESS:
            self.query_one("#thinking").remove_class("busy")
            self.say(str(worker.result))
        elif worker.state == WorkerState.ERROR:
            self.query_one("#thinking").remove_class("busy")
            self.say(_("Refused: {reason}").format(reason=worker.error), refused=True)

    # -- keys ----------------------------------------------------------------------------

    def action_choose(self, number: int) -> None:
        """Keys 1 to 0: choose the tile of that place of the racks."""
        racks = list(self.session.racks())
        rack, index = divmod(number, 5)
        if self.session.turn() == HAND and rack < len(racks):
            tiles = self.session.racks()[racks[rack]]
            if index < len(tiles):
                self.chosen = (racks[rack], index)
                self.say("")

    def action_hint(self) -> None:
        """Key h: a hint, chosen in a worker."""
        if self.session.turn() == HAND:
            self.query_one("#thinking").add_class("busy")
            self.run_worker(self._hint, thread=True, exclusive=True, group="hint")

    def action_take_back(self) -> None:
        """Key u: take back the last move played here and the answers to it (not while the
        bots think: their worker plays on the session)."""
        if self.session.turn() == BOT:
            return
        try:
            taken = self.session.take_back()
        except UptownError as exc:
            self.say(_("Refused: {reason}").format(reason=exc), refused=True)
            return
        self.chosen = None
        self.say(taken_text(taken.taken))

    def action_keys(self) -> None:
        """Key ?: the keys, over the board."""
        self.push_screen(KeysScreen(app_keys()))

    def action_type_move(self) -> None:
        """Key m: type a move."""
        field = self.query_one("#move", Input)
        if not field.disabled:
            field.focus()

    def action_to_board(self) -> None:
        """Escape: back to the board."""
        self.query_one(Board).focus()

    def action_quit_game(self) -> None:
        """Key q: quit (every move is written already)."""
        self.exit()
