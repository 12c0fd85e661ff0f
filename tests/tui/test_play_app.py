"""``uptown play`` on the full-screen board, driven headless by Textual's Pilot: whole games
by clicks and by keys, each round's record what ``uptown move`` writes; a takeback, a hint,
a refused move, resuming after quitting, Spanish. Every test runs under a timeout."""

import asyncio

import pytest

from uptown_cli.engine.geometry import SQUARE_NAMES
from uptown_cli.i18n import language
from uptown_cli.tui.app import PlayApp
from uptown_cli.tui.session import Session
from uptown_cli.turns.bot_games import BotSeat, new_game_against

SIZE = (100, 30)
LIMIT = 240
"""Seconds a whole game may take before the test fails (the bots play greedy)."""


def run(test, path, limit=60):
    """Run ``test(pilot, app)`` on the board of the game at ``path``, failing after ``limit``
    seconds."""
    async def body():
        app = PlayApp(Session(str(path)))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await asyncio.wait_for(test(pilot, app), limit)
        return app

    return asyncio.run(body())


def run_unwritten(test, path):
    """``run(test, path)``, the file left as it was."""
    before = path.read_text()
    run(test, path)
    assert path.read_text() == before


@pytest.fixture
def against_greedy(tmp_path):
    path = tmp_path / "game.yaml"
    new_game_against(str(path), "Ana", [BotSeat("greedy")], seed="7")
    return path


async def settled(pilot, app):
    """Wait until the bots have answered."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def by_clicks(pilot, app, color, move):
    index = app.session.racks()[color].index(move.tile)
    await pilot.click(f"#tile-{color}-{index}")
    await pilot.pause()
    await pilot.click(f"#sq-{SQUARE_NAMES[move.square]}")


async def by_keys(pilot, app, color, move):
    """The tile by its number, the cursor to its square by the arrows, Enter; every other
    move typed instead (m, the move, Enter)."""
    if app.session.game.ply % 4 == 2:
        await pilot.press("m", *f"{color} {move}", "enter")
        return
    racks = list(app.session.racks())
    number = racks.index(color) * 5 + app.session.racks()[color].index(move.tile) + 1
    await pilot.press(str(number % 10))
    board = app.query_one("#board")
    row, column = divmod(move.square, 9)
    now_row, now_column = divmod(board.cursor, 9)
    down, right = (row - now_row) % 9, (column - now_column) % 9
    await pilot.press(*(["down"] * down if down <= 4 else ["up"] * (9 - down)),
                      *(["right"] * right if right <= 4 else ["left"] * (9 - right)))
    await pilot.press("enter")


def expected_round(uptown, before, color, move, tmp_path):
    """What ``uptown move`` writes for the move and ``uptown move --bot greedy`` for the bot's
    answer, from the record ``before``."""
    copy = tmp_path / "expected.yaml"
    copy.write_text(before)
    assert uptown.invoke("move", copy, color, str(move)).exit_code == 0
    while uptown.json("show", copy, "--json")[1]["to_move"] == "greedy":
        assert uptown.invoke("move", copy, "--bot", "greedy").exit_code == 0
    return copy.read_text()


def whole_game(uptown, path, tmp_path, play_one):
    async def test(pilot, app):
        while app.session.turn() != "over":
            before = path.read_text()
            color, move = app.session.legal()[-1]
            await play_one(pilot, app, color, move)
            await settled(pilot, app)
            assert app.message.startswith("Move "), app.message
            assert path.read_text() == expected_round(uptown, before, color, move, tmp_path)
        assert app.query_one("#status").render().plain.startswith("The game is over: ")

    run(test, path, LIMIT)
    assert uptown.invoke("validate", "--strict", path).exit_code == 0


@pytest.mark.slow
@pytest.mark.timeout(LIMIT + 30)
def test_a_whole_game_against_a_bot_by_clicks_writes_what_move_writes(uptown, against_greedy,
                                                                      tmp_path):
    whole_game(uptown, against_greedy, tmp_path, by_clicks)


@pytest.mark.slow
@pytest.mark.timeout(LIMIT + 30)
def test_a_whole_game_against_a_bot_by_keys_writes_what_move_writes(uptown, against_greedy,
                                                                    tmp_path):
    whole_game(uptown, against_greedy, tmp_path, by_keys)


@pytest.mark.timeout(90)
def test_a_takeback_removes_the_move_and_the_bots_answer(against_greedy):
    async def test(pilot, app):
        await by_clicks(pilot, app, *app.session.legal()[0])
        await settled(pilot, app)
        assert app.session.game.ply == 2
        await pilot.press("u")
        await pilot.pause()
        assert app.message == "Taken back: the last 2 moves."

    run_unwritten(test, against_greedy)


@pytest.mark.timeout(90)
def test_a_hint_chooses_the_tile_and_lights_its_squares_without_writing(against_greedy):
    async def test(pilot, app):
        await pilot.press("h")
        await settled(pilot, app)
        assert app.message.startswith("vista suggests: ")
        assert app.chosen is not None
        square = app.message.split()[-1]
        assert app.query_one(f"#sq-{square}").render().plain.strip() == "+"

    run_unwritten(test, against_greedy)


@pytest.mark.timeout(90)
def test_a_refused_move_says_why_and_writes_nothing(against_greedy):
    async def test(pilot, app):
        await pilot.click("#sq-E5")
        assert app.message == "Choose a tile of your rack first (click it, or press its number)."
        await pilot.pause()
        color, move = app.session.legal()[0]
        index = app.session.racks()[color].index(move.tile)
        await pilot.click(f"#tile-{color}-{index}")
        await pilot.pause()
        assert app.chosen == (color, index)
        legal = {m.square for c, m in app.session.legal() if c == color and m.tile == move.tile}
        elsewhere = next(sq for sq in range(81) if sq not in legal)
        await pilot.click(f"#sq-{SQUARE_NAMES[elsewhere]}")
        assert app.message.startswith("Refused: ") and app.refused
        assert app.message.endswith("; nothing was written")
        await pilot.press("m", *"zz", "enter")
        assert app.message == ("Refused: 'zz' is not a move: write TILE SQUARE (7 B7, 4 xB4) "
                               "or pass")

    run_unwritten(test, against_greedy)


@pytest.mark.timeout(90)
def test_quitting_keeps_the_game_and_play_resumes_it(uptown, against_greedy):
    async def first(pilot, app):
        await by_clicks(pilot, app, *app.session.legal()[0])
        await settled(pilot, app)
        await pilot.press("q")

    run(first, against_greedy)
    assert uptown.json("show", against_greedy, "--json")[1]["moves"] == 2

    async def again(pilot, app):
        assert app.session.game.ply == 2
        assert "2. blue (greedy)" in app.query_one("#move-list").render().plain

    run(again, against_greedy)


@pytest.mark.timeout(90)
def test_the_board_speaks_spanish(against_greedy):
    async def test(pilot, app):
        await pilot.press("1")
        assert app.query_one("#status").render().plain == (
            "Le toca a Ana: pulsa una ficha de tu estante y luego una casilla.")
        await pilot.press("m", *"zz", "enter")
        assert app.message.startswith("Rechazado: ")

    with language("es"):
        run(test, against_greedy)
