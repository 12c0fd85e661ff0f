"""Hidden racks in the record: the fields are checked where they are written, and written back
exactly (commitments, keys and links)."""

import random

import pytest
from support.hidden import legal_from_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from uptown_cli.engine.game import COLORS, Game, Player
from uptown_cli.fairplay.draws import HiddenDeal, chain, head
from uptown_cli.fairplay.check import HiddenCheck
from uptown_cli.records.schema import load_record_text
from uptown_cli.fairplay.replay import replay
from uptown_cli.turns.validation import validate_text
from uptown_cli.records.editing import record_with_entry
from uptown_cli.records.editing import record_with_move, render_record
from uptown_cli.errors import RecordError

GAME_ID = "00112233445566778899aabbccddeeff"
KEYS = {"Ana": bytes([0xAB]) * 32, "Bo": bytes([0xCD]) * 32}
HEADS = {n: head(bytes.fromhex(GAME_ID), n, k).hex() for n, k in KEYS.items()}
PLAYERS = "uptown: 1\nplayers:\n  - name: Ana\n  - name: Bo\n"
HIDDEN = PLAYERS + f"hidden: {GAME_ID}\ncommitments:\n"
JOINED = HIDDEN + "".join(f"  - {n}: {HEADS[n]}\n" for n in ("Ana", "Bo"))


def link(name, turn):
    return chain(bytes.fromhex(GAME_ID), name, KEYS[name])[256 - turn].hex()


def problems(text):
    with pytest.raises(RecordError) as caught:
        load_record_text(text, "g.yaml")
    return [(p.line, p.message) for p in caught.value.problems]


def test_a_hidden_game_reads_its_fields():
    record = load_record_text(JOINED + f"moves:\n  - red: 7 B7\n    link: {link('Ana', 1)}\n", "g")
    assert record.hidden.game_id == GAME_ID
    assert record.hidden.joined() == ["Ana", "Bo"]
    assert record.moves[0].link == link("Ana", 1)
    assert record.seed is None


@pytest.mark.parametrize("text, expected", [
    (PLAYERS + "hidden: 123\n", (5, "'hidden' must be the game id, 32 hex digits")),
    (PLAYERS + f"hidden: {GAME_ID}\nseed: 1\n", (6, "a game with hidden racks has no seed")),
    (PLAYERS + f"commitments:\n  - Ana: {HEADS['Ana']}\n", (5, "'commitments' belongs to a game")),
    (HIDDEN + f"  - Bo: {HEADS['Bo']}\n", (7, "the players join in seat order: commitment 1 must be Ana's")),
    (HIDDEN + "  - Ana: 12\n", (7, "Ana's entry in 'commitments' must be 64 hex digits")),
    (HIDDEN + f"  - Di: {HEADS['Bo']}\n", (7, "'Di' in 'commitments' is not a player")),
    (JOINED + "moves:\n  - red: 7 B7\n", (10, "move 1 has no link")),
    (PLAYERS + f"moves:\n  - red: 7 B7\n    link: {'0' * 64}\n", (6, "'link' belongs to games with")),
    (JOINED + "moves:\n  - red: 7 B7\n    link: xyz\n", (10, "the link must be 64 hex digits")),
    (JOINED + "moves:\n  - red: 7 B7\n    lnk: xyz\n", (11, "unknown key 'lnk' in a move")),
])
def test_hidden_fields_are_checked_where_they_are_written(text, expected):
    line, start = expected
    found = problems(text)
    assert any(at == line and message.startswith(start) for at, message in found), found


def test_a_second_revealed_key_for_a_player_is_a_warning_never_a_problem():
    """Anyone can write a revealed entry: a second one for a player, or one for a name that
    is no player, is ignored with a warning at its line (it would otherwise be a veto)."""
    text = JOINED + f"revealed:\n  - Ana: {'0' * 64}\n  - Ana: {'1' * 64}\n  - Di: {'2' * 64}\n"
    result = validate_text(text, "g.yaml")
    assert [e.message for e in result.errors if e.line in (11, 12)] == []  # (10: before the end)
    assert [(w.line, w.message) for w in result.warnings] == [
        (11, "another key revealed for Ana (line 10 is the one counted): ignored; Ana did not "
             "write it"),
        (12, "'Di' in 'revealed' is not a player of this game, so it is ignored")]


def test_moves_before_everyone_has_joined_are_reported():
    text = HIDDEN + f"  - Ana: {HEADS['Ana']}\nmoves:\n  - red: 7 B7\n    link: {link('Ana', 1)}\n"
    result = validate_text(text, "g.yaml")
    assert [(e.line, e.move, e.message) for e in result.errors] == [
        (9, 1, "the game has not started: Bo must join first (uptown join)")]
    assert result.unchecked[0] == "not started: Bo must join (uptown join)"


def test_a_link_must_follow_the_players_chain():
    ok = JOINED + f"moves:\n  - red: 7 B7\n    link: {link('Ana', 1)}\n"
    assert validate_text(ok, "g.yaml").valid
    skipped = JOINED + f"moves:\n  - red: 7 B7\n    link: {link('Ana', 2)}\n"
    (error,) = validate_text(skipped, "g.yaml").errors
    assert (error.line, error.move) == (10, 1)
    assert "not the one below Ana's previous commitment" in error.message


def test_writing_a_commitment_a_key_and_a_move_with_its_link():
    text = record_with_entry(HIDDEN, "commitments", "Ana", HEADS["Ana"]).text
    assert text == HIDDEN + f"  - Ana: {HEADS['Ana']}\n"
    text = record_with_entry(text + "# a note\n", "commitments", "Bo", HEADS["Bo"]).text
    assert text == JOINED + "# a note\n"
    text = record_with_move(text + "moves:\n", "blue", "7 B7", link=link("Ana", 1)).text
    assert text.endswith(f"moves:\n  - blue: 7 B7\n    link: {link('Ana', 1)}\n")
    text = record_with_entry(text, "revealed", "Ana", KEYS["Ana"].hex()).text
    assert text.endswith(f"\nrevealed:\n  - Ana: {KEYS['Ana'].hex()}\n")
    assert load_record_text(text, "g").hidden.revealed == (("Ana", KEYS["Ana"].hex()),)


def test_an_entry_the_record_would_refuse_is_not_written():
    with pytest.raises(RecordError, match="'Di' in 'commitments' is not a player"):
        record_with_entry(HIDDEN, "commitments", "Di", HEADS["Bo"]).text
    with pytest.raises(RecordError, match="belongs to a game with hidden racks"):
        record_with_entry(PLAYERS, "commitments", "Ana", HEADS["Ana"]).text


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_a_game_saved_with_its_links_and_keys_reloads_and_replays_the_same(seed, players):
    """Play a random hidden game on the engine, write every join, move and key into a record,
    read it back: the replay is valid, every draw the same, at the end and part way."""
    rng = random.Random(seed)
    names = ["Ana", "Bo", "Cy", "Di", "Ed"][:players]
    per = 2 if players == 2 else 1
    seats = [Player(n, COLORS[i * per:(i + 1) * per]) for i, n in enumerate(names)]
    keys = {n: bytes([i + 1]) * 32 for i, n in enumerate(names)}
    game_id = bytes(range(16))
    chains = {n: chain(game_id, n, keys[n]) for n in names}
    text = render_record(seats)
    text = text.replace("moves:\n", f"hidden: {game_id.hex()}\ncommitments:\nmoves:\n")
    deal = HiddenDeal(game_id, seats, keys)
    for n in names:
        deal.join(chains[n][-1])
        text = record_with_entry(text, "commitments", n, chains[n][-1].hex()).text
    game = Game(seats)
    while not game.finished:
        player = game.to_move
        link = chains[player.name][256 - deal.turns[player.name] - 1]
        color, move = rng.choice(legal_from_deal(game, deal, player))
        turn = game.play(move, color)
        deal.act(player, turn.color, turn.move, link)
        text = record_with_move(text, turn.color, str(turn.move), link=link.hex()).text
    for n in names:
        text = record_with_entry(text, "revealed", n, keys[n].hex()).text
    record = load_record_text(text, "g.yaml")
    check = HiddenCheck(record)
    result = replay(record, hidden=check)
    assert result.valid and result.game.finished and check.deal.drawn == deal.drawn
    upto = rng.randrange(len(record.moves))
    part = HiddenCheck(record)
    assert replay(record, upto=upto, hidden=part).valid
    assert all(deal.drawn[c][:len(d)] == d for c, d in part.deal.drawn.items())


def test_a_withdrawn_key_that_gives_a_commitment_still_there_is_refused_at_its_line():
    """(N2) ``join --undo`` takes the commitment out and publishes its key: a withdrawn entry
    whose key gives the commitment its player still holds claims an undo that did not happen,
    and was written by hand; a withdrawn key that gives none of the commitments there is a
    join taken back (its commitment is gone) and is read as one."""
    text = JOINED + f"withdrawn:\n  - Bo: {KEYS['Bo'].hex()}\n  - Ana: {'1' * 64}\n"
    assert [(e.line, e.message) for e in validate_text(text, "g.yaml").errors] == [(10, "Bo's withdrawn key gives Bo's commitment, which is still "
                                   "there: uptown join --undo takes the commitment out, so this "
                                   "entry was written by hand; remove it")]
