"""Hostile and broken input: every command that reads a record accepts it or answers with one
of our own errors naming a line, quickly; never another exception, never a hang.

The bulk runs through the library (what validate, show, score, moves and replay do); a sample
runs through the commands themselves.  Special cases: alias bombs, deep nesting, a 100 MB
file, bytes that are not UTF-8, an empty file, a folder, a FIFO and a file we may not read.
"""

import contextlib
import errno
import os
import re
import signal
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uptown_cli.records import reading
from uptown_cli.records import yaml_reader as yamlsafe
from uptown_cli.records.schema import KNOWN_KEYS
from uptown_cli.errors import RecordError
from uptown_cli.records.reading import load_record
from uptown_cli.fairplay.replay import replay
from uptown_cli.turns.validation import validate_file, validate_text
from uptown_cli.pictures.text import (
    board_text,
    moves_data,
    players_rows,
    position_data,
    standings_data,
)
from uptown_cli.engine.game import VARIANTS
from uptown_cli.engine.scoring import standings

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted((ROOT / "records").glob("*.yaml"))
SAMPLES = {path.name: path.read_bytes() for path in RECORDS}
READERS = ["validate", "show", "score", "moves", "replay"]
QUICK = 1.0
"""Seconds: "well under a second" for a refusal, with room for a busy machine."""
RELEASE = 1.5
"""Seconds after which a test lets go of a reader stuck on a FIFO (so that it fails, not hangs)."""


# -- what must hold for any input ----------------------------------------------------------


@contextlib.contextmanager
def hang_guard(seconds=10):
    """Fail instead of hanging: interrupt the block after ``seconds``."""

    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_library(data: bytes, name="m.yaml"):
    """What the reading commands do, through the library: nothing but our errors, each with a
    line inside the text.  Returns the validation."""
    lines = data.count(b"\n") + 1
    with hang_guard():
        result = validate_text(data, name)
        for error in result.errors:
            assert isinstance(error, RecordError)
            assert error.path == name and isinstance(error.line, int), error
            assert 1 <= error.line <= lines + 1, error
            assert error.message and "\n" not in str(error)
        if result.record is not None:
            exercise_readers(result.record)
    return result


def exercise_readers(record):
    """Everything show, score, moves and replay compute from a record that was read."""
    outcome = replay(record)
    game = outcome.game
    position_data(game)
    board_text(game, use_color=True)
    for variant in VARIANTS:
        rows = standings(game, variant)
        standings_data(game, rows, variant)
        players_rows(game, rows)
    if game.knows_racks and not game.finished:
        moves_data(game, game.legal_moves())
    for upto in {0, outcome.moves_ok // 2}:
        board_text(replay(record, upto=upto).game)


def check_commands(uptown, path: Path, data: bytes):
    """Each reading command on the file: exit 0 or 1, our own one-line error naming the line
    when the record is invalid, never a traceback."""
    path.write_bytes(data)
    verdict = validate_text(data, str(path))
    where = re.compile(rf"^{re.escape(str(path))}:\d+: ", re.M)
    for command in READERS:
        with hang_guard():
            result = uptown.invoke(command, path)
        assert result.exit_code in (0, 1), (command, result.output)
        assert "Traceback" not in result.output
        if command == "validate":
            assert result.exit_code == (0 if verdict.valid else 1)
            assert verdict.valid or where.search(result.stdout)
            continue
        no_seed = (command == "moves" and verdict.valid and verdict.record.seed is None
                   and not replay(verdict.record).game.finished)
        assert result.exit_code == (0 if verdict.valid and not no_seed else 1), (command, result.output)
        if result.exit_code:
            [line] = result.stderr.splitlines()
            assert line.startswith("Error: ")
            assert no_seed or where.match(line[len("Error: "):]), (command, line)


# -- mutations of valid records -------------------------------------------------------------

KEYS = [*KNOWN_KEYS, "name", "colors", "red", "blue", "x-mine", "Moves", "uptown ", "mvoes", "", "?", "- a",
        "&a", "*a", "!!str", "[a]", "{a: b}", "'q'", '"q"', "#", "%", "7 B7"]
VALUES = ["[]", "{}", "[red, blue]", "{name: Ana}", "~", "null", '""', "''", "yes", "No", "0o17", "0x1F", "1e3",
          "-.inf", "2026-11-29", "12:30:00", '"\\x00"', "|\n  text", ">-\n  folded", "!!binary aGk=", "&x 1", "*x",
          "- a", "? complex", '"unterminated', "'it''s'", "7 B7", "pass", "$ xZ9", "sax", "x" * 300, "\t",
          "[[[[[a]]]]]", "!custom", "@", "`", "%", "1", "0", "-1", "99999999999999999999", "red", "woman B8",
          "I xI9"]
LINES = [b"# comment", b"...", b"---", b"%YAML 1.1", b"%TAG ! tag:x,2000:", b"", b"  ", b"\t", b"moves:",
         b"players:", b"- red: 7 B7", b"  - name: Zed", b"x-k: v", b"uptown: 2", b"\xef\xbb\xbf", b"\xff\xfe",
         b"seed: 1", b"variant: blockers", b"  - blue: pass", b"- {red: 7 B7}"]


def split_lines(data: bytes) -> list:
    return data.splitlines(keepends=True) or [b""]


@st.composite
def mutation(draw, data: bytes) -> bytes:
    """One change to ``data``: a byte flipped, a line dropped, duplicated, swapped or inserted,
    a key renamed, or a value replaced by another kind of YAML."""
    lines = split_lines(data)
    kind = draw(st.sampled_from(["flip", "drop", "duplicate", "swap", "insert", "key", "value"]))
    at = draw(st.integers(0, len(lines) - 1))
    if kind == "flip":
        index = draw(st.integers(0, max(len(data) - 1, 0)))
        return data[:index] + bytes([draw(st.integers(0, 255))]) + data[index + 1:]
    if kind == "drop":
        return b"".join(lines[:at] + lines[at + 1:])
    if kind == "duplicate":
        return b"".join(lines[:at + 1] + lines[at:])
    if kind == "swap":
        other = draw(st.integers(0, len(lines) - 1))
        lines[at], lines[other] = lines[other], lines[at]
        return b"".join(lines)
    if kind == "insert":
        indent = b" " * draw(st.sampled_from([0, 1, 2, 4]))
        return b"".join(lines[:at] + [indent + draw(st.sampled_from(LINES)) + b"\n"] + lines[at:])
    text = data.decode("utf-8", "surrogateescape")
    if kind == "key":
        keys = list(re.finditer(r"^([ \t]*(?:-[ \t]+)?)([^\s:#][^:\n]*?):(?=\s|$)", text, re.M))
        if not keys:
            return data
        found = draw(st.sampled_from(keys))
        text = text[:found.start(2)] + draw(st.sampled_from(KEYS)) + text[found.end(2):]
    else:
        pairs = list(re.finditer(r"^([^#\n]*?:[ \t]+)([^#\n]*)", text, re.M))
        if not pairs:
            return data
        found = draw(st.sampled_from(pairs))
        text = text[:found.start(2)] + draw(st.sampled_from(VALUES)) + text[found.end(2):]
    return text.encode("utf-8", "surrogateescape")


@st.composite
def mutated_records(draw):
    data = SAMPLES[draw(st.sampled_from(sorted(SAMPLES)))]
    for _ in range(draw(st.integers(1, 3))):
        data = draw(mutation(data))
    return data


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_mutated_records_are_accepted_or_refused_with_a_line(data):
    check_library(data)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("hostile")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_commands_on_mutated_records(uptown, folder, data):
    check_commands(uptown, folder / "m.yaml", data)


def test_the_sample_records_pass_through_the_checks_unharmed(uptown, folder):
    for name, data in SAMPLES.items():
        assert check_library(data, name).valid
    check_commands(uptown, folder / "sample.yaml", SAMPLES["in-progress.yaml"])


@pytest.mark.parametrize("text", [
    "uptown: 1\nvariant: |\n  text\n",
    'uptown: 1\n"x\\ny": 1\n',
    'uptown: 1\n"a\\nb": 1\n"a\\nb": 2\n',
    'uptown: 1\nplayers:\n  - {name: a, colors: ["re\\nd"]}\n  - {name: b}\n',
    'uptown: 1\nplayers: [{name: a}, {name: b}]\nmoves:\n  - "re\\nd": 7 B7\n',
], ids=["variant", "key", "duplicate key", "colour", "colour of a move"])
def test_every_error_is_one_line(uptown, folder, text):
    """Text from the file that holds a line break is shown escaped, never breaking the line."""
    path = folder / "one-line.yaml"
    path.write_text(text)
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1
    assert all(line.startswith(f"{path}:") for line in result.stdout.splitlines()[:-1]), result.stdout
    shown = uptown.invoke("show", path)
    assert shown.exit_code == 1 and len(shown.stderr.splitlines()) == 1, shown.stderr


# -- generated YAML ------------------------------------------------------------------------

PUNCTUATION = ":-[]{},#&*!|>'\"%@`?~ \n\t\r\\"
scalars = st.one_of(st.text(max_size=12), st.integers(), st.floats(), st.booleans(), st.none(),
                    st.sampled_from(["red", "blue", "7 B7", "pass", "sax E8", "$ xC3", "No", "0123", "Ana"]))
data_trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(KEYS)), inner,
                                                 max_size=4)), max_leaves=20)
record_like = st.fixed_dictionaries(
    {"uptown": st.sampled_from([1, "1", 2, None, [1]])},
    optional={
        "variant": st.sampled_from(["standard", "blockers", "", "Standard", 1]),
        "players": st.lists(st.fixed_dictionaries(
            {"name": st.one_of(st.text(max_size=6), st.integers())},
            optional={"colors": st.lists(st.sampled_from(["red", "blue", "green", "yellow", "orange", "pink"]),
                                         max_size=3)}), max_size=6),
        "seed": st.one_of(st.text(max_size=8), st.integers()),
        "moves": st.lists(st.dictionaries(st.sampled_from(["red", "blue", "green", "yellow", "orange"]),
                                          st.sampled_from(["7 B7", "sax E8", "pass", "$ C3", "4 xE8", "I I9", "A A1",
                                                           "man A1", "9 9", "", "x"]),
                                          min_size=1, max_size=2), max_size=12),
        "x-extra": data_trees,
    })


@st.composite
def yaml_texts(draw):
    """YAML-looking text: dumped data (record-shaped or not) in any style, or raw characters."""
    kind = draw(st.sampled_from(["record", "tree", "raw"]))
    if kind == "raw":
        alphabet = st.one_of(st.sampled_from(PUNCTUATION), st.characters(codec="utf-8"))
        return draw(st.text(alphabet, max_size=200)).encode("utf-8", "surrogatepass")
    tree = draw(record_like if kind == "record" else data_trees)
    text = yaml.safe_dump(tree, default_flow_style=draw(st.sampled_from([False, True, None])),
                          allow_unicode=draw(st.booleans()), sort_keys=draw(st.booleans()),
                          explicit_start=draw(st.booleans()))
    return text.encode("utf-8")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_texts())
def test_generated_yaml_is_accepted_or_refused_with_a_line(data):
    check_library(data)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_texts())
def test_commands_on_generated_yaml(uptown, folder, data):
    check_commands(uptown, folder / "g.yaml", data)


# -- special cases, each refused quickly -----------------------------------------------------


def laughs(prefix=""):
    lines = [f"{prefix}a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"{prefix}{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]" for i in range(8)]
    return "\n".join(lines) + "\n"


HEAD = "uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\n  - name: Cy\nmoves:\n"
HOSTILE = {
    "alias bomb": (laughs(), 1),
    "an anchor and an alias in the moves": (HEAD + "  - red: &a 7 B7\n  - blue: *a\n", 7),
    "alias bomb under x-": ("uptown: 1\nx-bomb:\n" + laughs("  "), 3),
    "an alias to nothing": (HEAD + "  - red: *nothing\n", 7),
    "deep flow lists": ("uptown: 1\nx-deep: " + "[" * 300_000 + "]" * 300_000 + "\n", 2),
    "deep flow mappings": ("x: " + "{a: " * 200_000 + "\n", 1),
    "deep block lists": ("x:\n" + "- " * 400_000 + "a\n", 2),
    "deep block mappings": ("".join(" " * i + "a:\n" for i in range(1400)), 6),
    "deep inside a move": (HEAD + "  - red: [[[[[[7 B7]]]]]]\n", 7),
    "empty file": ("", 1),
    "only a comment": ("# nothing here\n", 1),
    "a byte order mark alone": ("\ufeff", 1),
    "a bare scalar": ("uptown\n", 1),
    "a list": ("- uptown: 1\n", 1),
    "a NUL byte": ("uptown: 1\nnotes: a\x00b\n", 2),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_is_refused_quickly_with_its_line(uptown, folder, name):
    text, line = HOSTILE[name]
    started = time.monotonic()
    result = check_library(text.encode("utf-8"))
    assert time.monotonic() - started < QUICK
    assert not result.valid and result.errors[0].line == line
    path = folder / "hostile.yaml"
    path.write_text(text)
    started = time.monotonic()
    shown = uptown.invoke("show", path)
    assert time.monotonic() - started < QUICK
    assert shown.exit_code == 1 and len(shown.stderr.splitlines()) == 1
    assert shown.stderr.startswith(f"Error: {path}:{line}: {result.errors[0].message}")


@pytest.mark.parametrize("data, line", [
    ("uptown: 1\nplayers:\n  - name: Zoë\n".encode("latin-1"), 3),
    (b"\xff\xfeu\x00p\x00", 1),
    ("uptown: 1\nnotes: Café\n".encode("utf-16"), 1),
    (SAMPLES["in-progress.yaml"].replace(b"  - red: 5 D5\n", b"  - red: 5 D5 \x80\n"), 29),
    (b"uptown: 1\n" + b"\xed\xa0\x80\n", 2),
])
def test_bytes_that_are_not_utf8(data, line):
    result = check_library(data)
    assert not result.valid and result.errors[0].line == line
    assert result.errors[0].message.startswith("not UTF-8 text")


@pytest.fixture
def huge(tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as stream:
        stream.truncate(100 * 1024 * 1024)
    return path


def test_a_100_mb_file_is_refused_by_its_size_before_reading(huge):
    tracemalloc.start()
    try:
        started = time.monotonic()
        with pytest.raises(RecordError) as caught:
            load_record(huge)
        result = validate_file(huge)
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert elapsed < QUICK and peak < 256 * 1024, "the file was read before its size was checked"
    assert str(caught.value) == f"{huge}: the file is larger than 1 MiB (104857600 bytes); refused"
    assert [e.message for e in result.errors] == [caught.value.message]


@pytest.mark.parametrize("command", [*READERS, "move"])
def test_commands_refuse_a_100_mb_file_quickly(uptown, huge, command):
    started = time.monotonic()
    result = uptown.invoke(command, huge, *(["7", "B7"] if command == "move" else []))
    assert time.monotonic() - started < QUICK
    assert result.exit_code == 1 and "larger than 1 MiB (104857600 bytes); refused" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["validate", "show", "score"])
def test_too_much_on_standard_input_is_refused(uptown, command):
    result = uptown.invoke(command, "-", input=b"#" * (yamlsafe.MAX_BYTES + 1))
    assert result.exit_code == 1 and "larger than 1 MiB" in result.output


def test_empty_file(uptown, tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_bytes(b"")
    for command in READERS:
        result = uptown.invoke(command, path)
        assert result.exit_code == 1
        assert f"{path}:1: a record is a mapping of keys" in result.output and "Traceback" not in result.output


def test_a_folder(uptown, tmp_path):
    folder = tmp_path / "game.yaml"
    folder.mkdir()
    with pytest.raises(RecordError) as caught:
        load_record(folder)
    assert caught.value.path == str(folder)
    for command in ["show", "moves", "replay", "move"]:
        result = uptown.invoke(command, folder, *(["7", "B7"] if command == "move" else []))
        assert (result.exit_code, result.stderr) == (1, f"Error: {caught.value}\n")
    for command in ["validate", "score"]:  # they take folders
        result = uptown.invoke(command, folder)
        assert (result.exit_code, result.stderr) == (1, f"Error: {folder} is a folder with no .yaml records in it\n")


@contextlib.contextmanager
def writer_after(fifo: Path, seconds: float):
    """Open ``fifo`` for writing after ``seconds`` (if a reader is waiting by then), so that a
    reader that blocks on it is let go instead of hanging the test run."""
    stop = threading.Event()

    def release():
        if stop.wait(seconds):
            return
        while not stop.is_set():
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError as exc:
                if exc.errno != errno.ENXIO:
                    raise
            stop.wait(0.05)

    thread = threading.Thread(target=release, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo.yaml"
    os.mkfifo(path)
    return path


def test_a_fifo_nobody_writes_to_is_refused_quickly(fifo):
    started = time.monotonic()
    with writer_after(fifo, RELEASE), pytest.raises(RecordError) as caught:
        load_record(fifo)
    assert time.monotonic() - started < QUICK, "reading a FIFO with no writer blocks"
    assert str(caught.value).startswith(f"{fifo}")


def test_show_on_a_fifo_answers_quickly(uptown, fifo):
    started = time.monotonic()
    with writer_after(fifo, RELEASE):
        result = uptown.invoke("show", fifo)
    assert time.monotonic() - started < QUICK, "reading a FIFO with no writer blocks"
    assert result.exit_code == 1 and str(fifo) in result.stderr


def test_validating_a_folder_holding_a_fifo_answers_quickly(uptown, tmp_path, fifo):
    (tmp_path / "game.yaml").write_bytes(SAMPLES["in-progress.yaml"])
    started = time.monotonic()
    with writer_after(fifo, RELEASE):
        result = uptown.invoke("validate", tmp_path)
    assert time.monotonic() - started < QUICK, "reading a FIFO with no writer blocks"
    assert result.exit_code == 1 and result.stdout.startswith(f"{fifo}") and "2 records, 1 valid" in result.stdout


# -- a file we may not read ------------------------------------------------------------------


def test_a_file_we_may_not_read(uptown, tmp_path, game_file):
    path = game_file(SAMPLES["in-progress.yaml"], mode=0)
    for command in ["show", "validate"]:
        result = uptown.run_powerless(command, path.name, cwd=tmp_path)
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert "game.yaml: cannot read the file: Permission denied" in result.stdout + result.stderr
    assert path.stat().st_mode & 0o777 == 0


def test_a_file_we_may_not_read_in_process(uptown, game_file, monkeypatch):
    path = game_file(SAMPLES["in-progress.yaml"])

    real_open = os.open

    def refuse(name, *args, **kwargs):
        if os.fspath(name) == str(path):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(reading.os, "open", refuse)
    started = time.monotonic()
    for command in READERS:
        result = uptown.invoke(command, path)
        assert result.exit_code == 1 and f"{path}: cannot read the file: Permission denied" in result.output
    assert time.monotonic() - started < QUICK * len(READERS)
