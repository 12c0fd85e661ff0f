"""The language on the command line: ``uptown --lang``, UPTOWN_LANG and gettext's variables;
click's own messages in it; Spanish tile names typed for moves, records kept canonical."""

import os

import pytest

from uptown_cli.engine.bags import seeded_bags
from uptown_cli.engine.game import Game, Player
from uptown_cli.engine.geometry import TILE_NAMES, shown_tile
from uptown_cli.i18n import language

SPANISH_USAGE_ERROR = "Error: La opción '--as' requiere un argumento.\n"
SPANISH_UNKNOWN_COMMAND = ("Uso: uptown [OPCIONES] COMANDO [ARGUMENTOS]...\n"
                           "Prueba 'uptown --help' para obtener ayuda.\n\n"
                           "Error: No existe el comando 'nosuch'. (uptown -h muestra la lista)\n")


@pytest.fixture
def no_language(monkeypatch):
    """No language asked for by the environment (the suite's own English undone)."""
    for name in ("UPTOWN_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def test_click_usage_error_in_spanish(uptown):
    result = uptown.invoke("--lang", "es", "move", "--as")
    assert result.exit_code == 2
    assert result.stderr == SPANISH_USAGE_ERROR


def test_click_usage_error_in_spanish_from_the_environment(uptown, no_language):
    result = uptown.invoke("move", "--as", env={"LANG": "es_ES.UTF-8"})
    assert (result.exit_code, result.stderr) == (2, SPANISH_USAGE_ERROR)


def test_click_usage_and_try_lines_in_spanish(uptown):
    result = uptown.invoke("--lang", "es", "nosuch")
    assert (result.exit_code, result.stderr) == (2, SPANISH_UNKNOWN_COMMAND)


def test_a_mistake_before_the_command_is_told_in_the_language_asked_for(uptown):
    """--lang is read before click parses anything: its unknown option is told in Spanish."""
    result = uptown.invoke("--lang=es", "--frobnicate")
    assert result.exit_code == 2
    assert "Error: No existe la opción '--frobnicate'." in result.stderr


def test_unknown_command_in_spanish_with_the_nearest_one(uptown):
    result = uptown.invoke("--lang", "es", "mvoe")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: No existe el comando 'mvoe'. ¿Querías decir 'move'? (uptown -h muestra la lista)\n")


def test_help_in_spanish_names_clicks_sections_in_spanish(uptown):
    result = uptown.invoke("--lang", "es", "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Uso: uptown [OPCIONES] COMANDO [ARGUMENTOS]...")
    assert "\nOpciones:\n" in result.stdout and "\nComandos:\n" in result.stdout


@pytest.mark.parametrize("args, env, spanish", [
    (["--lang", "en"], {"LANGUAGE": "es", "LANG": "es_ES.UTF-8"}, False),
    (["--lang", "es"], {"LANGUAGE": "en", "LC_ALL": "en_US.UTF-8"}, True),
    (["--lang", "es"], {"UPTOWN_LANG": "en"}, True),
    (["--lang", "en"], {"UPTOWN_LANG": "es"}, False),
    ([], {"UPTOWN_LANG": "es", "LANGUAGE": "en"}, True),
    ([], {"UPTOWN_LANG": "en", "LANGUAGE": "es"}, False),
    ([], {"LANGUAGE": "es", "LANG": "en_US.UTF-8"}, True),
    ([], {"LC_ALL": "es_MX.UTF-8", "LANG": "en_US.UTF-8"}, True),
])
def test_lang_wins_over_the_environment(uptown, no_language, args, env, spanish):
    result = uptown.invoke(*args, "nosuch", env=env)
    assert result.exit_code == 2
    assert ("No existe el comando 'nosuch'" in result.stderr) is spanish
    assert ("No such command 'nosuch'" in result.stderr) is not spanish


@pytest.mark.parametrize("args, env", [
    (["--lang", "xx"], {}), (["--lang", "klingon"], {"LANGUAGE": "es"}), ([], {"LANGUAGE": "de_DE"}),
    ([], {"UPTOWN_LANG": "zz_ZZ.UTF-8", "LANG": "es_ES.UTF-8"}),
])
def test_an_unknown_language_falls_back_to_english(uptown, no_language, args, env):
    result = uptown.invoke(*args, "nosuch", env=env)
    assert result.exit_code == 2
    assert result.stderr.startswith("Usage: uptown [OPTIONS] COMMAND [ARGS]...\nTry 'uptown --help'")
    assert "Error: No such command 'nosuch'. (uptown -h lists them)" in result.stderr


def test_the_language_of_one_command_does_not_stay_after_it(uptown, no_language):
    environment = dict(os.environ)
    assert "Uso:" in uptown.invoke("--lang", "es", "nosuch").stderr
    assert "Usage:" in uptown.invoke("nosuch").stderr
    assert dict(os.environ) == environment


def test_the_installed_program_speaks_spanish(uptown):
    result = uptown.run("--lang", "es", "nosuch")
    assert (result.returncode, result.stderr) == (2, SPANISH_UNKNOWN_COMMAND)
    assert "-h, --help   Mostrar este mensaje y salir." in uptown.run("--lang", "es", "-h").stdout


def spanish_words(move, ply):
    """``move`` as a Spanish player might type it: the Spanish name, now and then without its
    accents, in capitals, or by another name; ``pasar`` for a pass."""
    if move.is_pass:
        return ["pasar"]
    name = TILE_NAMES[move.tile]
    spanish = shown_tile(move.tile)
    typed = [spanish, spanish.upper(), spanish.replace("ó", "o").replace("á", "a")][ply % 3]
    typed = {"sign": "cartel de la calle", "$": "comodín"}.get(name, typed)
    square = str(move).split()[1]
    return [*typed.split(), square.lower() if ply % 2 else square]


def test_a_game_typed_in_spanish_is_recorded_as_in_english(uptown, game_file, without_game_id):
    """Records keep the canonical notation: the same game, typed in Spanish tile names or in
    English, gives byte-identical files."""
    from support.games import SEED

    english, spanish = game_file(name="english.yaml"), game_file(name="spanish.yaml")
    assert without_game_id(english.read_bytes()) == without_game_id(spanish.read_bytes())

    players = [Player(name, (color,)) for name, color in (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"))]
    game = Game(players, seeded_bags(SEED, ["red", "blue", "green"]))
    symbols = set(range(18, 28))
    for ply in range(45):
        legal = game.legal_moves()
        named = [m for m in legal if m[1].tile in symbols or m[1].is_pass] or legal
        color, move = named[(ply * 5) % len(named)]
        with language("es"):
            words = spanish_words(move, ply)
        result = uptown.invoke("--lang", "es", "move", spanish, *words)
        assert result.exit_code == 0, (words, result.output)
        result = uptown.invoke("move", english, *str(move).split())
        assert result.exit_code == 0, (move, result.output)
        game.play(move, color)
    assert without_game_id(english.read_bytes()) == without_game_id(spanish.read_bytes())
    assert "sax" in english.read_text()


def test_spanish_names_are_not_english(uptown, game_file):
    """Without Spanish chosen, a Spanish name is no tile: the move is refused as before."""
    path = game_file()
    result = uptown.invoke("move", path, "saxofón", "E8")
    assert result.exit_code == 1
    assert "'saxofón' is not a tile" in result.stderr
