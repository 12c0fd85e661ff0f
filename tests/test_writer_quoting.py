"""Quoting: a scalar is written plain only when no YAML 1.1 or 1.2 reader could take it for
anything but that text, and deciding so loads no YAML."""

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli_support import invoke

from uptown_cli.records import yaml_reader as yamlsafe
from uptown_cli.records.text import quote

# The implicit types of the YAML 1.2 core schema, as the specification writes them
# (YAML 1.2.2, 10.3.2 Tag Resolution).
YAML_12_CORE = {
    "null": r"null|Null|NULL|~",
    "bool": r"true|True|TRUE|false|False|FALSE",
    "int": r"[-+]?[0-9]+",
    "int octal": r"0o[0-7]+",
    "int hexadecimal": r"0x[0-9a-fA-F]+",
    "float": r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?",
    "infinity": r"[-+]?(\.inf|\.Inf|\.INF)",
    "not a number": r"\.nan|\.NaN|\.NAN",
}
# The implicit types of YAML 1.1 (yaml.org/type: bool, int, float, null, timestamp, merge, value).
YAML_11 = {
    "bool": r"y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF",
    "int": r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
           r"|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+",
    "float": r"[-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*"
             r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)",
    "null": r"~|null|Null|NULL",
    "timestamp": r"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
                 r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?([Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9]"
                 r"(\.[0-9]*)?(([ \t]*)Z|[-+][0-9][0-9]?(:[0-9][0-9])?)?",
    "merge": r"<<",
    "value": r"=",
}
TYPED = [re.compile(pattern) for pattern in [*YAML_12_CORE.values(), *YAML_11.values()]]


def typed_by_some_reader(text):
    return any(pattern.fullmatch(text) for pattern in TYPED)


def reads_back(text):
    """``text`` quoted reads back as itself, as a block value and inside a flow list."""
    written = quote(text)
    assert yaml.safe_load(f"k: {written}\n") == {"k": text}
    assert yaml.safe_load(f"k: [{quote(text, flow=True)}, x]\n") == {"k": [text, "x"]}
    assert yamlsafe.to_plain(yamlsafe.parse(f"k: {written}\n")) == {"k": text}
    return written


@pytest.mark.parametrize("text", [
    "y", "Y", "n", "N", "yes", "on", "OFF", "~", "null", "1e3", "1E3", "0o17", "0x1F", ".inf", "-.Inf", ".nan",
    "1_000", "12:30", "190:20:30", "2026-11-29", "2026-1-2 10:00:00", "2026-11-29T10:00:00Z", "+1", "-.5",
    "0b101", "<<", "=", "3.", ".5e-3", "007",
])
def test_scalars_some_yaml_reader_types_are_quoted(text):
    assert reads_back(text) == '"' + text + '"'


@pytest.mark.parametrize("text", ["7 B7", "4 xE8", "$ C3", "sax E8", "pass", "Ana", "red", "Zoë", "7f3a9c01",
                                  "1st", "B7", "x-ray", "Y2K", "a#b", "it's",
                                  "Club night, round 1", "a[b]", "why?"])
def test_text_no_reader_types_stays_plain(text):
    assert reads_back(text) == text


@pytest.mark.parametrize("name, pattern", [*(("1.2 " + k, v) for k, v in YAML_12_CORE.items()),
                                           *(("1.1 " + k, v) for k, v in YAML_11.items())])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_implicitly_typed_scalar_is_quoted(name, pattern, data):
    text = data.draw(st.from_regex(pattern, fullmatch=True))
    assert reads_back(text) != text, f"{text!r} ({name}) was written plain"


YAMLISH = st.text(alphabet="0123456789.-+_:eExXoObBaAfFnNiIyYtTsSlLuUZ~<=!&*#,[]{}?|>'\"%@` \t\n", max_size=12)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(), YAMLISH))
def test_quote_reads_back_and_plain_is_never_typed(text):
    written = reads_back(text)
    if written == text:
        assert not typed_by_some_reader(text)


def test_quoting_loads_no_yaml(monkeypatch):
    def no_yaml(*args, **kwargs):
        raise AssertionError("quote() loaded YAML")

    for loader in ("SafeLoader", "CSafeLoader", "Loader", "FullLoader"):
        if hasattr(yaml, loader):
            monkeypatch.setattr(getattr(yaml, loader), "__init__", no_yaml)
    monkeypatch.setattr(yaml, "safe_load", no_yaml)
    monkeypatch.setattr(yaml, "load", no_yaml)
    texts = ["Ana", "No", "y", "7 B7", "1e3", "a: b", "Zoë", "2026-11-29"]
    assert [quote(t) for t in texts] == ["Ana", '"No"', '"y"', "7 B7", '"1e3"', '"a: b"', "Zoë", '"2026-11-29"']


def test_new_writes_players_y_and_n_quoted(tmp_path):
    path = tmp_path / "g.yaml"
    result = invoke("new", path, "-p", "y", "-p", "n", "--seed", "1e3")
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert '  - name: "y"\n' in text and '  - name: "n"\n' in text and 'seed: "1e3"\n' in text
    assert [p["name"] for p in yaml.safe_load(text)["players"]] == ["y", "n"]
