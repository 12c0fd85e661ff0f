"""The tiles' names in the players' language: shown, on the board, and as typed.

The words are in each language's catalog (``po/LANG.po``), in three contexts: "tile" (the
name shown in racks, lists and the board's region borders: at most 14 characters), "tile on
the board" (the face in a board's cell: at most 3) and "tile typed" (other names a player may
type, separated by ``|``); "move typed" holds the words for a pass. Letters, digits and ``$``
are the same in every language. Records keep the canonical English names whatever the
language: ``canonical_move`` turns what a player typed into them. A colour's or a tile's name
alone, as shown, is the engine's (``geometry.shown_color``, ``shown_tile``), whose refusals
name them too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..engine.game import COLORS
from ..engine.geometry import (
    REGION_NAMES,
    SQUARE_NAMES,
    TILE_NAMES,
    shown_color,
    shown_tile,
)
from ..engine.notation import parse_move
from ..errors import NotationError
from ..i18n import ENGLISH, current_language, pgettext

if TYPE_CHECKING:
    from ..engine.notation import Move

__all__ = ["canonical_move", "canonical_color", "rack_named", "captured_tile", "color_letter", "move_label",
           "variant_label", "written_move_label"]


class Symbol(NamedTuple):
    """A symbol tile's words in one language: the name ``shown``, the ``face`` on the board and
    the other names a player may type (``typed``, separated by ``|``)."""

    shown: str
    face: str
    typed: str


ENGLISH_FACES = {"man": "man", "ring": "rng", "woman": "wom", "sign": "sgn", "skyline": "sky",
                 "sax": "sax", "car": "car", "cards": "crd", "champagne": "chp"}
"""Each symbol's face on an English board. The catalogs' template takes the words to translate
from here (``scripts/catalogs.py``: WORDS), as a call written out would give them."""
WORDS = [("tile", name) for name in ENGLISH_FACES]
WORDS += [("tile on the board", face) for face in ENGLISH_FACES.values()]
WORDS += [("tile typed", name) for name in [*ENGLISH_FACES, "$"]]
WORDS += [("move typed", "pass"), ("move typed", "forfeit")]
CAPTURED_KINDS = ["{number}", "{letter}", *ENGLISH_FACES, "$"]
"""What a captured tile is named by, with its colour (``captured_tile``): a number, a letter, each
symbol and the wild tile, each its own entry, as a language's article and agreement may differ
for each (*el 7 rojo*, *la G roja*, *la mujer roja*, *los naipes rojos*)."""
WORDS += [("captured tile", f"{color} {kind}") for color in COLORS for kind in CAPTURED_KINDS]
"""(context, English word) of every word of this module that the catalogs translate."""


def symbol_words() -> dict[str, Symbol]:
    """Each symbol (and the wild ``$``) by its canonical name, in the language in use."""
    words = {name: Symbol(pgettext("tile", name), pgettext("tile on the board", face),
                          pgettext("tile typed", name))
             for name, face in ENGLISH_FACES.items()}
    words["$"] = Symbol("$", "$", pgettext("tile typed", "$"))
    return words


_SYMBOLS: dict[str, dict[str, Symbol]] = {}
_TYPED: dict[str, dict[str, str]] = {}


def _symbols() -> dict[str, Symbol]:
    """The symbols' words in the language in use, made once per language."""
    code = current_language()
    if code not in _SYMBOLS:
        _SYMBOLS[code] = symbol_words()
    return _SYMBOLS[code]


def _typed() -> dict[str, str]:
    """``{folded name a player may type: canonical name}`` in the language in use, made once per
    language (only a move typed needs it: folding imports unicodedata)."""
    code = current_language()
    if code not in _TYPED:
        words = [("pass", pgettext("move typed", "pass")),
                 ("forfeit", pgettext("move typed", "forfeit"))]
        words += [(name, f"{symbol.shown}|{symbol.typed}") for name, symbol in _symbols().items()]
        _TYPED[code] = {fold(word): name for name, names in words for word in names.split("|")
                        if word.strip()}
    return _TYPED[code]


def fold(text: str) -> str:
    """``text`` as names are compared: without accents, case folded, blanks as one space
    (``Saxofón`` and ``saxofon`` are one name)."""
    decomposed = unicodedata.normalize("NFD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def tile_face(tile: int) -> str:
    """The face of ``tile`` in a board's cell (at most three characters): ``sax``, ``7``."""
    name = TILE_NAMES[tile]
    symbol = _symbols().get(name)
    return name if symbol is None else symbol.face


def region_label(region: int) -> str:
    """The name of a region (its symbol's) on the board's border: ``horizonte``."""
    return _symbols()[REGION_NAMES[region]].shown


def canonical_move(text: str) -> str:
    """A move as a player typed it in the language in use, in the canonical notation that
    records keep: ``saxofón E8`` and ``Saxofon e8`` give ``sax E8``/``sax e8``, ``pasar`` gives
    ``pass``, ``abandonar`` gives ``forfeit``. Words it does not know (English names, letters, squares, mistakes) are left as
    they are, for the notation's parser to read or refuse."""
    if current_language() == ENGLISH:
        return text
    typed = _typed()
    words = text.split()
    whole = typed.get(fold(text))
    if whole is not None:
        return whole
    if len(words) > 1 and (tile := typed.get(fold(" ".join(words[:-1])))) is not None:
        return f"{tile} {words[-1]}"
    return text


def _color_words() -> dict[str, tuple[str, str]]:
    """Each colour's (name, letter on the board) in the language in use."""
    return {
        "red": (pgettext("colour", "red"),
                # TRANSLATORS: the letter of the red colour on the text board (one letter, each
                # colour's different)
                pgettext("colour letter", "r")),
        "blue": (pgettext("colour", "blue"), pgettext("colour letter", "b")),
        "green": (pgettext("colour", "green"), pgettext("colour letter", "g")),
        "yellow": (pgettext("colour", "yellow"), pgettext("colour letter", "y")),
        "orange": (pgettext("colour", "orange"), pgettext("colour letter", "o")),
    }


def captured_tile(color: str, tile: int) -> str:
    """A captured tile named with its colour, as the object of *captures*, in the language in
    use: ``red G``, ``blue sax``; in Spanish with the article and the agreement its name takes
    (``la G roja``, ``el 7 rojo``, ``los naipes azules``). Each colour and kind of tile is its
    own entry of the catalog (context "captured tile"): an article and an adjective agree with
    the tile's name, whose gender and number are the language's own."""
    name = TILE_NAMES[tile]
    kind = "{letter}" if tile < 9 else "{number}" if tile < 18 else name
    entry = f"{color} {kind}"  # a word of WORDS, as pgettext("tile", name) takes one
    return pgettext("captured tile", entry).format(letter=name, number=name)


def rack_named(words: Sequence[str]) -> tuple[str | None, Sequence[str]]:
    """(the colour a move's words start with, or None; the move's words): a move may start
    with its rack, ``red 7 B7``, or the colour's name in the language in use, ``rojo 7 B7``."""
    if len(words) > 1:
        color = words[0].lower() if words[0].lower() in COLORS else canonical_color(words[0])
        if color is not None:
            return color, words[1:]
    return None, words


def canonical_color(word: str) -> str | None:
    """The colour (``red``) a player named in the language in use (``rojo``, ``Rojo``), or
    None; English names are left to the caller."""
    if current_language() == ENGLISH:
        return None
    folded = fold(word)
    return next((c for c, (name, _letter) in _color_words().items() if fold(name) == folded), None)


def color_letter(color: str) -> str:
    """A colour's letter on the text board: ``r`` (English), ``a`` for azul (Spanish)."""
    return _color_words()[color][1]


def move_label(move: "Move") -> str:
    """A move as players of the language in use read it: ``saxofón xE8``, ``pasar``; the
    canonical notation itself in English (``sax xE8``, ``pass``)."""
    if current_language() == ENGLISH:
        return str(move)
    if move.is_pass:
        return pgettext("move", "pass")
    return f"{shown_tile(move.tile)} {'x' if move.capture else ''}{SQUARE_NAMES[move.square]}"


def written_move_label(text: str) -> str:
    """A move as ``uptown move`` takes it (``red 7 B7``, ``sax xE8``, ``pass``) as players of
    the language in use read it (``rojo 7 B7``, ``saxofón xE8``, ``pasar``); ``text`` itself
    in English, or when it is no move."""
    if current_language() == ENGLISH:
        return text
    color, _sep, rest = text.partition(" ")
    if color not in COLORS:
        color, rest = "", text
    try:
        shown = move_label(parse_move(rest))
    except NotationError:
        return text
    return f"{shown_color(color)} {shown}" if color else shown


def variant_label(variant: str) -> str:
    """A variant's name as players of the language in use read it: ``Bloqueadores``; the
    record's own word (``standard``, ``blockers``) in English."""
    names = {"standard": pgettext("variant", "standard"), "blockers": pgettext("variant", "blockers")}
    return names.get(variant, variant)
