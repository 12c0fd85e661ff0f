"""``uptown play --plain`` (and ``play`` whenever standard input or output is not a
terminal): a whole game against a bot driven through standard input by a real process, one
move a line, in English and Spanish; the keys as lines; a game with hidden racks is watched."""

import os
import queue
import subprocess
import threading

import pytest

from uptown_cli.fairplay.replay import replay
from uptown_cli.records.reading import load_record

PROMPTS = {"en": "Your move (? for the keys):", "es": "Tu jugada (? para las teclas):"}


class Player:
    """``uptown play FILE`` as a real process whose output lines are read as they come (no
    read waits more than a minute)."""

    def __init__(self, uptown, path, *args, lang="en"):
        self.process = subprocess.Popen(
            [str(uptown.path), "--lang", lang, "play", path.name, *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=path.parent,
            env=dict(os.environ))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def until(self, wanted):
        """The lines up to the first that starts with one of ``wanted`` (None: the end)."""
        seen = []
        while True:
            line = self.lines.get(timeout=60)
            seen.append(line)
            if line is None or line.startswith(wanted):
                return seen

    def type(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def close(self):
        self.process.stdin.close()
        return self.process.wait(timeout=60)


def legal_move(path):
    """A legal move of the player to move in the game at ``path``, as ``uptown move`` takes it."""
    game = replay(load_record(str(path))).game
    color, move = game.legal_moves()[-1]
    return f"{color} {move}"


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_whole_game_against_a_bot_through_standard_input(uptown, tmp_path, lang):
    path = tmp_path / "game.yaml"
    player = Player(uptown, path, "--against", "greedy", "--seed", "7", "--name", "Ana",
                    lang=lang)
    moves = 0
    while True:
        seen = player.until((PROMPTS[lang], "The game is over", "La partida ha terminado"))
        if seen[-1] is None or not seen[-1].startswith(PROMPTS[lang]):
            break
        player.type(legal_move(path))
        moves += 1
    assert player.close() == 0
    assert moves == 48
    assert uptown.invoke("validate", "--strict", path).exit_code == 0
    assert uptown.json("show", path, "--json")[1]["finished"] is True


@pytest.mark.timeout(120)
def test_plain_play_says_the_keys_a_hint_a_refusal_and_a_takeback(uptown, tmp_path):
    path = tmp_path / "game.yaml"
    start = None
    player = Player(uptown, path, "--against", "greedy", "--seed", "7", "--name", "Ana")
    player.until(PROMPTS["en"])
    start = path.read_text()
    for line in ("?", "h", "zz", legal_move(path)):
        player.type(line)
    seen = player.until(PROMPTS["en"])  # the keys
    assert seen[0].startswith("A move: a tile and a square")
    assert player.until(PROMPTS["en"])[0].startswith("vista suggests: ")
    assert player.until(PROMPTS["en"])[0] == ("Refused: 'zz' is not a move: write TILE SQUARE "
                                             "(7 B7, 4 xB4) or pass")
    seen = player.until(PROMPTS["en"])
    assert seen[0].startswith("Move 1: ") and seen[1] == "greedy (greedy) is thinking..."
    assert seen[2].startswith("Move 2: yellow (greedy) ") or seen[2].startswith("Move 2: blue")
    player.type("u")
    assert player.until(PROMPTS["en"])[0] == "Taken back: the last 2 moves."
    player.type("q")
    assert player.until("The game is in ")[-1] == (
        "The game is in game.yaml; uptown play game.yaml goes on with it.")
    assert player.close() == 0
    assert path.read_text() == start


def test_a_game_with_hidden_racks_is_only_watched_without_as(uptown, game_file):
    path = game_file(hidden=True, players=2)
    result = uptown.invoke("play", path, input="")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == (
        "Ana to move: nothing to play here (a game with hidden racks or by email is played "
        "with --as NAME).")


@pytest.mark.parametrize("level, seat", [(1, "random: random"), (2, "greedy: greedy"),
                                         (3, "mc: mc 16"), (4, "horizon: horizon 64"),
                                         (5, "vista: vista 512")])
def test_a_new_game_without_against_seats_the_bot_of_its_level(uptown, tmp_path, level, seat):
    path = tmp_path / "new.yaml"
    result = uptown.invoke("play", path, "--level", str(level), "--seed", "7", input="")
    assert result.exit_code == 0
    assert f"x-bots:\n  {seat}\n" in path.read_text()


def test_a_level_with_against_sets_the_named_bots_playouts(uptown, tmp_path):
    path = tmp_path / "new.yaml"
    result = uptown.invoke("play", path, "--against", "mc", "--level", "4", "--seed", "7", input="")
    assert result.exit_code == 0 and "x-bots:\n  mc: mc 64\n" in path.read_text()


def test_options_of_a_new_game_are_refused_for_a_game_that_is_there(uptown, game_file):
    path = game_file()
    result = uptown.invoke("play", path, "--against", "mc")
    assert result.exit_code == 2
    assert f"{path} is a game already: --against starts a new one (name a new FILE)" in result.stderr
    result = uptown.invoke("play", path.with_name("new.yaml"), "--against", "mc,deep")
    assert result.exit_code == 2 and "unknown bot 'deep'" in result.stderr
    result = uptown.invoke("play", path.with_name("new.yaml"), "--against", "mc,mc",
                           "--players", "4")
    assert result.exit_code == 2
    assert "4 players are you and 3 bots, but --against names 2" in result.stderr


def test_a_player_of_a_hidden_game_plays_their_own_moves_with_as(uptown, game_file, tmp_path):
    from support.players import as_player

    path = game_file(hidden=True, players=2)
    env = as_player(tmp_path, "Ana")
    move = uptown.json("moves", path, "--as", "Ana", "--json", env=env)[1]["moves"][0]
    result = uptown.invoke("play", path, "--as", "Ana", input=f"{move}\n", env=env)
    assert result.exit_code == 0, result.output
    assert "Move 1: " in result.stdout
    assert result.stdout.splitlines()[-1] == "Bo to move: the game waits for them (you play as Ana)."
    assert uptown.invoke("validate", path).exit_code == 0


def test_play_refuses_standard_input_for_the_game_it_writes(uptown, tmp_path):
    result = uptown.run("play", "-", "--plain", cwd=tmp_path)
    assert result.returncode == 2 and "name a file, not -" in result.stderr
    assert list(tmp_path.iterdir()) == []
