"""scripts/train_value.py's options: a mistake in them is one usage line before the games,
not a traceback after them."""

from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture
def training(monkeypatch):
    """scripts/train_value.py as a module."""
    monkeypatch.syspath_prepend(str(SCRIPTS))
    import train_value

    return train_value


@pytest.mark.parametrize("argv, says", [
    (["--games", "0"], "--games must be at least 1"),
    (["--playouts", "0"], "--playouts must be at least 1"),
    (["--generations", "0"], "--generations must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--strength", "-1"], "--strength may not be below 0"),
    (["--ridge", "-0.5"], "--ridge may not be below 0"),
    (["--seconds", "0"], "--seconds must be above 0"),
    (["--bot", "deep-blue"], "--bot deep-blue: no such bot (the bots: random, greedy, mc, "
                             "horizon, vista)"),
    (["--out", "nowhere/weights.json"], "--out nowhere/weights.json: no such folder"),
    (["--report", "nowhere/report.md"], "--report nowhere/report.md: no such folder"),
])
def test_a_mistake_in_the_options_is_one_line_and_a_usage_error(training, tmp_path, monkeypatch,
                                                                capsys, argv, says):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", ["train_value.py", "--out", "out.json", *argv])
    monkeypatch.setattr(training, "Pool", None)  # no game may start
    with pytest.raises(SystemExit) as ended:
        training.main()
    assert ended.value.code == 2 and capsys.readouterr().err.splitlines()[-1].endswith(
        f"error: {says}")
    assert list(tmp_path.iterdir()) == []
