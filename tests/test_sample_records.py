"""The sample games in records/ are valid, cover what they promise, and are what the
generator writes."""

import pathlib
import sys

import pytest

from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "records").glob("*.yaml"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_every_sample_record_is_valid_in_strict_mode(path):
    result = replay(load_record(str(path)), strict=True)
    assert result.errors == []


def test_samples_cover_every_player_count_both_variants_and_a_game_in_progress():
    finished = set()
    in_progress = 0
    for path in RECORDS:
        record = load_record(str(path))
        game = replay(record).game
        assert record.seed is not None
        if game.finished:
            finished.add((len(record.players), record.variant))
        else:
            in_progress += 1
    assert {n for n, _ in finished} == {2, 3, 4, 5}
    assert {v for _, v in finished} == {"standard", "blockers"}
    assert in_progress >= 1


def test_annotated_sample_has_comments():
    assert (ROOT / "records" / "annotated.yaml").read_text().count("#") >= 3


def test_generator_writes_exactly_the_bundled_records(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    sys.modules.pop("make_records", None)
    import make_records

    make_records.main(str(tmp_path))
    for written in tmp_path.glob("*.yaml"):
        assert written.read_text() == (ROOT / "records" / written.name).read_text()
