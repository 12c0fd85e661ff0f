"""uptown: records and analysis of the tile game Uptown (Blockers!).

The names used most are here, each loaded on first use (so that ``uptown --help`` stays
light)::

    >>> from uptown_cli import Game
    >>> game = Game.new(["Ana", "Bo"], seed="club-7")

docs/ENGINE_API.md is a short guide; each module's ``__all__`` lists its public names, each
documented where it is defined. The layers are described in docs/ARCHITECTURE.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

_NAMES = {
    "Game": ("engine.game", "Game"),
    "Player": ("engine.players", "Player"),
    "Turn": ("engine.game", "Turn"),
    "Color": ("engine.game", "Color"),
    "COLORS": ("engine.game", "COLORS"),
    "Variant": ("engine.game", "Variant"),
    "VARIANTS": ("engine.game", "VARIANTS"),
    "Move": ("engine.notation", "Move"),
    "Placement": ("engine.notation", "Placement"),
    "Pass": ("engine.notation", "Pass"),
    "PASS": ("engine.notation", "PASS"),
    "parse_move": ("engine.notation", "parse_move"),
    "standings": ("engine.scoring", "standings"),
    "Standing": ("engine.scoring", "Standing"),
    "Record": ("records.schema", "Record"),
    "read_record": ("records.reading", "load_record"),
    "load_record_text": ("records.schema", "load_record_text"),
    "replay": ("fairplay.replay", "replay"),
    "validate_file": ("turns.validation", "validate_file"),
    "choose_move": ("analysis.bots", "choose_move"),
    "UptownError": ("errors", "UptownError"),
    "NotationError": ("errors", "NotationError"),
    "IllegalMove": ("errors", "IllegalMove"),
    "Reason": ("errors", "Reason"),
    "RacksUnknown": ("errors", "RacksUnknown"),
    "SetupError": ("errors", "SetupError"),
    "RecordError": ("errors", "RecordError"),
}
"""Each name of the top level: (its module below ``uptown_cli``, its name there)."""

__all__ = ["__version__", *_NAMES]

if TYPE_CHECKING:
    from .analysis.bots import choose_move as choose_move
    from .engine.game import (
        COLORS as COLORS,
        VARIANTS as VARIANTS,
        Color as Color,
        Game as Game,
        Turn as Turn,
        Variant as Variant,
    )
    from .engine.players import Player as Player
    from .engine.notation import (
        PASS as PASS,
        Move as Move,
        Pass as Pass,
        Placement as Placement,
        parse_move as parse_move,
    )
    from .engine.scoring import Standing as Standing, standings as standings
    from .errors import (
        IllegalMove as IllegalMove,
        NotationError as NotationError,
        RacksUnknown as RacksUnknown,
        Reason as Reason,
        RecordError as RecordError,
        SetupError as SetupError,
        UptownError as UptownError,
    )
    from .records.reading import load_record as read_record
    from .fairplay.replay import replay as replay
    from .turns.validation import validate_file as validate_file
    from .records.schema import Record as Record, load_record_text as load_record_text


def __getattr__(name: str) -> object:
    """A name of ``_NAMES``, imported from its module the first time it is asked for."""
    if name not in _NAMES:
        raise AttributeError(f"module 'uptown_cli' has no attribute {name!r}")
    module, attribute = _NAMES[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value
