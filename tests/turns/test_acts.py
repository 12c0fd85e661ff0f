"""The use-case layer driven as a program drives it, without click: every kind of turn (a move,
a pass, a resignation, a stand-in's pass, forfeit and bot move, a vacation, a join, a join
undone, a key revealed) opened, checked, written and remembered by ``turns``, each refusal a
library error that leaves the file as it was."""

from datetime import datetime, timedelta, timezone

import pytest

from uptown_cli.engine.moments import parse_time
from uptown_cli.engine.notation import FORFEIT, PASS, parse_move
from uptown_cli.errors import IllegalMove, RecordError, UptownError, ViewerError
from uptown_cli.fairplay.draws import new_game_id
from uptown_cli.fairplay.memory import game_ident, load_seen
from uptown_cli.records.editing import render_record
from uptown_cli.records.reading import load_record
from uptown_cli.records.safe_file import create_record
from uptown_cli.turns.acts import (join, pause, play_move, resign, reveal, seat_to_move,
                                   stand_in, undo_join)
from uptown_cli.turns.game_files import open_game
from uptown_cli.turns.own_turn import bot_move
from uptown_cli.turns.validation import validate_file

NOW = parse_time("2026-12-01T12:00:00Z")
PLAYERS = [("Ana", ("red",)), ("Bo", ("blue",)), ("Cy", ("green",))]


class Seated:
    """A player as records name them (what ``render_record`` takes)."""

    def __init__(self, name, colors):
        self.name, self.colors, self.email = name, colors, None


def made(tmp_path, name="game.yaml", players=PLAYERS, **options):
    """A new record at ``tmp_path/name``, written as ``uptown new`` writes one."""
    path = tmp_path / name
    create_record(str(path), render_record([Seated(*p) for p in players], **options))
    return str(path)


def first_move(path, as_name=None, keys=None, now=NOW, dry_run=False):
    """The player to move plays their first legal move; returns what ``play_move`` did."""
    opened = open_game(path, as_name, keys, now=now)
    seat = seat_to_move(opened)
    color, move = seat.game.legal_moves()[0]
    return play_move(opened, seat, move, color, now=now, dry_run=dry_run)


def test_a_move_is_appended_as_uptown_move_writes_it(tmp_path):
    path = made(tmp_path, seed="7")
    played = first_move(path)
    assert played.turn.number == 1 and played.turn.player.name == "Ana"
    text = open(path).read()
    assert text == played.record.text
    assert text.endswith(f"  - red: {played.turn.move}\n    at: \"2026-12-01T12:00:00Z\"\n")
    assert validate_file(path).valid


def test_a_dry_run_plays_the_move_and_writes_nothing(tmp_path):
    path = made(tmp_path, seed="7")
    before = open(path).read()
    played = first_move(path, dry_run=True)
    assert played.record is None and played.game.ply == 1
    assert open(path).read() == before


def test_an_illegal_move_is_an_illegal_move_that_wrote_nothing(tmp_path):
    path = made(tmp_path, seed="7")
    before = open(path).read()
    opened = open_game(path, now=NOW)
    seat = seat_to_move(opened)
    with pytest.raises(IllegalMove, match="; nothing was written$"):
        play_move(opened, seat, parse_move("pass"), now=NOW)
    assert open(path).read() == before


def test_another_players_turn_is_refused_before_anything_is_played(tmp_path):
    path = made(tmp_path, seed="7")
    with pytest.raises(ViewerError, match="^it is Ana's turn, not Bo's; nothing was written$"):
        seat_to_move(open_game(path, "Bo", str(tmp_path / "keys-Bo"), now=NOW))
    with pytest.raises(ViewerError, match="^Ana plays red, not blue$"):
        seat_to_move(open_game(path, now=NOW), rack="blue")


def test_a_copy_changed_since_it_was_opened_is_not_written_over(tmp_path):
    path = made(tmp_path, seed="7")
    opened = open_game(path, now=NOW)
    seat = seat_to_move(opened)
    first_move(path)  # another writer got in first
    color, move = seat.game.legal_moves()[1]
    with pytest.raises(RecordError, match="changed since it was read"):
        play_move(opened, seat, move, color, now=NOW)


def test_a_missing_file_and_an_invalid_record_are_library_errors(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        open_game(str(tmp_path / "none.yaml"))
    path = made(tmp_path, seed="7")
    with open(path, "a") as file:
        file.write("  - red: 9 A1\n")
    with pytest.raises(RecordError, match=r"\(the record is invalid\)$"):
        open_game(path)


def test_a_resignation_is_a_forfeit_and_the_next_player_moves(tmp_path):
    path = made(tmp_path, seed="7")
    done = resign(open_game(path, now=NOW), now=NOW)
    assert (done.number, done.player.name, done.action, done.by) == (1, "Ana", FORFEIT, None)
    assert done.game.to_move.name == "Bo"
    assert load_record(path).moves[-1].text == FORFEIT


def timed(tmp_path, late):
    """A seeded game of three with a clock of a day a move and no grace, late policy ``late``,
    started at ``NOW``."""
    return made(tmp_path, seed="7", timing={"clock": "move 24h", "late": late,
                                             "vacation": "7d", "started": "2026-12-01T12:00:00Z"})


def test_a_stand_in_pass_then_forfeit_is_written_once_the_player_is_out_of_time(tmp_path):
    path = timed(tmp_path, "pass, forfeit after 1")
    early = NOW + timedelta(hours=1)
    with pytest.raises(RecordError, match="Ana is out of time only from"):
        stand_in(open_game(path, "Bo", str(tmp_path / "k"), now=early), "Ana", str(PASS),
                 now=early)
    late = NOW + timedelta(days=2)
    done = stand_in(open_game(path, "Bo", str(tmp_path / "k"), now=late), "Ana", str(PASS),
                    now=late)
    assert (done.player.name, done.action, done.by) == ("Ana", "pass", "Bo")
    for _ in range(2):  # Bo and Cy move on time
        first_move(path, now=late)
    later = late + timedelta(days=2)
    done = stand_in(open_game(path, "Cy", str(tmp_path / "k"), now=later), "Ana", FORFEIT,
                    now=later)
    assert (done.action, done.by, done.game.forfeited[0][0]) == (FORFEIT, "Cy", "Ana")
    assert validate_file(path, now=later).valid


def test_a_bot_plays_for_a_late_player_only_as_the_late_policy_says(tmp_path):
    path = timed(tmp_path, "bot greedy")
    late = NOW + timedelta(days=2)
    opened = open_game(path, "Bo", str(tmp_path / "k"), now=late)
    with pytest.raises(ViewerError, match="lets greedy play for a late player, not random"):
        stand_in(opened, "Ana", "bot", now=late, bot="random")
    done = stand_in(opened, "Ana", "bot", now=late, bot="greedy")
    assert (done.by, done.bot, done.player.name) == ("Bo", "greedy", "Ana")
    assert validate_file(path, now=late).valid  # the bot's move is the one validate plays again


def test_a_stand_in_names_who_writes_it(tmp_path):
    path = timed(tmp_path, "pass")
    with pytest.raises(ViewerError, match="name yourself"):
        stand_in(open_game(path, now=NOW), "Ana", str(PASS), now=NOW + timedelta(days=2))


def test_a_vacation_is_written_and_counted(tmp_path):
    path = timed(tmp_path, "wait")
    paused = pause(open_game(path, "Ana", str(tmp_path / "k"), now=NOW), 3, now=NOW)
    assert (paused.name, paused.left, paused.end - paused.begins) == ("Ana", 4, timedelta(days=3))
    assert load_record(path).pauses[0].days == 3
    with pytest.raises(RecordError, match="on vacation from .* already; nothing was written$"):
        pause(open_game(path, "Ana", str(tmp_path / "k"), now=NOW), 1, now=NOW)


def test_a_vacation_needs_a_clock(tmp_path):
    path = made(tmp_path, seed="7")
    with pytest.raises(RecordError, match="^this game has no clock"):
        pause(open_game(path, "Ana", str(tmp_path / "k"), now=NOW), 1, now=NOW)


def keys_of(tmp_path, name):
    return str(tmp_path / f"keys-{name}")


def test_a_hidden_game_is_joined_undone_played_to_its_end_and_revealed(tmp_path):
    two = [("Ana", ("red", "green")), ("Bo", ("blue", "yellow"))]
    path = made(tmp_path, players=two, hidden=new_game_id().hex())
    joined = join(path, "Ana", keys_of(tmp_path, "Ana"))
    assert (joined.name, joined.following) == ("Ana", "Bo")
    assert join(path, "Bo", keys_of(tmp_path, "Ana")).following is None  # Bo, at Ana's computer
    undone = undo_join(path, "Bo", keys_of(tmp_path, "Ana"))
    assert undone.name == "Bo" and "withdrawn:" in open(path).read()
    join(path, "Bo", keys_of(tmp_path, "Bo"))
    for _turn in range(200):
        name = open_game(path, now=NOW).game.to_move.name
        opened = open_game(path, name, keys_of(tmp_path, name), now=NOW)
        seat = seat_to_move(opened)
        color, move = bot_move("greedy", seat.game, opened.record, None, seat.own)
        played = play_move(opened, seat, move, color, now=NOW)
        assert played.link is not None and played.view is not None
        if played.game.finished:
            break
    first = reveal(path, "Ana", keys_of(tmp_path, "Ana"))
    assert first.left == ["Bo"]
    with pytest.raises(ViewerError, match="already revealed"):
        reveal(path, "Ana", keys_of(tmp_path, "Ana"))
    assert reveal(path, "Bo", keys_of(tmp_path, "Bo")).left == []
    assert validate_file(path).valid
    seen = load_seen(keys_of(tmp_path, "Bo"), game_ident(load_record(path)), "Bo")
    assert len(seen["revealed"]) == 2  # what Bo's tool remembers: the game as written


def test_players_join_in_turn_order_and_reveal_only_at_the_end(tmp_path):
    path = made(tmp_path, hidden=new_game_id().hex())
    with pytest.raises(ViewerError, match="^players join in turn order: Ana joins next, not Cy"):
        join(path, "Cy", keys_of(tmp_path, "Cy"))
    for name, _ in PLAYERS:
        join(path, name, keys_of(tmp_path, name))
    with pytest.raises(ViewerError, match="^the game is not over"):
        reveal(path, "Ana", keys_of(tmp_path, "Ana"))


def test_every_refusal_of_the_layer_is_a_library_error(tmp_path):
    """A program catches ``UptownError`` (a ValueError) for every refusal: none is click's."""
    path = made(tmp_path, seed="7")
    refusals = [lambda: open_game(str(tmp_path / "none.yaml")),
                lambda: seat_to_move(open_game(path, "Cy", keys_of(tmp_path, "Cy"), now=NOW)),
                lambda: join(path, "Ana", keys_of(tmp_path, "Ana")),
                lambda: pause(open_game(path, "Ana", None, now=NOW), 1, now=NOW)]
    for refusal in refusals:
        with pytest.raises(UptownError):
            refusal()


def test_a_time_from_the_future_is_refused_to_a_player_before_anything_is_written(tmp_path):
    path = timed(tmp_path, "wait")
    first_move(path, now=NOW + timedelta(hours=2))
    with pytest.raises(RecordError, match="after this computer's clock"):
        open_game(path, "Bo", keys_of(tmp_path, "Bo"), now=NOW)
    assert datetime.now(timezone.utc) > NOW  # (without --as, a reader's clock is not asked)
    assert open_game(path, now=NOW).game.ply == 1
