"""The bots: legal moves only, no peeking at hidden tiles, greedy's preferences, views."""

import random

import pytest

from uptown_cli.analysis import bots, deals
from uptown_cli.engine.game import seat_colors
from uptown_cli.errors import SetupError
from uptown_cli.engine.bags import seeded_bags
from uptown_cli.analysis.bots import BOT_NAMES, choose_move, greedy_choices
from uptown_cli.analysis.deals import _pass_limits, _sample_bag, sample_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.geometry import parse_tile
from uptown_cli.engine.notation import parse_move
from support.engine_games import random_game, recorded_playout_moves, seeded_game
from support.positions import build

FAST = {"playouts": 2}


def game_length(players):
    return 24 * sum(len(colors) for colors in seat_colors(players))


POSITIONS = [
    (players, f"pos{players}-{plies}", plies)
    for players in (2, 3, 4, 5)
    for plies in (0, 7, 40, game_length(players) - 2)
]


@pytest.mark.parametrize("players,seed,plies", POSITIONS)
@pytest.mark.parametrize("bot", BOT_NAMES)
def test_bots_only_play_legal_moves(bot, players, seed, plies):
    game = random_game(players, seed, plies)
    for attempt in range(3):
        assert choose_move(bot, game, seed=attempt, **FAST) in game.legal_moves()


def test_bots_play_whole_games_legally():
    """Each bot in turn plays every move of whole games, each one of the legal moves, to an
    end the rules give: every colour down to its last 4 tiles, or a round of passes."""
    for players in (2, 5):
        game = seeded_game(players, f"whole{players}")[0]
        while not game.finished:
            bot = BOT_NAMES[game.ply % len(BOT_NAMES)]
            color, move = choose_move(bot, game, seed=game.ply, **FAST)
            assert (color, move) in game.legal_moves(), (bot, game.ply)
            game.play(move, color)
        assert (all(game.played_count(c) == 24 for c in game.colors)
                or game.passes == len(game.players))


def scrambled(game, game_seed, seed):
    """The same game (players, moves, the mover's racks and past draws) with everything its
    player to move cannot see drawn again: opponents' racks and every bag's undrawn order."""
    me = game.to_move
    true_bags = {c: list(order) for c, order in seeded_bags(game_seed, game.colors).items()}
    rng = random.Random(seed)
    bags = {}
    for color in game.colors:
        played = [t.move.tile for t in game.history if t.color == color and not t.move.is_pass]
        if color in me.colors:
            seen = true_bags[color][: min(28, 5 + len(played))]
        else:
            seen = played
        rest = [t for t in range(28) if t not in seen]
        rng.shuffle(rest)
        bags[color] = seen + rest
    other = Game(game.players, bags)
    for turn in game.history:
        other.play(turn.move, turn.color)
    return other


@pytest.mark.parametrize("players,seed,plies", [(2, "hid2", 30), (3, "hid3", 21), (5, "hid5", 52), (4, "hid4", 3)])
def test_hidden_tiles_do_not_change_a_bots_choice(players, seed, plies):
    game = random_game(players, seed, plies)
    me = game.to_move
    for scramble in range(3):
        other = scrambled(game, seed, scramble)
        assert other.board == game.board
        for color in game.colors:
            if color in me.colors:
                assert other.racks[color] == game.racks[color]
        assert any(other.racks[c] != game.racks[c] for c in game.colors if c not in me.colors)
        for bot in BOT_NAMES:
            for bot_seed in (1, "x"):
                assert choose_move(bot, other, seed=bot_seed, **FAST) == choose_move(bot, game, seed=bot_seed, **FAST)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_random_and_greedy_choose_without_sampling_the_hidden_tiles(bot, monkeypatch):
    def no_sampling(*args):
        raise AssertionError("sampled the hidden tiles")

    monkeypatch.setattr(deals, "sample_bags", no_sampling)
    monkeypatch.setattr(bots, "sample_bags", no_sampling, raising=False)
    for players, plies in ((2, 30), (4, 50), (5, 3)):
        game = random_game(players, f"nosample{players}", plies)
        assert choose_move(bot, game, seed=1) in game.legal_moves()


@pytest.mark.parametrize("bot", ["mc", "horizon"])
def test_a_bot_given_seconds_thinks_that_long_and_plays_legally(bot):
    game = random_game(2, "seconds", 20)
    assert choose_move(bot, game, seed=1, seconds=0.01) in game.legal_moves()


def test_a_view_keeps_what_the_player_knows_and_samples_the_rest():
    game = random_game(3, "view", 20)
    me = game.to_move
    racks = {c: set() for c in game.colors}
    for seed in range(30):
        view = game.redealt(sample_bags(game, random.Random(seed)))
        assert view.board == game.board
        assert [(t.color, t.move) for t in view.history] == [(t.color, t.move) for t in game.history]
        for color in game.colors:
            assert set(view.racks[color]) <= set(game.unplayed_tiles(color))
            racks[color].add(tuple(view.racks[color]))
        for color in me.colors:
            assert view.racks[color] == game.racks[color]
    for color in game.colors:
        assert len(racks[color]) == (1 if color in me.colors else 30)


def test_sampled_bags_fit_the_moves_and_the_passes():
    played = [3, 7, 20, 11, 4, 27, 9]
    stuck = frozenset({0, 1, 2, 5, 6, 4, 27, 9, 25})  # after 4 plays the rack held only these
    for seed in range(50):
        bag = _sample_bag(played, {4: stuck}, random.Random(seed))
        assert sorted(bag) == list(range(28))
        for step, tile in enumerate(played):
            assert tile in bag[: 5 + step]
        rack_after_4 = set(bag[:9]) - set(played[:4])
        assert rack_after_4 <= stuck


def test_impossible_passes_are_reported():
    with pytest.raises(SetupError):
        _sample_bag([3, 7], {1: frozenset({7})}, random.Random(0))


def test_pass_limits_are_the_tiles_that_fit_nowhere():
    game = Game([Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))])
    for text in ("A A1", "pass", "B B1"):
        game.play(parse_move(text))
    limits = _pass_limits(game, game.to_move)
    assert limits == {"blue": {0: frozenset()}}  # every blue tile had a square
    assert _pass_limits(game, game.players[1]) == {}  # a player knows their own rack


def test_a_pass_no_deal_fits_is_set_aside_and_the_view_plays_on():
    """Bo passed while every blue tile had a square (written by hand in a game with hidden
    racks): no deal of his rack fits it. Ana's view still deals every rack, sets that pass
    aside (and names it), and a bot that samples views of it plays."""
    game = Game([Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))])
    for text in ("A A1", "pass", "B B1"):
        game.play(parse_move(text))
    ana = game.players[0]
    own = {"red": [parse_tile("A")] + [t for t in range(28) if t != parse_tile("A")]}
    view, set_aside = deals.imagined_game(game, ana, own, random.Random(1))
    assert [(t.number, t.player.name) for t in set_aside] == [(2, "Bo")]
    assert view.racks["red"] == sorted(own["red"][1:6])
    assert [t.move for t in view.history] == [t.move for t in game.history]
    assert view.to_move == view.players[0]
    assert choose_move("mc", view, seed=3, **FAST)[0] == "red"
    honest = Game(game.players)
    honest.play(parse_move("A A1"))
    assert deals.imagined_game(honest, ana, own, random.Random(1))[1] == []


def test_a_pass_no_bag_fits_is_searched_for_once_not_at_every_sampled_view(monkeypatch):
    """A bot samples the same position many times; the search for a bag that fits a pass no
    bag fits (up to a second) is made once."""
    game = Game([Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))])
    for text in ("A A1", "pass", "B B1"):
        game.play(parse_move(text))
    own = {"red": [parse_tile("A")] + [t for t in range(28) if t != parse_tile("A")]}
    view = deals.imagined_game(game, game.players[0], own, random.Random(1))[0]
    searched = []
    sample = deals._sample_bag

    def counted(played, limits, rng):
        searched.append(limits)
        return sample(played, limits, rng)

    monkeypatch.setattr(deals, "_sample_bag", counted)
    for seed in range(5):
        deals.sample_bags(view, random.Random(seed))
    assert [limits for limits in searched if limits] == []  # found unfit by imagined_game
    deals._unfit.clear()
    for seed in range(5):
        deals.sample_bags(view, random.Random(seed))
    assert [limits for limits in searched if limits] == [{0: frozenset()}]


def test_greedy_leaves_the_fewest_groups_then_avoids_captures_and_keeps_wide_tiles():
    for plies in (10, 33, 61):
        game = random_game(3, f"greedy{plies}", plies)
        seat = game.players.index(game.to_move)
        outcomes = {}
        for color, move in game.legal_moves():
            game.play(move, color)
            outcomes[color, move] = game.player_groups(game.players[seat])
            game.pop()
        best = greedy_choices(game)
        fewest = min(outcomes.values())
        assert all(outcomes[m] == fewest for m in best)
        keys = {(m.capture, m.tile >= 18, m.tile == 27) for _, m in best}
        assert len(keys) == 1
        capture, symbol, wild = keys.pop()
        for (color, move), groups in outcomes.items():
            if groups == fewest and (color, move) not in best:
                assert (move.capture, move.tile >= 18, move.tile == 27) > (capture, symbol, wild)
        assert choose_move("greedy", game, seed=1) in best


def hand_game(red_rack):
    """Ana (red) played 5 E5, Bo (blue) 6 E6 beside it, Cy (green) A A1; Ana holds ``red_rack``."""
    tiles = [parse_tile(t) for t in ["5", *red_rack]]
    red = tiles + [t for t in range(28) if t not in tiles]
    blue = [parse_tile("6")] + [t for t in range(28) if t != parse_tile("6")]
    green = list(range(28))
    game = Game([Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))],
                {"red": red, "blue": blue, "green": green})
    for text in ("5 E5", "6 E6", "A A1"):
        game.play(parse_move(text))
    return game


@pytest.mark.parametrize(
    "rack,best",
    [
        (["E", "skyline", "$", "sax"], ["E E4"]),  # not E xE6, skyline or $ beside E5
        (["skyline", "$", "sax", "man"], ["skyline D5", "skyline E4", "skyline F5"]),  # keep $
        (["$", "sax", "man", "ring"], ["$ D5", "$ E4", "$ F5"]),  # joining beats keeping $
    ],
)
def test_greedy_joins_without_capturing_and_keeps_the_widest_tiles(rack, best):
    game = hand_game(rack)
    assert [str(move) for _, move in greedy_choices(game)] == best
    assert str(choose_move("greedy", game, seed=3)[1]) in best


def test_mc_is_reproducible_for_a_seed():
    game = random_game(2, "mcseed", 24)
    choices = {choose_move("mc", game, seed="s", playouts=3) for _ in range(3)}
    assert len(choices) == 1


@pytest.mark.parametrize(
    "args,error,message",
    [
        (("nobot",), SetupError, "unknown bot"),
        (("mc",), SetupError, "unknown bot option"),
    ],
)
def test_bad_requests_are_refused(args, error, message):
    game = random_game(2, "bad", 4)
    options = {"depth": 3} if "option" in message else {}
    with pytest.raises(error, match=message):
        choose_move(*args, game, **options)


def test_bots_need_known_racks_and_an_unfinished_game():
    game = Game([Player("Ana", ("red",)), Player("Bo", ("blue",)), Player("Cy", ("green",))])
    with pytest.raises(ValueError, match="racks are unknown"):
        choose_move("random", game)
    for text in ("pass", "pass", "pass"):
        game.play(parse_move(text))
    with pytest.raises(ValueError, match="game is over"):
        choose_move("random", game)


def test_mc_needs_a_playout():
    with pytest.raises(ValueError, match="playouts"):
        choose_move("mc", random_game(2, "p", 2), playouts=0)


def test_horizon_is_reproducible_for_a_seed_and_needs_a_playout():
    game = random_game(2, "horizonseed", 24)
    choices = {choose_move("horizon", game, seed="s", playouts=3) for _ in range(3)}
    assert len(choices) == 1
    with pytest.raises(ValueError, match="playouts"):
        choose_move("horizon", game, playouts=0)


@pytest.mark.parametrize("players", [2, 4])
def test_horizon_reads_the_scores_after_four_moves_of_every_player(players, monkeypatch):
    """Greedy's best eight moves, each played out in the same deals for four moves of every
    player (a turn each: 8 turns with two players, 16 with four), not to the end."""
    game = random_game(players, f"horizonplies{players}", 20)
    runs = []
    real_run = bots.Playout.run

    def counting_run(self, policy, rng, plies=None):
        runs.append(plies)
        return real_run(self, policy, rng, plies)

    monkeypatch.setattr(bots.Playout, "run", counting_run)
    choose_move("horizon", game, seed=1, playouts=2)
    assert runs == [bots.HORIZON_MOVES * players] * (2 * bots.HORIZON_CANDIDATES)
    runs.clear()
    choose_move("mc", game, seed=1, playouts=2)
    assert runs == [None] * (2 * bots.MC_CANDIDATES)  # mc plays to the end


def test_horizon_counts_each_capture_as_a_fifth_of_a_group():
    """Tied on groups, the seat with fewer captures is ahead (the standard tie-break), by a
    fifth of a group per capture; mc's margin sees only the groups."""
    tied = [(2, 5), (2, 3), (3, 0)]
    assert bots._margin_counting_captures(tied, 1) == pytest.approx(0.4 + 0.5)
    assert bots._margin_counting_captures(tied, 0) == pytest.approx(-0.4)
    assert bots._margin(tied, 0) == 0.0
    assert bots._margin_counting_captures([(1, 9), (3, 0)], 0) == pytest.approx(0.2 + 0.5)


def test_horizon_rates_its_playouts_counting_captures(monkeypatch):
    rated = []
    real = bots._margin_counting_captures

    def recording(results, seat):
        rated.append(seat)
        return real(results, seat)

    monkeypatch.setattr(bots, "_margin_counting_captures", recording)
    choose_move("horizon", random_game(4, "horizoncaptures", 20), seed=1, playouts=2)
    assert len(rated) == 2 * bots.HORIZON_CANDIDATES


@pytest.mark.parametrize("players", [3, 4])
def test_horizon_keeps_only_its_three_best_candidates_after_four_deals(players, monkeypatch):
    """With more than two players: all eight candidates in the first four deals; from the
    fifth deal on only the three with the best total so far (the rest of the time goes to
    telling them apart)."""
    game = random_game(players, f"horizoncut{players}", 24)
    seat = game.players.index(game.to_move)
    deals = []  # per playout: (the candidate played before it, its margin)
    played = recorded_playout_moves(monkeypatch)
    real_run = bots.Playout.run

    def recording_run(self, policy, rng, plies=None):
        candidate = played[-1]
        results = real_run(self, policy, rng, plies)
        deals.append((candidate, bots._margin_counting_captures(results, seat)))
        return results

    monkeypatch.setattr(bots.Playout, "run", recording_run)
    choose_move("horizon", game, seed=3, playouts=6)
    trials = bots.HORIZON_TRIAL_DEALS * bots.HORIZON_CANDIDATES
    assert len(deals) == trials + 2 * bots.HORIZON_FINALISTS
    totals = {}
    for candidate, margin in deals[:trials]:
        totals[candidate] = totals.get(candidate, 0.0) + margin
    kept = {candidate for candidate, _ in deals[trials:]}
    assert len(totals) == bots.HORIZON_CANDIDATES and len(kept) == bots.HORIZON_FINALISTS
    assert min(totals[c] for c in kept) >= max(totals[c] for c in totals if c not in kept)


def test_horizon_with_two_players_plays_every_candidate_in_every_deal_on_the_plain_margin(monkeypatch):
    runs = []
    real_run = bots.Playout.run

    def counting_run(self, policy, rng, plies=None):
        runs.append(plies)
        return real_run(self, policy, rng, plies)

    def not_counting_captures(results, seat):
        raise AssertionError("captures counted in a two-player game")

    monkeypatch.setattr(bots.Playout, "run", counting_run)
    monkeypatch.setattr(bots, "_margin_counting_captures", not_counting_captures)
    choose_move("horizon", random_game(2, "horizontwo", 24), seed=3, playouts=6)
    assert len(runs) == 6 * bots.HORIZON_CANDIDATES


def test_horizon_joins_its_two_groups_before_an_opponent_can_block_them():
    """Ana (red) can join her two groups with A A2 now; Bo (blue), beside A2, holds tiles that
    fit it. Played out to the end, the moves differ too little for mc to see it in 16 deals
    (it joins with 2 seeds of 8); four moves ahead, horizon joins with every seed."""
    game = build("""
        r.r......
        .b......g
        .b......g
    """, racks={"red": ["A", "E", "F", "G", "H"], "blue": ["A", "2", "D", "E", "F"],
                "green": ["F", "G", "H", "I", "1"]})
    assert game.to_move.name == "Ana"
    for seed in range(4):
        assert choose_move("horizon", game, seed=seed, playouts=16) == ("red", parse_move("A A2"))
