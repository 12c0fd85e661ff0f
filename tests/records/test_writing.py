"""Record text: quoting (a scalar is written plain only when no YAML 1.1 or 1.2 reader could
take it for anything but that text, and deciding so loads no YAML), new records, and appending
a move byte-exactly: long flow lists in linear time, own-line comments kept on their own lines,
byte order marks, the size limit, and errors that cite only lines the user's file has."""

import os
import re
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import COLORS, Game, Player
from uptown_cli.errors import RecordError
from uptown_cli.records import editing as record_text
from uptown_cli.records import yaml_reader as yamlsafe
from uptown_cli.fairplay.replay import replay
from uptown_cli.records.schema import load_record_text
from uptown_cli.records.entries import PlayerEntry
from uptown_cli.records.lineup import lineup_problems
from uptown_cli.records.editing import record_with_pause
from uptown_cli.records.yaml_writer import quote
from uptown_cli.records.editing import record_with_move, render_record
from uptown_cli.records.yaml_reader import MAX_BYTES, parse, to_plain

AT_LINE = '    at: "2026-12-01T12:00:00Z"\n'
"""What ``uptown move`` writes under a move at the tests' now (``support.games.NOW``)."""

ROOT = Path(__file__).resolve().parents[2]
HEADER = "uptown: 1\nplayers:\n  - name: Ana\n    colors: [red]\n  - name: Bo\n    colors: [blue]\n" \
         "  - name: Cy\n    colors: [green]\n"
THREE = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]


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


# -- quoting -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["7 B7", "4 xE8", "$ C3", "sax E8", "pass", "Ana", "red", "Zoë"])
def test_plain_when_safe(text):
    assert quote(text) == text


@pytest.mark.parametrize("text, quoted", [
    ("No", '"No"'), ("on", '"on"'), ("007", '"007"'), ("0123", '"0123"'), ("2026-11-29", '"2026-11-29"'),
    ("1:20", '"1:20"'), ("~", '"~"'), ("null", '"null"'), ("", '""'), (" Ana", '" Ana"'),
    ("a: b", '"a: b"'), ("x #y", '"x #y"'), ("[a]", '"[a]"'), ("*a", '"*a"'), ("- a", '"- a"'),
    ('"hi" there', '"\\"hi\\" there"'), ("a\nb", '"a\\nb"'), ("tab\t", '"tab\\t"'), ("\u2028", '"\\u2028"'),
])
def test_quoted_when_yaml_could_misread(text, quoted):
    assert quote(text) == quoted


@given(st.text())
def test_quote_reads_back_the_same_text(text):
    line = f"key: {quote(text)}\n"
    assert to_plain(parse(line)) == {"key": text}
    assert yaml.safe_load(line) == {"key": text}


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


def test_new_writes_players_y_and_n_quoted(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    result = uptown.invoke("new", path, "-p", "y", "-p", "n", "--seed", "1e3")
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert '  - name: "y"\n' in text and '  - name: "n"\n' in text and 'seed: "1e3"\n' in text
    assert [p["name"] for p in yaml.safe_load(text)["players"]] == ["y", "n"]


# -- new records ---------------------------------------------------------------------------


def test_render_record_layout():
    text = render_record([Player("No", ("red", "green")), Player("007", ("blue", "yellow"))],
                         variant="blockers", seed="0123", fields={"date": "2026-11-29", "event": "Club"},
                         moves=[("red", "7 B7")])
    assert text == (
        'uptown: 1\nvariant: blockers\nevent: Club\ndate: "2026-11-29"\nplayers:\n'
        '  - name: "No"\n    colors: [red, green]\n  - name: "007"\n    colors: [blue, yellow]\n'
        'seed: "0123"\nmoves:\n  - red: 7 B7\n')
    record = load_record_text(text, "g.yaml")
    assert [p.name for p in record.players] == ["No", "007"] and record.seed == "0123"


def test_render_record_without_moves_ends_with_an_empty_moves_key():
    text = render_record(THREE)
    assert text.endswith("\nmoves:\n") and load_record_text(text, "g").moves == []


def test_render_record_refuses_what_would_not_be_a_record():
    with pytest.raises(RecordError, match="2 to 5 players"):
        render_record(THREE[:1])
    with pytest.raises(RecordError, match="two players are named"):
        render_record([Player("Ana", ("red",)), Player("ANA", ("blue",)), Player("Cy", ("green",))])
    with pytest.raises(ValueError, match="unknown record fields: venue"):
        render_record(THREE, fields={"venue": "pub"})


# -- appending: cases ----------------------------------------------------------------------


def appended(before, moves, after="", color="green", move="man C3"):
    old = HEADER + before + moves + after
    new = record_with_move(old, color, move).text
    assert moves_of(new) == moves_of(old) + [(color, move)]
    assert new.startswith(HEADER + before) and new.endswith(after)
    return new[len(HEADER + before):len(new) - len(after)]


def test_append_to_a_block_list():
    moves = "moves:\n  - red: woman B8   # hm\n  - blue: I I9\n"
    assert appended("", moves) == moves + "  - green: man C3\n"


def test_append_keeps_odd_indentation_and_what_follows():
    moves = "moves:\n    -   red: woman B8\n\n    # Bo thinks\n    -   blue: 'I I9'  # quoted\n"
    after = "\n# the end\nx-after: 1\n"
    assert appended("# before\n\n", moves, after) == moves + "    - green: man C3\n"


def test_append_to_a_list_at_the_key_indentation():
    moves = "moves:\n- red: woman B8\n"
    assert appended("", moves, "# trailing comment\n") == moves + "- green: man C3\n"


def test_append_to_a_file_without_a_final_newline():
    old = HEADER + "moves:\n  - red: woman B8"
    assert record_with_move(old, "blue", "I I9").text == old + "\n  - blue: I I9\n"


def test_append_after_a_multi_line_move():
    moves = "moves:\n  - red: woman\n      B8\n"
    assert appended("", moves) == moves + "  - green: man C3\n"


def test_append_quotes_a_move_yaml_could_misread():
    assert appended("", "moves:\n", color="red", move="No") == 'moves:\n  - red: "No"\n'


@pytest.mark.parametrize("moves, rewritten", [
    ("moves:\n", "moves:\n  - green: man C3\n"),
    ("moves:  # none yet\n", "moves:  # none yet\n  - green: man C3\n"),
    ("moves: []\n", "moves:\n  - green: man C3\n"),
    ("moves: [ ]   # empty\n", "moves:   # empty\n  - green: man C3\n"),
    ("moves: [{red: woman B8}, {blue: 'I I9'}]\n", "moves:\n  - red: woman B8\n  - blue: 'I I9'\n  - green: man C3\n"),
    ("moves: [red: woman B8, blue: I I9]\n", "moves:\n  - red: woman B8\n  - blue: I I9\n  - green: man C3\n"),
    ("moves: [  # start\n    {red: woman B8},  # first\n\n    # between\n    {blue: \"I\n      I9\"}\n  ]  # end\n",
     "moves:  # start\n  - red: woman B8  # first\n  # between\n  - blue: I I9\n  # end\n  - green: man C3\n"),
])
def test_empty_or_flow_moves_become_a_block_list(moves, rewritten):
    assert appended("# head\n", moves, "x-after: [1, 2]  # kept\n") == rewritten


def test_append_when_moves_is_missing():
    old = HEADER + "seed: abc  # comment\n\n# the end\n"
    assert record_with_move(old, "red", "woman B8").text == HEADER + "seed: abc  # comment\nmoves:\n  - red: woman B8\n" \
        "\n# the end\n"


def test_append_keeps_crlf_and_a_byte_order_mark():
    old = "\ufeff" + (HEADER + "moves:\n  - red: woman B8\n").replace("\n", "\r\n")
    assert record_with_move(old, "blue", "I I9").text == old + "  - blue: I I9\r\n"
    flow = "\ufeff" + (HEADER + "moves: []  # none\n# end\n").replace("\n", "\r\n")
    assert record_with_move(flow, "red", "woman B8").text == flow.replace("moves: []  # none\r\n",
                                                                "moves:  # none\r\n  - red: woman B8\r\n")


def test_append_after_the_document_end_marker_goes_before_it():
    old = HEADER + "moves:\n  - red: woman B8\n...\n# after the end\n"
    assert record_with_move(old, "blue", "I I9").text == HEADER + "moves:\n  - red: woman B8\n  - blue: I I9\n...\n" \
        "# after the end\n"


@pytest.mark.parametrize("old, message", [
    (HEADER.replace("\n", "\r") + "moves:\r", "line breaks other than"),
    (HEADER + "notes: a\u2028b\n", "line breaks other than"),
    ("{uptown: 1, players: [{name: a}, {name: b}], moves: []}\n", "flow mapping"),
    (HEADER + "moves: nothing\n", "'moves' must be a list"),
    ("uptown: 1\n", "players are missing"),
])
def test_append_refuses(old, message):
    with pytest.raises(RecordError, match=message):
        record_with_move(old, "red", "woman B8").text


def test_append_refuses_a_colour_not_in_the_game():
    with pytest.raises(RecordError, match="yellow does not play in this game"):
        record_with_move(HEADER + "moves:\n", "yellow", "1 A1").text


# -- appending: properties -----------------------------------------------------------------

COMMENT = st.sampled_from(["# note", "#", "# a: b  # - [x]", "#moves: [a]"])
MOVE_TEXT = st.sampled_from(["woman B8", "7 B7", "$ C3", "4 xE8", "pass", "No", "a: b", "x # y", "'q'", "007"])
GAP = st.lists(st.one_of(st.just(""), COMMENT, COMMENT.map(lambda c: "    " + c)), max_size=2)


@st.composite
def layouts(draw):
    """A record's text in three parts: before the moves, the moves section, after it."""
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    indent = draw(st.sampled_from([0, 1, 2, 4]))
    pad = " " * indent
    blocks = [
        "uptown: 1",
        f"players:\n{pad}- name: Ana\n{pad}  colors: [red]\n{pad}- {{name: Bo, colors: [blue]}}\n"
        f"{pad}-   name: Cy\n{pad}    colors:\n{pad}    - green",
        "variant: standard", "seed: '0123'  # seeded", "x-extra: {a: [b]}",
    ]
    count = draw(st.integers(2, len(blocks)))
    order = draw(st.permutations(blocks[:count]))
    split = draw(st.integers(0, len(order)))

    def lines(parts):
        out = []
        for part in parts:
            out += draw(GAP) + [part]
        return "".join(line + "\n" for line in out)

    before, after = lines(order[:split]), lines(order[split:]) + "".join(line + "\n" for line in draw(GAP))
    entries = draw(st.lists(st.tuples(st.sampled_from(["red", "blue", "green"]), MOVE_TEXT), max_size=4))
    style = draw(st.sampled_from(["block", "flow", "flow-lines", "empty"] if entries else ["empty", "flow", "missing"]))
    tail = draw(st.sampled_from(["", "  #mc"]))
    if style == "block":
        dash = " " * draw(st.sampled_from([0, 2, 3])) + "-" + " " * draw(st.integers(1, 3))
        body = [f"{dash}{c}: {quote(t)}" + draw(st.sampled_from(["", " #mc", "   #mc more"])) for c, t in entries]
        moves = "moves:" + tail + "\n" + "".join(line + "\n" + "".join(g + "\n" for g in draw(GAP)) for line in body)
    elif style == "flow":
        moves = "moves: [" + ", ".join(f"{{{c}: {quote(t)}}}" for c, t in entries) + "]" + tail + "\n"
    elif style == "flow-lines":
        moves = "moves: [" + tail + "\n" + "".join(f"   {{{c}: {quote(t)}}},  #mc\n" for c, t in entries) + "  ]\n"
    elif style == "empty":
        moves = "moves:" + tail + "\n"
    else:
        moves = ""
    if not draw(st.booleans()) and not after:
        moves = moves.rstrip("\n")
    return before.replace("\n", nl), moves.replace("\n", nl), after.replace("\n", nl), style


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layouts(), st.sampled_from(["red", "blue", "green"]), MOVE_TEXT)
def test_append_never_changes_an_earlier_byte(layout, color, move):
    before, moves, after, style = layout
    old = before + moves + after
    new = record_with_move(old, color, move).text
    assert moves_of(new) == moves_of(old) + [(color, move)]
    if style != "missing":
        assert new.startswith(before) and new.endswith(after)
    if style in ("block", "missing"):
        common = len(os.path.commonprefix([old, new]))
        grown = len(new) - len(old)
        assert new[common + grown:] == old[common:], "only one piece was inserted"
        line = f"- {color}: {quote(move)}"
        header = len("moves:") if style == "missing" else 0
        assert grown - header in (len(line) + indent + len(nl) * lines
                                  for indent in range(8) for nl in ("\n", "\r\n") for lines in (1, 2, 3))
    assert new.count("#mc") == moves.count("#mc")
    again = record_with_move(new, "blue", "7 B7").text
    assert again.startswith(new[:len(before)]) and moves_of(again)[-1] == ("blue", "7 B7")


@st.composite
def played_games(draw):
    """A legal game (some moves of it) with random names and a random seed."""
    count = draw(st.integers(2, 5))
    per = 2 if count == 2 else 1
    colors = [COLORS[i::count][:per] if per == 2 else (COLORS[i],) for i in range(count)]
    # Names one table accepts (``lineup_problems``: not the judge's word, no name twice, no
    # look-alikes).
    names = draw(st.lists(st.text(min_size=1, max_size=6).filter(lambda s: s.strip() and s.isprintable()),
                          min_size=count, max_size=count)
                 .filter(lambda names: not lineup_problems(
                     [PlayerEntry(name, tuple(c), 0) for name, c in zip(names, colors)])))
    players = [Player(name, c) for name, c in zip(names, colors)]
    seed = draw(st.text(min_size=1, max_size=10).filter(str.strip))
    game = Game(players, seeded_bags(seed, [c for p in players for c in p.colors]))
    for _ in range(draw(st.integers(0, 130))):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(*reversed(moves[draw(st.integers(0, len(moves) - 1))]))
    return players, seed, game


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(), st.sampled_from(["standard", "blockers"]))
def test_written_then_read_game_is_the_same_game(played, variant):
    players, seed, game = played
    moves = [(turn.color, str(turn.move)) for turn in game.history]
    text = render_record(players, variant=variant, seed=seed, moves=moves)
    built = render_record(players, variant=variant, seed=seed)
    for color, move in moves:
        built = record_with_move(built, color, move).text
    assert built == text
    record = load_record_text(text, "g.yaml")
    assert record.variant == variant and record.seed == seed and record.game_players() == players
    result = replay(record, strict=True)
    assert result.valid and result.moves_ok == len(moves)
    assert result.game.history == game.history and result.game.board == game.board
    assert result.game.racks == game.racks


def test_appending_to_a_1000_move_flow_list_takes_linear_time():
    """The comment scan once looked up every scalar at every character: ~7 s here."""
    moves = [(COLORS[i % 3], "7 B7") for i in range(1000)]
    text = HEADER + flow_moves(moves, pad=" " * 60)
    started = time.process_time()
    new = record_with_move(text, "blue", "7 B7").text
    elapsed = time.process_time() - started
    assert moves_of(new) == moves + [("blue", "7 B7")]
    assert new.count("# move ") == 1000 and new.count("# after move") == 100
    assert elapsed < 2.0, f"appending took {elapsed:.2f} s of CPU"


def test_a_move_on_a_100_move_flow_record_through_the_cli(uptown, tmp_path):
    source = (ROOT / "records" / "5p-blockers.yaml").read_text()
    head, moves = source.split("moves:\n")
    played = [tuple(line[4:].split(": ")) for line in moves.splitlines() if line.startswith("  - ")][:100]
    path = tmp_path / "flow.yaml"
    path.write_text(head + flow_moves(played))
    started = time.monotonic()
    result = uptown.invoke("move", path, "F", "xF1")
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
    new = record_with_move(old, "green", "man C3").text
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
    new = record_with_move(old, "blue", "7 B7").text
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


def test_a_byte_order_mark_file_without_moves_gets_its_first_move(uptown, tmp_path):
    path = tmp_path / "b.yaml"
    path.write_bytes(("\ufeff" + HEADER).encode())
    assert uptown.invoke("validate", path).exit_code == 0
    result = uptown.invoke("move", path, "7", "B7")
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == ("\ufeff" + HEADER + "moves:\n  - red: 7 B7\n" + AT_LINE).encode()


@pytest.mark.parametrize("before", ["uptown: 1\n", "uptown: 1  # v1\n", "x-first: [a]\nuptown: 1\n"])
def test_a_byte_order_mark_before_the_first_key_is_not_indentation(before):
    old = "\ufeff" + before + HEADER.replace("uptown: 1\n", "")
    assert record_with_move(old, "red", "7 B7").text == old + "moves:\n  - red: 7 B7\n"


# -- errors ----------------------------------------------------------------------------------


def test_a_new_text_that_does_not_read_back_cites_no_line(monkeypatch):
    """The read-back of the new text fails on line 10, which the user's file (9 lines) lacks."""
    monkeypatch.setattr(record_text, "quote", lambda text, flow=False: "'" + text)
    old = HEADER + "moves:\n"
    with pytest.raises(RecordError) as caught:
        record_with_move(old, "red", "7 B7", "g.yaml").text
    assert caught.value.line is None
    assert str(caught.value).startswith("appending red: 7 B7 to g.yaml would not read back as that one move "
                                        "more (invalid YAML")
    assert str(caught.value).endswith("; nothing was written") and ":10" not in str(caught.value)


def padded_record(size):
    """A record of exactly ``size`` bytes, padded with a comment."""
    text = HEADER + "moves:\n# "
    return text + "x" * (size - len(text) - 1) + "\n"


def test_a_move_that_would_pass_1_mib_says_so(uptown, tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(padded_record(MAX_BYTES - 1))
    assert path.stat().st_size == 1_048_575
    result = uptown.invoke("move", path, "7", "B7")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"Error: with red: 7 B7 appended, {path} would be larger than 1 MiB "
                             "(1048620 bytes); nothing was written\n")
    assert path.read_text() == padded_record(MAX_BYTES - 1)


def test_a_move_that_reaches_exactly_1_mib_is_written():
    old = padded_record(MAX_BYTES - len("  - red: 7 B7\n"))
    assert len(record_with_move(old, "red", "7 B7").text.encode()) == MAX_BYTES


def test_render_record_writes_the_hidden_fields_itself():
    """new --hidden's record comes whole from render_record (no surgery on its text)."""
    from uptown_cli.records.hidden_fields import LATEST, PROTOCOLS
    from uptown_cli.records.schema import load_record_text
    from uptown_cli.records.entries import PlayerEntry
    from uptown_cli.records.editing import render_record

    game_id = "ab" * 16
    text = render_record([PlayerEntry("Ana", ("red", "green"), 0),
                          PlayerEntry("Bo", ("blue", "yellow"), 0)], hidden=game_id)
    assert text.endswith(f"hidden: {game_id}\nprotocol: {PROTOCOLS[LATEST - 1]}\n"
                         "commitments:\nmoves:\n")
    record = load_record_text(text, "g.yaml")
    assert record.hidden.game_id == game_id and record.hidden.joined() == []


def test_a_pause_is_appended_as_a_move_is_with_its_stamps_even_after_flow_moves():
    """``pause`` writes through ``record_with_pause``: its entry is written as a move's is,
    ``at`` then ``from``, after moves written as a flow list (which become a block list)."""
    timed = HEADER + 'clock: move 72h grace 168h\nvacation: 14d\nstarted: "2026-12-01T12:00:00Z"\n'
    old = timed + ('moves: [{red: woman B8, at: "2026-12-01T13:00:00Z"},\n'
                   '        {blue: I I9, at: "2026-12-01T14:00:00Z"}]  # so far\n')
    stamp = {"at": "2026-12-02T12:00:00Z", "from": "2026-12-03T00:00:00Z"}
    new = record_with_pause(old, "green", 3, "g.yaml", stamp)
    assert new.text.endswith('  - green: pause 3d\n    at: "2026-12-02T12:00:00Z"\n'
                             '    from: "2026-12-03T00:00:00Z"\n')
    assert moves_of(new.text) == moves_of(old) and new.path == "g.yaml"
    assert [tuple(p)[:5] for p in new.pauses] == [(2, "green", 3, *stamp.values())]
    moved = record_with_move(old, "green", "man C3", stamp={"at": stamp["at"]}).text
    assert moved.endswith('  - green: man C3\n    at: "2026-12-02T12:00:00Z"\n')
    again = record_with_pause(new, "red", 2, stamp={"at": "2026-12-02T13:00:00Z"})
    assert again.text == new.text + '  - red: pause 2d\n    at: "2026-12-02T13:00:00Z"\n'
