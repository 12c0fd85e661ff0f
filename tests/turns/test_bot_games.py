"""Games against bots (turns.bot_games): the seats written under x-bots and read back, a move by
hand refused at a bot's seat, and a takeback of the last move and the bots' answers."""

import pytest

from uptown_cli.errors import RecordError, SetupError, ViewerError
from uptown_cli.records.editing import record_without_last_moves
from uptown_cli.records.schema import load_record_text
from uptown_cli.turns.bot_games import (BotSeat, bot_seats, level_seat, new_game_against,
                                        people, take_back)
from uptown_cli.turns.game_files import open_game


def test_a_new_game_against_bots_writes_their_seats_and_reads_them_back(tmp_path):
    path = tmp_path / "g.yaml"
    record = new_game_against(str(path), "Ana", [BotSeat("horizon", 512), BotSeat("horizon", 512),
                                                 BotSeat("greedy")], seed="7")
    assert [p.name for p in record.players] == ["Ana", "horizon", "horizon 2", "greedy"]
    assert "x-bots:\n  horizon: horizon 512\n  horizon 2: horizon 512\n  greedy: greedy\n" in path.read_text()
    assert bot_seats(record) == {"horizon": BotSeat("horizon", 512),
                                 "horizon 2": BotSeat("horizon", 512), "greedy": BotSeat("greedy")}
    assert people(record) == ["Ana"] and people(record, "greedy") == ["greedy"]
    with pytest.raises(RecordError, match="exists"):
        new_game_against(str(path), "Ana", [BotSeat("mc")], seed="7")


def test_a_level_gives_the_bot_its_playouts_when_it_plays_out():
    assert level_seat("horizon", 5) == BotSeat("horizon", 512)
    assert level_seat("mc", 3) == BotSeat("mc", 16)
    assert level_seat("vista", 5) == BotSeat("vista", 512)
    assert level_seat("greedy", 5) == BotSeat("greedy")
    assert level_seat("horizon", 1) == BotSeat("horizon")
    with pytest.raises(SetupError, match="unknown bot 'deep'"):
        level_seat("deep", 5)


@pytest.mark.parametrize("written", ["x-bots: [Bo]", "x-bots: {Cy: mc}", "x-bots: {Bo: deep}",
                                     "x-bots: {Bo: mc many}", "x-bots: {Bo: mc 0}"])
def test_bot_seats_that_do_not_read_as_bots_of_the_players_are_an_error_at_their_line(written):
    record = load_record_text(f"uptown: 1\nplayers:\n  - name: Ana\n    colors: [red, green]\n"
                              f"  - name: Bo\n    colors: [blue, yellow]\n{written}\nmoves:\n",
                              "g.yaml")
    with pytest.raises(RecordError, match=r"^g.yaml:7: x-bots names the players bots play"):
        bot_seats(record)


def test_a_move_by_hand_at_a_bots_seat_is_refused_without_as(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    new_game_against(str(path), "Ana", [BotSeat("greedy")], seed="7")
    assert uptown.invoke("move", path, "C", "C3").exit_code == 0
    before = path.read_bytes()
    result = uptown.invoke("move", path, "man", "xC3")
    assert result.exit_code == 1
    assert result.stderr == (f"Error: it is greedy's turn, and greedy plays greedy in {path} "
                             "(x-bots): let it play (uptown move --bot greedy, or uptown play), "
                             "or name yourself (--as greedy); nothing was written\n")
    assert path.read_bytes() == before
    assert uptown.invoke("move", path, "--bot", "greedy").exit_code == 0
    assert uptown.invoke("move", path, "--bot", "random").exit_code == 0  # Ana's seat
    legal = uptown.json("moves", path, "--json")[1]["moves"][0]
    assert uptown.invoke("move", path, legal, "--as", "greedy").exit_code == 0


def test_a_takeback_removes_the_last_move_by_hand_and_the_bots_answers(uptown, tmp_path):
    path = tmp_path / "g.yaml"
    new_game_against(str(path), "Ana", [BotSeat("greedy"), BotSeat("random")], seed="7")
    path.write_text(path.read_text().replace("moves:", "# Ana's first game\nmoves:"))
    start = path.read_text()
    uptown.invoke("move", path, "--as", "Ana", "--bot", "greedy")
    for bot in ("greedy", "random"):
        assert uptown.invoke("move", path, "--bot", bot).exit_code == 0
    after_three = path.read_text()
    uptown.invoke("move", path, "--as", "Ana", "--bot", "greedy")
    taken = take_back(open_game(str(path)))
    assert (taken.taken, taken.game.ply, path.read_text()) == (1, 3, after_three)
    taken = take_back(open_game(str(path)))
    assert (taken.taken, taken.game.ply, path.read_text()) == (3, 0, start)
    with pytest.raises(ViewerError, match="^there is no move of yours to take back; nothing "
                                          "was written$"):
        take_back(open_game(str(path)))


def test_a_takeback_in_a_game_without_bots_is_refused(game_file):
    path = game_file(moves=2)
    with pytest.raises(ViewerError, match="^only a game against bots can be taken back"):
        take_back(open_game(str(path)))


def test_taking_back_moves_refuses_a_pause_among_them():
    record = load_record_text("uptown: 1\nplayers:\n  - name: Ana\n    colors: [red, green]\n  - name: Bo\n"
                              "    colors: [blue, yellow]\nseed: '7'\nmoves:\n  - blue: pause 3d\n"
                              "  - red: 7 B7\n", "g.yaml")
    assert record_without_last_moves(record, 1).text.endswith("moves:\n  - blue: pause 3d\n")
    record = load_record_text(record.text + "  - red: pause 3d\n", "g.yaml")
    with pytest.raises(RecordError, match="there are not 1 moves to take back, without a pause"):
        record_without_last_moves(record, 1)
