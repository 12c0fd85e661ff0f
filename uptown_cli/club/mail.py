"""The messages that carry a game, one for each language its recipients read.

``game_messages`` builds them with the standard library's ``email`` package (its ``email.mime``
classes, which write a header as given and never read it back as encoded text): a plain-text
body (the board, the recipient's rack in an open game, the standings once a move is played,
and the one command the recipient runs next) and the game file attached exactly as it is on
disk. Every name, event, address and file name goes through ``club.headers`` first, whatever
the record holds. The transports are ``club.transport``'s.
"""

from __future__ import annotations

import email.policy
import os
import shlex
from email.message import Message
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import formatdate, getaddresses, make_msgid
from typing import NamedTuple


from ..engine.game import Game, same_name
from ..engine.geometry import shown_color
from ..engine.scoring import standings
from ..errors import MailError, one_line
from ..fairplay.joins import valid_reveals
from ..i18n import _, current_language, language, names_list, ngettext
from ..pictures.table import plain_table
from ..pictures.text import board_text, protocol_text, rack_label, standings_rows
from ..records.entries import JUDGE, PlayerEntry
from ..records.reading import read_file
from ..records.schema import Record, load_record_text
from ..turns.validation import validate_record
from .headers import (
    MAX_NAME,
    address_field,
    checked_address,
    header_text,
    header_value,
    plain_file_name,
)

__all__ = ["GameFile", "game_messages", "messages_to", "carrying", "wire_bytes", "from_env"]

FROM_ENV = "UPTOWN_FROM"
"""The sender's address when ``--as`` names no player with an email in the record."""
SUBJECT_TAG = "[uptown]"
GAME_TYPE = ("application", "yaml")
"""The attachment's media type (RFC 9512)."""
DEFAULT_NAME = "game.yaml"
"""The attachment's name when the game file's own name cannot be one (``plain_file_name``)."""


class GameFile(NamedTuple):
    """A game file as read for sending: its path, exact bytes, record and replayed game."""

    path: str
    data: bytes
    record: Record
    game: Game

    @classmethod
    def read(cls, path: str, shown: str) -> GameFile:
        """The game at ``path`` (``shown`` names it in errors): RecordError for a file that is
        no record, MailError for a record that does not validate (it is not sent: each
        player's ``receive`` would refuse it)."""
        text = read_file(path, shown)
        record = load_record_text(text, shown)
        checked = validate_record(record)
        if checked.errors:
            more = len(checked.errors) - 1
            raise MailError((_("{error} (and {count} more); nothing was sent: the record is "
                               "invalid (see uptown validate {path})") if more else
                             _("{error}; nothing was sent: the record is invalid (see uptown "
                               "validate {path})")).format(
                error=checked.errors[0].report_line(), count=more, path=shlex.quote(shown)))
        assert checked.game is not None  # replayed with the record
        return cls(path, text.encode("utf-8"), record, checked.game)

    @property
    def attachment_name(self) -> str:
        """The file name the game is attached under: the file's own name made plain
        (``plain_file_name``), else ``game.yaml``."""
        return plain_file_name(os.path.basename(self.path)) or DEFAULT_NAME

    @property
    def joining(self) -> PlayerEntry | None:
        """The next player to join a game with hidden racks, while not all have joined."""
        hidden = self.record.hidden
        if hidden is None or len(hidden.commitments) == len(self.record.players):
            return None
        return self.record.players[len(hidden.commitments)]

    @property
    def waiting_for(self) -> PlayerEntry | None:
        """Who the game waits for: the next to join, else the player to move (None when over)."""
        if self.joining is not None:
            return self.joining
        mover = self.game.to_move
        return None if mover is None else self.player(mover.name)

    def player(self, name: str) -> PlayerEntry:
        """The player ``name`` names (as records compare names: game.name_key); MailError
        when there is none."""
        for entry in self.record.players:
            if same_name(entry.name, name):
                return entry
        names = ", ".join(p.name for p in self.record.players)
        raise MailError(_("no player is named {name!r} (players: {names})")
                        .format(name=name, names=names))

    def subject(self) -> str:
        """``[uptown] EVENT-or-FILE: move N, NAME to move`` (``NAME to join``, ``game
        over``), made ``header_text``: what is printed and what the header holds."""
        title = self.record.fields.get("event") or self.attachment_name
        if len(title) > MAX_NAME:
            title = title[:MAX_NAME - 3] + "..."
        if self.joining is not None:
            state = _("{name} to join").format(name=self.joining.name)
        elif self.game.to_move is None:
            state = _("game over")
        else:
            state = _("move {number}, {name} to move").format(
                number=len(self.record.moves) + 1, name=self.game.to_move.name)
        return header_text(f"{SUBJECT_TAG} {title}: {state}")

    def next_command(self, recipient: PlayerEntry | None) -> str:
        """The one command the recipient runs next, once the message is received."""
        name = shlex.quote(self.attachment_name)
        if self.joining is not None:
            return f"uptown join {name} --as {shlex.quote(self.joining.name)}"
        if self.game.to_move is None:
            revealed = valid_reveals(self.record.hidden) if self.record.hidden else None
            if (revealed is not None and recipient is not None
                    and recipient.name not in revealed):
                return f"uptown reveal {name} --as {shlex.quote(recipient.name)}"
            return f"uptown validate {name}"
        # TRANSLATORS: what the player types in place of these words: a tile and a square
        return _("uptown move {file} TILE SQUARE --as {name} --send").format(
            file=name, name=shlex.quote(self.game.to_move.name))

    def rack_lines(self, recipients: list[PlayerEntry]) -> list[str]:
        """In an open game in play, each recipient's rack (every rack is public there); none
        for a recipient who plays no seat (the club judge, the club's archive)."""
        racks = self.game.racks
        if racks is None or self.game.finished:
            return []
        lines = []
        for entry in recipients:
            colors = next((p.colors for p in self.game.players if same_name(p.name, entry.name)),
                          ())
            if not colors:
                continue
            shown = "; ".join(f"{shown_color(c)} {rack_label(racks[c])}" if self.game.playable(c)
                              else _("{colour} done").format(colour=shown_color(c)) for c in colors)
            lines.append(_("Your rack: {racks}").format(racks=shown) if len(recipients) == 1
                         else _("{name}'s rack: {racks}").format(name=entry.name, racks=shown))
        return lines

    def body(self, recipients: list[PlayerEntry]) -> str:
        """The board as text (80 columns), the recipients' racks in an open game, the
        standings once a move is played, and what the recipient does next; every line
        printable (``one_line``), whatever the record's names hold."""
        state = self.subject()[len(SUBJECT_TAG) + 1:]
        lines = [state, "", board_text(self.game), ""]
        racks = self.rack_lines(recipients)
        if racks:
            lines += racks + [""]
        if self.record.moves:
            lines += [_("Standings:"), self.standings_table(), ""]
        if self.game.finished:
            from ..engine.scoring import standings
            from ..pictures.text import winner_text

            lines += [winner_text(standings(self.game, self.record.variant)), ""]
        if self.record.hidden is not None:  # a downgrade to an older version shows

            lines += [_("Hidden racks, protocol {protocol}.").format(
                protocol=protocol_text(self.record.hidden)), ""]
        lines += _("The game is attached as {name}. Save it with uptown receive (pipe\n"
                   "this message to it, or give the saved message), then run:").format(
            name=self.attachment_name).split("\n")
        lines.append(f"    {self.next_command(recipients[0] if len(recipients) == 1 else None)}")
        return "\n".join(one_line(line) for line in "\n".join(lines).split("\n")) + "\n"

    def standings_table(self) -> str:
        """The standings as the body shows them (a plain text table)."""
        rows, headers = standings_rows(standings(self.game, self.record.variant),
                                       self.record.variant)
        return plain_table(rows, headers)


def recipients(game: GameFile, to: str | None, sender: PlayerEntry | None) -> list[PlayerEntry]:
    """Who gets the game: ``to`` names a player or is ``all`` (everyone but the sender);
    by default the player the game waits for, or everyone once it is over. In a game under a
    club judge, the judge alone (it sends the game on to everyone)."""
    judge = game.record.joins.judge if game.record.joins is not None else None
    if judge is not None:
        if to is not None and to.casefold() not in (JUDGE, judge.email.casefold()):
            raise MailError(_("{path} is a game under a club judge: every copy goes to the "
                              "judge ({address}), which sends it on to every player; nothing "
                              "was sent").format(path=game.record.path, address=judge.email))
        return [PlayerEntry(JUDGE, (), judge.line, judge.email)]
    if to is None:
        waiting = game.waiting_for
        chosen = [waiting] if waiting is not None else None
    elif to.casefold() == "all":
        chosen = None
    else:
        chosen = [game.player(to)]
    if chosen is None:
        chosen = [p for p in game.record.players
                  if sender is None or not same_name(p.name, sender.name)]
    if not chosen:
        raise MailError(_("nobody to send {path} to: every player is the sender")
                        .format(path=game.record.path))
    missing = [p.name for p in chosen if p.email is None]
    if missing:
        raise MailError(ngettext("{names} has no email address in {path} (add 'email:' under the player)",
                                 "{names} have no email address in {path} (add 'email:' under the player)",
                                 len(missing)).format(names=names_list(missing), path=game.record.path))
    return chosen


class Outgoing(NamedTuple):
    """A message ready to go: the message, the address it is from (the envelope's sender),
    and each recipient with the address it goes to."""

    message: Message
    sender: str
    recipients: list[tuple[PlayerEntry, str]]

    @property
    def addresses(self) -> list[str]:
        return [address for _, address in self.recipients]

    def named(self, addresses: list[str] | None = None) -> str:
        """``Bo <bo@example.org>, Cy <cy@example.org>`` (those of ``addresses`` only, when
        given), printable."""
        return ", ".join(one_line(f"{entry.name} <{address}>") for entry, address in self.recipients
                         if addresses is None or address in addresses)


def from_env() -> tuple[str, str] | None:
    """(the display name, the checked address) of ``$UPTOWN_FROM``; None when it is not one
    address."""
    text = os.environ.get(FROM_ENV, "")
    found = getaddresses([text]) if text else []
    if len(found) != 1 or not found[0][1]:
        return None
    return found[0][0], checked_address(found[0][1], f"${FROM_ENV}")


def sender_address(game: GameFile, as_name: str | None) -> tuple[str, str]:
    """(the display name, the checked address) the message is from: ``--as``'s email in the
    record, else ``$UPTOWN_FROM``."""
    sender = game.player(as_name) if as_name is not None else None
    if sender is not None and sender.email is not None:
        return sender.name, checked_address(sender.email, _("{name}'s email").format(name=sender.name))
    club = from_env()
    if club is None:
        who = (_("{name} has no email in {path}").format(name=sender.name, path=game.record.path)
               if sender else _("no --as"))
        raise MailError(_("who sends this? {who}, and ${FROM_ENV} is not one address (e.g. Ana "
                          "<ana@example.org>)").format(who=who, FROM_ENV=FROM_ENV))
    return club


def game_messages(game: GameFile, as_name: str | None = None,
                  to: str | None = None) -> list[Outgoing]:
    """The messages that carry ``game`` from ``as_name`` (or ``$UPTOWN_FROM``) to ``to`` (see
    ``recipients``), the game file attached byte for byte: one for each language the
    recipients read (their ``lang`` in the record; without one, the language in use), its
    subject and body in that language."""
    name, sender = sender_address(game, as_name)
    sender_entry = game.player(as_name) if as_name is not None else None
    return messages_to(game, (name, sender), recipients(game, to, sender_entry))


def messages_to(game: GameFile, sender: tuple[str, str],
                players: list[PlayerEntry]) -> list[Outgoing]:
    """The messages that carry ``game`` from ``sender`` (a display name and a checked address)
    to ``players`` (each with an address): one for each language they read."""
    chosen = [(p, checked_address(p.email or "", _("{name}'s email").format(name=p.name)))
              for p in players]
    by_language: dict[str | None, list[tuple[PlayerEntry, str]]] = {}
    for player, address in chosen:
        by_language.setdefault(player.lang, []).append((player, address))
    messages = []
    for lang, group in by_language.items():
        with language(lang or current_language()):
            message = carrying(game, sender, [(p.name, a) for p, a in group],
                               game.subject(), game.body([p for p, _ in group]))
        messages.append(Outgoing(message, sender[1], group))
    return messages


def carrying(game: GameFile, sender: tuple[str, str], to: list[tuple[str, str]], subject: str,
             body: str) -> MIMEMultipart:
    """A message from ``sender`` to ``to`` (each a display name and a checked address) with
    ``subject`` and the plain-text ``body``, ``game``'s file attached byte for byte under
    ``GameFile.attachment_name``: a game's mail, or a reminder (``club.reminders``)."""
    message = MIMEMultipart()
    message["From"] = address_field(*sender)
    message["To"] = ", ".join(address_field(name, address) for name, address in to)
    message["Subject"] = header_value(subject)
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = make_msgid(domain=sender[1].rpartition("@")[2])
    message.attach(MIMEText(body, "plain", "us-ascii" if body.isascii() else "utf-8"))
    attached = MIMEApplication(game.data, GAME_TYPE[1])
    file_name = game.attachment_name
    attached.add_header("Content-Disposition", "attachment",
                        filename=file_name if file_name.isascii() else ("utf-8", "", file_name))
    message.attach(attached)
    return message


def wire_bytes(message: Message) -> bytes:
    """``message`` as it goes to a server or sendmail (lines ending CRLF)."""
    return message.as_bytes(policy=email.policy.compat32.clone(linesep="\r\n"))
