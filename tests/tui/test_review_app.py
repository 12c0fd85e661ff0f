"""``uptown review``: an analysed game stepped through with the arrow keys (Pilot, under a
timeout), each marked move's reason in words, the better move's board, play from here; a
finished game not annotated is reviewed first; the review as lines; Spanish."""

import asyncio

import pytest

from uptown_cli.analysis.bots import choose_move
from uptown_cli.i18n import language
from uptown_cli.tui.review import ReviewApp
from uptown_cli.tui.studied import Study
from uptown_cli.turns.bot_games import BotSeat, bot_seats, new_game_against
from uptown_cli.tui.session import Session

SIZE = (100, 30)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished two-player game, Ana playing at random against greedy."""
    path = tmp_path_factory.mktemp("review") / "game.yaml"
    new_game_against(str(path), "Ana", [BotSeat("greedy")], seed="5")
    session = Session(str(path))
    while session.turn() != "over":
        if session.turn() == "bot":
            session.bot_turn()
        else:
            session.play(*choose_move("random", session.seat().game, seed=session.game.ply))
    return path


@pytest.fixture(scope="module")
def annotated(finished, uptown):
    path = finished.with_name("annotated.yaml")
    result = uptown.invoke("analyze", finished, "--annotate", "--iterations", "16", "--seed", "1",
                           "-o", path)
    assert result.exit_code == 0, result.output
    return path


def run(study, test, limit=60):
    async def body():
        app = ReviewApp(study)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await asyncio.wait_for(test(pilot, app), limit)
        return app

    return asyncio.run(body())


def first_marked(study):
    return next(r.number for r in study.reviews if r.mark and r.best)


@pytest.mark.timeout(90)
def test_the_review_steps_through_an_analysed_game_and_says_why(annotated):
    study = Study.open(str(annotated))
    assert study.annotated and len(study.reviews) == study.moves == 96
    marked = first_marked(study)

    async def test(pilot, app):
        assert app.current == 96
        await pilot.press("home")
        assert app.query_one("#status").render().plain.startswith("The start: 96 moves")
        await pilot.press(*["right"] * marked)
        status = app.query_one("#status").render().plain
        review = study.reviews[marked - 1]
        assert status.startswith(f"Move {marked}: ") and f" {review.mark} (" in status
        said = app.query_one("#said").render().plain
        assert f"{review.player}'s chance to win, from what {review.player} could know: " in said
        assert "A better move: " in said
        graph = app.query_one("#graph").render().plain
        assert "^" in graph.splitlines()[1]
        await pilot.press("b")
        assert app.better and app.query_one("#message").render().plain.startswith(
            "The board after the better move: ")
        await pilot.press("left")
        assert app.current == marked - 1 and not app.better

    run(study, test)


@pytest.mark.timeout(90)
def test_play_from_here_makes_a_game_against_the_bot_from_that_position(annotated):
    study = Study.open(str(annotated))

    async def test(pilot, app):
        await pilot.press("home", "right", "right", "right", "p")

    app = run(study, test)
    following = annotated.with_name("annotated-from-3.yaml")
    assert app.return_value == str(following)
    session = Session(str(following))
    assert session.game.ply == 3 and session.turn() == "hand"  # greedy's seat, by hand
    assert bot_seats(session.opened.record) == {"Ana": BotSeat("vista", 512)}


@pytest.mark.timeout(120)
def test_a_finished_game_not_annotated_is_reviewed_first(finished):
    study = Study.open(str(finished))
    assert not study.annotated

    async def test(pilot, app):
        while app.workers and any(w.is_running for w in app.workers):
            await pilot.pause(0.1)
        await pilot.pause()
        assert len(study.reviews) == 96 and app.current == 96

    run(study, test, 100)


def test_a_game_not_annotated_is_reviewed_as_analyze_reviews_by_default(finished, monkeypatch):
    from uptown_cli.analysis.review import DEFAULT_EVALUATOR
    from uptown_cli.tui import studied

    asked = []
    monkeypatch.setattr(studied, "tasks", lambda game, bags, variant, bot, *rest: asked.append(bot) or [])
    assert list(Study.open(str(finished)).analyse()) == [] and asked == [DEFAULT_EVALUATOR]


def test_a_game_neither_finished_nor_annotated_is_refused(uptown, game_file):
    path = game_file(moves=3)
    result = uptown.invoke("review", path)
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {path}: the game is not over: review a finished game, or "
                             "one analysed (uptown analyze --annotate)\n")


def test_the_review_as_lines_says_each_move_its_chances_and_reasons(uptown, annotated):
    result = uptown.invoke("review", annotated)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Move 1: ")
    assert any(line.startswith("A better move: ") for line in lines)
    assert lines[-1].startswith("The game is over: ")


@pytest.mark.timeout(90)
def test_the_review_speaks_spanish(annotated):
    with language("es"):
        study = Study.open(str(annotated))
        marked = first_marked(study)

        async def test(pilot, app):
            await pilot.press("home", *["right"] * marked)
            said = app.query_one("#said").render().plain
            assert "Una jugada mejor: " in said

        run(study, test)


def test_a_game_with_no_move_is_not_taken_for_an_annotated_one(uptown, tmp_path):
    path = tmp_path / "new.yaml"
    assert uptown.invoke("new", path, "-p", "Ana", "-p", "Bo", "--seed", "1").exit_code == 0
    result = uptown.invoke("review", path, "--plain")
    assert result.exit_code == 1 and "the game is not over" in result.output
