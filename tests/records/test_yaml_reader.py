"""The strict YAML reader: text stays text, and everything a record never needs is refused."""

import contextlib
import inspect
import os
import sys
import threading
import time

import pytest
import yaml

from uptown_cli.records import yaml_reader as yamlsafe
from uptown_cli.records.nodes import Mapping, Scalar, Sequence
from uptown_cli.records.yaml_reader import decode, parse, to_plain
from uptown_cli.errors import RecordError
from uptown_cli.records.reading import read_file

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


@pytest.fixture(params=LOADERS, ids=lambda loader: loader.__name__, autouse=True)
def loader(request, monkeypatch):
    """Run every test with libyaml's parser and with the pure-Python one."""
    monkeypatch.setattr(yamlsafe, "LOADER", request.param)
    return request.param


def refused(text, path="game.yaml"):
    with pytest.raises(RecordError) as info:
        parse(text, path)
    return info.value


@pytest.mark.parametrize("typed", [
    "No", "no", "On", "off", "yes", "Y", "true", "~", "null", "007", "0123", "0o17", "0x1F",
    "1_000", "1:20", "1:20:30", "1e3", ".inf", ".NaN", "-0", "2026-11-29", "2026-11-29 10:00:00",
    "2001-12-14t21:59:43.10-05:00", "=", "<<",
])
def test_scalars_stay_exactly_as_typed(typed):
    node = parse(f"key: {typed}\nlist: [{typed}]\n")
    assert to_plain(node) == {"key": typed, "list": [typed]}
    assert node.get("key")[1].plain


def test_quoted_and_block_scalars_keep_their_text():
    node = parse("a: '007'\nb: \"No\"\nc: |\n  two\n  lines\n")
    assert to_plain(node) == {"a": "007", "b": "No", "c": "two\nlines\n"}
    assert not any(value.plain for _, value in node.pairs)


def test_nodes_keep_lines_and_offsets():
    text = "# comment\nplayers:\n\n  - name: Ana\n    colors: [red, green]\nmoves:\n"
    root = parse(text)
    players = root.get("players")[1]
    assert isinstance(players, Sequence) and not players.flow and players.line == 4
    ana = players.items[0]
    assert isinstance(ana, Mapping) and ana.get("name")[1].line == 4
    colors = ana.get("colors")[1]
    assert colors.flow and colors.line == 5 and text[colors.start:colors.end] == "[red, green]"
    assert root.get("moves")[1].empty


def test_byte_order_mark_keeps_offsets_in_the_text():
    text = "\ufeffkey: value\n"
    value = parse(text).get("key")[1]
    assert text[value.start:value.end] == "value"


@pytest.mark.parametrize("text", ["", "# nothing but a comment\n", "---\n...\n"])
def test_no_document(text):
    node = parse(text)
    assert node is None or (isinstance(node, Scalar) and node.empty)


def test_duplicate_top_level_key():
    err = refused("uptown: 1\nmoves:\n  - red: 7 B7\nmoves:\n")
    assert (err.line, err.message) == (4, "the key 'moves' is given twice (first on line 2)")
    assert str(err) == "game.yaml:4: the key 'moves' is given twice (first on line 2)"


def test_duplicate_key_deep_inside():
    err = refused("players:\n  - name: Ana\n    colors: [red]\n    name: Bo\n")
    assert err.line == 4 and "'name' is given twice (first on line 2)" in err.message


def test_duplicate_key_in_a_flow_mapping():
    err = refused("moves: [{red: 7 B7}, {blue: 1 A1, blue: 2 A2}]\n")
    assert err.line == 1 and "'blue' is given twice" in err.message


def test_anchor_refused():
    err = refused("uptown: 1\nbase: &b\n  x: 1\n")
    assert (err.line, err.message) == (2, "anchors (&b) are not allowed in a record")


def test_alias_refused():
    err = refused("uptown: 1\nname: Ana\nother: *b\n")
    assert (err.line, err.message) == (3, "aliases (*b) are not allowed in a record")


def test_billion_laughs_refused_before_any_expansion():
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]" for i in range(8)]
    started = time.monotonic()
    err = refused("\n".join(lines) + "\n")
    assert err.line == 1 and err.message.startswith("anchors (&a)")
    assert time.monotonic() - started < 1


@pytest.mark.parametrize("text, tag", [
    ("seed: !!str 0123\n", "tag:yaml.org,2002:str"),
    ("seed: !!binary aGVsbG8=\n", "tag:yaml.org,2002:binary"),
    ("seed: !custom x\n", "!custom"),
    ("seed: ! x\n", "!"),
    ("players: !!seq [a]\n", "tag:yaml.org,2002:seq"),
    ("x: !!python/object:os.system {}\n", "tag:yaml.org,2002:python/object:os.system"),
])
def test_tags_refused(text, tag):
    err = refused(text)
    assert (err.line, err.message) == (1, f"tags ({tag}) are not allowed in a record")


def test_tag_directive_refused():
    err = refused("%TAG !e! tag:example.com,2000:\n---\nuptown: 1\n")
    assert (err.line, err.message) == (1, "%TAG directives are not allowed in a record")


def test_second_document_refused():
    err = refused("uptown: 1\n---\nuptown: 1\n")
    assert (err.line, err.message) == (2, "a record is a single YAML document, but a second one starts here")


def test_explicit_start_and_end_markers_allowed():
    assert to_plain(parse("---\nuptown: 1\n...\n# after\n")) == {"uptown": "1"}


def test_depth_limit():
    assert to_plain(parse("a: [[[[x]]]]\n")) == {"a": [[[["x"]]]]}
    err = refused("a:\n  - - - - [x]\n")
    assert (err.line, err.message) == (2, "nested deeper than a record can be")


def test_very_deep_nesting_refused_quickly():
    started = time.monotonic()
    err = refused("a: " + "[" * 200_000 + "\n")
    assert err.line == 1
    assert time.monotonic() - started < 2


def test_x_keys_keep_nesting_a_record_has_not():
    node = parse("uptown: 1\nx-ratings: {Ana: {elo: {2025: [1500]}}}\n")
    assert to_plain(node) == {"uptown": "1", "x-ratings": {"Ana": {"elo": {"2025": ["1500"]}}}}
    assert to_plain(parse("players:\n  - x-notes: [[[[[a]]]]]\n"))["players"][0]["x-notes"] == [[[[["a"]]]]]


def depth_of(plain):
    """How many lists are nested in ``plain`` (a chain of one-item lists), counted without
    recursion."""
    depth = 0
    while isinstance(plain, list):
        depth, plain = depth + 1, plain[0]
    return depth


def nested_under_x(levels, style):
    """A record whose x-deep holds ``levels`` lists, one inside the other, around ``a``."""
    if style == "flow":
        return "uptown: 1\nx-deep: " + "[" * levels + "a" + "]" * levels + "\n"
    return "uptown: 1\nx-deep:\n" + "".join(" " * i + "-\n" for i in range(1, levels)) + " " * levels + "- a\n"


@pytest.mark.parametrize("style", ["flow", "block"])
def test_x_keys_keep_nesting_up_to_the_limit(style):
    levels = yamlsafe.MAX_DEPTH_UNDER_X - 1  # the top mapping is a level too
    assert depth_of(to_plain(parse(nested_under_x(levels, style)))["x-deep"]) == levels
    err = refused(nested_under_x(levels + 1, style))
    assert (err.line, err.message) == (
        2 if style == "flow" else levels + 3,
        f"nested deeper than {yamlsafe.MAX_DEPTH_UNDER_X} levels, the most under an x- key")


def test_nodes_are_built_without_recursion(monkeypatch):
    monkeypatch.setattr(yamlsafe, "MAX_DEPTH_UNDER_X", 900)
    text = nested_under_x(899, "block")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 60)  # far less than the nesting
    try:
        plain = to_plain(parse(text))
    finally:
        sys.setrecursionlimit(limit)
    assert depth_of(plain["x-deep"]) == 899


def test_very_deep_nesting_under_an_x_key_refused_quickly():
    started = time.monotonic()
    err = refused("uptown: 1\nx-deep: " + "[" * 1_000_000)
    assert err.line == 2 and "nest" in err.message
    assert time.monotonic() - started < 2


def test_to_plain_needs_no_recursion():
    node = Scalar(1, 0, 1, "a", True)
    for _ in range(100_000):
        node = Sequence(1, 0, 1, [node], True)
    assert depth_of(to_plain(node)) == 100_000


def test_key_that_is_a_list_refused():
    err = refused("uptown: 1\n[a, b]: 1\n")
    assert (err.line, err.message) == (2, "a key must be text, not a list")


def test_syntax_error_has_its_line():
    err = refused("uptown: 1\nplayers:\n  - name: Ana\n   colors: [red\n")
    assert err.line in (4, 5) and err.message.startswith("invalid YAML: ")


def test_forbidden_character_has_its_line():
    err = refused("uptown: 1\nname: a\x07b\n")
    assert err.line == 2 and err.message.startswith("invalid YAML: ")


@pytest.mark.parametrize("text", [
    "uptown: 1\nevent: Zoë à l'Opéra\nnotes: a\x00b\n",
    "\ufeffuptown: 1\nevent: 日本語の大会 😀😀😀\nnotes: a\x07b\n",
    "event: é\nsite: ü\nnotes: a\x1bb\n",
])
def test_forbidden_character_after_multibyte_text_has_its_line(text):
    err = refused(text)
    assert err.line == 3 and err.message.startswith("invalid YAML: ")


@pytest.mark.parametrize("other_break", ["\u2028", "\u2029", "\x85", "\r"])
def test_lines_are_counted_as_an_editor_counts_them(other_break):
    text = f"# a comment{other_break}# more of it\nevent: 'x{other_break} y'\nname: é\nname: ü\n"
    err = refused(text)
    assert (err.line, err.message) == (4, "the key 'name' is given twice (first on line 3)")
    assert refused(text.replace("name: ü", "oops: [")).line in (4, 5)
    assert parse(text.replace("name: ü", "site: ü")).get("site")[0].line == 4


def test_too_big_refused_before_parsing():
    text = "notes: " + "x" * yamlsafe.MAX_BYTES + "\n"
    err = refused(text)
    assert err.line is None and "larger than 1 MiB" in err.message
    with pytest.raises(RecordError, match="larger than 1 MiB"):
        decode(text.encode(), "big.yaml")


def test_exactly_one_mib_is_accepted():
    text = "notes: x\n" + "#" * (yamlsafe.MAX_BYTES - 9)
    assert len(text.encode()) == yamlsafe.MAX_BYTES
    assert to_plain(parse(text)) == {"notes": "x"}


def test_big_file_refused_without_reading_it(tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as stream:
        stream.truncate(200 * yamlsafe.MAX_BYTES)
    err = pytest.raises(RecordError, read_file, path, "huge.yaml").value
    assert str(err) == f"huge.yaml: the file is larger than 1 MiB ({200 * yamlsafe.MAX_BYTES} bytes); refused"


def test_not_utf8_refused_with_its_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("uptown: 1\nplayers:\n  - name: Zoë\n".encode("latin-1"))
    err = pytest.raises(RecordError, read_file, path, "latin1.yaml").value
    assert str(err) == "latin1.yaml:3: not UTF-8 text: byte 0xeb cannot be read"


def test_missing_file(tmp_path):
    err = pytest.raises(RecordError, read_file, tmp_path / "nope.yaml", "nope.yaml").value
    assert err.path == "nope.yaml" and "cannot read the file" in err.message


@contextlib.contextmanager
def pipe_holding(data: bytes):
    """The path of a pipe (``/dev/fd/N``, as ``<(cat game.yaml)`` gives) that a thread fills
    with ``data``.  The write end exists before anyone reads, so a reader never sees an early
    end of file; the thread ends when the data is written or the reader goes away."""
    read_end, write_end = os.pipe()

    def write():
        with contextlib.suppress(BrokenPipeError), open(write_end, "wb") as stream:
            stream.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield f"/dev/fd/{read_end}"
    finally:
        os.close(read_end)
        writer.join(timeout=10)
    assert not writer.is_alive(), "the writer of the pipe is stuck"


def test_pipe_is_read():
    with pipe_holding(b"uptown: 1\n") as path:
        assert read_file(path) == "uptown: 1\n"


def test_pipe_is_read_with_the_size_limit():
    with pipe_holding(b"#" * (yamlsafe.MAX_BYTES + 10)) as path:
        with pytest.raises(RecordError, match="larger than 1 MiB"):
            read_file(path)


def test_error_text_and_json():
    err = RecordError("red plays 7 on B8, but 7 goes in column 7", path="game.yaml", line=14, move=3)
    assert str(err) == "game.yaml:14: red plays 7 on B8, but 7 goes in column 7"
    assert err.to_json() == {"line": 14, "move": 3, "message": "red plays 7 on B8, but 7 goes in column 7"}
    assert isinstance(err, ValueError) and err.problems == [err]
    assert str(RecordError("oops", path="g.yaml")) == "g.yaml: oops"
    assert str(RecordError("oops")) == "oops"


@pytest.mark.parametrize("data, line, message", [
    ("{a: 1, a: 2}", 2, "the key 'a' is given twice (first on line 2)"),
    ("\n  - {b: 1}\n  - b: 1\n    c: [1, 2]\n    b: 3", 6, "the key 'b' is given twice (first on line 4)"),
    ("[&x 1, *x]", 2, "anchors (&x) are not allowed in a record"),
    ("[1, !!str 2]", 2, "tags (tag:yaml.org,2002:str) are not allowed in a record"),
    ("{[1]: 2}", 2, "a key must be text, not a list"),
    ("\n  ? {a: 1}\n  : 2", 3, "a key must be text, not a mapping"),
])
def test_x_data_read_as_plain_data_is_checked_as_any_data(data, line, message):
    err = refused("uptown: 1\nx-own: " + data + "\n")
    assert (err.line, err.message) == (line, message)


@pytest.mark.parametrize("data", [
    "[1, [2, [3, {a: b, c: [d]}]], '4', \"5\"]",
    "\n  a:\n    - 1\n    - {b: [c, d]}\n  e: |\n    text\n  f: ''",
    "\n  - - - x\n  - {}\n  - []",
])
def test_x_data_reads_as_any_yaml_reader_reads_it_as_text(data):
    import yaml

    text = "uptown: 1\nx-own: " + data + "\nafter: 1\n"
    root = parse(text)
    expected = yaml.load(text, Loader=yaml.BaseLoader)  # every scalar as text
    assert to_plain(root) == expected
    own = root.get("x-own")[1]
    assert text[own.start:own.end].strip() == data.strip() or own.end > own.start
