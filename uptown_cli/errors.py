"""Every error the library raises, in one place: ``UptownError``, a ``ValueError``, and its
kinds, each saying in one line what is wrong (and, for records, where). Import them from here.

- ``NotationError``: text that is not a square, a tile or a move (``engine.geometry``, ``notation``);
- ``IllegalMove``: a move the rules do not allow here, with its ``Reason`` (``engine.game``);
- ``RacksUnknown``: asked for what needs the racks in a game whose bags are unknown;
- ``SetupError``: a game, a bot or an option that cannot be set up as asked (players,
  colours, bags, variant, bot, export format), or a view no deal of the unseen tiles fits;
- ``RecordError``: a problem with a record, located by path, line and move (``records``);
- ``KeyFileError``: a hidden-racks key file that is missing, unsafe or for another game;
- ``ViewerError``: a player who cannot view or act as asked (``fairplay.viewer``);
- ``OutputError``: an output file (``-o``) that was not written (``records.safe_file.write_file``),
  or standard output that could not be written (``cli.run``);
- ``MailError``: a message that cannot be sent, or a received one that is refused (``club``);
  ``NotAllSent``, one of them: a message sent, but refused for some of its recipients;
  ``RecipientRefused``, one of them: a message the server refused for every recipient;
- ``JudgeError``: a judge's folder or database that cannot be used as asked (``club.judge_store``).

The command line turns every ``UptownError`` into one line on standard error and exit status 1,
in one place (``cli.exits.converted``).
"""

from __future__ import annotations

import os
from enum import Enum

from .i18n import N_

__all__ = [
    "UptownError", "NotationError", "IllegalMove", "Reason", "RacksUnknown", "SetupError",
    "KeyFileError", "ViewerError", "MailError", "RecipientRefused", "NotAllSent", "JudgeError", "EngineError", "OutputError", "RecordError",
    "one_line", "display_path", "NOTHING_WRITTEN", "NOTHING_SENT",
]


def one_line(text: str) -> str:
    """``text`` with line breaks and other unprintable characters escaped (``\\n``,
    ``\\x1b``), so that a value quoted from a file can neither break an error line in
    two nor send control codes to the terminal."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def display_path(path: str | bytes) -> str:
    """``path`` as printed: bytes that are not UTF-8 as ``\\xNN``, and line breaks and control
    codes escaped, so that a file's name can neither forge output lines nor reach the terminal."""
    return one_line(os.fsencode(path).decode("utf-8", "backslashreplace"))


class UptownError(ValueError):
    """Any error of the library: one line that says what is wrong."""


class NotationError(UptownError):
    """Text that is not a square, a tile or a move."""


class Reason(Enum):
    """Why a move is illegal (``IllegalMove.reason``); each value is the reason's code."""

    GAME_OVER = "game_over"
    """The game is over."""
    UNKNOWN_COLOR = "unknown_color"
    """The colour named does not play in this game."""
    WRONG_TURN = "wrong_turn"
    """The colour is not the player to move's."""
    AMBIGUOUS_COLOR = "ambiguous_color"
    """Both of the player's colours could play the tile: the move must say which."""
    NOT_FORCED = "not_forced"
    """A pass while the player could place a tile."""
    EXHAUSTED = "exhausted"
    """The colour has played all its 24 tiles."""
    REUSED = "reused"
    """The tile has been played already."""
    NOT_ON_RACK = "not_on_rack"
    """The tile is not on the colour's rack (known racks only)."""
    WRONG_SQUARE = "wrong_square"
    """The tile does not go on that square (its row, column or region)."""
    OWN_TILE = "own_tile"
    """The square holds one of the player's own tiles."""
    SPLIT = "split"
    """Capturing that tile would split its colour's group."""


class IllegalMove(UptownError):
    """A move the rules do not allow here: ``reason`` says which rule (a ``Reason``), the
    message says why in words."""

    def __init__(self, reason: Reason, message: str):
        super().__init__(message)
        self.reason = reason


class RacksUnknown(UptownError):
    """Asked for what needs the racks (legal moves) in a game without known bags."""

    def __init__(self) -> None:
        from .i18n import _

        super().__init__(_("the racks are unknown (a game without a seed)"))


class SetupError(UptownError):
    """A game, a bot or an option that cannot be set up as asked, or a player's view of the
    unseen tiles that no deal fits."""


class KeyFileError(UptownError):
    """A key file that is missing, unreadable, unsafe or for another game; one line."""


class ViewerError(UptownError):
    """A player who cannot look at or act in a game as asked: no such player, not joined yet,
    not their turn, or the file changed since they last saw it; one line."""


NOTHING_WRITTEN = N_("{reason}; nothing was written")
"""A ``MailError``'s outcome: the game file was not written (a received message refused)."""
NOTHING_SENT = N_("{reason}; nothing was sent")
"""A ``MailError``'s outcome: no message went out."""


class MailError(UptownError):
    """Mail that cannot be sent, or a received message that is refused; one line. ``reason``
    says what is wrong; ``outcome`` (``NOTHING_WRITTEN``, ``NOTHING_SENT`` or None) what was
    not done, which the message adds in the language in use (``...; nothing was sent``), so
    that a caller who says it otherwise takes ``reason`` alone."""

    def __init__(self, reason: str, outcome: str | None = None):
        from .i18n import _

        self.reason = one_line(reason)
        self.outcome = outcome
        super().__init__(self.reason if outcome is None else _(outcome).format(reason=self.reason))


class EngineError(UptownError):
    """An engine (a program speaking docs/ENGINE_PROTOCOL.md) that failed: ``reason`` is what
    happened (``crash``, ``stall``, ``time``, ``garbage``, ``illegal``, ``refused``), the message
    says it in one line."""

    def __init__(self, reason: str, message: str):
        super().__init__(one_line(message))
        self.reason = reason

    def __reduce__(self) -> tuple[type[EngineError], tuple[str, str]]:
        """Pickled whole (its reason too), so that it crosses to and from worker processes."""
        return type(self), (self.reason, str(self))


class RecipientRefused(MailError):
    """A message the server refused for every recipient (550 to each ``RCPT``): the address,
    not the server, is at fault, and other messages may go."""


class NotAllSent(MailError):
    """A message the server took for some recipients and refused for others (named in the
    line); those it took got it, so it is not to be sent to everyone again."""


class OutputError(UptownError):
    """An output file that was refused or could not be written; the old file is unchanged
    (unless the message says the file was written and only its folder could not be synced).
    Also standard output that could not be written (a full disk, /dev/full)."""


class RecordError(UptownError):
    """A problem with a record, located by path, 1-based line and move number.

    ``problems`` lists every problem found by the check that raised this one
    (this error first).
    """

    def __init__(self, message: str, *, path: str | None = None,
                 line: int | None = None, move: int | None = None):
        message = one_line(message)
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.move = move
        self.problems: list[RecordError] = [self]

    def _where(self) -> str:
        return one_line(":".join(str(part) for part in (self.path, self.line) if part is not None))

    def __str__(self) -> str:
        where = self._where()
        return f"{where}: {self.message}" if where else self.message

    def report_line(self, warning: bool = False) -> str:
        """The error as ``validate`` reports it: ``PATH:LINE: move N: message`` (the move
        number when there is one); a ``warning``, ``PATH:LINE: warning: move N: message``."""
        from .i18n import _

        if self.move is None:
            said = _("warning: {problem}") if warning else "{problem}"
        else:
            said = _("warning: move {number}: {problem}") if warning else _(
                "move {number}: {problem}")
        said = said.format(number=self.move, problem=self.message)
        where = self._where()
        return f"{where}: {said}" if where else said

    def to_json(self) -> dict[str, object]:
        """The error as ``{"line", "move", "message"}``."""
        return {"line": self.line, "move": self.move, "message": self.message}


class JudgeError(UptownError):
    """A judge's folder or database that cannot be used as asked: not a judge's folder, a
    database of another version, or one that another judge held too long; one line."""
