"""Games to test with: made through ``uptown new`` and ``uptown move``, or written finished,
and hand-written records (``BROKEN``, ``UNSEEDED``)."""

from support.cli import Uptown

uptown = Uptown()

SEED = "cafe01"
NOW = "2026-12-01T12:00:00Z"
"""The time every test's commands take as now (``UPTOWN_NOW``, set by conftest)."""
AT_LINE = '    at: "2026-12-01T12:00:00Z"\n'
"""The line ``uptown move`` writes under a move (of a list indented by two) at ``NOW``."""


def new_game(path, *players, seed=SEED, variant="standard"):
    """Create a record at ``path`` with ``uptown new``; players default to Ana, Bo and Cy."""
    options = [item for name in players or ("Ana", "Bo", "Cy") for item in ("--player", name)]
    result = uptown.invoke("new", path, *options, "--seed", seed, "--variant", variant)
    assert result.exit_code == 0, result.output
    return path


def legal_moves(path):
    """``moves --json`` of the record at ``path``."""
    result, data = uptown.json("moves", path, "--json")
    assert result.exit_code == 0, result.output
    return data


def play_first_moves(path, count):
    """Play the first legal move ``count`` times through ``uptown move``."""
    for _ in range(count):
        data = legal_moves(path)
        color = next(c for c, moves in data["by_color"].items() if moves)
        result = uptown.invoke("move", path, data["by_color"][color][0], "--rack", color)
        assert result.exit_code == 0, result.output


THREE = (("Ana", ("red",)), ("Bo", ("blue",)), ("Cy", ("green",)))
TWO = (("Ana", ("red", "green")), ("Bo", ("blue", "yellow")))

BROKEN = """\
# a game copied from a board, without a seed
uptown: 1
players:
  - name: Ana
  - name: Bo
  - name: Cy
moves:
  - red: 7 B7
  - blue: sax E8
  - green: 7 B8
  - red: E xE8
"""
"""A record whose third move (line 10) is illegal: 7 goes in column 7."""
BROKEN_LINE = "10: move 3: green plays 7 on B8, but 7 goes in column 7"
UNSEEDED = BROKEN.replace("  - green: 7 B8\n  - red: E xE8\n", "")
"""The same game before its illegal move: two legal moves, no seed."""


def finished_game(path, seats=THREE, seed=SEED):
    """Write a finished seeded game to ``path``, its moves picked from the legal ones by a fixed
    rule (so that it has captures), and return the engine's game."""
    from uptown_cli.engine.bags import seeded_bags
    from uptown_cli.engine.game import Game, Player
    from uptown_cli.records.editing import render_record

    players = [Player(name, colors) for name, colors in seats]
    game = Game(players, seeded_bags(seed, [c for p in players for c in p.colors]))
    while not game.finished:
        legal = game.legal_moves()
        game.play(*reversed(legal[(game.ply * 7) % len(legal)]))
    moves = [(turn.color, str(turn.move)) for turn in game.history]
    path.write_text(render_record(players, seed=seed, moves=moves))
    return game
