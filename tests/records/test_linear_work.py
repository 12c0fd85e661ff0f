"""Every command is linear in the size of a record, whatever its x- data: counted (parser
events read, garbage collections run), not timed."""

from pathlib import Path
import gc
import shutil

import pytest

from uptown_cli.records import yaml_reader as yamlsafe

ROOT = Path(__file__).resolve().parents[2]

GAME = ROOT / "records" / "in-progress.yaml"
LISTS = 600
"""Lists nested 97 deep in the record: the issue's 5,376 made a record of 1 MiB; counting
needs fewer."""


@pytest.fixture
def deep_record(tmp_path):
    """A valid record with an x- key holding LISTS lists nested 97 levels deep (counting the
    top mapping): the shape that, 5,376 of them, once made one move take 15 s."""
    nested = "[" * 95 + "]" * 95
    text = GAME.read_text() + "x-deep: [" + ",".join([nested] * LISTS) + "]\n"
    assert len(text.encode()) < yamlsafe.MAX_BYTES / 8
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    return path


@pytest.fixture
def events(monkeypatch):
    """The number of events read from the YAML parser so far, as ``events[0]``."""
    count = [0]

    class Counting(yamlsafe.LOADER):
        def get_event(self):
            count[0] += 1
            return super().get_event()

    monkeypatch.setattr(yamlsafe, "LOADER", Counting)
    return count


def test_a_deep_x_record_is_parsed_without_garbage_collections(deep_record):
    collections = []

    def note(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    text = deep_record.read_text()
    gc.callbacks.append(note)
    try:
        yamlsafe.parse(text)
    finally:
        gc.callbacks.remove(note)
    assert len(collections) <= 1  # at most one as parsing starts (hundreds once)


@pytest.mark.parametrize("command, parses", [
    (["validate"], 1), (["show"], 1), (["score"], 1), (["diff", "COPY"], 2),
    (["move", "6", "G6"], 2),  # the file read, and the new text checked before writing
])
def test_each_command_parses_a_deep_record_no_more_often_than_it_must(uptown, 
        deep_record, events, command, parses):
    copy = deep_record.with_name("copy.yaml")
    shutil.copy(deep_record, copy)
    yamlsafe.parse(deep_record.read_text())
    once = events[0]
    events[0] = 0
    args = [copy if arg == "COPY" else arg for arg in command]
    result = uptown.invoke(args[0], deep_record, *args[1:])
    assert result.exit_code == 0, result.output
    assert events[0] <= parses * once + 100
