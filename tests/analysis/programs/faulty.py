"""A bot program (an engine) that fails on purpose, for the tests: `python faulty.py MODE [FILE]`.

It speaks uptown-engine-1, plays the first legal move it is offered, and writes on its standard
error what the host tells it in an error message, until its second move, where it fails as
MODE says:
  illegal      passes although it may place a tile
  silent       never answers
  crash        exits with status 3
  crash-once   exits with status 3 the first time only (FILE marks that it has crashed)
  garbage      prints a line that is not JSON
  stall        (from the start) answers hello, but never a ping
  old          speaks another protocol
  nohello      (from the start) never answers hello
  colour       answers with the key "colour" instead of "color"
  banner       never fails, but prints a banner line before its hello, as some programs do
  deaf         never fails, but ignores quit and SIGTERM and leaves a child behind (its pid and
               the child's are written to FILE)
"""

import json
import os
import signal
import subprocess
import sys

mode = sys.argv[1]
file = sys.argv[2] if len(sys.argv) > 2 else None
moves = 0
if mode == "banner":
    print("Faulty 1.0 by the tests, ready", flush=True)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if mode == "deaf":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", file])
    with open(file, "w") as out:
        out.write(f"{os.getpid()} {child.pid}\n")

for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "error":
        print(f"told: {message['message']}", file=sys.stderr, flush=True)
    elif kind == "hello" and mode != "nohello":
        send({"type": "hello", "protocol": "uptown-engine-0" if mode == "old" else "uptown-engine-1",
              "name": f"faulty {mode}", "author": "tests", "options": {}})
    elif kind == "ping" and mode != "stall":
        send({"type": "pong", "id": message["id"]})
    elif kind == "quit" and mode != "deaf":
        break
    elif kind == "move":
        moves += 1
        color, move = message["legal"][0]
        if moves == 2:
            print(f"{mode}: failing at my move 2", file=sys.stderr, flush=True)
            if mode == "illegal" and move != "pass":
                move = "pass"
            elif mode == "silent":
                continue
            elif mode == "crash" or mode == "crash-once" and not os.path.exists(file):
                if file:
                    open(file, "w").close()
                sys.exit(3)
            elif mode == "garbage":
                sys.stdout.write("I think I will play 7 B7\n")
                sys.stdout.flush()
                continue
            elif mode == "colour":
                send({"type": "move", "id": message["id"], "move": move, "colour": color})
                continue
        send({"type": "move", "id": message["id"], "move": move, "color": color})
if mode == "deaf":
    signal.pause()
