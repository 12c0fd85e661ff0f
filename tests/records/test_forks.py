"""Stale and forked copies, tampering, and a disk that says no.

- Two answers to the same emailed position: ``compare`` tells copies that diverge from a copy
  that extends another (``uptown diff`` when the command is there).
- A seeded record edited by hand (a tile not on the rack, an earlier move changed, the seed
  changed) is reported by ``validate`` at the first move where it shows.
- A read-only folder or file and a full disk: a clear error, the original untouched.
"""

import errno
import json
import os
import shutil
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uptown_cli.records import safe_file
from uptown_cli.cli import main
from uptown_cli.fairplay.copies import compare_records, Relation
from uptown_cli.errors import RecordError
from uptown_cli.records.reading import load_record
from uptown_cli.records.schema import load_record_text
from uptown_cli.turns.validation import validate_file, validate_text
from uptown_cli.records.editing import render_record


def compare_files(path_a, path_b):
    """How the records at two paths relate, as ``uptown diff`` reads them."""
    return compare_records(load_record(path_a), load_record(path_b))


ROOT = Path(__file__).resolve().parents[2]
POSITION = ROOT / "records" / "in-progress.yaml"
"""17 moves, seed "0123"; Cy (green) to move, then Ana (red)."""
START = POSITION.read_text()
FULL_GAMES = sorted(p for p in (ROOT / "records").glob("*.yaml") if p.name != "in-progress.yaml")


def copy(source: Path, target: Path) -> Path:
    shutil.copyfile(source, target)
    return target


def play(uptown, path: Path, *words):
    result = uptown.invoke("move", path, *words)
    assert result.exit_code == 0, result.output
    return result


# -- two answers to one emailed position ------------------------------------------------------


@pytest.fixture
def mailbox(uptown, tmp_path):
    """The organiser's file, and Cy's two answers to it: one on the file as mailed, one
    (later, by mistake) on an older copy of it."""
    game = copy(POSITION, tmp_path / "game.yaml")
    answer = copy(POSITION, tmp_path / "answer.yaml")
    older = copy(POSITION, tmp_path / "older.yaml")
    play(uptown, answer, "H", "H1", "--as", "Cy")
    refused = uptown.invoke("move", older, "6", "A6", "--as", "Cy")  # Cy's tool remembers H H1
    assert refused.exit_code == 1 and "move 18 (Cy's green) is gone since Cy saw it" in (
        refused.stderr)
    play(uptown, older, "6", "A6")  # played without --as: nothing remembers
    return game, answer, older


def test_an_answer_extends_the_position_it_answers(mailbox):
    game, answer, _ = mailbox
    result = compare_files(str(answer), str(game))
    assert (result.relation, result.longer, result.move, result.line_a, result.line_b) == (Relation.EXTENDS, "a", 18, 31, None)
    assert result.consistent
    assert result.message() == f"{answer} extends {game}: the same 17 moves, then 1 more"
    mirrored = compare_files(str(game), str(answer))
    assert (mirrored.relation, mirrored.longer, mirrored.line_a, mirrored.line_b) == (Relation.EXTENDS, "b", None, 31)


def test_two_answers_to_one_position_diverge(mailbox):
    _, answer, older = mailbox
    result = compare_files(str(answer), str(older))
    assert (result.relation, result.move, result.line_a, result.line_b) == (Relation.DIVERGING, 18, 31, 31)
    assert not result.consistent
    assert result.message() == (f"{answer}:31 and {older}:31: the games diverge at move 18 "
                                "(17 moves in common before it)")


def test_the_game_goes_on_and_the_fork_stays_visible(uptown, mailbox):
    game, answer, older = mailbox
    copy(answer, game)  # the organiser takes the first answer
    play(uptown, game, "A", "A5", "--as", "Ana")
    assert compare_files(str(game), str(answer)).relation == Relation.EXTENDS
    late = compare_files(str(older), str(game))
    assert (late.relation, late.move) == (Relation.DIVERGING, 18)
    # Playing the late answer on the organiser's file is refused: it is no longer Cy's turn.
    refused = uptown.invoke("move", game, "6", "A6", "--as", "Cy")
    assert refused.exit_code == 1
    assert refused.stderr == "Error: it is Bo's turn, not Cy's; nothing was written\n"


def test_comments_layout_and_notes_do_not_matter(uptown, tmp_path):
    plain = copy(POSITION, tmp_path / "plain.yaml")
    annotated = tmp_path / "annotated.yaml"
    annotated.write_text("# mailed on Monday\n" + START.replace("notes: Ana, Bo and Cy play a move a day\n", "")
                         .replace("  - red: 6 C6\n", "  # Ana thinks a long time\n  - red: 6 c6   # hm\n")
                         .replace("  - red: 8 I8\n", "  - red: '8 I8'\n"))
    result = compare_files(str(plain), str(annotated))
    assert (result.relation, result.same_text) == (Relation.IDENTICAL, False)
    assert result.message().endswith("(they differ only in comments, layout or notes)")
    assert compare_files(str(plain), str(plain)).same_text
    play(uptown, annotated, "H", "H1")
    play(uptown, plain, "6", "A6")
    forked = compare_files(str(plain), str(annotated))
    assert (forked.relation, forked.move, forked.line_a, forked.line_b) == (Relation.DIVERGING, 18, 31, 32)


def test_a_capture_mark_left_out_is_the_same_move():
    text = FULL_GAMES[0].read_text()
    record = load_record_text(text, "a.yaml")
    capture = next(m for m in record.moves if " x" in m.text)
    written = f"{capture.color}: {capture.text}\n"
    unmarked = text.replace(written, written.replace(" x", " "))
    assert unmarked != text
    assert compare_records(record, load_record_text(unmarked, "b.yaml")).relation == Relation.IDENTICAL


@pytest.mark.parametrize("changes, fields, line", [
    ([('seed: "0123"', 'seed: "0124"')], ("seed",), 12),
    ([("variant: standard", "variant: blockers")], ("variant",), 2),
    ([("name: Bo", "name: Bob")], ("players",), 8),
    ([("colors: [blue]", "colors: [yellow]"), ("- blue:", "- yellow:")], ("players",), 8),
    ([('seed: "0123"\n', "")], ("seed",), 12),
    ([('seed: "0123"', 'seed: "0124"'), ("variant: standard", "variant: blockers")], ("seed", "variant"), 12),
])
def test_different_games(changes, fields, line):
    a = load_record_text(START, "a.yaml")
    text = START
    for old, new in changes:
        text = text.replace(old, new)
    b = load_record_text(text, "b.yaml")
    result = compare_records(a, b)
    assert (result.relation, result.fields, result.line_a) == (Relation.DIFFERENT_GAMES, fields, line)
    assert not result.consistent
    assert result.message() == (f"a.yaml:{line} and b.yaml:{result.line_b}: "
                                f"not the same game ({', '.join(fields)} differ)")


def test_a_default_variant_is_the_same_as_a_written_one():
    a = load_record_text(START, "a.yaml")
    b = load_record_text(START.replace("variant: standard\n", ""), "b.yaml")
    assert compare_records(a, b).relation == Relation.IDENTICAL


def test_a_record_that_cannot_be_read_is_an_error(tmp_path):
    good = copy(POSITION, tmp_path / "good.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text(START.replace("moves:", "moves: [", 1))
    with pytest.raises(RecordError) as caught:
        compare_files(str(good), str(bad))
    assert caught.value.path == str(bad) and caught.value.line is not None


@st.composite
def related_copies(draw):
    """Two records of one of the sample games: prefixes of it, one of them perhaps changed at
    one move (to another move of the same colour)."""
    record = load_record(draw(st.sampled_from(FULL_GAMES)))
    moves = [(m.color, m.text) for m in record.moves]
    lengths = [draw(st.integers(0, len(moves))) for _ in range(2)]
    fork = draw(st.none() | st.integers(0, min(lengths) - 1)) if min(lengths) else None
    copies = [moves[:n] for n in lengths]
    if fork is not None:
        others = [text for color, text in moves if color == moves[fork][0] and text != moves[fork][1]]
        copies[1] = copies[1][:fork] + [(moves[fork][0], draw(st.sampled_from(others)))] + copies[1][fork + 1:]
    texts = [render_record(record.players, variant=record.variant, seed=record.seed, moves=c) for c in copies]
    return texts, lengths, fork


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(related_copies())
def test_compare_tells_prefixes_from_forks(copies):
    (text_a, text_b), (length_a, length_b), fork = copies
    a, b = load_record_text(text_a, "a.yaml"), load_record_text(text_b, "b.yaml")
    result = compare_records(a, b)
    mirrored = compare_records(b, a)
    assert (mirrored.relation, mirrored.move) == (result.relation, result.move)
    assert (mirrored.line_a, mirrored.line_b) == (result.line_b, result.line_a)
    if fork is not None:
        assert (result.relation, result.move) == (Relation.DIVERGING, fork + 1)
        assert (result.line_a, result.line_b) == (a.moves[fork].line, b.moves[fork].line)
    elif length_a == length_b:
        assert result.relation == Relation.IDENTICAL and result.same_text
    else:
        assert (result.relation, result.move) == (Relation.EXTENDS, min(length_a, length_b) + 1)
        assert result.longer == ("a" if length_a > length_b else "b")
        assert {mirrored.longer, result.longer} == {"a", "b"}
    assert result.consistent == (result.relation in (Relation.IDENTICAL, Relation.EXTENDS))
    assert json.loads(json.dumps(result.to_json()))["relation"] == result.relation


def diff_command():
    return main.get_command(click.Context(main), "diff")


@pytest.mark.skipif(diff_command() is None, reason="uptown diff is not in cli.py yet")
def test_diff_command(uptown, mailbox):
    game, answer, older = mailbox
    extends = uptown.invoke("diff", answer, game)
    assert (extends.exit_code, extends.stdout) == (0, f"{answer} extends {game}: the same 17 moves, then 1 more\n")
    assert uptown.invoke("diff", game, game).exit_code == 0
    diverging = uptown.invoke("diff", answer, older, "--json")
    assert diverging.exit_code == 1
    data = json.loads(diverging.stdout)
    assert (data["relation"], data["move"], data["a"]["line"], data["b"]["line"]) == (Relation.DIVERGING, 18, 31, 31)
    assert uptown.invoke("diff", answer, ROOT / "records" / "5p-blockers.yaml").exit_code == 1
    missing = uptown.invoke("diff", answer, game.parent / "nope.yaml")
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    assert uptown.invoke("diff", answer).exit_code == 2


# -- tampering with a seeded game --------------------------------------------------------------


def first_problem(text: str):
    result = validate_text(text, "g.yaml")
    assert not result.valid and result.record is not None
    return result.errors[0], result.moves


@pytest.mark.parametrize("old, new, move, message", [
    # a tile that was not on the rack
    ("red: woman C7", "red: 7 C7", 10, "red has no 7 on its rack (A man woman car $)"),
    # an earlier move changed: it shows where the tile or the square is wanted again
    ("red: 6 C6", "red: skyline D6", 7, "red's skyline has already been played"),
    ("red: 6 C6", "red: woman C7", 10, "red's woman has already been played"),
    ("blue: 2 H2", "blue: 2 G2", 5, "blue plays G on G2, which holds Bo's own blue 2"),
])
def test_tampered_moves_are_reported_at_the_first_move_where_they_show(uptown, tmp_path, old, new,
                                                                       move, message):
    text = START.replace(old, new)
    error, played = first_problem(text)
    line = load_record_text(START, "g.yaml").moves[move - 1].line
    assert (error.line, error.move, error.message, played) == (line, move, message, move - 1)
    path = tmp_path / "g.yaml"
    path.write_text(text)
    result = uptown.invoke("validate", path)
    assert result.exit_code == 1
    assert result.stdout == f"{path}:{line}: move {move}: {message}\n1 record, 0 valid, 1 invalid\n"


@pytest.mark.parametrize("source", [POSITION, *FULL_GAMES], ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", ["0124", "123", "tampered"])
def test_a_changed_seed_is_reported_at_the_first_move_it_contradicts(source, seed):
    text = source.read_text()
    record = load_record_text(text, "g.yaml")
    changed = text.replace(f"seed: {record.seed}\n", f"seed: {seed}\n").replace(f'seed: "{record.seed}"\n',
                                                                             f"seed: {seed}\n")
    assert load_record_text(changed, "g.yaml").seed == seed
    error, played = first_problem(changed)
    assert error.move == played + 1 and error.line == record.moves[played].line
    assert "on its rack" in error.message
    # every move before it is consistent with the new seed
    lines = changed.splitlines(keepends=True)
    assert validate_text("".join(lines[:error.line - 1]), "g.yaml").valid


def test_a_changed_move_that_stays_legal_is_seen_by_compare(tmp_path):
    true = copy(POSITION, tmp_path / "true.yaml")
    edited = tmp_path / "edited.yaml"
    edited.write_text(START.replace("blue: 5 I5", "blue: 5 H5"))
    assert validate_file(edited).valid  # a legal game: validate cannot know
    result = compare_files(str(true), str(edited))
    assert (result.relation, result.move, result.line_a) == (Relation.DIVERGING, 17, 30)


# -- a full disk, a read-only folder or file ------------------------------------------------


@pytest.fixture
def game(tmp_path):
    return copy(POSITION, tmp_path / "game.yaml")


def no_space(*args):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("step", ["_make_temp", "_write_all", "_fsync"])
def test_a_full_disk_leaves_the_game_untouched(uptown, game, monkeypatch, step):
    monkeypatch.setattr(safe_file, step, no_space)
    result = uptown.invoke("move", game, "H", "H1")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"Error: could not write {game}: No space left on device; the file is unchanged\n"
    assert game.read_text() == START
    assert os.listdir(game.parent) == ["game.yaml"]


def test_a_full_disk_creates_no_game(uptown, tmp_path, monkeypatch):
    monkeypatch.setattr(safe_file, "_write_all", no_space)
    path = tmp_path / "new.yaml"
    result = uptown.invoke("new", path, "--player", "Ana", "--player", "Bo")
    assert result.exit_code == 1
    assert result.stderr == f"Error: could not create {path}: No space left on device\n"
    assert os.listdir(tmp_path) == []


@pytest.fixture
def read_only_folder(game):
    folder = game.parent
    folder.chmod(0o555)
    yield folder
    folder.chmod(0o755)


def test_a_read_only_folder(uptown, read_only_folder, game):
    result = uptown.run_powerless("move", "game.yaml", "H", "H1", cwd=read_only_folder)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "Error: game.yaml is in a read-only folder; nothing was written\n"
    assert game.read_text() == START
    shown = uptown.run_powerless("show", "game.yaml", cwd=read_only_folder)
    assert shown.returncode == 0 and "Cy to move" in shown.stdout


def test_a_read_only_folder_with_a_lock_file(uptown, game):
    (game.parent / "game.yaml.lock").touch()
    game.parent.chmod(0o555)
    try:
        result = uptown.run_powerless("move", "game.yaml", "H", "H1", cwd=game.parent)
    finally:
        game.parent.chmod(0o755)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "Error: game.yaml is in a read-only folder; nothing was written\n"
    assert game.read_text() == START
    assert sorted(os.listdir(game.parent)) == ["game.yaml", "game.yaml.lock"]


def test_a_new_game_in_a_read_only_folder(uptown, read_only_folder):
    result = uptown.run_powerless("new", "new.yaml", "--player", "Ana", "--player", "Bo",
                                  cwd=read_only_folder)
    assert result.returncode == 1 and result.stderr == "Error: could not create new.yaml: the folder is read-only\n"
    assert not (read_only_folder / "new.yaml").exists()


def test_a_read_only_file_is_not_written(uptown, game):
    game.chmod(0o444)
    result = uptown.run_powerless("move", "game.yaml", "H", "H1", cwd=game.parent)
    assert game.read_text() == START, "a read-only game file was replaced"
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("Error: ") and "game.yaml" in result.stderr
