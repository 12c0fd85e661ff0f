"""``Game.rewind``: a game's moves taken back to an earlier move, given back to be played again."""

from support.engine_games import random_game, shown


def test_a_game_rewound_and_played_again_is_the_game_it_was():
    game = random_game(3, 5, 40)
    before, history = shown(game), list(game.history)
    turns = game.rewind()
    assert turns == history and game.ply == 0 and not game.history
    for turn in turns:
        game.play(turn.move, turn.color)
    assert shown(game) == before


def test_rewinding_to_a_move_takes_back_only_the_moves_after_it():
    game = random_game(2, 7, 30)
    history = list(game.history)
    assert game.rewind(12) == history[12:]
    assert game.history == history[:12]
    assert game.rewind(12) == [] and game.ply == 12
