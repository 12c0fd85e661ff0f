"""Appending a move to a record's text: long flow lists in linear time, own-line comments
kept on their own lines, byte order marks, the size limit, and errors that cite only lines
the user's file has."""

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli_support import invoke

from uptown_cli.records import safe_file as record_writer
from uptown_cli.records import text as record_text
from uptown_cli.errors import RecordError
from uptown_cli.records.schema import load_record_text
from uptown_cli.records.text import insert_move
from uptown_cli.records.yaml_reader import MAX_BYTES

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
     "moves:\n  # before the list\n  # opening\n  - red: woman B8  # first\n  # nothing more yet\n"
     "  # end\n  - green: man C3\n"),
    ("moves: [red: woman B8,\n# at the margin\nblue: I I9]\n",
     "moves:\n  - red: woman B8\n  # at the margin\n  - blue: I I9\n  - green: man C3\n"),
])
def test_own_line_comments_in_a_flow_list_keep_their_own_lines(moves, rewritten):
    old = HEADER + moves + "x-after: 1  # kept\n"
    new = insert_move(old, "green", "man C3")
    assert new == HEADER + rewritten + "x-after: 1  # kept\n"
    assert moves_of(new) == moves_of(old) + [("green", "man C3")]


MOVES = [("red", "I I9"), ("blue", "2 H2"), ("green", "B B3"), ("red", "6 C6")]


@st.composite
def flow_layouts(draw):
    """(text of a flow ``moves`` list, {comment: the move it follows on its line, "key" for
    the key's line, or None when it follows only brackets and commas or is alone}), laid out
    at random: line breaks, comments after any token, comments on lines of their own."""
    count = draw(st.integers(0, len(MOVES)))
    tokens = [("[", None)]
    for number in range(count):
        color, move = MOVES[number]
        tokens.append((f"{{{color}: {move}}}", number))
        if number < count - 1 or draw(st.booleans()):
            tokens.append((",", None))
    tokens.append(("]", None))
    lines, line, owner, last = [], "moves:", "key", "key"
    expected = {}
    for text, number in tokens:
        if draw(st.booleans()):  # a line break before the token
            lines.append(line)
            for _ in range(draw(st.integers(0, 1))):
                comment = f"# own {len(expected)}"
                expected[comment] = None
                lines.append(draw(st.sampled_from(["", "  ", "    "])) + comment)
            line, owner = draw(st.sampled_from([" ", "  ", "    "])), None
        line += (" " if line == "moves:" else draw(st.sampled_from(["", " "]))) + text
        if number is not None:
            owner = last = number
        if draw(st.integers(0, 2)) == 0:  # a comment ends the line
            comment = f"# after {len(expected)}"
            expected[comment] = owner if owner == last else None
            lines.append(line + draw(st.sampled_from([" ", "  "])) + comment)
            line, owner = "", None
    lines.append(line)
    return "\n".join(lines) + "\n", expected


@settings(max_examples=300, deadline=None)
@given(flow_layouts())
def test_comments_on_bracket_lines_stay_on_lines_of_their_own(layout):
    moves, expected = layout
    old = HEADER + moves + "x-after: 1\n"
    new = insert_move(old, "blue", "7 B7")
    assert moves_of(new) == moves_of(old) + [("blue", "7 B7")]
    lines = new.splitlines()
    found = [line for line in lines if "#" in line]
    assert [c for line in found for c in expected if line.endswith(c)] == list(expected)
    for comment, owner in expected.items():
        (line,) = [line for line in lines if line.endswith(comment)]
        if owner is None:
            assert line.strip() == comment, (moves, line)
        elif owner == "key":
            assert line.startswith("moves:"), (moves, line)
        else:
            color, move = MOVES[owner]
            assert line.startswith(f"  - {color}: {move}"), (moves, line)


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
    monkeypatch.setattr(record_text, "quote", lambda text, flow=False: "'" + text)
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


def test_render_record_writes_the_hidden_fields_itself():
    """new --hidden's record comes whole from render_record (no surgery on its text)."""
    from uptown_cli.hidden.draws import LATEST, PROTOCOLS
    from uptown_cli.records.schema import PlayerEntry, load_record_text
    from uptown_cli.records.text import render_record

    game_id = "ab" * 16
    text = render_record([PlayerEntry("Ana", ("red", "green"), 0),
                          PlayerEntry("Bo", ("blue", "yellow"), 0)], hidden=game_id)
    assert text.endswith(f"hidden: {game_id}\nprotocol: {PROTOCOLS[LATEST - 1]}\n"
                         "commitments:\nmoves:\n")
    record = load_record_text(text, "g.yaml")
    assert record.hidden.game_id == game_id and record.hidden.joined() == []
