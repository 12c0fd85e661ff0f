"""The tiles' names in the players' language (uptown_cli.pictures.tile_names): Spanish names
typed for moves become the canonical notation; every language's words fit the board and name
one tile each."""

from pathlib import Path

import pytest

from uptown_cli.engine.game import COLORS
from uptown_cli.engine.geometry import REGION_NAMES, SQUARE_NAMES, TILE_ALIASES, TILE_NAMES
from uptown_cli.engine.geometry import shown_tile
from uptown_cli.engine.notation import parse_move
from uptown_cli.i18n import language
from uptown_cli.pictures.tile_names import (
    captured_tile,
    symbol_words,
    canonical_move,
    fold,
    region_label,
    tile_face,
)

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "records"
LANGUAGES = ["en"] + sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "po").glob("*.po"))


@pytest.mark.parametrize("typed, canonical", [
    ("saxofón E8", "sax E8"), ("saxofon E8", "sax E8"), ("SAXOFÓN e8", "sax e8"),
    ("Saxo E8", "sax E8"), ("champán H8", "champagne H8"), ("champan xH8", "champagne xH8"),
    ("automóvil G2", "car G2"), ("automovil G2", "car G2"), ("coche G2", "car G2"),
    ("hombre A1", "man A1"), ("Anillo A5", "ring A5"), ("mujer B8", "woman B8"),
    ("cartel E2", "sign E2"), ("cartel de la calle E2", "sign E2"),
    ("  Cartel   de la  CALLE  E2 ", "sign E2"), ("horizonte E5", "skyline E5"),
    ("naipes H5", "cards H5"), ("cartas H5", "cards H5"),
    ("el signo del dólar A1", "$ A1"), ("signo del dolar A1", "$ A1"), ("comodín A1", "$ A1"),
    ("COMODIN xA1", "$ xA1"), ("dólar A1", "$ A1"),
    ("pasar", "pass"), ("Paso", "pass"),
])
def test_spanish_names_become_the_canonical_notation(typed, canonical):
    with language("es"):
        assert canonical_move(typed) == canonical
    parse_move(canonical)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_canonical_notation_is_read_the_same_in_every_language(lang):
    """A player may always type the English notation (and its aliases): no language's word
    stands for another tile."""
    typed = [name for name in TILE_NAMES] + list(TILE_ALIASES)
    with language(lang):
        for name in typed:
            for square in ("E8", "xe2"):
                assert canonical_move(f"{name} {square}") == f"{name} {square}"
        assert canonical_move("pass") == "pass"


@pytest.mark.parametrize("typed", ["saxofón", "E8", "saxofón E8 E9", "", "zanahoria E8", "7 B7"])
def test_what_is_not_a_spanish_move_is_left_for_the_parser(typed):
    with language("es"):
        result = canonical_move(typed)
    assert result == {"saxofón": "sax"}.get(typed, typed)


def test_english_leaves_every_word_alone():
    with language("en"):
        assert canonical_move("saxofón E8") == "saxofón E8"
        assert canonical_move("pasar") == "pasar"


def test_spanish_names_shown_on_the_board_and_in_lists():
    with language("es"):
        assert [shown_tile(t) for t in range(18, 28)] == [
            "hombre", "anillo", "mujer", "cartel", "horizonte", "saxofón", "automóvil",
            "naipes", "champán", "$"]
        assert [tile_face(t) for t in range(18, 28)] == [
            "hom", "ani", "muj", "crt", "hor", "sax", "aut", "nai", "cha", "$"]
        assert region_label(4) == "horizonte"
        assert shown_tile(0) == tile_face(0) == "A" and shown_tile(16) == "8"


def test_english_names_and_faces_are_todays():
    with language("en"):
        assert [tile_face(t) for t in range(18, 28)] == [
            "man", "rng", "wom", "sgn", "sky", "sax", "car", "crd", "chp", "$"]
        assert [region_label(r) for r in range(9)] == list(REGION_NAMES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_names_each_tile_once_and_within_the_board(lang):
    """Faces fit a board cell (three characters: the 80 columns of the board), names a region's
    border (14), and no two tiles share a face, a name or a typed name."""
    with language(lang):
        symbols = symbol_words()
        faces = [tile_face(t) for t in range(len(TILE_NAMES))]
        names = [fold(shown_tile(t)) for t in range(len(TILE_NAMES))]
        typed = [fold(word) for s in symbols.values() for word in s.typed.split("|") if word]
        typed_by = {fold(w): n for n, s in symbols.items() for w in s.typed.split("|") if w}
    assert all(1 <= len(face) <= 3 for face in faces), faces
    assert len(set(faces)) == len(faces), faces
    assert all(len(name) <= 14 for name in names), names
    assert len(set(names)) == len(names), names
    assert len(set(typed)) == len(typed), typed
    clashes = {w: n for w, n in typed_by.items() if w in names and names.index(w) != TILE_NAMES.index(n)}
    assert not clashes, clashes
    assert not set(typed_by) & {square.lower() for square in SQUARE_NAMES}


def test_fold_drops_accents_case_and_extra_blanks():
    assert fold("  Champán  de  la CALLE ") == "champan de la calle" == fold("champan de la calle")
    assert fold("SAXOFÓN") == "saxofon"


def test_the_english_faces_are_the_symbols_in_region_order():
    from uptown_cli.pictures.tile_names import ENGLISH_FACES

    assert list(ENGLISH_FACES) == list(REGION_NAMES) == list(TILE_NAMES[18:27])


@pytest.mark.parametrize("colour, tile, spanish, english", [
    ("red", "G", "la G roja", "red G"),
    ("red", "7", "el 7 rojo", "red 7"),
    ("yellow", "woman", "la mujer amarilla", "yellow woman"),
    ("blue", "cards", "los naipes azules", "blue cards"),
    ("green", "$", "el comodín verde", "green $"),
    ("orange", "sax", "el saxofón naranja", "orange sax"),
    ("yellow", "A", "la A amarilla", "yellow A"),
])
def test_a_captured_tile_is_named_with_its_article_and_agreeing_colour(colour, tile, spanish,
                                                                      english):
    """Spanish agrees the colour with the tile's own name (letters are feminine, numbers
    masculine, the symbols each their own, *naipes* plural): the issue's ``captura la G
    roja``, never ``captura rojo G``."""
    with language("es"):
        assert captured_tile(colour, TILE_NAMES.index(tile)) == spanish
    with language("en"):
        assert captured_tile(colour, TILE_NAMES.index(tile)) == english


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_captured_tile_names_its_tile(lang):
    """Each of the catalog's "captured tile" entries names the tile it stands for, as a word of
    its own: its name as shown, or one of its typed names (*comodín* for ``$``)."""
    with language(lang):
        symbols = symbol_words()
        for colour in COLORS:
            for tile, name in enumerate(TILE_NAMES):
                phrase = fold(captured_tile(colour, tile))
                words = [shown_tile(tile)] + (symbols[name].typed.split("|") if name in symbols
                                              else [])
                assert any(f" {fold(word)} " in f" {phrase} " for word in words if word), (
                    colour, name, phrase)


def test_a_capture_in_spanish_reads_captura_la_g_roja(uptown):
    """The line of a move that captures, in show, replay and the turn shown everywhere."""
    shown = uptown.invoke("--lang", "es", "replay", str(RECORDS / "2p-standard.yaml"))
    assert "Jugada 65: verde (Ana) cartel xD3, captura la D azul" in shown.output
    assert "Jugada 85: verde (Ana) naipes xG6, captura los naipes amarillos" in shown.output
    assert "Jugada 77: verde (Ana) 6 xA6, captura el anillo amarillo" in shown.output
    english = uptown.invoke("--lang", "en", "replay", str(RECORDS / "2p-standard.yaml"))
    assert "Move 65: green (Ana) sign xD3, captures blue D" in english.output


def test_a_better_move_that_captures_names_the_tile_as_a_capture_does():
    """The review's reason for a better move that captures: ``que captura la G roja de Bo``."""
    from uptown_cli.analysis.reasons import Outcome, _better_clause
    from uptown_cli.engine.game import Game

    game = Game([("Ana", ("red",)), ("Bo", ("blue",)), ("Cy", ("green",))])
    took = ("blue", TILE_NAMES.index("G"), SQUARE_NAMES.index("G5"))
    mine, better = Outcome(3, None, ()), Outcome(3, took, ())
    with language("es"):
        assert _better_clause(game, 3, mine, better) == "que captura la G azul de Bo en G5"
    with language("en"):
        assert _better_clause(game, 3, mine, better) == "which takes Bo's blue G on G5"
