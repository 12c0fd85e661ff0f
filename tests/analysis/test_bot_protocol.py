"""The protocol of bot programs, "engines" (docs/ENGINE_PROTOCOL.md): the handshake, options
typed as it declares them, the keys an answer may hold, a whole game through it, what a move
request tells a program (all it may know, nothing more), uptown's engine's answers, and the
example engines of examples/engines/ each playing a short match."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from uptown_cli.analysis.bot_server import serve, served_options
from uptown_cli.analysis.bot_programs import BotProgram
from uptown_cli.analysis.match import Entrant, GameTask, Limits, play_game
from uptown_cli.analysis.bot_protocol import (
    PROTOCOL,
    check_keys,
    move_request,
    move_seed,
    request_view,
    typed_option,
)
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.geometry import TILE_NAMES
from uptown_cli.errors import EngineError, SetupError

ROOT = Path(__file__).resolve().parents[2]
JS_ENGINE = ROOT / "examples" / "engines" / "neighbour.js"
PY_ENGINE = ROOT / "examples" / "engines" / "joiner.py"


def uptown_engine(bot, *options):
    return (sys.executable, "-m", "uptown_cli", "engine", "--bot", bot, *options)


def talk_to(command, *messages):
    """The answers of the engine ``command`` to ``messages``, each a line."""
    done = subprocess.run(command, input="".join(json.dumps(m) + "\n" for m in messages),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def talk(*messages, bot="greedy"):
    """uptown's engine's answers to ``messages``, each a line."""
    return talk_to(uptown_engine(bot), *messages)


def a_game(moves, players=3, seed="proto"):
    names = ["Ana", "Bo", "Cy", "Di", "Ed"][:players]
    from uptown_cli.engine.game import seat_colors

    people = [Player(n, c) for n, c in zip(names, seat_colors(players))]
    bags = seeded_bags(seed, [c for p in people for c in p.colors])
    game = Game(people, bags)
    for _ in range(moves):
        color, move = game.legal_moves()[0]
        game.play(move, color)
    return game, bags


def test_the_handshake_names_the_engine_its_protocol_and_its_options():
    with BotProgram(uptown_engine("horizon")) as engine:
        hello = engine.handshake(30, {"playouts": 4})
        engine.ping(30)
    assert hello["type"] == "hello" and hello["protocol"] == PROTOCOL == "uptown-engine-1"
    assert hello["name"] == "uptown horizon" and hello["author"] == "uptown"
    assert set(hello["options"]) == {"playouts", "seconds"}
    assert engine.about == hello


OFFERED = {"depth": {"type": "integer", "min": 1, "max": 9}, "speed": {"type": "number"},
           "book": {"type": "text"}, "ponder": {"type": "flag"}, "style": {"type": "colour"}}
"""A handshake's options, of every type (and one of a type the protocol does not have)."""


@pytest.mark.parametrize("name,value,typed", [
    ("depth", "3", 3), ("depth", 3, 3), ("speed", "0.5", 0.5), ("speed", "2", 2.0), ("speed", 2, 2),
    ("book", "3", "3"), ("book", "open.txt", "open.txt"), ("ponder", "true", True),
    ("ponder", "No", False), ("ponder", "1", True), ("ponder", False, False),
    ("style", "7", 7), ("style", "wild", "wild"), ("style", "[1, 2]", [1, 2]),
])
def test_an_option_value_is_typed_as_the_handshake_declares_it(name, value, typed):
    assert typed_option(name, value, OFFERED) == typed
    assert type(typed_option(name, value, OFFERED)) is type(typed)


@pytest.mark.parametrize("name,value,message", [
    ("depht", "3", "it offers no option 'depht' (it offers book, depth, ponder, speed, style)"),
    ("depth", "3.5", "option 'depth' takes an integer, not '3.5'"),
    ("depth", "10", "option 'depth' takes a value from 1 to 9, not '10'"),
    ("depth", True, "option 'depth' takes an integer, not True"),
    ("speed", "nan", "option 'speed' takes a number, not 'nan'"),
    ("ponder", "maybe", "option 'ponder' takes true or false, not 'maybe'"),
    ("book", 3, "option 'book' takes a text, not 3"),
])
def test_an_option_not_offered_or_of_the_wrong_type_is_refused(name, value, message):
    with pytest.raises(EngineError, match=re.escape(message)) as refused:
        typed_option(name, value, OFFERED)
    assert refused.value.reason == "refused"
    assert str(pytest.raises(EngineError, typed_option, "x", 1, {}).value) == "it offers no option 'x' (it offers none)"


@pytest.mark.parametrize("answer,message", [
    ({"type": "move", "id": 1, "move": "7 B7", "colour": "red"},
     "a 'move' message with the key 'colour', which the protocol does not have: did you mean 'color'?"),
    ({"type": "pong", "id": 1, "when": 3},
     "a 'pong' message with the key 'when', which the protocol does not have (type, id)"),
    ({"type": "hello", "protocol": PROTOCOL, "option": {}},
     "a 'hello' message with the key 'option', which the protocol does not have: did you mean 'options'?"),
])
def test_an_answer_with_a_key_the_protocol_does_not_have_is_garbage(answer, message):
    with pytest.raises(EngineError, match=re.escape(message)) as refused:
        check_keys(answer)
    assert refused.value.reason == "garbage"
    check_keys({"type": "info", "depth": 3, "anything": [1]})  # info says what it likes
    check_keys({"type": "move", "id": 1, "move": "7 B7", "color": "red"})


def test_uptown_engine_answers_ping_and_refuses_what_it_does_not_know():
    answers = talk({"type": "ping", "id": 7}, {"type": "castle", "id": 8},
                   {"type": "option", "name": "depth", "value": 3}, {"type": "quit"},
                   {"type": "ping", "id": 9})
    assert answers[0] == {"type": "pong", "id": 7}
    assert answers[1]["type"] == "error" and answers[1]["id"] == 8
    assert answers[2]["type"] == "error" and "depth" in answers[2]["message"]
    assert len(answers) == 3  # nothing after quit


def test_a_move_request_carries_what_the_player_may_know_and_no_more():
    game, bags = a_game(7)
    request = move_request(game, bags, None, move_seed("proto", game.ply), "standard", 8)
    me = game.to_move
    assert request["you"] == me.name and set(request["racks"]) == set(me.colors)
    assert request["racks"] == {c: [TILE_NAMES[t] for t in game.racks[c]] for c in me.colors}
    assert request["bags"] == game.bag_sizes
    assert [tuple(m) for m in request["moves"]] == [(t.color, str(t.move)) for t in game.history]
    assert {tuple(m) for m in request["legal"]} == {(c, str(m)) for c, m in game.legal_moves()}
    text = json.dumps(request)
    assert "proto" not in text  # the seed that fixes every bag is never sent
    others = [c for c in game.colors if c not in me.colors]
    assert not any(c in request["racks"] or c in request["drawn"] for c in others)


def test_an_request_view_holds_the_board_and_the_own_racks_of_the_request():
    game, bags = a_game(11)
    view = request_view(move_request(game, bags, None, "s", "standard", 12)).game
    assert view.board == game.board and view.to_move == game.to_move
    assert all(view.racks[c] == game.racks[c] for c in game.to_move.colors)
    assert sorted(map(tuple, view.legal_moves())) == sorted(map(tuple, game.legal_moves()))


@pytest.mark.parametrize("broken", [
    lambda r: r.update(you="Cy"),
    lambda r: r["moves"].append(["red", "7 Z9"]),
    lambda r: r["racks"].update({r["players"][1]["colors"][0]: ["A", "B", "C", "D", "E"]}),
    lambda r: r.pop("drawn"),
])
def test_a_request_that_is_not_sound_is_one_error_line(broken):
    game, bags = a_game(4)
    request = move_request(game, bags, None, "s", "standard", 5)
    broken(request)
    with pytest.raises(SetupError, match="not sound"):
        request_view(request)


def test_uptown_engine_answers_a_move_request_with_a_legal_move(tmp_path):
    game, bags = a_game(9)
    request = move_request(game, bags, None, "s", "standard", 10)
    answer = talk({"type": "hello", "protocol": PROTOCOL}, request)[1]
    assert answer["type"] == "move" and answer["id"] == 10
    assert [answer["color"], answer["move"]] in request["legal"]


def test_the_same_request_gets_the_same_answer_so_an_engine_can_be_stateless(tmp_path):
    import io

    game, bags = a_game(20, players=2)
    line = json.dumps(move_request(game, bags, None, "seed", "standard", 21)) + "\n"
    answers = []
    for _ in range(2):
        out = io.BytesIO()
        serve("mc", io.BytesIO(line.encode()), out, playouts=2)
        answers.append(out.getvalue())
    assert answers[0] == answers[1] and b'"move"' in answers[0]


def test_a_whole_game_through_the_protocol_is_the_game_the_bot_plays_in_process():
    """The request tells greedy all it uses: through two engine processes, the game is move for
    move the one the same bots play in this process."""
    limits = Limits(move=30.0, start=30.0)
    through = GameTask(1, 0, "whole", (Entrant("a", command=uptown_engine("greedy")),
                                       Entrant("b", command=uptown_engine("random"))), "standard", limits)
    inside = GameTask(1, 0, "whole", (Entrant("a", bot="greedy"), Entrant("b", bot="random")),
                      "standard", limits)
    played = play_game(through)
    assert played.finished and not played.replayed and len(played.moves) == 96
    assert all(seat.forfeit is None for seat in played.seats)
    assert played._replace(logs={}) == play_game(inside)  # the engines' logs aside


@pytest.mark.parametrize("name,command", [
    ("neighbour", ["node", JS_ENGINE]),
    ("joiner", [sys.executable, PY_ENGINE]),
])
def test_an_example_engine_plays_uptown_bots(uptown, tmp_path, name, command):
    """Each example of examples/engines/, in its own language, plays a short match with no
    forfeit, beats random on most deals, and its games validate."""
    if shutil.which(str(command[0])) is None:
        pytest.skip(f"{command[0]} is not installed (.ci/run installs node)")
    out = tmp_path / name
    result = uptown.run("tournament", f"{name}={' '.join(map(str, command))}", "random", "greedy",
                        "--deals", "2", "--seed", "examples", "--out", out, "--json")
    assert result.returncode == 0, result.stderr
    table = json.loads(result.stdout)
    entrant = next(e for e in table["entrants"] if e["name"] == name)
    assert entrant["games"] == 8 and entrant["forfeits"] == 0
    versus_random = next(p for p in table["pairings"] if p["second"] == "random" or p["first"] == "random")
    assert versus_random["first"] == name and versus_random["wins"] >= 3
    checked = uptown.run("validate", *sorted(out.glob("game-*.yaml")))
    assert checked.returncode == 0, checked.stdout


def test_a_game_clock_is_sent_with_the_time_left():
    from uptown_cli.analysis.bot_server import _thinking_time
    from uptown_cli.analysis.bot_protocol import Clock

    game, bags = a_game(10, players=2)
    request = move_request(game, bags, Clock(left=12.25, increment=0.5), "s", "standard", 11)
    assert request["clock"] == {"left": 12.25, "increment": 0.5}
    assert request_view(request).clock == Clock(left=12.25, increment=0.5)
    # uptown's engine with --seconds thinks within a share of its time
    assert _thinking_time(5.0, Clock(move=1.0), game) == pytest.approx(0.6)
    assert _thinking_time(0.01, Clock(move=1.0), game) == 0.01
    assert _thinking_time(None, Clock(move=1.0), game) is None
    assert _thinking_time(5.0, Clock(left=12.25, increment=0.5), game) < 0.6 * (12.25 / 10 + 0.5)


PROTOCOL_PAGE = ROOT / "docs" / "ENGINE_PROTOCOL.md"


def page_block(kind, after):
    """The first ``kind`` code block of docs/ENGINE_PROTOCOL.md after the line ``after``."""
    text = PROTOCOL_PAGE.read_text(encoding="utf-8")
    rest = text[text.index(after):]
    start = rest.index(f"```{kind}\n") + len(kind) + 4
    return rest[start:rest.index("```", start)]


def test_the_smallest_engine_of_the_protocol_page_plays_a_match(uptown, tmp_path):
    script = tmp_path / "first.py"
    script.write_text(page_block("python", "## The smallest engine"))
    result = uptown.run("tournament", f"first={sys.executable} {script}", "random", "--deals", "1",
                        "--seed", "first", "--out", tmp_path / "run", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["entrants"][0]["forfeits"] == 0


def test_the_worked_example_of_the_protocol_page_is_true(tmp_path):
    """Its request is the position's, its legal moves are the rules', its groups per colour
    are counted right, and the example engine in Python plays the move it says."""
    from uptown_cli.engine.scoring import standings

    request = json.loads(page_block("json", "## A worked example"))
    game = request_view(request).game
    assert sorted(map(tuple, request["legal"])) == sorted((c, str(m)) for c, m in game.legal_moves())
    assert len(request["legal"]) == 85
    groups = {color: game.groups(color) for color in game.colors}
    assert groups == {"red": 0, "green": 3, "blue": 2, "yellow": 0}
    assert [(s.name, s.score) for s in standings(game)] == [("horizon", 3), ("mine", 2)]
    answer = talk_to([sys.executable, str(PY_ENGINE)], {"type": "hello", "protocol": PROTOCOL}, request)[1]
    assert answer == json.loads(page_block("json", "So the answer is"))


@pytest.mark.parametrize("value, answer", [
    (2.5, b"option 'playouts' takes an integer, not 2.5"),
    (0, b"option 'playouts' takes a value from 1 to inf, not 0"),
    (3, b""),
])
def test_the_engine_server_types_an_option_as_its_handshake_offers_it(value, answer):
    import io

    out = io.BytesIO()
    line = json.dumps({"type": "option", "name": "playouts", "value": value}) + "\n"
    serve("mc", io.BytesIO(line.encode()), out)
    assert answer in out.getvalue() and (answer or b"error" not in out.getvalue())


def served(bot, lines, **actions):
    """The answers of ``serve(bot)`` to ``lines`` (messages), ``actions[f"before_{i}"]()`` run
    just before line ``i`` is read."""
    import io

    class Lines(io.BytesIO):
        lines_read = 0

        def readline(self, limit=-1):
            action = actions.get(f"before_{self.lines_read}")
            if action is not None:
                action()
            self.lines_read += 1
            return super().readline(limit)

    out = io.BytesIO()
    serve(bot, Lines("".join(json.dumps(line) + "\n" for line in lines).encode()), out, playouts=2)
    return [json.loads(answer) for answer in out.getvalue().splitlines()]


def test_the_vista_engine_takes_a_weights_file_and_refuses_one_it_cannot_read(tmp_path):
    from uptown_cli.analysis import value

    assert set(served_options("vista")) == {"playouts", "seconds", "weights"}
    game, bags = a_game(9, players=3)
    move = move_request(game, bags, None, "s", "standard", 10)
    missing, given = tmp_path / "missing.json", tmp_path / "given.json"
    given.write_text(Path(value.WEIGHTS_FILE).read_text())

    def weights(path):
        return {"type": "option", "name": "weights", "value": path if path is None else str(path)}

    # Refused when set, and not kept: the move is played with the weights before.
    refused, played = served("vista", [weights(missing), move])
    assert refused == {"type": "error", "message": f"{missing}: No such file or directory"}
    assert played["type"] == "move" and played["id"] == 10
    # Taken, and read at each move: gone after it was set, the move cannot be played.
    assert served("vista", [weights(given), move], before_1=given.unlink) == [
        {"type": "error", "id": 10, "message": f"{given}: No such file or directory"}]
    # null sets the shipped weights again.
    given.write_text(Path(value.WEIGHTS_FILE).read_text())
    [played] = served("vista", [weights(given), weights(None), move], before_2=given.unlink)
    assert played["type"] == "move"
