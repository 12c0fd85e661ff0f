"""Appending a move to a record's text: long flow lists in linear time, own-line comments
kept on their own lines, byte order marks, the size limit, and errors that cite only lines
the user's file has."""

import time
from pathlib import Path

import pytest
from test_cli_support import invoke

from uptown_cli import record_writer
from uptown_cli.record import RecordError, load_record_text
from uptown_cli.record_writer import insert_move
from uptown_cli.yamlsafe import MAX_BYTES

ROOT = Path(__file__).resolve().parent.parent
HEADER = "uptown: 1\nplayers:\n  - name: Ana\n    colors: [red]\n  - name: Bo\n    colors: [blue]\n" \
         "  - name: Cy\n    colors: [green]\n"
COLORS = ("red", "blue", "green")


def moves_of(text):
    return [(m.color, m.text) for m in load_record_text(text, "g.yaml").moves]


def flow_moves(moves, pad="  "):
    """``moves: [...]`` with one ``{colour: move}`` per line, each with a comment, and an
    own-line comment every tenth move."""
    lines = ["moves: [  # the game"]
    for number, (color, move) in enumerate(moves, 1):
        if number % 10 == 0:
            lines.append(f"{pad}# after move {number - 1}")
        lines.append(f"{pad}{{{color}: {move}}},  # move {number}")
    return "\n".join(lines + ["]", ""])


# -- speed -----------------------------------------------------------------------------------


def test_appending_to_a_1000_move_flow_list_takes_linear_time():
    """The comment scan once looked up every scalar at every character: ~7 s here."""
    moves = [(COLORS[i % 3], "7 B7") for i in range(1000)]
    text = HEADER + flow_moves(moves, pad=" " * 60)
    started = time.process_time()
    new = insert_move(text, "blue", "7 B7")
    elapsed = time.process_time() - started
    assert moves_of(new) == moves + [("blue", "7 B7")]
    assert new.count("# move ") == 1000 and new.count("# after move") == 100
    assert elapsed < 2.0, f"appending took {elapsed:.2f} s of CPU"


def test_a_move_on_a_100_move_flow_record_through_the_cli(tmp_path):
    source = (ROOT / "records" / "5p-blockers.yaml").read_text()
    head, moves = source.split("moves:\n")
    played = [tuple(line[4:].split(": ")) for line in moves.splitlines() if line.startswith("  - ")][:100]
    path = tmp_path / "flow.yaml"
    path.write_text(head + flow_moves(played))
    started = time.monotonic()
    result = invoke("move", path, "F", "xF1")
    assert result.exit_code == 0, result.output
    assert time.monotonic() - started < 10
    text = path.read_text()
    assert text.startswith(head + "moves:  # the game\n")
    assert moves_of(text) == played + [("red", "F xF1")]
    assert "\n  # after move 9\n  - " in text and "  - red: B B7  # move 1\n" in text


# -- own-line comments in a flow list --------------------------------------------------------


@pytest.mark.parametrize("moves, rewritten", [
    ("moves: [\n  {red: woman B8},\n  # Bo thinks long\n    # and plays\n  {blue: I I9},  # fast\n]\n",
     "moves:\n  - red: woman B8\n  # Bo thinks long\n  # and plays\n  - blue: I I9  # fast\n  - green: man C3\n"),
    ("moves:\n  # before the list\n  [\n  # opening\n  {red: woman B8}  # first\n  # nothing more yet\n  ]  # end\n",
     "moves:\n  # before the list\n  # opening\n  - red: woman B8  # first\n  # nothing more yet  # end\n"
     "  - green: man C3\n"),
    ("moves: [red: woman B8,\n# at the margin\nblue: I I9]\n",
     "moves:\n  - red: woman B8\n  # at the margin\n  - blue: I I9\n  - green: man C3\n"),
])
def test_own_line_comments_in_a_flow_list_keep_their_own_lines(moves, rewritten):
    old = HEADER + moves + "x-after: 1  # kept\n"
    new = insert_move(old, "green", "man C3")
    assert new == HEADER + rewritten + "x-after: 1  # kept\n"
    assert moves_of(new) == moves_of(old) + [("green", "man C3")]


# -- byte order mark -------------------------------------------------------------------------


def test_a_byte_order_mark_file_without_moves_gets_its_first_move(tmp_path):
    path = tmp_path / "b.yaml"
    path.write_bytes(("\ufeff" + HEADER).encode())
    assert invoke("validate", path).exit_code == 0
    result = invoke("move", path, "7", "B7")
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == ("\ufeff" + HEADER + "moves:\n  - red: 7 B7\n").encode()


@pytest.mark.parametrize("before", ["uptown: 1\n", "uptown: 1  # v1\n", "x-first: [a]\nuptown: 1\n"])
def test_a_byte_order_mark_before_the_first_key_is_not_indentation(before):
    old = "\ufeff" + before + HEADER.replace("uptown: 1\n", "")
    assert insert_move(old, "red", "7 B7") == old + "moves:\n  - red: 7 B7\n"


# -- errors ----------------------------------------------------------------------------------


def test_a_new_text_that_does_not_read_back_cites_no_line(monkeypatch):
    """The read-back of the new text fails on line 10, which the user's file (9 lines) lacks."""
    monkeypatch.setattr(record_writer, "quote", lambda text, flow=False: "'" + text)
    old = HEADER + "moves:\n"
    with pytest.raises(RecordError) as caught:
        insert_move(old, "red", "7 B7", "g.yaml")
    assert caught.value.line is None
    assert str(caught.value).startswith("appending red: 7 B7 to g.yaml would not read back as that one move "
                                        "more (invalid YAML")
    assert str(caught.value).endswith("; nothing was written") and ":10" not in str(caught.value)


def padded_record(size):
    """A record of exactly ``size`` bytes, padded with a comment."""
    text = HEADER + "moves:\n# "
    return text + "x" * (size - len(text) - 1) + "\n"


def test_a_move_that_would_pass_1_mib_says_so(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(padded_record(MAX_BYTES - 1))
    assert path.stat().st_size == 1_048_575
    result = invoke("move", path, "7", "B7")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"Error: with red: 7 B7 appended, {path} would be larger than 1 MiB "
                             "(1048589 bytes); nothing was written\n")
    assert path.read_text() == padded_record(MAX_BYTES - 1)


def test_a_move_that_reaches_exactly_1_mib_is_written():
    old = padded_record(MAX_BYTES - len("  - red: 7 B7\n"))
    assert len(insert_move(old, "red", "7 B7").encode()) == MAX_BYTES
