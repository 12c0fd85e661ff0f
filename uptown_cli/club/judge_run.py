"""One run of a judge: the game files made true to the database, each message handled (by the
rulings given) and acknowledged, the rulings on time ticked, and the outbox sent.

``run_judge`` is the whole run, whatever the messages' source (``club.judge_mailbox``) and
whatever the rulings: a message whose handling fails is left unacknowledged, told in one
line, and tried again next run, and the others go on. The club judge's own rulings
(``club.judge``) plug into it as ``judge_rule`` and ``time_ticks``, each ruling ``applied`` in
the transaction of what caused it. ``smtp_sender`` and ``sendmail_sender`` send the outbox as
``uptown send`` does (``club.transport``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import NamedTuple

from ..errors import JudgeError, MailError, UptownError, one_line
from ..records.schema import load_record_text
from ..i18n import _
from .judge import Judge, Ruling, add_game, rule_on_message, rule_on_time
from .judge_mailbox import Incoming
from .judge_store import Game, Queued, Sending, Store, Txn, crash_point
from .transport import send_sendmail, send_smtp

__all__ = ["Report", "Rule", "Tick", "run_judge", "applied", "adding", "judge_rule", "time_ticks",
           "sendmail_sender", "smtp_sender"]

Rule = Callable[[Incoming, Txn], str]
"""What the judge does with one message: its work, in the message's transaction; returns
the outcome's line (a refusal too: a message refused is handled)."""
Tick = tuple[str, Callable[[Txn], str]]
"""A ruling no message causes (on time): its name and its work."""


class Report(NamedTuple):
    """What a run did: the files written again at its start; each message handled (where it
    was, its outcome); how many had been handled already; a line for each message not handled
    (tried again next run) or source that failed; each tick's outcome; what was sent."""

    synced: tuple[str, ...]
    handled: tuple[tuple[str, str], ...]
    repeated: int
    failures: tuple[str, ...]
    ticks: tuple[tuple[str, str], ...]
    sending: Sending


def run_judge(store: Store, messages: Iterable[Incoming], rule: Rule,
              ticks: Sequence[Tick] = (),
              send_one: Callable[[Queued], dict[str, str]] | None = None) -> Report:
    """Run the judge once (see the module docstring); in a dry run (``Store.dry_run``)
    nothing is committed, acknowledged or sent."""
    synced = tuple(store.sync_files())
    handled: list[tuple[str, str]] = []
    failures: list[str] = []
    repeated = 0
    unhandled = False  # a message left for the next run, or a source that failed
    try:
        for incoming in messages:
            try:
                outcome = store.handle(incoming.key, incoming.message_id, incoming.arrived,
                                       _work(incoming, rule))
            except Exception as exc:  # noqa: BLE001  the rulings' failure: tried again next run
                unhandled = True
                failures.append(_("{where}: not handled ({error}); it is tried again at the next "
                                  "run").format(where=incoming.where, error=_error(exc)))
                continue
            if outcome is None:
                repeated += 1
            else:
                handled.append((incoming.where, outcome.text))
            crash_point("before-done")
            if not store.dry_run:
                try:
                    incoming.done()
                except MailError as exc:
                    failures.append(str(exc))
    except MailError as exc:  # the source failed: what was handled stays handled
        unhandled = True
        failures.append(str(exc))
    ticked = []
    if unhandled and ticks:  # a message not handled may be a move that came in time
        failures.append(_("the rulings on time wait for the next run, since a message was not "
                          "handled: it may be a move that came in time"))
        ticks = ()
    for name, work in ticks:
        try:
            ticked.append((name, store.tick(name, work).text))
        except Exception as exc:  # noqa: BLE001  as a message's
            failures.append(_("{name}: not done ({error}); it is tried again at the next run")
                            .format(name=name, error=_error(exc)))
    sending = (store.send_pending(send_one) if send_one is not None
               else Sending((), (), (), None))
    failures += store.unwritten
    return Report(synced, tuple(handled), repeated, tuple(failures), tuple(ticked), sending)


def applied(ruling: Ruling, txn: Txn) -> str:
    """``ruling`` applied in ``txn``: the judge's copy of its game kept, its mail queued, its
    line logged; returns the line."""
    if ruling.text is not None and ruling.game_id is not None and ruling.path is not None:
        txn.put_game(ruling.game_id, ruling.path, ruling.text)
    for outgoing in ruling.mail:
        txn.send(list(outgoing.addresses), outgoing.message)
    txn.log(ruling.game_id, "ruling", ruling.outcome)
    return ruling.outcome


def adding(judge: Judge, text: str, name: str) -> Callable[[Txn], str]:
    """The work of giving ``judge`` the new game ``text`` as ``games/NAME``
    (``club.judge.add_game``): JudgeError when it keeps that game already."""
    def work(txn: Txn) -> str:
        ruling = add_game(judge, text, name)
        assert ruling.game_id is not None  # a game under a judge has its id
        held = txn.game(ruling.game_id)
        if held is not None:
            raise JudgeError(_("{name}: the judge keeps this game already, as {path}").format(
                name=name, path=held[0]))
        return applied(ruling, txn)
    return work


def judge_rule(judge: Judge) -> Rule:
    """The ``Rule`` of ``judge``: each message ruled on (``club.judge.rule_on_message``) at
    its arrival, against the copy of its game the store keeps."""
    return lambda incoming, txn: applied(
        rule_on_message(judge, incoming.data, incoming.arrived, txn.game, incoming.where), txn)


def time_ticks(judge: Judge, games: Sequence[Game], now: datetime) -> list[Tick]:
    """A tick for each of ``games``: ``judge``'s rulings on its time at ``now``
    (``club.judge.rule_on_time``), on the copy the store keeps when the tick runs; a tick
    with nothing due returns an empty line and changes nothing."""
    def work(game_id: str) -> Callable[[Txn], str]:
        def ruled(txn: Txn) -> str:
            held = txn.game(game_id)
            ruling = (None if held is None
                      else rule_on_time(judge, load_record_text(held[1], held[0]), now))
            return "" if ruling is None else applied(ruling, txn)
        return ruled
    return [(game.game_id, work(game.game_id)) for game in games]


def _work(incoming: Incoming, rule: Rule) -> Callable[[Txn], str]:
    """The work of ``incoming``: ``rule``'s, or for a message that cannot be read, its
    problem logged and kept as its outcome."""
    problem = incoming.problem
    if problem is None:
        return lambda txn: rule(incoming, txn)

    def unread(txn: Txn) -> str:
        txn.log(None, "unread", f"{incoming.where}: {problem}")
        return _("not read: {problem}").format(problem=problem)
    return unread


def _error(exc: Exception) -> str:
    """An error as one line: its own for uptown's, with its kind for any other."""
    return one_line(str(exc) if isinstance(exc, UptownError) else f"{type(exc).__name__}: {exc}")


def smtp_sender(url: str) -> Callable[[Queued], dict[str, str]]:
    """``send_one`` through the SMTP server ``url`` names (``transport.send_smtp``)."""
    def send_one(queued: Queued) -> dict[str, str]:
        return send_smtp(queued.data, queued.sender, list(queued.recipients), url).refused
    return send_one


def sendmail_sender() -> Callable[[Queued], dict[str, str]]:
    """``send_one`` through the local sendmail program (which refuses no one recipient)."""
    def send_one(queued: Queued) -> dict[str, str]:
        send_sendmail(queued.data, list(queued.recipients))
        return {}
    return send_one
