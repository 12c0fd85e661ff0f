"""A Spanish player who is handed a broken record reads what is wrong in Spanish: validate's
lines (the move they are in, the kind of YAML found, an unknown colour), the "and N more" of
other commands; and where a tile may go says its region as Spanish says it."""

import re
from pathlib import Path

import pytest

from uptown_cli.engine.geometry import tile_fit_text
from uptown_cli.engine.notation import parse_tile
from uptown_cli.i18n import language

RECORDS = Path(__file__).resolve().parents[2] / "records"

BROKEN = """\
uptown: 1
variant: standard
players:
  - name: Ana
    colors: [red, green]
  - name: Bo
    colors: [blue, yellow]
seed: 2a61f0c3
moves:
  - green: 8 C8
  - purple: F F8
  - [1, 2]
  - green: 8 C8
    yellow: F F8
"""
ENGLISH_WORDS = re.compile(r"\b(move|unknown|colour|the colours are|a list|a mapping|text|"
                           r"and \d+ more|see|must be|record|valid|invalid|warning)\b")
"""English a Spanish reader must not meet (colour names stay as the record writes them)."""


def test_a_spanish_validate_of_a_broken_record_meets_no_english_words(uptown, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BROKEN)
    result = uptown.invoke("--lang", "es", "validate", path)
    assert result.exit_code == 1
    text = result.output.replace(str(path), "FILE")
    assert "FILE:11: jugada 2: color desconocido: 'purple' (en un registro, los colores se escriben " in text
    assert "FILE:12: jugada 3: una jugada es un color y su jugada" in text
    assert not ENGLISH_WORDS.search(text.replace("'- red: 7 B7'", "")), text
    shown = uptown.invoke("--lang", "es", "show", path)
    assert shown.exit_code == 1 and "(y 2 más; consulta uptown validate)" in shown.output
    english = uptown.invoke("--lang", "en", "validate", path)
    assert "bad.yaml:11: move 2: unknown colour 'purple' (the colours are " in english.output
    assert "(and 2 more; see uptown validate)" in uptown.invoke("--lang", "en", "show", path).output


@pytest.mark.parametrize("text, kind", [("moves: 3\n", "texto"), ("moves: {a: 1}\n", "un mapeo")])
def test_the_kind_of_yaml_found_is_named_in_spanish(uptown, tmp_path, text, kind):
    path = tmp_path / "bad.yaml"
    path.write_text(BROKEN.split("moves:")[0] + text)
    result = uptown.invoke("--lang", "es", "validate", path)
    assert result.exit_code == 1 and f", no {kind}" in result.output, result.output


@pytest.mark.parametrize("symbol, words", [("woman", "la zona de la mujer"),
                                           ("man", "la zona del hombre"),
                                           ("cards", "la zona de los naipes"),
                                           ("sax", "la zona del saxofón")])
def test_a_region_takes_its_article_in_spanish(symbol, words):
    with language("es"):
        assert tile_fit_text(parse_tile(symbol)) == words
    with language("en"):
        assert tile_fit_text(parse_tile(symbol)) == f"the {symbol} region"


def test_analyze_shows_moves_in_spanish_and_json_keeps_the_notation(uptown):
    record = str(RECORDS / "in-progress.yaml")
    args = ("analyze", record, "--iterations", "2", "--seed", "1")
    shown = uptown.invoke("--lang", "es", *args)
    assert shown.exit_code == 0, shown.output
    rows = {line.split()[0]: line for line in shown.output.splitlines()
            if line.strip()[:1].isdigit()}
    assert "hombre A3" in rows["6"] and "man A3" not in shown.output
    result, data = uptown.json("--lang", "es", *args, "--json")
    moves = {m["number"]: m for m in data["moves"]}
    assert moves[6]["move"] == "man A3"
    english = uptown.invoke("--lang", "en", *args)
    assert "man A3" in english.output and "hombre" not in english.output
