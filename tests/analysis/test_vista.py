"""vista, the bot with a learned evaluation: legal moves everywhere, a seed's choice, the
weights file, and the figures its evaluation reads."""

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.engine_games import random_game, recorded_playout_moves
from support.positions import build

from uptown_cli.analysis import value
from uptown_cli.analysis.bots import choose_move
from uptown_cli.analysis.deals import imagined_game
from uptown_cli.analysis.features import FEATURES, colour_features, position_features
from uptown_cli.engine.playout import Playout
from uptown_cli.errors import SetupError
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay

ROOT = Path(__file__).resolve().parents[2]
ACCEPTANCE = ROOT.parent / "shared" / "acceptance"
GAMES = sorted((ROOT / "records").glob("[2-5]p-*.yaml")) + sorted(ACCEPTANCE.glob("game-*.yaml"))


@pytest.mark.slow
@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.name)
def test_vista_plays_a_legal_move_in_every_position_of_the_games(path):
    """Every position of the project's example games and of the acceptance games (2 to 5
    players, both variants), under the game's variant and the other. A game without a seed is
    played as its mover sees it: their own racks dealt at random to fit their moves, every
    other rack and bag drawn from the tiles they cannot see (``deals.imagined_game``)."""
    game = replay(load_record(path)).game
    turns = game.rewind()
    rng = random.Random(path.name)
    for turn in turns:
        view = game if game.knows_racks else _mover_view(game, rng)
        for variant in ("standard", "blockers"):
            chosen = choose_move("vista", view, seed=turn.number, playouts=1, variant=variant)
            assert chosen in view.legal_moves(), (path.name, turn.number)
        game.redo(turn)


def _mover_view(game, rng):
    """``game`` as its player to move may see it, their bags dealt at random to fit their
    moves."""
    me = game.to_move
    own = {}
    for color in me.colors:
        played = [t.move.tile for t in game.history if t.color == color and not t.move.is_pass]
        rest = [tile for tile in range(28) if tile not in played]
        rng.shuffle(rest)
        own[color] = played + rest
    return imagined_game(game, me, own, rng)[0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_vista_is_deterministic_for_a_seed(players):
    game = random_game(players, f"vistaseed{players}", 12 * players)
    choices = {choose_move("vista", game, seed="s", playouts=3) for _ in range(3)}
    assert len(choices) == 1 and choices.pop() in game.legal_moves()


def test_vista_needs_a_playout():
    with pytest.raises(SetupError, match="at least 1"):
        choose_move("vista", random_game(2, "vistazero", 10), playouts=0)


def test_the_shipped_weights_load_with_one_weight_per_feature_for_each_number_of_players():
    weights = value.load_weights()
    assert sorted(weights) == [2, 3, 4, 5]
    assert all(len(row) == len(FEATURES) for row in weights.values())
    # A colour's groups now are most of what it will have at the end (the weights tuned by
    # games count them more than the fit did; value_weights.json has each number).
    assert all(0.3 < row[FEATURES.index("groups")] < 2 for row in weights.values())


def test_a_weights_file_of_another_version_or_other_features_is_refused(tmp_path):
    data = json.loads(Path(value.WEIGHTS_FILE).read_text())
    for change in ({"version": value.WEIGHTS_VERSION + 1}, {"features": ["groups"]}):
        path = tmp_path / "weights.json"
        path.write_text(json.dumps({**data, **change}))
        with pytest.raises(SetupError, match="weights file"):
            value.load_weights(str(path))
    short = {**data, "weights": {"2": [1.0]}}
    with pytest.raises(SetupError, match="one weight per feature"):
        value.read_weights(short)


SHIPPED = json.loads(Path(value.WEIGHTS_FILE).read_text())


@pytest.mark.parametrize("text, message", [
    ("not json", "this is not a weights file"),
    ("[1, 2]", "this is not a weights file"),
    ('{"games": 3}', "this is not a weights file"),  # another file of JSON
    ("[" * 100_000, "this is not a weights file"),  # nested past what Python reads
    ("\udcff".encode("utf-8", "surrogatepass").decode("latin-1"), "this is not a weights file"),
    (json.dumps({**SHIPPED, "features": SHIPPED["features"][::-1]}), "made for other features"),
    (json.dumps({**SHIPPED, "weights": {"2": "x"}}), "does not give a list of numbers for each number of players"),
    (json.dumps({**SHIPPED, "weights": {"2": "0123456789"}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"two": SHIPPED["weights"]["2"]}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"2": [True] * 10}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"2": [float("nan")] * 10}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"2": [10 ** 400] * 10}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"²": SHIPPED["weights"]["2"]}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"٣": SHIPPED["weights"]["3"]}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"02": SHIPPED["weights"]["2"]}}), "does not give a list of numbers"),
    (json.dumps({**SHIPPED, "weights": {"2": [1.0]}}), "does not have one weight per feature"),
    (" " * (value.LARGEST_WEIGHTS_FILE + 1), "bytes: too large for a weights file"),
])
def test_a_file_that_is_not_a_weights_file_is_one_line_naming_it(tmp_path, text, message):
    path = tmp_path / "weights.json"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(SetupError, match=f"^{re.escape(str(path))}: [^\n]*{message}"):
        value.load_weights(str(path))


def test_a_weights_file_that_cannot_be_read_is_one_line_naming_it(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(SetupError, match=f"^{re.escape(str(missing))}: No such file or directory$"):
        value.load_weights(str(missing))
    with pytest.raises(SetupError, match=f"^{re.escape(str(tmp_path))}: not a file$"):
        value.load_weights(str(tmp_path))
    # and nothing is left open by a refusal (an engine refuses as often as it is asked)
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        with pytest.raises(SetupError):
            value.load_weights(str(tmp_path))
    assert len(os.listdir("/proc/self/fd")) == before
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # read, it would never end
    with pytest.raises(SetupError, match=f"^{re.escape(str(pipe))}: not a file$"):
        value.load_weights(str(pipe))
    with pytest.raises(SetupError, match="^a\x00b: embedded null byte$"):
        value.load_weights("a\x00b")
    with pytest.raises(SetupError, match="^a weights file needs a path, not an empty text$"):
        value.load_weights("")


def test_a_weights_file_written_again_is_read_again(tmp_path):
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(SHIPPED).ljust(1000))
    assert value.load_weights(str(path)) == value.load_weights()
    before = path.stat()
    changed = {**SHIPPED, "weights": {**SHIPPED["weights"], "2": SHIPPED["weights"]["3"]}}
    with open(path, "r+") as f:  # in place, by another program: the same file, the same size
        f.write(json.dumps(changed).ljust(before.st_size))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the same time of change
    assert path.stat().st_size == before.st_size
    assert value.load_weights(str(path))[2] == SHIPPED["weights"]["3"]


def test_vista_plays_with_the_weights_file_it_is_given(tmp_path, monkeypatch):
    game = random_game(3, "vistaweights", 12)
    given = tmp_path / "given.json"
    row = [w + 1.0 for w in SHIPPED["weights"]["3"]]
    given.write_text(json.dumps({**SHIPPED, "weights": {**SHIPPED["weights"], "3": row}}))
    read = []
    foresee = value.foreseen_scores
    monkeypatch.setattr(value, "foreseen_scores", lambda playout, weights: read.append(weights) or
                        foresee(playout, weights))
    choose_move("vista", game, seed="w", playouts=3, weights=str(given))
    assert read and all(weights == row for weights in read)
    read.clear()
    choose_move("vista", game, seed="w", playouts=3)
    assert read and all(weights == SHIPPED["weights"]["3"] for weights in read)
    two_only = tmp_path / "two.json"
    two_only.write_text(json.dumps({**SHIPPED, "weights": {"2": SHIPPED["weights"]["2"]}}))
    with pytest.raises(SetupError, match=f"^{re.escape(str(two_only))}: the weights file has no weights for 3 players$"):
        choose_move("vista", game, seed="w", playouts=3, weights=str(two_only))
    # a bot that has no use for weights ignores them
    assert choose_move("mc", game, seed="w", playouts=2, weights=str(two_only)) in game.legal_moves()


# Red (Ana) has three groups: A1-A2, A4 and C1; A3 joins the first and the second, B1 the
# first and the last. Blue (Bo) has three, two of them lone tiles; green (Cy) four lone tiles.
POSITION = """
rr.r.....
....b...g
r........
.........
....b...g
.........
......bb.
.........
......g.g
"""


def test_a_colours_figures_count_its_groups_bridges_lone_tiles_and_room():
    game = build(POSITION, racks={"red": ["A", "1", "B", "5", "$"]})
    assert game.to_move.name == "Ana"
    playout = Playout(game, {c: _bag(game, c) for c in game.colors})
    rows = position_features(playout)
    red = dict(zip(FEATURES, rows[game.colors.index("red")]))
    assert red["constant"] == 1.0 and red["groups"] == 3.0
    assert red["bridges"] == 2.0  # A3 and B1 ($ fits both; B2 touches one red tile only)
    assert red["lone"] == 2.0  # A4 and C1
    assert red["left"] == pytest.approx((24 - 4) / 24)
    blue = dict(zip(FEATURES, rows[game.colors.index("blue")]))
    assert blue["groups"] == 3.0 and blue["bridges"] == 0.0 and blue["lone"] == 2.0
    green = dict(zip(FEATURES, rows[game.colors.index("green")]))
    assert green["groups"] == 4.0 and green["lone"] == 4.0
    assert rows == [colour_features(playout, c, open_squares)
                    for c, open_squares in enumerate(_open(playout))]


def _bag(game, color):
    """A bag for ``color`` that fits ``game``: its rack first, the rest after."""
    rack = game.racks[color]
    played = [t for t in range(28) if t not in game.unplayed_tiles(color)]
    return played + rack + [t for t in game.unplayed_tiles(color) if t not in rack]


def _open(playout):
    """The squares each colour's player may play on, worked out afresh (``colour_features``
    then works out the colour's own cut points itself, as ``position_features`` does not)."""
    from uptown_cli.analysis.features import _capturable_by_seat
    from uptown_cli.engine.groups import cut_points

    free = [mask & ~cut_points(mask) for mask in playout.masks]
    return [_capturable_by_seat(playout, free)[playout.owner[c]] for c in range(len(playout.masks))]


def test_foreseen_scores_are_the_scores_once_the_game_is_over():
    game = random_game(3, "vistaover", 72)
    assert game.finished
    playout = Playout(game, {c: list(range(28)) for c in game.colors})
    scores = value.foreseen_scores(playout, value.load_weights()[3])
    assert scores == [(float(score), captures) for score, captures in playout.results()]


def test_fit_finds_the_weights_of_an_exact_linear_rule():
    rows = [[1.0, x, y] for x in range(5) for y in range(4)]
    targets = [0.5 + 2 * x - 3 * y for _, x, y in rows]
    assert value.fit(rows, targets, ridge=0.0) == pytest.approx([0.5, 2.0, -3.0])


@pytest.mark.parametrize("players", [2, 4])
def test_vista_rounds_its_foreseen_scores_with_more_than_two_players(players, monkeypatch):
    """Four players tie on whole groups as often as they do at the end, where the fewest
    captures decide; two players compare the foreseen fractions."""
    from uptown_cli.analysis import bots

    seen = []
    real = bots._margin_counting_captures if players > 2 else bots._margin

    def recording(results, seat):
        seen.extend(score for score, _ in results)
        return real(results, seat)

    monkeypatch.setattr(bots, "_margin_counting_captures" if players > 2 else "_margin", recording)
    choose_move("vista", random_game(players, f"vistaround{players}", 20), seed=1, playouts=2)
    assert seen and all(float(score).is_integer() for score in seen) == (players > 2)


@pytest.mark.parametrize("players, playouts, seconds, search", [
    (2, 16, None, "VISTA_SEARCH"), (2, 127, None, "VISTA_SEARCH"),
    (2, 128, None, "VISTA_DEEP_SEARCH"), (2, 16, 0.02, "VISTA_SEARCH"),
    (2, 16, 0.099, "VISTA_SEARCH"), (2, 1, 0.1, "VISTA_DEEP_SEARCH"),
    (3, 128, None, "VISTA_MANY_PLAYERS_SEARCH"), (4, 16, 1.0, "VISTA_MANY_PLAYERS_SEARCH"),
])
def test_vista_looks_wider_and_further_with_two_players_from_a_tenth_of_a_second(
        players, playouts, seconds, search):
    """With two players and 0.1 s of CPU a move (or 128 deals), greedy's sixteen best moves
    played out for eight moves of every player, the best four after sixteen deals; else eight
    moves for four (and more players as horizon, the best three after four deals)."""
    from uptown_cli.analysis import bots

    assert bots.vista_search(players, playouts, seconds) == getattr(bots, search)
    assert bots.VISTA_SEARCH == bots.Search(8, 4, None)
    assert bots.VISTA_DEEP_SEARCH == bots.Search(16, 8, (16, 4))
    assert bots.VISTA_MANY_PLAYERS_SEARCH == bots.Search(8, 4, (4, 3))


@pytest.mark.parametrize("playouts", [16, 128])
def test_vista_plays_its_candidates_out_as_its_search_says(playouts, monkeypatch):
    """Each playout runs the search's moves of every player; every candidate is played in the
    first deals, then (with a cut) only the best few."""
    from uptown_cli.analysis import bots

    game = random_game(2, f"vistasearch{playouts}", 16)
    search = bots.vista_search(2, playouts, None)
    runs = []  # per playout: (the candidate played before it, its plies)
    played = recorded_playout_moves(monkeypatch)
    real_advance = bots.Playout.advance

    def recording_advance(self, policy, rng, plies=None):
        runs.append((played[-1], plies))
        real_advance(self, policy, rng, plies)

    monkeypatch.setattr(bots.Playout, "advance", recording_advance)
    choose_move("vista", game, seed=2, playouts=playouts)
    assert {plies for _, plies in runs} == {2 * search.moves}
    trials, keep = search.cut or (playouts, search.candidates)
    assert len({move for move, _ in runs[:trials * search.candidates]}) == search.candidates
    assert len({move for move, _ in runs[trials * search.candidates:]}) == (
        keep if playouts > trials else 0)
    assert len(runs) == trials * search.candidates + (playouts - trials) * keep


def test_a_vista_move_loads_none_of_the_records_modules():
    """Only the training scripts write weights files: a bot's process (an engine, a tournament's
    worker) reads its weights without the records' reader that writing them safely needs."""
    probe = ("import sys\n"
             "from uptown_cli.analysis.bots import choose_move\n"
             "from uptown_cli.engine.game import Game\n"
             "choose_move('vista', Game.new(['A', 'B'], seed='1'), seed=1, playouts=2)\n"
             "print(sorted(m for m in sys.modules if m.startswith('uptown_cli.records')))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.strip() == "[]", result.stderr
