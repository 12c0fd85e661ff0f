"""scripts/train_value.py: the weights file a generation is played with reaches every move of
its games and of the games that measure its strength."""

import argparse
from types import SimpleNamespace

import pytest

@pytest.fixture
def training(script_module):
    """scripts/train_value.py as a module."""
    return script_module("train_value")


def test_a_generation_s_games_are_played_with_its_weights_file(training, monkeypatch):
    moves = []

    def record_move(bot, game, seed, playouts, weights):
        moves.append((bot, weights))
        return game.legal_moves()[0]

    monkeypatch.setattr(training, "choose_move", record_move)
    players, rows = training.game_rows((2, "s", "vista", 1, "weights.json"))
    assert players == 2 and rows
    assert len(moves) > 40 and set(moves) == {("vista", "weights.json")}


def test_the_strength_of_a_generation_is_measured_with_its_weights_file(training, monkeypatch):
    asked = []

    def play_games(bots, players, games, seed, jobs, options):
        asked.append((bots, options))
        return []

    monkeypatch.setattr(training, "play_games", play_games)
    monkeypatch.setattr(training, "summarize",
                        lambda played, bots: [SimpleNamespace(win_rate=0.5, interval=(0.4, 0.6))])
    args = argparse.Namespace(strength=2, seed="s", jobs=1, seconds=0.02)
    assert training.strength(args, "vista", "weights.json") == (0.5, (0.4, 0.6))
    assert asked == [(["vista", "mc"], {"seconds": 0.02, "weights": "weights.json"})]
