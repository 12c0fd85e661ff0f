"""Work on a Dask cluster (a LocalCluster of two worker processes here): tournaments, selfplay
and analyze give byte for byte what ``--jobs`` gives for the same seed, and a worker killed in
the middle of a run has its games played again, nothing lost and nothing twice."""

import json
import os
import signal
import sys

import pytest

distributed = pytest.importorskip("distributed")

from uptown_cli.analysis.match import Entrant, Limits  # noqa: E402
from uptown_cli.analysis.selfplay import play_games  # noqa: E402
from uptown_cli.analysis.tournament import Settings, Tournament  # noqa: E402

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def cluster():
    """The address of a scheduler with two worker processes (one thread each)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def settings(seed):
    """Twelve games of three bots (two deals, three tables, two seats)."""
    entrants = (Entrant("mc", bot="mc"), Entrant("greedy", bot="greedy"), Entrant("random", bot="random"))
    return Settings(entrants, deals=2, seed=seed, limits=Limits(bot_options=(("playouts", 2),)))


def test_selfplay_on_a_cluster_is_selfplay_with_jobs(cluster):
    run = dict(bots=["mc", "greedy"], players=3, games=4, seed="dask", options={"playouts": 1})
    assert list(play_games(**run, cluster=cluster)) == list(play_games(**run, jobs=2))


@pytest.mark.slow
def test_a_tournament_on_a_cluster_writes_what_jobs_write(tmp_path, cluster):
    here = Tournament.create(str(tmp_path / "jobs"), settings("same"))
    there = Tournament.create(str(tmp_path / "dask"), settings("same"))
    list(here.run(jobs=2))
    list(there.run(cluster=cluster))
    for name in ["results.jsonl"] + [f"game-{n:04d}.yaml" for n in range(1, 13)]:
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "jobs" / name).read_bytes()


@pytest.mark.slow
def test_a_worker_killed_mid_run_has_its_games_played_again_none_lost_none_twice(tmp_path, cluster):
    alone = Tournament.create(str(tmp_path / "alone"), settings("kill"))
    list(alone.run(jobs=1))
    with distributed.Client(cluster, timeout=30) as client:
        workers = client.run(os.getpid)
        run = Tournament.create(str(tmp_path / "killed"), settings("kill"))
        played = run.run(cluster=cluster)
        first = next(played)
        os.kill(next(iter(workers.values())), signal.SIGKILL)
        rest = list(played)
        client.wait_for_workers(2, timeout=60)
    assert [o.number for o in [first, *rest]] == list(range(1, 13))
    assert (tmp_path / "killed" / "results.jsonl").read_bytes() == (tmp_path / "alone" / "results.jsonl").read_bytes()


@pytest.mark.slow
def test_the_commands_take_cluster_and_print_what_jobs_print(tmp_path, uptown, game_file, cluster):
    address = cluster
    selfplay = ["selfplay", "--bots", "mc,random", "--games", "4", "--playouts", "2", "--seed", "c", "--json"]
    assert uptown.run(*selfplay, "--cluster", address).stdout == uptown.run(*selfplay, "--jobs", "2").stdout
    game_file(moves=6)
    game_file(name="other.yaml", moves=4, players=2)
    analyze = ["analyze", tmp_path, "--iterations", "8", "--seed", "c", "--json"]
    on_cluster = uptown.run(*analyze, "--cluster", address)
    assert on_cluster.returncode == 0, on_cluster.stderr
    assert on_cluster.stdout == uptown.run(*analyze, "--jobs", "2").stdout
    tournament = ["tournament", "greedy", "random", "--deals", "2", "--seed", "c", "--json"]
    dask = uptown.run(*tournament, "--out", tmp_path / "dask", "--cluster", address)
    jobs = uptown.run(*tournament, "--out", tmp_path / "jobs", "--jobs", "2")
    assert json.loads(dask.stdout)["entrants"] == json.loads(jobs.stdout)["entrants"]


def test_a_cluster_that_cannot_be_reached_is_one_line(uptown):
    result = uptown.run("selfplay", "--bots", "random", "--games", "2", "--cluster", "tcp://127.0.0.1:9",
                        env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert result.returncode == 1 and "cannot reach the Dask scheduler" in result.stderr
    assert "Traceback" not in result.stderr


def test_engines_are_tried_on_the_cluster_before_the_first_game(tmp_path, uptown, cluster):
    """Where the games are played: an option the engine does not take is one line and no
    folder, an engine that cannot start a warning, its games lost, the run finished."""
    engine = f"mine={sys.executable} -m uptown_cli engine --bot mc"
    refused = uptown.run("tournament", engine, "random", "--option", "mine.depth=3",
                         "--out", tmp_path / "refused", "--cluster", cluster)
    assert refused.returncode == 1
    assert refused.stderr == "Error: mine: it offers no option 'depth' (it offers playouts, seconds)\n"
    assert not (tmp_path / "refused").exists()
    ghost = uptown.run("tournament", "ghost=/nonexistent/engine", "random", "--deals", "1", "--seed", "g",
                       "--out", tmp_path / "ghost", "--cluster", cluster, "--json")
    assert ghost.returncode == 0, ghost.stderr
    assert ghost.stderr.startswith("Warning: engine ghost cannot play (cannot start /nonexistent/engine")
    assert json.loads(ghost.stdout)["entrants"][0]["forfeits"] == 2
