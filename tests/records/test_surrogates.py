"""Lone surrogates: Python text may hold one (PyYAML's own parser makes one of the escape
``"\\udc80"``, and a caller may pass such text), but it is not a character.  It is refused as
one clear error with its line, by both YAML parsers, and never reaches the seed's hashing or
the terminal as a traceback."""

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from uptown_cli.records import yaml_reader as yamlsafe
from uptown_cli.errors import RecordError
from uptown_cli.records.schema import load_record_text
from uptown_cli.turns.validation import validate_text
from uptown_cli.records.yaml_reader import parse

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])

RECORD = """\
uptown: 1
players:
  - name: Ana
  - name: Bo
seed: SEED
moves:
  - red: 7 B7
"""
SEED_LINE = 5


@pytest.fixture(params=LOADERS, ids=lambda loader: loader.__name__, autouse=True)
def loader(request, monkeypatch):
    """Run every test with libyaml's parser and with the pure-Python one."""
    monkeypatch.setattr(yamlsafe, "LOADER", request.param)
    return request.param


@pytest.mark.parametrize("seed", ['"\\udc80"', '"a\\ud800b"', '"\\ud83d\\ude00"', '"\\U0000dfff"'])
def test_a_surrogate_escape_in_the_seed_is_refused_on_its_line(seed):
    result = validate_text(RECORD.replace("SEED", seed), "g.yaml")
    assert not result.valid and result.record is None and result.moves == 0
    assert [error.line for error in result.errors] == [SEED_LINE]
    assert all(error.message.isprintable() for error in result.errors)


def test_the_pure_parser_names_the_surrogate(loader):
    if loader is not yaml.SafeLoader:
        pytest.skip("libyaml refuses the escape with its own message")
    with pytest.raises(RecordError) as caught:
        parse('uptown: 1\n"\\udc80": x\n', "g.yaml")
    assert str(caught.value) == "g.yaml:2: \\udc80 is a lone surrogate, not a character; refused"


def test_text_holding_a_lone_surrogate_is_refused_without_raising():
    text = RECORD.replace("SEED", "x\udc80y")
    result = validate_text(text, "g.yaml")
    assert [str(error) for error in result.errors] == [
        "g.yaml:5: \\udc80 is a lone surrogate, not a character; refused"
    ]
    with pytest.raises(RecordError):
        load_record_text(text, "g.yaml")


@pytest.mark.parametrize("command", ["validate", "show", "score", "replay", "moves"])
def test_commands_refuse_a_surrogate_seed_without_a_traceback(uptown, tmp_path, command):
    path = tmp_path / "g.yaml"
    path.write_text(RECORD.replace("SEED", '"\\udc80"'))
    result = uptown.invoke(command, path)
    assert result.exit_code == 1 and f"{path}:{SEED_LINE}: " in result.output


@settings(max_examples=200, deadline=None)
@given(st.lists(st.characters() | st.characters(categories=["Cs"]), max_size=8).map("".join),
       st.integers(0, len(RECORD)))
def test_validate_text_never_raises_for_any_text(inserted, where):
    result = validate_text(RECORD[:where] + inserted + RECORD[where:], "g.yaml")
    assert all(isinstance(error, RecordError) and error.line for error in result.errors)
