"""The club judge's rulings: what it does with a copy of a game a player mails it, and with the
time (docs/JUDGE.md, "Rulings"). Each ruling is a value (``Ruling``: one line for the log, the
game's new text, the messages to send); the machinery that reads the judge's mailbox, keeps its
state and sends its mail applies it at once, in one transaction (``club.judge_store``).

The judge is nobody's player: it keeps the time that no player can be trusted with. It stamps
each entry a player sends it with the time it received it, signed with its own key
(``fairplay.signatures.judged_digest``), keeps the game, and mails the stamped copy to every
player; it writes the passes, bot moves and forfeits of players out of time as the late policy
says, and voids a game nobody finished joining. A copy that does not hold everything the
judge's copy holds, stamps included, is refused, in one line mailed back to its sender.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import NamedTuple

from ..engine.game import Game
from ..engine.moments import write_time
from ..engine.notation import FORFEIT
from ..errors import MailError, RecordError, UptownError
from ..fairplay.joins import valid_reveals
from ..fairplay.replay import replay
from ..fairplay.signatures import (
    SignedEntry,
    first_kept_missing,
    header_digest,
    judged_digest,
    public_key,
    sign,
    signed_entries,
    unstamped,
    void_digest,
)
from ..i18n import _
from ..records.editing import (
    record_with_move,
    record_with_stamps,
    record_with_void,
)
from ..records.entries import JUDGE, MoveEntry, PlayerEntry
from ..records.schema import Record, load_record_text
from ..records.times import reveal_deadlines, stand_in_actions, waiting_deadline
from ..turns.acts import entry_signature
from ..turns.validation import validate_record
from .headers import address_field, address_key, header_value
from .mail import GameFile, Outgoing, messages_to
from .mime import message_game

__all__ = ["Judge", "Ruling", "add_game", "rule_on_message", "rule_on_time", "JOIN_DAYS"]

JOIN_DAYS = 7
"""How long the players of a new game have to join it, from its start (its ``started``,
written by ``uptown new``), by default: then the judge rules it void."""


class Judge(NamedTuple):
    """A club judge: its address, its private signing key (``seed``), the address that gets a
    copy of every game it sends (``archive``, None: none), and how many days a game's players
    have to join it."""

    email: str
    seed: bytes
    archive: str | None = None
    join_days: int = JOIN_DAYS

    @property
    def key(self) -> str:
        """Its public signing key (hex): what the records of its games name."""
        return public_key(self.seed).hex()

    @property
    def card(self) -> str:
        """What players give ``uptown new --judge``: ``ADDRESS KEY``."""
        return f"{self.email} {self.key}"


class Ruling(NamedTuple):
    """What the judge decided: one line for its log (and ``--dry-run``), the game it keeps
    (``game_id`` and ``path``, its file name in the judge's games folder) with its new text
    (None: unchanged), and the messages to send."""

    outcome: str
    game_id: str | None = None
    path: str | None = None
    text: str | None = None
    mail: tuple[Outgoing, ...] = ()


Held = Callable[[str], "tuple[str, str] | None"]
"""The judge's copy of a game, by game id: (its file name, its text), or None."""


# -- a game the club gives the judge ---------------------------------------------------------


def add_game(judge: Judge, text: str, name: str) -> Ruling:
    """The club gives the judge a new game (``uptown judge add``): made by ``uptown new
    --judge`` with this judge's card, nobody joined yet. The judge keeps it and mails it to
    every player, who then join it, each mailing their join to the judge. RecordError (one line)
    for a game that is not that."""
    record = load_record_text(text, name)
    fields = record.joins
    if fields is None or fields.judge is None or fields.judge.key != judge.key:
        raise RecordError(_("{path} is not a game under this judge ({card}): make it with "
                            "uptown new --judge '{card}'").format(path=name, card=judge.card))
    if fields.commitments or record.moves:
        raise RecordError(_("{path} has begun already: the judge takes a new game, before "
                            "anyone joins it").format(path=name))
    missing = [p.name for p in record.players if p.email is None]
    if missing:
        raise RecordError(_("{path}: every player of a game under a judge needs an address "
                            "(the judge mails them the game): {name} has none").format(
            path=name, name=missing[0]))
    assert record.game_id is not None  # a game whose players join has its id
    return Ruling(_("{path}: a new game, mailed to its players to join").format(path=name),
                  record.game_id, name, text, _copies(judge, record, name))


# -- a copy a player mails the judge --------------------------------------------------------


def rule_on_message(judge: Judge, data: bytes, arrived: datetime, held: Held,
                    where: str = "message") -> Ruling:
    """The judge's ruling on the message ``data``, received at ``arrived`` (by the club's own
    mail system: its delivery time, not the sender's word): the copy of a game it carries,
    checked against the judge's copy (``held``), its new entries stamped and the game mailed to
    every player; or a refusal mailed back to its sender, naming what is wrong. Time rulings due
    before ``arrived`` come first (``rule_on_time``): a move that comes after its player's time
    ran out finds the judge's pass or forfeit there already."""
    try:
        attached = message_game(data, where)
        received = attached.record()
    except UptownError as exc:
        return Ruling(_("{where}: refused: {reason}").format(where=where, reason=exc))
    sender = attached.senders[0] if attached.senders else None
    fields = received.joins
    if fields is None or fields.judge is None or fields.judge.key != judge.key:
        return Ruling(_("{where}: refused: the game it carries is not under this judge").format(
            where=where))
    assert received.game_id is not None  # a judged game has its id
    found = held(received.game_id)
    if found is None:
        return Ruling(_("{where}: refused: the judge does not keep game {game}: the club gives "
                        "it a game with uptown judge add").format(where=where,
                                                                   game=received.game_id))
    path, text = found
    current = load_record_text(text, path)
    timed = rule_on_time(judge, current, arrived)
    if timed is not None:  # the rulings due before it came come first
        assert timed.text is not None  # a ruling on time writes its game
        current = load_record_text(timed.text, path)
    def after_rulings(said: str) -> str:
        return said if timed is None else f"{timed.outcome}; {said}"

    earlier = timed.mail if timed is not None else ()
    kept = timed.text if timed is not None else None
    try:
        new = _stamped_copy(judge, current, received, arrived)
    except UptownError as exc:
        refused = _("{path}: refused a copy from {sender}: {reason}").format(
            path=path, sender=sender or "?", reason=exc)
        return Ruling(after_rulings(refused), current.game_id, path, kept,
            earlier + _refusal(judge, current, path, sender, str(exc)))
    if new is None:
        unchanged = _("{path}: nothing new in the copy from {sender}").format(
            path=path, sender=sender or "?")
        return Ruling(after_rulings(unchanged), current.game_id, path, kept, earlier)
    record, stamped = new
    said = _("{path}: stamped {entries}").format(
        path=path, entries=", ".join(entry.what for entry in stamped))
    return Ruling(after_rulings(said), current.game_id, path, record.text, _copies(judge, record, path))


def _stamped_copy(judge: Judge, current: Record, received: Record,
                  arrived: datetime) -> tuple[Record, list[SignedEntry]] | None:
    """``received`` with its new entries stamped at ``arrived``, and those entries; None when
    it holds nothing new. UptownError (one line) when it does not hold everything the judge's
    copy ``current`` holds as it holds it, or its new entries are not valid there."""
    fields = current.joins
    assert fields is not None
    if fields.void is not None:
        raise MailError(_("the game is void: the judge ruled so at {at}").format(
            at=fields.void.at))
    if header_digest(received) != header_digest(current):
        raise MailError(_("its header (the players, their addresses, the seed or the clock) is "
                          "not the judge's copy's: it was changed (the judge's copy is the game)"))
    _holds_the_judges_copy(current, received)
    new = unstamped(received)
    if not new:
        return None
    checked = validate_record(received, now=arrived)
    if checked.errors:
        raise MailError(checked.errors[0].report_line())
    _reveals_in_time(current, received, arrived)
    record = _stamped(judge, received, new, write_time(arrived))
    checked = validate_record(record, now=arrived)
    if checked.errors:
        raise MailError(checked.errors[0].report_line())
    return record, new


def _holds_the_judges_copy(current: Record, received: Record) -> None:
    """MailError unless ``received`` holds every entry of the judge's copy ``current`` (by its
    signature) with the judge's stamp as it is: a join undone before the first move excepted
    (its withdrawn key gives it)."""
    entry = first_kept_missing(current, received)
    if entry is None:
        return
    if entry.sig in {e.sig for e in signed_entries(received)}:
        raise MailError(_("the judge's stamp under {what} is not the judge's: the copy was "
                          "changed").format(what=entry.what))
    raise MailError(_("{what}, which the judge holds, is not in this copy: it is older than "
                      "the judge's, or was changed (the judge's copy is the game)").format(
        what=entry.what))


def _reveals_in_time(current: Record, received: Record, arrived: datetime) -> None:
    """MailError when ``received`` reveals a key that comes after its player's reveal deadline
    (by the judge's stamps): a late reveal changes nothing settled."""
    if received.joins is None or current.joins is None:
        return
    new = [name for name in valid_reveals(received.joins, pending=True)
           if name not in valid_reveals(current.joins)]
    deadlines = reveal_deadlines(current, new)
    late = [name for name in new if name in deadlines and arrived >= deadlines[name]]
    if late:
        raise MailError(_("{name}'s key comes after {name}'s reveal deadline ({deadline}): the "
                          "game was settled without it").format(
            name=late[0], deadline=write_time(deadlines[late[0]])))


# -- the time --------------------------------------------------------------------------------


def rule_on_time(judge: Judge, record: Record, now: datetime) -> Ruling | None:
    """The judge's time rulings on its copy of a game (``record``, read from its file in the
    judge's games folder) at ``now``: a game nobody finished joining within ``join_days`` of
    its start is void; a player out of time gets, one after another, the pass, bot move or
    forfeit the late policy allows, written and signed by the judge. None when nothing is
    due."""
    path = record.path
    fields = record.joins
    if fields is None or fields.void is not None:
        return None
    if len(fields.commitments) < len(record.players):
        return _void_when_due(judge, record, path, now)
    said: list[str] = []
    for _turn in range(len(record.players) * 2):
        game = replay(record).game
        player = game.to_move
        if game.finished or player is None or record.timing is None:
            break
        deadline = waiting_deadline(record.timing, record.moves, record.owners, player.name,
                                    pauses=record.pauses)
        actions = stand_in_actions(record.timing, record.moves, record.owners, player.name,
                                   record.pauses)
        if deadline is None or now < deadline.out_at or not actions:
            break
        action = FORFEIT if FORFEIT in actions else actions[0]
        record = _judges_entry(judge, record, game, player.colors[0], action, now)
        said.append(_("{name} out of time: the judge wrote {entry}").format(
            name=player.name, entry=record.moves[-1].text))
    if not said:
        return None
    assert record.game_id is not None
    return Ruling(_("{path}: {rulings}").format(path=path, rulings="; ".join(said)),
                  record.game_id, path, record.text, _copies(judge, record, path))


def _void_when_due(judge: Judge, record: Record, path: str, now: datetime) -> Ruling | None:
    """The judge's ruling that a game its players did not finish joining in time is void."""
    start = record.timing.started if record.timing is not None else None
    joined = len(record.joins.commitments) if record.joins is not None else 0
    if start is None:
        return None
    due = start + timedelta(days=judge.join_days)
    if now < due:
        return None
    at = write_time(now)
    stamp = sign(judge.seed, void_digest(header_digest(record), at)).hex()
    void = record_with_void(record, at, stamp)
    waiting = [p.name for p in record.players][joined:]
    assert record.game_id is not None
    return Ruling(_("{path}: void: {names} did not join by {due}").format(
        path=path, names=", ".join(waiting), due=write_time(due)),
        record.game_id, path, void.text, _copies(judge, void, path))


def _judges_entry(judge: Judge, record: Record, game: Game, color: str, action: str,
                  now: datetime) -> Record:
    """``record`` with the judge's entry for the player of ``color``, out of time: ``pass``,
    ``forfeit``, or ``bot`` (the late policy's bot plays, in an open game), written at ``now``,
    signed by the judge and stamped."""
    from ..analysis.stand_ins import stand_in_move

    stamp = {"at": write_time(now), "by": JUDGE}
    if action == "bot":
        assert record.timing is not None and record.timing.late.bot is not None
        color, action = stand_in_move(record, game, record.timing.late.bot,
                                      len(record.moves) + 1)
        stamp["bot"] = record.timing.late.bot
    entry = MoveEntry(color, action, 0, None, None, stamp["at"], JUDGE, stamp.get("bot"))
    after = record_with_move(record, color, action, record.path, None, stamp,
                             entry_signature(record, judge.seed, entry))
    return _stamped(judge, after, unstamped(after), stamp["at"])  # its only entry not stamped


def _stamped(judge: Judge, record: Record, entries: list[SignedEntry], at: str) -> Record:
    """``record`` with the judge's stamp at ``at`` under each of ``entries``: the time and the
    judge's signature over the entry and that time."""
    return record_with_stamps(record, {
        entry.line: (at, sign(judge.seed, judged_digest(entry.digest, at)).hex())
        for entry in entries})


# -- the judge's mail ------------------------------------------------------------------------


def _copies(judge: Judge, record: Record, path: str) -> tuple[Outgoing, ...]:
    """The judge's copy of the game to every player (and to the club's archive), from the
    judge: one message for each language they read."""
    data = record.text.encode("utf-8")
    game = GameFile(path, data, record, replay(record).game)
    players = [p for p in record.players if p.email]
    if judge.archive:
        players.append(PlayerEntry(_("archive"), (), 0, judge.archive))
    return tuple(messages_to(game, (JUDGE, judge.email), players))


def _refusal(judge: Judge, record: Record, path: str, sender: str | None,
             reason: str) -> tuple[Outgoing, ...]:
    """The refusal mailed back to whoever sent a copy, when they are one of the game's players
    (by their address in the judge's copy: a stranger's message gets no answer, so that the
    judge cannot be made to mail anyone)."""
    if sender is None:
        return ()
    player = next((p for p in record.players
                   if p.email and address_key(p.email) == sender), None)
    if player is None or player.email is None:
        return ()
    message = EmailMessage()
    message["From"] = address_field(JUDGE, judge.email)
    message["To"] = address_field(player.name, player.email)
    message["Subject"] = header_value(_("[uptown] {path}: refused").format(path=path))
    message.set_content(_("The judge did not take your copy of {path}: {reason}\n\nThe judge's "
                          "copy is the game: the last copy the judge sent you.").format(
        path=path, reason=reason))
    return (Outgoing(message, judge.email, [(player, player.email)]),)
