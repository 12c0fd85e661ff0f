"""The training scripts' options (scripts/train_value.py, scripts/tune_value.py): a mistake in
them is a usage error before the games, not a traceback after them; options that are right
reach the games."""

import os

import pytest

class Reached(Exception):
    """Raised where the games would start."""


def reach(*args, **kwargs):
    raise Reached


@pytest.fixture
def run(monkeypatch, tmp_path, script_module):
    """Run a script's ``main`` with the arguments given, in an empty folder (but for a file that
    is not JSON), with its games replaced by ``reach``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not-json.json").write_text("{", encoding="utf-8")
    (tmp_path / "folder").mkdir()

    def run(name, *argv):
        module = script_module(name)
        monkeypatch.setattr(module, "Pool", reach)
        if hasattr(module, "strength"):
            monkeypatch.setattr(module, "strength", reach)
        monkeypatch.setattr("sys.argv", [f"{name}.py", "--out", "out.json", *argv])
        module.main()

    return run


MISTAKES = [
    ("train_value", ["--games", "0"], "--games must be at least 1"),
    ("train_value", ["--playouts", "0"], "--playouts must be at least 1"),
    ("train_value", ["--generations", "0"], "--generations must be at least 1"),
    ("train_value", ["--jobs", "0"], "--jobs must be at least 1"),
    ("train_value", ["--strength", "-1"], "--strength may not be below 0"),
    ("train_value", ["--ridge", "-0.5"], "--ridge may not be below 0"),
    ("train_value", ["--ridge", "nan"], "--ridge may not be below 0"),
    ("train_value", ["--seconds", "0"], "--seconds must be above 0"),
    ("train_value", ["--seconds", "nan"], "--seconds must be above 0"),
    ("train_value", ["--bot", "deep-blue"], "argument --bot: invalid choice: 'deep-blue'"),
    ("train_value", ["--out", "nowhere/weights.json"], "--out nowhere/weights.json: no such folder"),
    ("train_value", ["--out", "folder"], "--out folder: is a folder, not a file"),
    ("train_value", ["--report", "nowhere/report.md"], "--report nowhere/report.md: no such folder"),
    ("tune_value", ["--players", "6"], "argument --players: invalid choice: 6"),
    ("tune_value", ["--players", "1"], "argument --players: invalid choice: 1"),
    ("tune_value", ["--steps", "0"], "--steps must be at least 1"),
    ("tune_value", ["--playouts", "0"], "--playouts must be at least 1"),
    ("tune_value", ["--every", "0"], "--every must be at least 1"),
    ("tune_value", ["--jobs", "0"], "--jobs must be at least 1"),
    ("tune_value", ["--gain", "0"], "--gain must be above 0"),
    ("tune_value", ["--relative", "-0.25"], "--relative must be above 0"),
    ("tune_value", ["--floor", "nan"], "--floor must be above 0"),
    ("tune_value", ["--weights", "missing.json"], "--weights missing.json: "),
    ("tune_value", ["--weights", "not-json.json"], "--weights not-json.json: "),
    ("tune_value", ["--weights", ""], "--weights: a weights file needs a path, not an empty text"),
    ("tune_value", ["--out", "folder"], "--out folder: is a folder, not a file"),
    ("tune_value", ["--report", "nowhere/report.md"], "--report nowhere/report.md: no such folder"),
]


@pytest.mark.parametrize("script, argv, says", MISTAKES)
def test_a_mistake_in_the_options_is_a_usage_error_before_the_games(run, capsys, tmp_path,
                                                                    script, argv, says):
    with pytest.raises(SystemExit) as ended:
        run(script, *argv)
    error = capsys.readouterr().err.splitlines()[-1]
    assert ended.value.code == 2 and error.startswith(f"{script}.py: error: {says}")
    assert sorted(os.listdir(tmp_path)) == ["folder", "not-json.json"]


def test_an_out_file_in_a_folder_the_run_may_not_write_in_is_refused(run, capsys, monkeypatch):
    import option_checks

    monkeypatch.setattr(option_checks.os, "access", lambda path, mode: False)
    with pytest.raises(SystemExit):
        run("train_value", "--out", "folder/weights.json")
    assert "--out folder/weights.json: cannot write in" in capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize("script, argv", [
    ("train_value", []),
    ("train_value", ["--strength", "0", "--ridge", "0", "--seconds", "0.001", "--games", "1",
                     "--report", "folder/report.md"]),
    ("train_value", ["--strength", "4"]),
    ("tune_value", []),
    ("tune_value", ["--steps", "1", "--every", "1", "--gain", "0.01", "--relative", "0.01",
                    "--floor", "0.01", "--report", "folder/report.md"]),
])
def test_options_that_are_right_reach_the_games(run, script, argv):
    with pytest.raises(Reached):
        run(script, *argv)
