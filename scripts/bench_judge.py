"""How fast a judge handles its mail: a Maildir of 200 messages, each handled by the trivial
ruling of the tests (``tests/support/echo_judge.py``: a line in a game, an echo queued) in its
own transaction, the game's file written after each commit, the message moved to ``cur/``.

Run as ``python scripts/bench_judge.py`` in the project's environment (``--messages N``,
``--runs N``). Wall-clock time in this process, the median of the runs, each in a fresh
judge's folder:

- ``handle``: the 200 messages handled and acknowledged, nothing sent;
- ``handle+send``: the same, then the 200 echoes sent to a local SMTP server (aiosmtpd);
- ``again``: the same 200 messages read again by a second run (each found handled already).
"""

import argparse
import mailbox
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.echo_judge import echo_rule, message  # noqa: E402

from uptown_cli.club.judge_mailbox import from_maildir  # noqa: E402
from uptown_cli.club.judge_run import run_judge, smtp_sender  # noqa: E402
from uptown_cli.club.judge_store import Store, create_judge  # noqa: E402


def one_run(count, url):
    """Seconds to handle ``count`` messages (and send their echoes through ``url``), and to
    read them again once handled."""
    with tempfile.TemporaryDirectory() as folder:
        create_judge(f"{folder}/judge", "judge@example.org")
        box = mailbox.Maildir(f"{folder}/Maildir", create=True)
        for number in range(count):
            box.add(message(number, f"game-{number % 20}"))
        with Store.open(f"{folder}/judge") as store:
            start = time.perf_counter()
            report = run_judge(store, from_maildir(box._path), echo_rule,
                               send_one=smtp_sender(url) if url else None)
            handled = time.perf_counter() - start
            assert len(report.handled) == count and len(report.sending.sent) == (count if url else 0)
            for key in box.keys():  # back to new/, as if never acknowledged
                box[key] = mailbox.MaildirMessage(box.get_bytes(key))
            start = time.perf_counter()
            report = run_judge(store, from_maildir(box._path), echo_rule)
            again = time.perf_counter() - start
            assert report.repeated == count
    return handled, again


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from aiosmtpd.controller import Controller
    from support.club import Capture, free_port

    controller = Controller(Capture(), hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        plain = [one_run(args.messages, None) for _ in range(args.runs)]
        sending = [one_run(args.messages, f"smtp://127.0.0.1:{controller.port}")
                   for _ in range(args.runs)]
    finally:
        controller.stop()
    count = args.messages
    for name, seconds in [("handle", [h for h, _ in plain]), ("handle+send", [h for h, _ in sending]),
                          ("again", [a for _, a in plain])]:
        median = statistics.median(seconds)
        print(f"{name:12} {median:7.3f} s  {count / median:7.0f} messages/s  "
              f"({1000 * median / count:.2f} ms each; min {min(seconds):.3f}, max {max(seconds):.3f})")
    print(f"handle+send / handle: {statistics.median(h for h, _ in sending) / statistics.median(h for h, _ in plain):.2f}")


if __name__ == "__main__":
    main()
