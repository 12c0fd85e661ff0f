"""The board as it looks, in English and in Spanish (pytest-textual-snapshot: the SVG of the
screen against the one kept in ``__snapshots__``; ``--snapshot-update`` writes them anew once
a change is checked by eye), and the README's screenshot, made from the real application
(``docs/play.svg``; ``UPTOWN_UPDATE_SCREENSHOT=1`` writes it). Other commands never import
Textual."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from uptown_cli.i18n import language
from uptown_cli.tui.app import PlayApp
from uptown_cli.tui.session import Session
from uptown_cli.turns.bot_games import BotSeat, new_game_against

ROOT = Path(__file__).resolve().parents[2]
SIZE = (100, 30)


def started(tmp_path, name="You"):
    """The board of a game against horizon after its first two moves, a tile chosen."""
    path = tmp_path / "game.yaml"
    new_game_against(str(path), name, [BotSeat("greedy")], seed="7")
    session = Session(str(path))
    session.play(*session.legal()[0])
    session.bot_turn()
    return PlayApp(Session(str(path)))


async def choose_a_tile(pilot):
    await pilot.press("1")
    await pilot.pause()


@pytest.mark.timeout(120)
def test_the_board_in_english(snap_compare, tmp_path):
    assert snap_compare(started(tmp_path), terminal_size=SIZE, run_before=choose_a_tile)


@pytest.mark.timeout(120)
def test_the_board_in_spanish(snap_compare, tmp_path):
    with language("es"):
        assert snap_compare(started(tmp_path, "Tú"), terminal_size=SIZE,
                            run_before=choose_a_tile)


@pytest.mark.timeout(120)
def test_the_readme_shows_the_real_board(tmp_path):
    import asyncio

    from pytest_textual_snapshot import normalize_svg

    async def shot():
        app = started(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await choose_a_tile(pilot)
            return app.export_screenshot(title="uptown play")

    picture = ROOT / "docs" / "play.svg"
    made = asyncio.run(asyncio.wait_for(shot(), 60))
    if os.environ.get("UPTOWN_UPDATE_SCREENSHOT"):
        picture.write_text(made, encoding="utf-8")
    assert normalize_svg(picture.read_text(encoding="utf-8")) == normalize_svg(made)
    assert "docs/play.svg" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [["--version"], ["--help"], ["show", "records/in-progress.yaml"],
                                     ["move", "--help"], ["analyze", "--help"]])
def test_other_commands_never_import_textual(command):
    code = ("import sys\nfrom uptown_cli.cli import main\n"
            f"try:\n    main({command!r})\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.stdout.splitlines()[-1] == "[]", result.stderr
