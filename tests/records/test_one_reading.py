"""One reading of a file everywhere: libyaml's parser and PyYAML's pure-Python one give every
text the same verdict and the same tree (records/README.md, "What YAML you may use"; the rule
is ``records.yaml_reader``'s module docstring). What only one of them accepts is refused, in one
line naming the line, whichever is installed."""

import contextlib
import subprocess
import sys

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uptown_cli.errors import RecordError
from uptown_cli.records import yaml_reader
from uptown_cli.records.nodes import Free, Mapping, Scalar, Sequence
from uptown_cli.turns.validation import validate_text

PURE = yaml.SafeLoader
LIBYAML = getattr(yaml, "CSafeLoader", None)
LOADERS = [PURE] + ([LIBYAML] if LIBYAML is not None else [])
needs_libyaml = pytest.mark.skipif(LIBYAML is None, reason="libyaml is not installed")

RECORD = """uptown: 1
players:
  - {name: Ana, colors: [red]}
  - {name: Bo, colors: [blue]}
  - {name: Cy, colors: [green]}
seed: 7
moves:
  - red: 3 C3
"""


@contextlib.contextmanager
def reading_with(loader):
    """``yaml_reader`` parsing with ``loader``'s parser (its documented switch, ``LOADER``)."""
    kept = yaml_reader.LOADER
    yaml_reader.LOADER = loader
    try:
        yield
    finally:
        yaml_reader.LOADER = kept


def shape(node):
    """A node as comparable data: kinds, lines, offsets and text, all the way down."""
    if node is None or isinstance(node, Scalar):
        return node and ("scalar", node.line, node.start, node.end, node.value, node.plain)
    if isinstance(node, Free):
        return ("free", node.line, node.start, node.end, repr(node.value), node.last_end)
    if isinstance(node, Sequence):
        return ("list", node.line, node.start, node.end, node.flow, [shape(i) for i in node.items])
    assert isinstance(node, Mapping)
    return ("map", node.line, node.start, node.end, node.flow,
            [(shape(k), shape(v)) for k, v in node.pairs])


def reading(loader, text):
    """What ``parse`` makes of ``text`` with ``loader``: the tree's shape, or "refused"
    (refusals are RecordErrors: anything else escaping fails the test). Where a text holds two
    problems, the parsers may meet them in a different order: the line and message refused
    with are pinned by the tests above, one problem at a time."""
    with reading_with(loader):
        try:
            return shape(yaml_reader.parse(text, "g.yaml"))
        except RecordError:
            return "refused"


def refusal(loader, text):
    with reading_with(loader), pytest.raises(RecordError) as info:
        yaml_reader.parse(text, "g.yaml")
    return info.value


def same_everywhere(text):
    """The one reading of ``text``, checked to be the same with every loader."""
    readings = {loader.__name__: reading(loader, text) for loader in LOADERS}
    assert len(set(map(repr, readings.values()))) == 1, (text, readings)
    return readings[PURE.__name__]


# -- what the two parsers read differently, refused the same way ---------------------------

TAB = "a tab where YAML needs a space"
REFUSED = {  # what only one parser takes: the text (RECORD changed), its line, what is said
    "tab after a colon": (RECORD.replace("red: 3", "red:\t3"), 8, TAB),
    "tab ending a line": (RECORD.replace("seed: 7", "seed: 7\t"), 6, TAB),
    "tab in a flow list": (RECORD.replace("[red]", "[red,\tgreen]"), 3, TAB),
    "tab after a dash": (RECORD.replace("  - red", "  -\tred"), 8, TAB),
    "tab in plain text": (RECORD.replace("seed: 7", "seed: 7\tB"), 6, TAB),
    "tab opening block text": (RECORD + "notes: |\n  \tindented\n", 10,
                               "a tab where the indentation of block text"),
    "hash right after |": (RECORD + "notes: |#\n  text\n", 9, "invalid YAML"),
    "? inside flow text": (RECORD.replace("[red]", "[r?ed]"), 3, "invalid YAML"),
    "colon, bracket": (RECORD.replace("[red]", "[red:]"), 3, "'red:' in [...] or {...} needs a"),
    "colon, comma": (RECORD.replace("[red]", "[red :, x]"), 3, "'red:' in [...] or {...} needs a"),
    "empty key": (RECORD.replace("[red]", "[?, red]"), 3, "a key in [...] or {...} must not be"),
    "directive": ("%FOO bar\n---\n" + RECORD, 1, "the directive %FOO is not allowed"),
    "YAML 1.3": ("%YAML 1.3\n---\n" + RECORD, 1, "%YAML 1.3: a record is YAML 1.1 or 1.2"),
    "comment glued to %YAML": ("%YAML 1.1#\n---\n" + RECORD, 1, "invalid YAML"),
    "byte order mark": (RECORD.replace("seed", "\ufeffseed"), 6, "a byte order mark (U+FEFF)"),
    "escape past U+10FFFF": (RECORD + 'notes: "\\U00110000"\n', 9, "an escape past the last"),
}


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize("text, line, message", REFUSED.values(), ids=REFUSED.keys())
def test_what_one_parser_alone_reads_is_refused_by_both(loader, text, line, message):
    err = refusal(loader, text)
    assert (err.line, err.path) == (line, "g.yaml") and message in err.message, err
    assert err.message == refusal(PURE, text).message  # the same line, whatever is installed


@pytest.mark.parametrize("text", [
    RECORD + "notes: 'a\tb'\n",
    RECORD + 'notes: "a\tb\\tc"\n',
    RECORD + "notes: |\n  a\tb\n  \tindented after the first line\n",
    RECORD + "notes: |2\n  \tindented, with its indentation given\n",
    RECORD.replace("seed: 7", "seed: 7  #\ta comment with a tab"),
    RECORD + "#\tonly a comment\n",
    "\ufeff" + RECORD,
    "%YAML 1.1\n---\n" + RECORD,
    "%YAML 1.2\n---\n" + RECORD,
    RECORD.replace("[red]", "[red: ]"),
    RECORD.replace("[red]", "[r:ed]"),
    RECORD.replace("[red]", "[? red]"),
    RECORD + "notes: | #\n  text\n",
    RECORD + "notes: r?ed\n",
], ids=["tab in single quotes", "tab in double quotes", "tab inside block text",
        "tab after a given indentation", "tab in a comment", "tab in a comment line",
        "byte order mark at the start", "YAML 1.1", "YAML 1.2", "empty value in flow",
        "colon inside flow text", "explicit key in flow", "comment after |", "? in block text"])
def test_what_both_parsers_read_alike_is_read(text):
    assert same_everywhere(text)[0] == "map"


def test_the_cli_refuses_a_tab_in_one_line_with_either_loader(uptown, tmp_path, monkeypatch):
    """The issue's file: '- red:<TAB>cards G6' was valid with libyaml, invalid without it."""
    path = tmp_path / "g.yaml"
    path.write_text(RECORD.replace("red: 3 C3", "red:\t3 C3"))
    lines = set()
    for loader in LOADERS:
        monkeypatch.setattr(yaml_reader, "LOADER", loader)
        result = uptown.invoke("validate", path)
        assert result.exit_code == 1
        [line, summary] = result.stdout.splitlines()
        lines.add(line)
        shown = uptown.invoke("show", path)
        assert shown.exit_code == 1 and shown.stderr.count("\n") == 1
    assert lines == {f"{path}:8: invalid YAML: a tab where YAML needs a space (tabs may stand only "
                     "inside quotes, block text and comments)"}


@needs_libyaml
def test_what_libyaml_alone_refuses_stays_refused():
    """Should libyaml ever refuse a text the pure parser takes, its refusal stands."""

    class Stricter(LIBYAML):
        def get_event(self):
            event = super().get_event()
            if isinstance(event, yaml.ScalarEvent) and event.value == "seed":
                raise yaml.MarkedYAMLError(problem="refused here", problem_mark=event.start_mark)
            return event

    assert reading(PURE, RECORD)[0] == "map"
    err = refusal(Stricter, RECORD)
    assert (err.line, err.message) == (6, "invalid YAML: refused here")


def test_lines_and_offsets_are_the_same_at_the_end_of_a_text_with_no_line_break():
    for text in ["seed: 1\n?", "# c\n---", "a: [x: ]", "a: {x:\n  }\n", "a:"]:
        same_everywhere(text)


def test_without_libyaml_installed_the_same_verdicts(uptown, tmp_path):
    """A real process with libyaml hidden: PyYAML falls back on its own parser, and uptown reads
    the tab file as it does here (refused, line 8) and a good one as valid."""
    bad, good = tmp_path / "bad.yaml", tmp_path / "good.yaml"
    bad.write_text(RECORD.replace("red: 3 C3", "red:\t3 C3"))
    good.write_text(RECORD)
    program = ("import sys; sys.modules['yaml._yaml'] = None; import yaml; "
               "assert not hasattr(yaml, 'CSafeLoader'); "
               "from uptown_cli.records import yaml_reader; "
               "assert yaml_reader.LOADER is yaml.SafeLoader; "
               "from uptown_cli.__main__ import main; sys.argv[0] = 'uptown'; main()")
    result = subprocess.run([sys.executable, "-c", program, "validate", bad, good],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        f"{bad}:8: invalid YAML: a tab where YAML needs a space (tabs may stand only inside "
        "quotes, block text and comments)", "2 records, 1 valid, 1 invalid"]


# -- generated record-like texts --------------------------------------------------------------

COMMON = ["red", "7 B7", "sax E8", "Ana", "x-y", "a b", "é", "\U0001F600", "it's"]
SPACE = st.sampled_from([" "] * 6 + ["  ", ""])
WORDS = st.sampled_from(COMMON * 3 + ["a:b", "a?b", "?", ":", "-", "#", "x #y", "%x", "", "!",
                                      "&a", ",", "[", "]", "{", "}", "|", ">", "\x85", "a:"])
ESCAPES = st.sampled_from(["\\t", "\\\t", "\\x41", "\\U00110000", "\\ud800", "\\/", "\\N", "\\_"])
BREAKS = st.sampled_from(["\n"] * 6 + ["\r\n", "\n\n", "\n# c\n", "\n  \n", "\u2028", "\x85", ""])
SPECIAL = list("\t\t\t :?#%-,[]{}|>\n\x85\ufeff") + [": ", "- ", "? ", " #", "\\", "\t#"]
"""What a change drops into generated text: tabs most often."""


@st.composite
def scalars(draw, in_flow):
    kind = draw(st.sampled_from(["plain", "plain", "plain", "single", "double", "block"]))
    word = draw(WORDS)
    tail = draw(st.sampled_from(["", "", "", "\n  x", "\n\n  y"]))
    if kind == "single":
        return "'" + word.replace("'", "''") + tail + "'"
    if kind == "double":
        return '"' + draw(st.one_of(WORDS, ESCAPES)).replace('"', "") + tail + '"'
    if kind == "plain" or in_flow:
        return word
    header = draw(st.sampled_from(["|", ">", "|-", ">+", "|2", "|#", "| #c", "|-1"]))
    lines = draw(st.lists(st.tuples(st.sampled_from(["  ", "  ", "   ", " ", ""]),
                                    st.sampled_from(["text", "", "a b"])), max_size=3))
    return header + "\n" + "".join(indent + text + "\n" for indent, text in lines)


def flow_nodes(depth=0):
    if depth > 2:
        return scalars(True)
    inner = flow_nodes(depth + 1)
    pair = st.tuples(WORDS, st.sampled_from([": ", ": ", ":", " :", ":  "]), SPACE, inner)
    return st.one_of(
        scalars(True),
        st.tuples(st.lists(st.tuples(SPACE, inner), max_size=3), st.sampled_from(["", "", ","])).map(
            lambda items: "[" + ",".join(s + i for s, i in items[0]) + items[1] + "]"),
        st.lists(st.tuples(SPACE, pair), max_size=3).map(
            lambda pairs: "{" + ",".join(s + "".join(p) for s, p in pairs) + "}"))


FLOW_NODES = flow_nodes()

KEYS = st.sampled_from(["uptown", "players", "moves", "name", "colors", "red", "x-a", "best",
                        "comment", "a b", '"q"', "'q'", "blue", "seed", "event", "notes"])


def value(draw, indent, depth):
    """After ``key:`` or ``-``: a scalar, a flow collection or (a line below) a block one."""
    kind = draw(st.sampled_from(["scalar", "scalar", "flow", "block" if depth < 3 else "scalar"]))
    if kind == "block":
        return "\n" + draw(blocks(indent + draw(st.sampled_from([2, 2, 4])), depth + 1))
    line = draw(SPACE) + draw(scalars(False) if kind == "scalar" else FLOW_NODES)
    if not line.endswith("\n"):
        line += draw(st.sampled_from(["", "", "", " # c", "#c"])) + draw(BREAKS)
    return line


@st.composite
def blocks(draw, indent=0, depth=0):
    """A block mapping (or, below the top, sometimes a block list) indented ``indent``."""
    if depth and draw(st.integers(0, 3)) == 0:
        return "".join(" " * indent + "-" + value(draw, indent, depth)
                       for _ in range(draw(st.integers(1, 3))))
    keys = draw(st.lists(KEYS, min_size=1, max_size=4, unique=True))
    return "".join(" " * indent + key + draw(st.sampled_from([":", ":", ":", " :"]))
                   + value(draw, indent, depth) for key in keys)


@st.composite
def yaml_texts(draw):
    """Record-like YAML: keys, lists and mappings in block and flow style, every kind of
    scalar, comments, directives and odd line breaks, with tabs and other characters YAML
    reads specially dropped in."""
    head = draw(st.sampled_from(["", "", "", "", "", "---\n", "%YAML 1.1\n---\n",
                                 "%YAML 1.3\n---\n", "%FOO x\n---\n", "\ufeff", "# c\n"]))
    text = head + draw(blocks()) + draw(st.sampled_from(["", "", "", "", "...\n", "---\n"]))
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(SPECIAL)) + text[at:]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_texts())
@pytest.mark.slow
def test_both_loaders_give_generated_texts_the_same_verdict_and_tree(text):
    same_everywhere(text)


FRAGMENT_PLACES = [
    ("a: [", "]\n"), ("a: {", "}\n"), ("x-a: [", "]\n"), ("x-a: {b: ", "}\n"), ("a: |", "\n"),
    ("a: >-", "\nb: c\n"), ("a: ", "\n"), ('a: "', '"\n'), ("a: '", "'\n"), ("", ""), ("- ", "\n"),
    ("a:\n  b: ", "\n  c: d\n"), ("a:\n  - ", "\n  - b\n"), ("a:\n  b: |", "\n    t\n  c: d\n"),
    ("a: |\n  x\n", ""), ("moves:\n  - red: 7 B7", "\n")]
FRAGMENT_PIECES = list(" \taa?:,[]{}#-\n|>'\"\\%!&*2\r\ufeff\x85é") + [": ", "- ", "? ", "  "]


@st.composite
def fragments(draw):
    """A few characters YAML reads specially, in a flow list or mapping, a block scalar,
    a quoted or plain scalar, or a list: where the two parsers part, if anywhere."""
    before, after = draw(st.sampled_from(FRAGMENT_PLACES))
    return before + "".join(draw(st.lists(st.sampled_from(FRAGMENT_PIECES), min_size=1,
                                          max_size=12))) + after


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fragments())
def test_both_loaders_read_fragments_alike(text):
    same_everywhere(text)


@st.composite
def changed_records(draw):
    """A sample record with a character that YAML reads specially put somewhere in it."""
    from pathlib import Path

    samples = sorted((Path(__file__).parents[2] / "records").glob("*.yaml"))
    text = draw(st.sampled_from(samples)).read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(list("\t \n:?#%-,[]{}|>'\"\x85\ufeff") + [
            ": ", "- ", "? ", " #", "\\"])) + text[at + draw(st.integers(0, 1)):]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changed_records())
def test_both_loaders_give_changed_records_the_same_records(text):
    tree = same_everywhere(text)
    verdicts = set()
    for loader in LOADERS:
        with reading_with(loader):
            result = validate_text(text, "g.yaml")
        record = result.record
        problems = None if tree == "refused" else [(e.line, e.move, e.message) for e in result.errors]
        verdicts.add(repr((result.valid, result.moves, problems, record and (
            record.players, record.moves, record.fields, record.extras, record.seed, record.variant))))
    assert len(verdicts) == 1, verdicts
