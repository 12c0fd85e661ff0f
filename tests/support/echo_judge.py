"""A judge with a trivial ruling, for the tests of the judge's machinery (the real rulings are
``club.judge``'s): each message's subject names a game, whose text gets one line per message
(its Message-ID and when it arrived), and the sender gets an echo. A message handled twice
would show as two lines, a message lost as none.

Run as a program, it is one run of that judge, as cron or an MTA would start it:

    python echo_judge.py FOLDER SOURCE [SMTP-URL]

SOURCE is ``-`` (one message on standard input), ``maildir:PATH`` or an ``imaps://`` URL;
without SMTP-URL nothing is sent. It prints the run's report as JSON.
"""

import datetime
import email
import email.policy
import json
import re
import sys
from email.message import EmailMessage

from uptown_cli.club.judge_mailbox import from_imap, from_maildir, from_pipe
from uptown_cli.club.judge_run import run_judge, smtp_sender
from uptown_cli.club.judge_store import Store


def echo_rule(incoming, txn):
    """The trivial ruling: a line for the message in the game its subject names, an echo."""
    message = email.message_from_bytes(incoming.data, policy=email.policy.default)
    subject = str(message["Subject"] or "none")
    game_id = re.sub(r"[^a-z0-9-]", "-", subject.lower())[:40] or "none"
    known = txn.game(game_id)
    text = (known[1] if known else "") + f"- {incoming.message_id} {incoming.arrived.isoformat()}\n"
    txn.put_game(game_id, f"{game_id}.yaml", text)
    sender = message["From"].addresses[0].addr_spec
    echo = EmailMessage()
    echo["To"] = sender
    echo["Subject"] = f"Re: {subject}"
    echo.set_content(f"Received {incoming.message_id}\n")
    txn.send([sender], echo)
    txn.log(game_id, "echo", incoming.message_id)
    return f"echoed {subject}"


def message(number, subject="game-1", sender="ana@example.org", size=0):
    """The bytes of a message to the judge: its number in its Message-ID and body."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = "judge@example.org"
    mail["Subject"] = subject
    mail["Message-ID"] = f"<m{number}@example.org>"
    mail["Date"] = "Mon, 02 Dec 2024 10:00:00 +0000"  # the sender's word: never the arrival
    mail.set_content(f"Message {number}\n" + "x" * size)
    return mail.as_bytes()


def main(folder, source, smtp=None):
    with Store.open(folder) as store:
        if source == "-":
            now = datetime.datetime.now(datetime.timezone.utc)
            report = run_judge(store, from_pipe(sys.stdin.buffer, now), echo_rule,
                               send_one=smtp_sender(smtp) if smtp else None)
        elif source.startswith("maildir:"):
            report = run_judge(store, from_maildir(source[len("maildir:"):]), echo_rule,
                               send_one=smtp_sender(smtp) if smtp else None)
        else:
            with from_imap(source) as messages:
                report = run_judge(store, messages, echo_rule,
                                   send_one=smtp_sender(smtp) if smtp else None)
    print(json.dumps({"handled": report.handled, "repeated": report.repeated,
                      "failures": report.failures, "sent": report.sending.sent,
                      "stopped": report.sending.stopped, "synced": report.synced}))


if __name__ == "__main__":
    main(*sys.argv[1:])
