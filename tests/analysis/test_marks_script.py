"""scripts/marks.py: the marks each reviewer gives the same games; a reviewer that cannot
review is a usage error before any game is played."""

import pytest


def run(monkeypatch, script_module, *argv):
    module = script_module("marks")
    monkeypatch.setattr("sys.argv", ["marks.py", *argv])
    module.main()


def test_each_reviewer_reviews_the_same_games(monkeypatch, script_module, capsys):
    run(monkeypatch, script_module, "--bots", "random", "--games", "1", "--deals", "2",
        "--jobs", "1", "--reviewers", "mc,vista")
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines()[2:]]
    assert [row[1] for row in rows] == ["mc", "vista"]
    assert rows[0][3] == rows[1][3] and int(rows[0][3]) > 0  # the same moves with a choice


@pytest.mark.parametrize("argv, message", [
    (["--reviewers", "mc,greedy"], "--reviewers: greedy cannot review"),
    (["--deals", "1"], "--deals must be at least 2"),
])
def test_a_reviewer_that_cannot_review_is_refused_before_any_game(monkeypatch, script_module,
                                                                   capsys, argv, message):
    module = script_module("marks")
    monkeypatch.setattr(module, "self_play", lambda *args: pytest.fail("a game was played"))
    with pytest.raises(SystemExit) as stopped:
        run(monkeypatch, script_module, *argv)
    assert stopped.value.code == 2 and message in capsys.readouterr().err
