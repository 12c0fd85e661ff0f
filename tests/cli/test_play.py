"""Whole games through the command line: a 3-player game played only with ``uptown move``, and
two ``uptown move`` processes racing on one file."""

import json
import subprocess


from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.notation import parse_move
from uptown_cli.engine.scoring import standings

COMMENT = "# Tuesday club night, table 4: kept by every move\n"


def test_a_whole_three_player_game_through_uptown_move(uptown, game_file):
    path = game_file(seed="e2e-7")
    path.write_text(COMMENT + path.read_text())
    played = 0
    while True:
        _, options = uptown.json("moves", path, "--json")
        if options["to_move"] is None:
            break
        colors = [c for c, moves in options["by_color"].items() if moves]
        color = colors[played % len(colors)]
        choices = options["by_color"][color]
        move = choices[(played * 5) % len(choices)]
        result = uptown.invoke("move", path, move, "--as", options["to_move"], "--rack", color)
        assert result.exit_code == 0, result.output
        played += 1
    assert played == 72
    assert "The game is over: " in result.stdout and "Final standings:" in result.stdout

    assert uptown.invoke("validate", "--strict", path).stdout == "1 record, 1 valid, 0 invalid\n"
    assert path.read_text().startswith(COMMENT)

    players = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]
    engine = Game(players, seeded_bags("e2e-7", ["red", "blue", "green"]))
    for line in path.read_text().split("moves:\n", 1)[1].splitlines():
        if not line.startswith("  - "):  # the time under a move
            continue
        color, text = line.strip("- ").split(": ")
        engine.play(parse_move(text), color)
    assert engine.finished
    for variant in ("standard", "blockers"):
        data = uptown.json("score", path, "--json", "--variant", variant)[1]
        assert data["finished"] is True
        assert [
            (p["name"], p["groups"], p["captures"], p["captured"], p["score"], p["rank"])
            for p in data["players"]
        ] == [
            (s.name, s.groups, s.captures, s.captured, s.score, s.rank)
            for s in standings(engine, variant)
        ]


def test_two_moves_at_once_for_the_same_player(uptown, game_file):
    path = game_file()
    for _ in range(3):
        before = path.read_text()
        count = before.count("\n  - ")
        player = uptown.json("show", path, "--json")[1]["to_move"]
        legal = uptown.json("moves", path, "--json")[1]["moves"]
        racers = [
            subprocess.Popen(
                [str(uptown.path), "move", str(path), move, "--as", player],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for move in legal[:2]
        ]
        outcomes = [(p.wait(timeout=60), p.stderr.read()) for p in racers]
        codes = sorted(code for code, _ in outcomes)
        assert codes == [0, 1], outcomes
        loser = next(err for code, err in outcomes if code == 1)
        assert loser.count("\n") == 1 and "Traceback" not in loser
        after = path.read_text()
        assert after.startswith(before)
        assert after.count("\n  - ") == count + 1
        assert json.loads(
            subprocess.run(
                [str(uptown.path), "validate", "--json", str(path)], capture_output=True, text=True
            ).stdout
        )[0]["valid"]
