"""The engine's review of a game (``uptown analyze``): positions whose best move is clear, the
marks and accuracy, the same output whatever the parallelism, and annotated records."""

import math
import random
import shutil
import signal
from pathlib import Path

import pytest
from support.positions import build
from support.processes import stopped_at_work, stopped_with_its_workers

from uptown_cli.analysis import review as analysis
from uptown_cli.analysis.pool import stopped_by_signals
from uptown_cli.analysis.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Evaluation,
    difference_error,
    game_accuracy,
    mark,
    move_accuracy,
    outcome,
    review_position,
)
from uptown_cli.engine.notation import parse_move
from uptown_cli.records.reading import load_record
from uptown_cli.turns.validation import validate_file

ROOT = Path(__file__).resolve().parents[2]

RECORDS = ROOT / "records"

# The last move of a game: green (Cy) to play its 24th tile, red and blue have played theirs.
# Cy has one group; Ana (red) two, Bo (blue) three, nobody has captured.
LAST_MOVE = """
.ggggrrr.
gggbgrrrr
.bbbggrrr
.rbbggbrr
rr.rrgbb.
rrrrggbbb
rrbbggggg
.r.bbbbg.
bbbbbbgg.
"""
LAST_RACK = ["G", "woman", "sign", "sax", "car"]

# The same, but A4 left empty (green is in two groups, joined by 4 A4) and H9 green instead.
GAP = """
.gg.grrr.
gggbgrrrr
.bbbggrrr
.rbbggbrr
rr.rrgbb.
rrrrggbbb
rrbbggggg
.r.bbbbgg
bbbbbbgg.
"""
GAP_RACK = ["4", "woman", "sign", "sax", "car"]


def reviewed(diagram, rack, move, deals=8):
    game = build(diagram, racks={"green": rack})
    assert game.ply == 71 and game.to_move.name == "Cy"
    return review_position(game, None, parse_move(move), 72, "test", deals=deals)


def test_a_capture_that_wins_the_game_is_the_best_move():
    # Every empty square is away from green: a placement makes a second group and Cy shares
    # first place with Ana; a capture next to green keeps one group and wins outright.
    review = reviewed(LAST_MOVE, LAST_RACK, "sign D1")
    assert review.best is not None and "x" in review.best
    assert review.before == Evaluation(1.0, 1.0)
    assert review.after == Evaluation(2.0, 0.5)
    assert review.loss == 0.5 and review.mark == "??"
    best = reviewed(LAST_MOVE, LAST_RACK, review.best)
    assert (best.best, best.loss, best.mark) == (None, 0.0, None)


def test_a_move_that_joins_two_groups_is_the_best_move():
    review = reviewed(GAP, GAP_RACK, "4 A4")
    assert (review.best, review.loss, review.mark) == (None, 0.0, None)
    assert review.after == Evaluation(1.0, 1.0)


def test_a_blunder_that_leaves_a_group_split_is_marked():
    review = reviewed(GAP, GAP_RACK, "woman A9")  # a third green group: Ana wins
    assert review.best in ("4 A4", "4 xB4")
    assert review.after == Evaluation(3.0, 0.0)
    assert (review.loss, review.mark) == (1.0, "??")
    assert [line[0] for line in review.variations][:1] == [review.best]



@pytest.mark.parametrize("bot", ["vista", "mc"])
def test_each_evaluator_marks_the_blunder_and_finds_the_join(bot):
    game = build(GAP, racks={"green": GAP_RACK})
    review = review_position(game, None, parse_move("woman A9"), 72, "test", bot, deals=8)
    assert review.best in ("4 A4", "4 xB4") and review.mark == "??"
    joined = review_position(game, None, parse_move("4 A4"), 72, "test", bot, deals=8)
    assert (joined.best, joined.loss, joined.mark) == (None, 0.0, None)


def test_vista_compares_the_move_played_with_its_own_choice_alone(monkeypatch):
    """The searching evaluator's one candidate is its bot's move, found with half the deals as
    playouts (or a third of the time); the two moves are then measured at once, with no
    round to choose between them."""
    asked, measured = [], []
    choice = ("green", parse_move("4 A4"))

    def choose(name, game, seed, **options):
        asked.append((name, seed, options))
        return choice

    def evaluate(self, game, moves, rng, variant, deals, seconds):
        measured.append((list(moves), deals, seconds))
        return [Evaluation(3.0, 0.0, (0.0,) * 4), Evaluation(1.0, 1.0, (1.0,) * 4)][:len(moves)]

    monkeypatch.setattr(analysis, "choose_move", choose)
    monkeypatch.setattr(analysis.PlayoutEvaluator, "evaluate", evaluate)  # mc's measure
    game = build(GAP, racks={"green": GAP_RACK})
    played = ("green", parse_move("woman A9"))
    review = review_position(game, None, played[1], 72, "t", "vista", deals=40)
    seed = random.Random(analysis.move_seed("t", 72)).getrandbits(64)  # the move's own deals
    assert asked == [("vista", seed, {"variant": "standard", "playouts": 20})]
    assert measured == [([played, choice], 40, None)]
    assert review.best == "4 A4" and review.mark == "??"
    asked.clear(), measured.clear()
    review_position(game, None, played[1], 72, "t", "vista", deals=None, seconds=0.9)
    assert asked == [("vista", seed, {"variant": "standard", "seconds": 0.3})]
    assert measured == [([played, choice], None, pytest.approx(0.6))]


def test_vistas_choice_is_measured_as_mc_measures():
    assert analysis.EVALUATORS["vista"].measure is analysis.EVALUATORS["mc"]


class CountingEvaluator:
    """``others`` candidates besides the move played, each measured better than it; the rounds
    kept."""

    def __init__(self, others):
        self.others, self.rounds = others, []

    def candidates(self, game, rng, variant, playouts, seconds):
        return [("green", parse_move(text)) for text in ("4 A4", "4 xB4")[:self.others]]

    def evaluate(self, game, moves, rng, variant, deals, seconds):
        self.rounds.append((len(moves), deals))
        return [Evaluation(3.0, 0.25, (0.25,) * 4)] + [Evaluation(3.0, 0.5, (0.5,) * 4)] * (len(moves) - 1)


@pytest.mark.parametrize("others, rounds", [
    (0, [(1, 40)]),  # a forced move, a pass, or the evaluator's own choice: measured alone
    (1, [(2, 40)]),  # one other: nothing to choose, the two measured at once
    (2, [(3, 10), (2, 40)]),  # two or more: a quarter of the deals choose, then the two measured
])
def test_a_first_round_chooses_only_among_two_moves_or_more_besides_the_one_played(
        monkeypatch, others, rounds):
    evaluator = CountingEvaluator(others)
    monkeypatch.setitem(analysis.EVALUATORS, "counting", evaluator)
    game = build(GAP, racks={"green": GAP_RACK})
    review_position(game, None, parse_move("woman A9"), 72, "t", "counting", deals=40)
    assert evaluator.rounds == rounds


def test_a_move_the_evaluator_would_play_itself_is_measured_once(monkeypatch):
    measured = []

    def evaluate(self, game, moves, rng, variant, deals, seconds):
        measured.append(len(moves))
        return [Evaluation(1.0, 1.0, (1.0,) * 4)] * len(moves)

    monkeypatch.setattr(analysis, "choose_move", lambda *a, **k: ("green", parse_move("4 A4")))
    monkeypatch.setattr(analysis.PlayoutEvaluator, "evaluate", evaluate)
    game = build(GAP, racks={"green": GAP_RACK})
    review = review_position(game, None, parse_move("4 A4"), 72, "t", "vista", deals=8)
    assert measured == [1] and review.best is None and review.loss == 0.0


def test_a_move_review_as_json_holds_its_evaluations_as_objects_and_its_lines_as_lists():
    """``to_json`` is what ``analyze --json`` prints: the named tuples inside a review become
    JSON objects (a named tuple alone would print as an array), in the fields' order."""
    data = reviewed(GAP, GAP_RACK, "woman A9").to_json()
    assert list(data) == ["number", "player", "color", "move", "before", "after", "best", "loss",
                          "mark", "forced", "variations", "noise"]
    assert data["after"] == {"score": 3.0, "win": 0.0} and list(data["before"]) == ["score", "win"]
    assert data["variations"] and all(type(line) is list for line in data["variations"])


def test_the_position_is_left_as_it_was():
    game = build(GAP, racks={"green": GAP_RACK})
    board, ply = game.board, game.ply
    review_position(game, None, parse_move("woman A9"), 72, "t", deals=4)
    assert (game.board, game.ply) == (board, ply)


@pytest.mark.parametrize("loss, expected", [
    (0.0, None), (0.0449, None), (0.045, None), (0.0451, "?!"), (INACCURACY, "?!"),
    (0.0949, "?!"), (0.0951, "?"), (MISTAKE, "?"), (0.1449, "?"), (0.1458, "??"),
    (BLUNDER, "??"), (1.0, "??"),
])
def test_marks_come_from_the_rounded_loss_that_is_printed(loss, expected):
    """A loss printed as 15 (14.58) is a blunder, as the 15 says; 14 (14.49) a mistake."""
    assert mark(loss) == expected
    shown = int(f"{100 * loss:.0f}")
    assert expected == ("??" if shown >= 15 else "?" if shown >= 10 else "?!" if shown >= 5 else None)


@pytest.mark.parametrize("loss, noise, expected", [
    (0.20, 0.0, "??"), (0.20, 0.099, "??"), (0.20, 0.10, None), (0.20, 0.2, None),
    (0.06, 0.029, "?!"), (0.06, 0.03, None), (0.12, 0.05, "?"),
])
def test_a_loss_not_above_twice_its_noise_is_not_marked(loss, noise, expected):
    """The luck of the deals that measured a loss could have made one of up to twice its
    standard error: such a loss is shown but not marked."""
    assert mark(loss, noise) == expected


def test_the_noise_of_a_difference_is_the_standard_error_of_its_deal_by_deal_mean():
    # differences 1, 0, 0, 1: mean 0.5, sample variance 1/3, standard error sqrt(1/3 / 4)
    assert difference_error([1, 0, 1, 1], [0, 0, 1, 0]) == pytest.approx((1 / 12) ** 0.5)
    assert difference_error([1, 0, 1], [1, 0, 1]) == 0.0  # the same in every deal
    assert difference_error([1.0], [0.0]) == 0.0  # one deal tells no spread
    assert difference_error([], []) == 0.0


class MeasuredEvaluator:
    """An evaluator whose candidate ``4 A4`` looks better than the move played (``woman A9``)
    in the first round, and in the second round is measured with ``shares`` of first place
    deal by deal (the move played always wins a quarter)."""

    def __init__(self, shares):
        self.shares = shares

    def candidates(self, game, rng, variant, playouts, seconds):
        return [("green", parse_move("4 A4"))]

    def evaluate(self, game, moves, rng, variant, deals, seconds):
        if len(moves) > 2 or deals != 8:
            return [Evaluation(3.0, 0.0)] + [Evaluation(3.0, 0.5)] * (len(moves) - 1)
        played = tuple(0.25 for _ in self.shares)
        return [Evaluation(3.0, 0.25, played),
                Evaluation(3.0, sum(self.shares) / len(self.shares), tuple(self.shares))]


@pytest.mark.parametrize("shares, marked", [
    ([0.5] * 8, "??"),  # 25 points lost in every deal: no noise
    ([1, 0, 1, 0, 1, 0, 0, 0], None),  # 12.5 points on average, but deal to deal from -25 to 75
])
def test_the_review_marks_a_loss_only_when_it_stands_clear_of_its_noise(monkeypatch, shares,
                                                                        marked):
    from uptown_cli.analysis.calibration import Calibration

    monkeypatch.setattr(analysis, "load_calibration", lambda: Calibration({}))
    monkeypatch.setitem(analysis.EVALUATORS, "measured", MeasuredEvaluator(shares))
    game = build(GAP, racks={"green": GAP_RACK})
    review = review_position(game, None, parse_move("woman A9"), 72, "t", "measured", deals=8)
    assert review.best == "4 A4" and review.mark == marked
    assert review.loss == pytest.approx(sum(shares) / 8 - 0.25)
    assert review.noise == pytest.approx(difference_error(shares, [0.25] * 8))
    assert review.before.shares == review.after.shares == ()  # measured by them, not kept


def test_thresholds_are_lichess_ones_on_the_chance_to_win():
    assert (INACCURACY, MISTAKE, BLUNDER) == (0.05, 0.10, 0.15)


def test_move_accuracy_is_100_without_loss_and_falls_with_it():
    assert move_accuracy(0.0) == 100.0
    assert move_accuracy(0.10) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 2.1669)
    assert move_accuracy(1.0) == 0.0
    assert move_accuracy(0.05) > move_accuracy(0.10) > move_accuracy(0.15)


def test_game_accuracy_stays_within_0_and_100_even_with_moves_of_accuracy_0():
    assert game_accuracy([0.5] * 4, [0.0] * 4) == pytest.approx(100.0)
    low = game_accuracy([0.9, 0.1, 0.9, 0.1], [1.0, 1.0, 1.0, 0.0])
    assert 0.0 < low < 100.0
    assert game_accuracy([], []) is None


def test_a_shared_first_place_is_a_share_of_a_win_and_the_tie_break_counts():
    assert outcome([(2, 0), (2, 0), (3, 0)], 0) == (2, 0.5)
    assert outcome([(2, 1), (2, 0), (3, 0)], 0) == (2, 0.0)
    assert outcome([(2, 0), (2, 1), (3, 0)], 0) == (2, 1.0)


def test_each_moves_seed_depends_on_the_seed_and_the_move_only():
    assert analysis.move_seed("s", 3) == analysis.move_seed("s", 3)
    assert analysis.move_seed("s", 3) != analysis.move_seed("s", 4)
    assert analysis.move_seed("s", 3) != analysis.move_seed("t", 3)


# -- the command ---------------------------------------------------------------------------


def analyze_json(uptown, *args):
    result, data = uptown.json("analyze", *args, "--json")
    assert result.exit_code == 0, result.output
    return data


def test_the_same_seed_gives_the_same_review_whatever_the_jobs(uptown):
    record = RECORDS / "in-progress.yaml"
    one = analyze_json(uptown, record, "--iterations", "6", "--seed", "7")
    two = analyze_json(uptown, record, "--iterations", "6", "--seed", "7", "--jobs", "2")
    assert one == two
    assert len(one["moves"]) == 17 and one["seed"] == "7" and one["bot"] == "vista"
    other = analyze_json(uptown, record, "--iterations", "6", "--seed", "8")
    assert other["moves"] != one["moves"]


def test_one_job_plays_the_game_once_not_from_the_start_for_every_move(monkeypatch):
    """Outside the evaluation of each position, each move of the game is played once: the
    review goes through the game in turn (not from the start for every move: O(moves**2))."""
    from uptown_cli.cli.loading import replay_valid
    from uptown_cli.engine.bags import seeded_bags
    from uptown_cli.engine.game import Game

    record = load_record(RECORDS / "in-progress.yaml")
    game = replay_valid(record)
    plays = {"outside": 0, "evaluating": 0}
    where = ["outside"]
    real_play, real_review = Game.play, analysis.review_position

    def play(self, *args):
        plays[where[-1]] += 1
        return real_play(self, *args)

    def review_position(*args, **kwargs):
        where.append("evaluating")
        try:
            return real_review(*args, **kwargs)
        finally:
            where.pop()

    monkeypatch.setattr(Game, "play", play)
    monkeypatch.setattr(analysis, "review_position", review_position)
    result = analysis.review(game, seeded_bags(record.seed, record.colors), seed="1", deals=2)
    assert len(result.moves) == 17 and plays["evaluating"] > 0
    assert plays["outside"] == len(result.moves) - 1


def test_without_a_seed_one_is_drawn_and_printed(uptown):
    result = uptown.invoke("analyze", RECORDS / "in-progress.yaml", "--iterations", "2")
    assert result.exit_code == 0, result.output
    header = result.output.splitlines()[1]
    assert header.startswith("Measured by mc against vista's choice: 2 deals a move, seed ")
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_mcs_review_says_mc_evaluated_it(uptown):
    result = uptown.invoke("analyze", RECORDS / "in-progress.yaml", "--iterations", "2",
                           "--seed", "1", "--bot", "mc")
    assert result.output.splitlines()[1] == "Evaluated by mc, 2 deals a move, seed 1."


@pytest.mark.parametrize("bot", ["vista", "mc"])
def test_the_json_names_the_bot_compared_with_and_the_one_that_measures(uptown, bot):
    data = analyze_json(uptown, RECORDS / "in-progress.yaml", "--iterations", "2", "--seed", "1",
                        "--bot", bot)
    assert (data["bot"], data["measured_by"]) == (bot, analysis.EVALUATORS[bot].measured_by)
    assert analysis.EVALUATORS[bot].measured_by == "mc"


def test_the_review_has_every_move_and_a_summary_per_player(uptown):
    data = analyze_json(uptown, RECORDS / "in-progress.yaml", "--iterations", "4", "--seed", "1")
    move = data["moves"][0]
    assert set(move) >= {"number", "player", "color", "move", "before", "after", "best", "loss",
                         "mark", "variations"}
    assert set(move["before"]) == {"score", "win"}
    assert [p["name"] for p in data["players"]] == ["Ana", "Bo", "Cy"]
    for player in data["players"]:
        assert set(player) >= {"mean_loss", "inaccuracies", "mistakes", "blunders", "accuracy"}
        assert 0 <= player["accuracy"] <= 100


def test_a_game_whose_racks_are_unknown_is_refused_in_one_line(uptown, tmp_path):
    record = tmp_path / "board.yaml"
    record.write_text("uptown: 1\nplayers:\n  - name: A\n  - name: B\n  - name: C\n"
                      "moves:\n  - red: 7 B7\n")
    result = uptown.invoke("analyze", record)
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and "racks are unknown" in result.output
    assert len(result.output.splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (["--iterations", "4", "--seconds", "1"], "not both"),
    (["-o", "x.yaml"], "add --annotate"),
    (["--bot", "greedy"], "Invalid value for '--bot'"),
])
def test_usage_errors(uptown, args, message):
    result = uptown.invoke("analyze", RECORDS / "in-progress.yaml", *args)
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_analyze_stopped_by_sigterm_or_sighup_ends_its_workers(uptown, signum):
    """As self-play (the one pool of ``analysis.pool``): the workers end with the run, which
    says what it had done and ends as the signal ends a program; no wait is unbounded."""
    code, out, err = stopped_with_its_workers(
        [str(uptown.path), "analyze", str(RECORDS / "3p-blockers.yaml"), "--jobs", "2",
         "--seed", "1"], signum)
    assert code == -signum
    assert "Interrupted after" in err and "nothing was written" in err
    assert "Traceback" not in err and out == ""


def test_analyze_in_one_process_stopped_by_sigterm_ends_as_the_signal_would(uptown):
    code, out, err = stopped_at_work(
        [str(uptown.path), "analyze", str(RECORDS / "3p-blockers.yaml"), "--jobs", "1",
         "--seed", "1"], signal.SIGTERM)
    assert code == -signal.SIGTERM
    assert "Interrupted after" in err and "nothing was written" in err
    assert "Traceback" not in err and out == ""


def test_a_stop_signal_ignored_by_nohup_stays_ignored():
    """``nohup uptown selfplay`` goes on when the terminal hangs up."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stopped_by_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


# -- annotated records --------------------------------------------------------------------


@pytest.fixture
def annotated(uptown, tmp_path):
    """An annotated copy of the game in progress, and its source."""
    source = tmp_path / "game.yaml"
    shutil.copy(RECORDS / "in-progress.yaml", source)
    out = tmp_path / "annotated.yaml"
    result = uptown.invoke("analyze", source, "--iterations", "6", "--seed", "3", "--annotate", "-o", out)
    assert result.exit_code == 0, result.output
    return source, out


def test_an_annotated_copy_rereads_and_validates(annotated):
    source, out = annotated
    record = load_record(out)
    assert [(m.color, m.text) for m in record.moves] == [
        (m.color, m.text) for m in load_record(source).moves]
    assert all(m.notes is not None and m.notes.eval is not None for m in record.moves)
    assert any(m.notes.variations for m in record.moves)
    assert validate_file(out).valid
    text = out.read_text()
    assert "eval: {score: " in text and "variations:\n" in text
    assert text.startswith(source.read_text().split("moves:")[0])  # everything above is kept


def test_the_mark_is_the_moves_comment_and_is_read_back(annotated):
    _, out = annotated
    record = load_record(out)
    lines = out.read_text().splitlines()
    for entry in record.moves:
        if entry.notes.mark is not None:
            assert f"# {entry.notes.mark} " in lines[entry.line - 1]


def test_an_annotated_copy_survives_move_byte_for_byte(uptown, annotated):
    _, out = annotated
    before = out.read_text()
    result = uptown.invoke("move", out, "--bot", "greedy")
    assert result.exit_code == 0, result.output
    after = out.read_text()
    assert after.startswith(before) and after.count("\n") == before.count("\n") + 2  # the move and its time
    assert validate_file(out).valid


def test_annotating_again_replaces_the_old_review_and_keeps_comments(uptown, annotated, tmp_path):
    _, out = annotated
    text = out.read_text().replace("  - blue: 2 H2\n", "  - blue: 2 H2   # my own note\n"
                                   "    comment: Bo thought long here.\n", 1)
    assert "my own note" in text
    first = tmp_path / "first.yaml"
    first.write_text(text)
    again = tmp_path / "again.yaml"
    result = uptown.invoke("analyze", first, "--iterations", "6", "--seed", "3", "--annotate", "-o", again)
    assert result.exit_code == 0, result.output
    # the same seed: the same review, the hand-written comments kept
    assert [m.notes for m in load_record(again).moves] == [m.notes for m in load_record(first).moves]
    record = load_record(again)
    noted = next(m for m in record.moves if m.notes.comment)
    assert noted.notes.comment == "Bo thought long here."
    assert "my own note" in again.read_text().splitlines()[noted.line - 1]


def test_o_writes_over_a_file_only_with_force_and_never_over_the_record_read(uptown, annotated):
    """The -o rule of every command: an existing file refused before any work unless --force;
    the record analysed never written over, even with it."""
    source, out = annotated
    before, game = out.read_text(), source.read_text()
    result = uptown.invoke("analyze", source, "--iterations", "2", "--annotate", "-o", out)
    assert result.exit_code == 1 and result.output == (
        f"Error: -o {out} exists; add --force to replace it (nothing was done)\n")
    assert out.read_text() == before
    result = uptown.invoke("analyze", source, "--annotate", "-o", source, "--force")
    assert result.exit_code == 1 and "would write over a record; nothing was written" in result.output
    assert "Analysing" not in result.output and source.read_text() == game
    result = uptown.invoke("analyze", source, "--iterations", "2", "--annotate", "-o", out, "--force")
    assert result.exit_code == 0 and out.read_text() != before
    assert load_record(out).moves[0].notes is not None


NOTES = """\
uptown: 1
players:
  - name: Ana
  - name: Bo
  - name: Cy
seed: cafe01
moves:
  - red: {first}   # ?! Ana had better
    eval: {{score: 3.5, win: 25%}}
    best: {best}
    variations:
      - [{best}]
      - {variation}
    comment: |
      Two lines
      of comment.
"""


def notes_record(tmp_path, first=None, best=None, variation=None):
    from uptown_cli.engine.bags import seeded_bags
    from uptown_cli.engine.game import Game, Player

    game = Game([Player(n, (c,)) for n, c in (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"))],
                seeded_bags("cafe01", ["red", "blue", "green"]))
    legal = [str(m) for _, m in game.legal_moves()]
    path = tmp_path / "notes.yaml"
    path.write_text(NOTES.format(first=first or legal[0], best=best or legal[1],
                                 variation=variation or f"[{legal[2]}]"))
    return path, legal


def test_replay_and_show_print_the_comment_the_mark_and_the_better_move(uptown, tmp_path):
    path, legal = notes_record(tmp_path)
    shown = uptown.invoke("show", path, "--at", "1").output.splitlines()
    assert shown[1] == f"Move 1: ?! inaccuracy; better: {legal[1]}; after it: 25.0% to win, score 3.50"
    assert shown[2] == "Move 1: Comment: Two lines"
    assert shown[3] == "Move 1:   of comment."
    replayed = uptown.invoke("replay", path).output
    assert f"?! inaccuracy; better: {legal[1]}" in replayed and "Comment: Two lines" in replayed
    _, data = uptown.json("replay", path, "--json")
    assert data[0]["mark"] == "?!" and data[0]["best"] == legal[1]
    assert data[0]["eval"] == {"score": 3.5, "win": 0.25}
    assert data[0]["comment"] == "Two lines\nof comment.\n"


def test_an_illegal_variation_is_a_warning_at_its_line(uptown, tmp_path):
    _, legal = notes_record(tmp_path)
    path, _ = notes_record(tmp_path, variation=f"[{legal[2]}, skyline A1]")  # blue holds skyline
    result = uptown.invoke("validate", path)
    assert result.exit_code == 0
    assert result.output.splitlines()[0].startswith(f"{path}:13: warning: move 1: variation 2, "
                                                    "move 2 (skyline A1): blue plays skyline on A1, but ")


def test_an_illegal_best_move_is_a_warning_at_its_line(uptown, tmp_path):
    path, _ = notes_record(tmp_path, best="sax A1")
    result = uptown.invoke("validate", path)
    assert result.exit_code == 0
    assert result.output.splitlines()[0].startswith(
        f"{path}:10: warning: move 1: best (sax A1): red has no sax")


@pytest.mark.parametrize("bad, message, status", [
    ("eval: {score: 3.5, win: 25%}", "eval: {score: many, win: 25%}", 0),
    ("eval: {score: 3.5, win: 25%}", "eval: {score: 3.5, win: 125%}", 0),
    ("variations:\n", "variations: 7 B7\n    x-lines:\n", 0),
    ("variations:\n      - [", "variations: 7 B7\n    x: [\n      - [", 1),
], ids=["eval score", "eval win", "variations", "unknown key"])
def test_badly_written_notes_are_warnings_at_their_line(uptown, tmp_path, bad, message, status):
    """A note that does not read as one is a warning; a key that is no note is an error."""
    path, _ = notes_record(tmp_path)
    path.write_text(path.read_text().replace(bad, message, 1))
    result = uptown.invoke("validate", path)
    assert result.exit_code == status, result.output
    first = result.output.splitlines()[0]
    assert first.startswith(f"{path}:") and ("warning: move 1: " in first) == (status == 0)


def test_the_readme_documents_the_four_keys():
    text = (ROOT / "records" / "README.md").read_text()
    for key in ("`eval`", "`best`", "`variations`", "`comment`"):
        assert key in text


@pytest.mark.slow
def test_a_hidden_game_is_analysed_once_every_key_is_revealed(uptown, tmp_path):
    from support.players import PLAYERS, play_bot, position, uptown_as

    path = tmp_path / "g.yaml"
    assert uptown.invoke("new", path, "--hidden", *[x for n in PLAYERS for x in ("-p", n)]).exit_code == 0
    for name in PLAYERS:
        assert uptown_as(tmp_path, name, "join", path, "--as", name).exit_code == 0
    while not position(tmp_path, path)["finished"]:
        play_bot(tmp_path, path)
    for name in PLAYERS[:2]:
        assert uptown_as(tmp_path, name, "reveal", path, "--as", name).exit_code == 0
    refused = uptown.invoke("analyze", path, "--iterations", "2")
    assert refused.exit_code == 1 and "not all revealed" in refused.output
    assert uptown_as(tmp_path, "Cy", "reveal", path, "--as", "Cy").exit_code == 0
    data = analyze_json(uptown, path, "--iterations", "2", "--seed", "1")
    assert len(data["moves"]) == len(load_record(path).moves)
    out = tmp_path / "annotated.yaml"
    assert uptown.invoke("analyze", path, "--iterations", "2", "--annotate", "-o", out).exit_code == 0
    annotated = load_record(out)
    assert [m.link for m in annotated.moves] == [m.link for m in load_record(path).moves]
    assert validate_file(out).valid  # the links under the notes still check out


def test_move_keeps_the_notes_of_moves_written_in_flow_style(uptown, tmp_path):
    path = tmp_path / "flow.yaml"
    path.write_text("uptown: 1\nplayers:\n  - name: A\n  - name: B\n  - name: C\n"
                    "moves: [{red: 7 B7, comment: hi, variations: [[5 B5]]},  # one\n"
                    "  {blue: 6 B6}]  # two\n")
    before = load_record(path).moves
    result = uptown.invoke("move", path, "5", "C5")
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert "  - {red: 7 B7, comment: hi, variations: [[5 B5]]}  # one\n" in text
    after = load_record(path).moves
    assert [m.notes for m in after] == [m.notes for m in before] + [None]


def test_an_empty_game_has_nothing_to_review(uptown, tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("uptown: 1\nplayers:\n  - name: A\n  - name: B\n  - name: C\nseed: s\n")
    data = analyze_json(uptown, path, "--seed", "1")
    assert data["moves"] == [] and [p["moves"] for p in data["players"]] == [0, 0, 0]


def test_the_library_review_is_the_commands(uptown, tmp_path):
    from uptown_cli.engine.bags import seeded_bags
    from uptown_cli.fairplay.replay import replay

    record = load_record(RECORDS / "in-progress.yaml")
    game = replay(record).game
    result = analysis.review(game, seeded_bags(record.seed, record.colors), record.variant,
                             seed="7", deals=6)
    data = analyze_json(uptown, RECORDS / "in-progress.yaml", "--iterations", "6", "--seed", "7")
    assert result.to_json()["moves"] == data["moves"]
    assert [p.accuracy for p in result.players] == [p["accuracy"] for p in data["players"]]


def test_the_commands_names_for_the_help_are_the_librarys():
    from uptown_cli.cli import analysis as command

    assert command.DEFAULT_DEALS == analysis.DEFAULT_DEALS
    assert command.EVALUATING_BOTS == tuple(analysis.EVALUATORS)
    assert command.EVALUATING_BOTS[0] == analysis.DEFAULT_EVALUATOR


def test_the_table_says_whose_knowledge_a_chance_comes_from(uptown):
    result = uptown.invoke("analyze", RECORDS / "in-progress.yaml", "--iterations", "2",
                           "--seed", "1")
    assert ("win %: the mover's own chance to win, from what they could know, before\n"
            "their move (with the best move found) and after it;") in result.stdout


def test_the_review_reports_calibrated_chances_except_when_the_move_ends_the_game(monkeypatch):
    """The chances a review shows go through the shipped calibration (here one that maps every
    chance to 0.3), but a move that ends the game keeps the result its playouts tell."""
    from uptown_cli.analysis.calibration import Calibration

    lines = {players: (math.log(0.3 / 0.7), 0.0) for players in (2, 3, 4, 5)}
    monkeypatch.setattr(analysis, "load_calibration", lambda: Calibration(lines))
    game = build(GAP, racks={"green": GAP_RACK})
    game.rewind(game.ply - 1)  # Ana to move, far from the end
    turn = game.history[-1]
    game.pop()
    review = review_position(game, turn.color, turn.move, turn.number, "t", deals=4)
    assert review.before.win == review.after.win == 0.3 and review.loss == 0.0
    last = reviewed(GAP, GAP_RACK, "woman A9")
    assert last.after == Evaluation(3.0, 0.0)
