"""Self-play: seats rotated, results reproducible for a seed whatever --jobs, records valid."""

import json
import signal

import pytest
from support.processes import stopped_at_work, stopped_with_its_workers

from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay
from uptown_cli.turns.validation import validate_file
from uptown_cli.engine.scoring import standings
from uptown_cli.analysis.selfplay import (
    GameResult,
    Seat,
    lineup,
    play_games,
    summarize,
    wilson_interval,
)


@pytest.mark.parametrize("bots,players", [(["a", "b", "c"], 3), (["a", "b"], 2), (["a", "b"], 4), (["a"], 5)])
def test_every_bot_sits_in_every_seat_equally(bots, players):
    seatings = [lineup(bots, players, n) for n in range(1, players + 1)]
    for seat in range(players):
        column = [seating[seat] for seating in seatings]
        assert all(column.count(bot) == players // len(bots) for bot in bots)


def test_a_run_is_the_same_for_a_seed_whatever_the_jobs():
    run = dict(bots=["mc", "greedy", "random"], players=3, games=3, seed="same", options={"playouts": 1})
    alone = list(play_games(**run, jobs=1))
    assert list(play_games(**run, jobs=2)) == alone
    assert list(play_games(**run, jobs=1)) == alone
    assert [r.number for r in alone] == [1, 2, 3]
    assert list(play_games(**{**run, "seed": "other"}, jobs=1)) != alone


def test_results_count_shared_wins_as_fractions():
    def seat(bot, score, win):
        return Seat(bot, score, 1, win)

    results = [
        GameResult(1, "s", (), (), (seat("a", 2, 0.5), seat("b", 2, 0.5), seat("c", 5, 0.0))),
        GameResult(2, "s", (), (), (seat("b", 1, 1.0), seat("c", 3, 0.0), seat("a", 4, 0.0))),
    ]
    a, b, c = summarize(results, ["a", "b", "c"])
    assert (a.games, a.wins, a.win_rate, a.mean_score, a.mean_captures) == (2, 0.5, 0.25, 3.0, 1.0)
    assert (b.wins, b.win_rate) == (1.5, 0.75)
    assert (c.wins, c.win_rate, c.mean_score) == (0.0, 0.0, 4.0)


def test_the_win_rate_interval_is_wilsons():
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(20, 20)[1] == 1.0 and wilson_interval(20, 20)[0] == pytest.approx(0.8389, abs=1e-4)


def test_selfplay_writes_valid_records_and_prints_the_results(uptown, tmp_path):
    out = tmp_path / "games"
    result = uptown.invoke("selfplay", "--players", "2", "--bots", "greedy,random", "--games", "4",
                           "--seed", "rec", "--out", out)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"4 games, 2 players, standard, seed rec; records in {out}"
    assert lines[1].split() == ["bot", "games", "wins", "win", "rate", "95%", "interval", "mean", "score",
                                "captures"]
    files = sorted(out.glob("game-*.yaml"))
    assert [f.name for f in files] == [f"game-000{n}.yaml" for n in range(1, 5)]
    games = list(play_games(["greedy", "random"], 2, 4, "rec"))
    for path, game in zip(files, games):
        assert validate_file(path).valid
        record = load_record(path)
        assert record.seed == game.seed
        assert [p.name for p in record.players] == [s.bot for s in game.seats]
        final = replay(record).game
        assert final.finished
        assert [s.score for s in standings(final)] == [s.score for s in game.seats]


def test_selfplay_json(uptown, tmp_path):
    result = uptown.invoke("selfplay", "--players", "3", "--bots", "greedy,random,greedy", "--games", "3",
                           "--seed", "j", "--json", "--variant", "blockers")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and data["variant"] == "blockers" and data["seed"] == "j"
    assert [b["name"] for b in data["bots"]] == ["greedy", "random"]
    greedy, rand = data["bots"]
    assert greedy["games"] == 6 and rand["games"] == 3
    assert greedy["wins"] + rand["wins"] == pytest.approx(3)
    for bot in data["bots"]:
        assert set(bot) >= {"name", "games", "wins", "win_rate", "mean_score", "mean_captures", "interval"}
        low, high = bot["interval"]
        assert low <= bot["win_rate"] <= high


@pytest.mark.parametrize(
    "args,code,message",
    [
        (["--bots", "greedy,deep"], 2, "unknown bot 'deep'"),
        (["--bots", ","], 2, "name one or more bots"),
        (["--bots", "greedy", "--players", "6"], 2, "6"),
        (["--bots", "greedy", "--games", "0"], 2, "0"),
    ],
)
def test_selfplay_usage_errors(uptown, args, code, message):
    result = uptown.invoke("selfplay", *args)
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output


def test_selfplay_never_overwrites_a_record(uptown, tmp_path):
    (tmp_path / "game-0002.yaml").write_text("keep me\n")
    result = uptown.invoke("selfplay", "--bots", "random", "--games", "3", "--seed", "o", "--out", tmp_path)
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {tmp_path / 'game-0002.yaml'} already exists; choose another --out folder"
    assert (tmp_path / "game-0002.yaml").read_text() == "keep me\n"
    assert not (tmp_path / "game-0001.yaml").exists()


def test_selfplay_with_seconds_gives_the_bots_a_time_per_move(uptown, tmp_path):
    result = uptown.invoke("selfplay", "--bots", "horizon,mc", "--games", "1", "--seed", "t",
                           "--seconds", "0.002", "--json", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [b["name"] for b in data["bots"]] == ["horizon", "mc"]
    assert validate_file(tmp_path / "game-0001.yaml").valid
    refused = uptown.invoke("selfplay", "--bots", "mc", "--seconds", "0")
    assert refused.exit_code == 2 and "Traceback" not in refused.output


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_selfplay_stopped_by_sigterm_or_sighup_ends_its_workers(uptown, signum):
    code, _, err = stopped_with_its_workers(
        [str(uptown.path), "selfplay", "--bots", "mc", "--games", "400", "--playouts", "64",
         "--jobs", "2", "--seed", "s"], signum)
    assert code == 128 + signum
    assert "Interrupted:" in err and "Traceback" not in err


def test_selfplay_in_one_process_stopped_by_sigterm_says_what_finished(uptown):
    """``--jobs 1`` stops as a pool does (``analysis.pool.in_pool``): the games finished are
    reported, then it exits 128 + the signal."""
    code, out, err = stopped_at_work(
        [str(uptown.path), "selfplay", "--bots", "mc", "--games", "400", "--playouts", "64",
         "--jobs", "1", "--seed", "s"], signal.SIGTERM)
    assert code == 128 + signal.SIGTERM
    assert "Interrupted:" in err and "Traceback" not in err and "mc" in out


@pytest.mark.parametrize("command", [
    ["selfplay", "--bots", "random"], ["analyze", "records/in-progress.yaml"]])
def test_jobs_with_cluster_is_a_usage_error_as_in_tournament(uptown, command):
    """--cluster shares the work among its workers: --jobs beside it is refused, before any work."""
    result = uptown.invoke(*command, "--jobs", "2", "--cluster", "local:2")
    assert result.exit_code == 2 and "give --jobs or --cluster, not both" in result.output
