"""Golden output of ``show``, ``replay`` and ``score`` on the sample records in records/.

The expected text is in tests/golden/. After a deliberate change of the output (or of the
sample records), rewrite it with ``UPTOWN_UPDATE_GOLDEN=1 python -m pytest tests/cli/test_golden.py``
and read the diff before committing it.
"""

from pathlib import Path
import os

import pytest

ROOT = Path(__file__).resolve().parents[2]

GOLDEN = ROOT / "tests" / "golden"
RECORDS = ("2p-standard", "3p-blockers", "4p-standard", "5p-blockers", "annotated", "in-progress")
CASES = (
    [(f"{name}.show", ["show", f"records/{name}.yaml"]) for name in RECORDS]
    + [(f"{name}.score", ["score", f"records/{name}.yaml"]) for name in RECORDS]
    + [
        ("in-progress.show-at-5", ["show", "records/in-progress.yaml", "--at", "5"]),
        ("in-progress.replay", ["replay", "records/in-progress.yaml"]),
        (
            "2p-standard.replay-90-96",
            ["replay", "records/2p-standard.yaml", "--from", "90", "--to", "96"],
        ),
        (
            "all.score-blockers",
            ["score", "--variant", "blockers", *(f"records/{n}.yaml" for n in RECORDS)],
        ),
    ]
)


@pytest.mark.parametrize("name, args", CASES, ids=[name for name, _ in CASES])
def test_golden_output(uptown, name, args, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)
    result = uptown.invoke(*args)
    assert result.exit_code == 0, result.output
    expected = GOLDEN / f"{name}.txt"
    if os.environ.get("UPTOWN_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        expected.write_text(result.stdout)
    assert result.stdout == expected.read_text()
