"""A Spanish-speaking club plays in Spanish: a whole game by email, typed in Spanish names and
carried by send and receive, gives the same record as in English; what the players read is
Spanish (colours, tiles, legends, headers, the mail) and fits 80 columns; figures take a
decimal comma for people, never for programs."""

import email
import json
import re
from pathlib import Path

import pytest
from support.players import as_player

from uptown_cli.i18n import language
from uptown_cli.engine.geometry import TILE_NAMES, shown_color, shown_tile

SAMPLES = Path(__file__).resolve().parents[2] / "records"
ENGLISH_WORDS = re.compile(r"\b(to move|rack|Colours|Faces|draws|Last move|player|score|groups|"
                           r"captures|Standings|attached|red|blue|green|yellow|orange)\b")
"""English words a Spanish player must never meet in what the game shows them."""


def spanish(move, ply):
    """The words a Spanish player types for ``move`` (as ``moves --json`` writes it: ``sax E8``,
    ``red 7 B7``, ``pass``): the rack and the tile by their Spanish names, with or without
    accents, in capitals now and then; ``pasar`` for a pass."""
    words = move.split()
    if words == ["pass"]:
        return ["pasar"]
    typed = []
    if len(words) == 3:
        colour = shown_color(words.pop(0))
        typed.append(colour.upper() if ply % 2 else colour)
    name = shown_tile(TILE_NAMES.index(words[0]))
    name = [name, name.upper(), name.replace("ó", "o").replace("á", "a")][ply % 3]
    name = {"sign": "cartel de la calle", "$": "comodín"}.get(words[0], name)
    return typed + name.split() + [words[1]]


SAX_FIRST = "s4"
"""A seed whose first player may play sax on E8."""


def mail_body(path):
    message = email.message_from_bytes(path.read_bytes())
    return message.get_payload()[0].get_payload(decode=True).decode("utf-8")


def play_by_email(uptown, root, lang, seed="cafe01", players=("Ana", "Bo")):
    """A whole game of ``players`` by email in ``lang``: each has a folder, a key folder (what they
    have seen) and a copy of the game;
    the mover plays the move ``moves --json`` lists at a turning index (typed in Spanish when
    ``lang`` is es), sends the game with ``send -o`` and the next player takes it with
    ``receive``. (the final copies, every line shown to the players, the mails' bodies)."""
    folders = {name: root / name for name in players}
    for folder in folders.values():
        folder.mkdir(parents=True)
    first = folders[players[0]] / "club.yaml"
    shown, bodies = [], []

    def run(*args, who=None):
        result = uptown.invoke("--lang", lang, *args, env=as_player(root, who or "nobody"))
        assert result.exit_code == 0, (args, result.output)
        shown.extend(result.output.splitlines())
        return result

    run("new", first, "--seed", seed, *[x for n in players for x in ("-p", f"{n} <{n.lower()}@example.org>")])
    run("send", first, "--as", players[0], "--to", players[1], "-o", root / "new.eml")
    run("receive", root / "new.eml", "--into", folders[players[1]] / "club.yaml")
    ply = 0
    while True:
        listed = json.loads(uptown.invoke("moves", first, "--json").stdout)
        if listed["to_move"] is None:
            break
        mover = listed["to_move"]
        path = folders[mover] / "club.yaml"
        move = listed["moves"][(ply * 7) % len(listed["moves"])]
        with language(lang):
            words = spanish(move, ply) if lang == "es" else move.split()
        run("move", path, *words, "--as", mover, who=mover)
        letter = root / f"{ply}.eml"
        run("send", path, "--as", mover, "--to", "all", "-o", letter, who=mover)
        bodies.append(mail_body(letter))
        for name, folder in folders.items():
            if name != mover:
                run("receive", letter, "--into", folder / "club.yaml", who=name)
        ply += 1
    run("show", first)
    run("score", first)
    run("status", str(folders[players[0]]))
    return {name: (folder / "club.yaml").read_bytes() for name, folder in folders.items()}, shown, bodies


@pytest.mark.slow
def test_a_whole_game_by_email_in_spanish_is_recorded_as_in_english(uptown, tmp_path, without_game_id):
    """Two players, each with a folder and a copy, play a whole game typed in Spanish names and
    carried by send and receive: every copy is byte-identical to the same game played in
    English, and no English word meets the Spanish players (outputs and mails)."""
    english, _, _ = play_by_email(uptown, tmp_path / "en", "en")
    copies, shown, bodies = play_by_email(uptown, tmp_path / "es", "es")
    assert len(set(english.values())) == 1
    assert ({name: without_game_id(data) for name, data in copies.items()}
            == {name: without_game_id(data) for name, data in english.items()})
    assert "sax" in english["Ana"].decode() or "car" in english["Ana"].decode()
    text = "\n".join(shown + bodies)
    met = {m.group(0) for m in ENGLISH_WORDS.finditer(text)}
    assert not met, met
    assert "Le toca a" in text and "Clasificación" in text and "saxofón" in text
    long = [line for line in text.replace(str(tmp_path / "es"), ".").splitlines()
            if len(line) > 80 and not line.startswith("Se ha creado ")]
    assert not long, long  # (the folder's name left out: "Created" is as long in English)


@pytest.mark.parametrize("typed", [["saxofón", "E8"], ["saxofon", "E8"], ["SAXOFÓN", "e8"]])
def test_uptown_move_club_yaml_saxofon_e8(uptown, game_file, typed, without_game_id):
    """``uptown move club.yaml saxofón E8`` (with or without the accent) writes ``sax E8``,
    as ``uptown move club.yaml sax E8`` does; the player reads Spanish."""
    spanish_copy = game_file(name="club.yaml", seed=SAX_FIRST)
    english_copy = game_file(name="en.yaml", seed=SAX_FIRST)
    result = uptown.invoke("--lang", "es", "move", spanish_copy, *typed)
    assert result.exit_code == 0, result.output
    assert "Jugada 1: rojo (Ana) saxofón E8" in result.stdout
    english = uptown.invoke("move", english_copy, "sax", typed[1])
    assert english.exit_code == 0, english.output
    assert without_game_id(spanish_copy.read_bytes()) == without_game_id(english_copy.read_bytes())
    assert "sax E8" in spanish_copy.read_text() or "sax e8" in spanish_copy.read_text()


@pytest.mark.parametrize("record", sorted(p.name for p in SAMPLES.glob("*.yaml")))
def test_the_spanish_board_and_every_line_fit_80_columns(uptown, record):
    """show (the board, its legend and the players), score, replay and validate in Spanish:
    no line past 80 columns, no English word, every tile face at most three letters."""
    path = SAMPLES / record
    lines = []
    for args in (["show", path], ["score", path], ["replay", path], ["validate", path]):
        result = uptown.invoke("--lang", "es", *args)
        assert result.exit_code == 0, result.output
        lines += result.stdout.splitlines()
    long = [line for line in lines if len(line) > 80 and str(path) not in line]
    assert not long, long
    met = {m.group(0) for m in ENGLISH_WORDS.finditer("\n".join(lines))}
    assert not met, met
    board = [line for line in lines if re.match(r" [A-I] \|", line)]
    cells = [cell for line in board for cell in re.sub(r"[][|]", " ", line[4:-2]).split()]
    assert cells and all(len(cell) <= 4 for cell in cells), cells  # a colour letter and a face


def test_the_spanish_legend_names_colours_and_faces(uptown, record_after):
    result = uptown.invoke("--lang", "es", "show", record_after(3))
    assert "Colores: r rojo (Ana)  a azul (Bo)  v verde (Cy)" in result.stdout
    assert "Caras: hom=hombre ani=anillo muj=mujer crt=cartel hor=horizonte sax=saxofón" in result.stdout
    assert "+-- hombre --------+-- anillo --------+-- mujer ---------+" in result.stdout
    assert re.search(r"jugador +colores +por jugar +grupos +capturas +puntos", result.stdout)
    assert "Le toca a Ana, estante: rojo" in result.stdout


def test_a_decimal_comma_for_people_never_for_programs(uptown):
    """stats in Spanish: 50,0% and 7,5 in its tables; its csv and JSON keep the point, and
    English shows the point."""
    spanish = uptown.invoke("--lang", "es", "stats", SAMPLES).stdout
    english = uptown.invoke("--lang", "en", "stats", SAMPLES).stdout
    assert "50,0%" in spanish and re.search(r"\b7,5\b", spanish)
    assert not re.search(r"\d\.\d", spanish)
    assert "50.0%" in english and not re.search(r"\d,\d", english)
    for machine in (["--format", "csv"], ["--format", "tsv"], ["--json"]):
        out = uptown.invoke("--lang", "es", "stats", SAMPLES, *machine).stdout
        assert re.search(r"\d\.\d", out), machine  # (csv's commas separate its cells)
        assert out == uptown.invoke("--lang", "en", "stats", SAMPLES, *machine).stdout


def test_json_and_csv_are_english_whatever_the_language(uptown, record_after):
    path = record_after(2)
    for args in (["show", path, "--json"], ["moves", path, "--json"], ["moves", path, "--format", "csv"],
                 ["score", path, "--format", "csv"], ["score", path, "--json"]):
        assert uptown.invoke("--lang", "es", *args).stdout == uptown.invoke(*args).stdout, args


def test_the_svg_and_the_html_page_speak_spanish(uptown, record_after):
    path = record_after(4)
    svg = uptown.invoke("--lang", "es", "svg", path).stdout
    assert "tras 4 jugadas" in svg and "puntos" in svg and "saxofón" in svg and "Zonas" in svg
    page = uptown.invoke("--lang", "es", "html", path).stdout
    assert '<html lang="es">' in page and "<th>jugador</th>" in page and "Jugada 4 de 4" in page
    assert '"status":"Jugada {step} de {last}"' in page and "le toca" in page
    english = uptown.invoke("--lang", "en", "html", path).stdout
    assert '<html lang="en">' in english and "<th>player</th>" in english and "Move 4 of 4" in english


def test_spanish_plurals_through_ngettext(uptown, game_file):
    one, two = game_file(name="one.yaml", moves=1), game_file(name="two.yaml", moves=2)
    assert "tras 1 de 1 jugada\n" in uptown.invoke("--lang", "es", "show", one).stdout
    assert "tras 2 de 2 jugadas\n" in uptown.invoke("--lang", "es", "show", two).stdout
    assert "1 registro, 1 válido, 0 no válido" in uptown.invoke("--lang", "es", "validate", one).stdout


def test_move_completes_spanish_names_in_spanish(uptown, game_file):
    """With Spanish chosen, completion offers the tiles by their Spanish names (accents and case
    never matter) and, after one, its squares, as it does after the English notation."""
    import os
    import subprocess

    path = game_file(seed=SAX_FIRST)

    def complete(*words):
        env = dict(os.environ, _UPTOWN_COMPLETE="bash_complete", UPTOWN_LANG="es",
                   COMP_WORDS=" ".join(["uptown", "move", *words]), COMP_CWORD=str(len(words) + 1))
        result = subprocess.run([str(uptown.path)], env=env, cwd=path.parent, capture_output=True,
                                text=True, timeout=60)
        return [line.split(",", 1)[1] for line in result.stdout.splitlines()]

    tiles = complete("")
    assert "saxofón" in tiles and "sax" not in tiles
    assert complete("sax") == ["saxofón"]
    assert "E8" in complete("saxofon", "") and complete("saxofón", "E") == complete("sax", "E")
