"""Writing records: new records, appending a move byte-exactly, and writing files safely."""

import fcntl
import os
import stat

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uptown_cli.records import safe_file as record_writer
from uptown_cli.records import file_lock
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import COLORS, Game, Player
from uptown_cli.errors import RecordError
from uptown_cli.records.schema import load_record_text
from uptown_cli.records.replay import replay
from uptown_cli.records.safe_file import append_move, create_record
from uptown_cli.records.text import insert_move, quote, render_record
from uptown_cli.records.yaml_reader import parse, to_plain

HEADER = "uptown: 1\nplayers:\n  - name: Ana\n    colors: [red]\n  - name: Bo\n    colors: [blue]\n" \
         "  - name: Cy\n    colors: [green]\n"
THREE = [Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))]


def moves_of(text):
    return [(m.color, m.text) for m in load_record_text(text, "g.yaml").moves]


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


def test_create_record(tmp_path):
    path = tmp_path / "game.yaml"
    create_record(str(path), "uptown: 1\n")
    assert path.read_text() == "uptown: 1\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()
    with pytest.raises(RecordError, match="already exists; not overwritten"):
        create_record(str(path), "something else\n")
    assert path.read_text() == "uptown: 1\n"
    assert os.listdir(tmp_path) == ["game.yaml"]


def test_create_record_in_a_missing_folder(tmp_path):
    with pytest.raises(RecordError):
        create_record(str(tmp_path / "nope" / "game.yaml"), "uptown: 1\n")


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- appending: cases ----------------------------------------------------------------------


def appended(before, moves, after="", color="green", move="man C3"):
    old = HEADER + before + moves + after
    new = insert_move(old, color, move)
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
    assert insert_move(old, "blue", "I I9") == old + "\n  - blue: I I9\n"


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
    assert insert_move(old, "red", "woman B8") == HEADER + "seed: abc  # comment\nmoves:\n  - red: woman B8\n" \
        "\n# the end\n"


def test_append_keeps_crlf_and_a_byte_order_mark():
    old = "\ufeff" + (HEADER + "moves:\n  - red: woman B8\n").replace("\n", "\r\n")
    assert insert_move(old, "blue", "I I9") == old + "  - blue: I I9\r\n"
    flow = "\ufeff" + (HEADER + "moves: []  # none\n# end\n").replace("\n", "\r\n")
    assert insert_move(flow, "red", "woman B8") == flow.replace("moves: []  # none\r\n",
                                                                "moves:  # none\r\n  - red: woman B8\r\n")


def test_append_after_the_document_end_marker_goes_before_it():
    old = HEADER + "moves:\n  - red: woman B8\n...\n# after the end\n"
    assert insert_move(old, "blue", "I I9") == HEADER + "moves:\n  - red: woman B8\n  - blue: I I9\n...\n" \
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
        insert_move(old, "red", "woman B8")


def test_append_refuses_a_colour_not_in_the_game():
    with pytest.raises(RecordError, match="yellow does not play in this game"):
        insert_move(HEADER + "moves:\n", "yellow", "1 A1")


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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layouts(), st.sampled_from(["red", "blue", "green"]), MOVE_TEXT)
def test_append_never_changes_an_earlier_byte(layout, color, move):
    before, moves, after, style = layout
    old = before + moves + after
    new = insert_move(old, color, move)
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
    again = insert_move(new, "blue", "7 B7")
    assert again.startswith(new[:len(before)]) and moves_of(again)[-1] == ("blue", "7 B7")


@st.composite
def played_games(draw):
    """A legal game (some moves of it) with random names and a random seed."""
    count = draw(st.integers(2, 5))
    names = draw(st.lists(st.text(min_size=1, max_size=6).filter(lambda s: s.strip() and s.isprintable()),
                          min_size=count, max_size=count, unique_by=lambda s: s.strip().casefold()))
    per = 2 if count == 2 else 1
    players = [Player(name, COLORS[i::count][:per] if per == 2 else (COLORS[i],)) for i, name in enumerate(names)]
    seed = draw(st.text(min_size=1, max_size=10).filter(str.strip))
    game = Game(players, seeded_bags(seed, [c for p in players for c in p.colors]))
    for _ in range(draw(st.integers(0, 130))):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(*reversed(moves[draw(st.integers(0, len(moves) - 1))]))
    return players, seed, game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(), st.sampled_from(["standard", "blockers"]))
def test_written_then_read_game_is_the_same_game(played, variant):
    players, seed, game = played
    moves = [(turn.color, str(turn.move)) for turn in game.history]
    text = render_record(players, variant=variant, seed=seed, moves=moves)
    built = render_record(players, variant=variant, seed=seed)
    for color, move in moves:
        built = insert_move(built, color, move)
    assert built == text
    record = load_record_text(text, "g.yaml")
    assert record.variant == variant and record.seed == seed and record.game_players() == players
    result = replay(record, strict=True)
    assert result.valid and result.moves_ok == len(moves)
    assert result.game.history == game.history and result.game.board == game.board
    assert result.game.racks == game.racks


# -- appending: the disk -------------------------------------------------------------------

START = HEADER + "seed: 7f3a9c01\nmoves:   # play on\n  - red: woman B8\n"


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(START)
    path.chmod(0o640)
    return path


def test_append_move_writes_and_keeps_the_mode(game_file):
    new = append_move(str(game_file), "blue", "I I9", START)
    assert game_file.read_text() == new.text == START + "  - blue: I I9\n"
    assert stat.S_IMODE(game_file.stat().st_mode) == 0o640
    assert os.listdir(game_file.parent) == ["game.yaml"]


def test_append_move_through_a_symlink_keeps_the_link(game_file):
    link = game_file.parent / "link.yaml"
    link.symlink_to(game_file.name)
    append_move(str(link), "blue", "I I9", START)
    assert link.is_symlink() and game_file.read_text().endswith("  - blue: I I9\n")


def test_stale_file_refused(game_file):
    append_move(str(game_file), "blue", "I I9", START)
    now = game_file.read_bytes()
    with pytest.raises(RecordError, match=r"changed since it was read \(the game moved on\); nothing was written"):
        append_move(str(game_file), "blue", "I I9", START)
    assert game_file.read_bytes() == now


def test_bad_append_leaves_the_file_untouched(game_file):
    with pytest.raises(RecordError, match="yellow does not play"):
        append_move(str(game_file), "yellow", "I I9", START)
    assert game_file.read_text() == START


def test_missing_file(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        append_move(str(tmp_path / "game.yaml"), "blue", "I I9", START)


def test_lock_held_elsewhere_refuses_after_the_timeout(game_file, monkeypatch):
    monkeypatch.setattr(file_lock, "LOCK_TIMEOUT", 0.2)
    fd = os.open(game_file, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(RecordError, match="is locked by another process"):
            append_move(str(game_file), "blue", "I I9", START)
    finally:
        os.close(fd)
    assert game_file.read_text() == START
    append_move(str(game_file), "blue", "I I9", START)


def _fail(*args):
    raise OSError(5, "injected failure")


@pytest.mark.parametrize("step", ["_make_temp", "_set_owner", "_set_mode", "_write_all", "_fsync", "_rename",
                                  "_sync_dir", "_read_back"])
def test_failure_at_any_step_leaves_the_file_untouched(game_file, monkeypatch, step):
    before = game_file.read_bytes()
    monkeypatch.setattr(record_writer, step, _fail)
    with pytest.raises(RecordError, match="could not write .*injected failure"):
        append_move(str(game_file), "blue", "I I9", START)
    assert game_file.read_bytes() == before
    assert stat.S_IMODE(game_file.stat().st_mode) == 0o640
    assert os.listdir(game_file.parent) == ["game.yaml"]


def test_short_write_is_caught_by_reading_back(game_file, monkeypatch):
    writes = []

    def short_first(fd, data):
        writes.append(data)
        os.write(fd, data[:-3] if len(writes) == 1 else data)

    monkeypatch.setattr(record_writer, "_write_all", short_first)
    with pytest.raises(RecordError, match="differs from what was written; the file was put back"):
        append_move(str(game_file), "blue", "I I9", START)
    assert game_file.read_text() == START


def test_a_short_write_that_cannot_be_undone_is_reported(game_file, monkeypatch):
    monkeypatch.setattr(record_writer, "_write_all", lambda fd, data: os.write(fd, data[:-3]))
    with pytest.raises(RecordError, match="the original could not be put back"):
        append_move(str(game_file), "blue", "I I9", START)


def test_failure_while_putting_the_original_back_is_reported(game_file, monkeypatch):
    renames = []

    def rename_once(folder, tmp, name):
        if renames:
            raise OSError(5, "disk gone")
        renames.append(tmp)
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)

    monkeypatch.setattr(record_writer, "_rename", rename_once)
    monkeypatch.setattr(record_writer, "_read_back", lambda *args: b"garbage")
    with pytest.raises(RecordError, match="the original could not be put back"):
        append_move(str(game_file), "blue", "I I9", START)
    assert os.listdir(game_file.parent) == ["game.yaml"]


def test_interrupt_after_the_rename_puts_the_original_back(game_file, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(record_writer, "_read_back", interrupted)
    with pytest.raises(KeyboardInterrupt):
        append_move(str(game_file), "blue", "I I9", START)
    assert game_file.read_text() == START


def test_a_wait_for_another_writer_is_told_once_after_a_second(game_file, monkeypatch):
    monkeypatch.setattr(file_lock, "LOCK_TIMEOUT", 0.6)
    monkeypatch.setattr(file_lock, "WAIT_NOTICE", 0.2)
    told = []
    fd = os.open(game_file, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(RecordError, match="is locked by another process"):
            append_move(str(game_file), "blue", "I I9", START, on_wait=lambda: told.append(1))
    finally:
        os.close(fd)
    assert told == [1]
    append_move(str(game_file), "blue", "I I9", START, on_wait=lambda: told.append(2))
    assert told == [1]  # no wait, no word
