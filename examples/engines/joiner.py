#!/usr/bin/env python3
"""An Uptown engine in Python, speaking uptown-engine-1 (docs/ENGINE_PROTOCOL.md), with the
standard library only.

It knows the rules that score: groups are counted per colour (with two players, each of your
two colours apart), so it plays the legal move that joins most groups of the colour it is
played from; it avoids captures that take a lone tile (that takes a group from the
opponent) and, in Blockers!, every capture (each tile taken counts against you); it keeps
its $ and the tiles that fit many squares for later, and breaks ties with the request's seed.
Run it against uptown's bots:

    uptown tournament greedy 'joiner=python3 examples/engines/joiner.py' --out runs/py
"""

import json
import random
import sys

ROWS = "ABCDEFGHI"


def square_of(move):
    """'7 B7' -> 'B7', '4 xE8' -> 'E8', 'pass' -> None."""
    return None if move == "pass" else move.split()[-1].lstrip("xX").upper()


def neighbours(square):
    """The squares next to ``square``, edge to edge (corners do not join)."""
    row, column = ROWS.index(square[0]), int(square[1:])
    steps = ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
    return [ROWS[r] + str(c) for r, c in steps if 0 <= r < 9 and 1 <= c <= 9]


def group_of(board, square):
    """The squares of the group ``square`` is in (its colour's tiles joined to it)."""
    color, seen, todo = board[square], {square}, [square]
    while todo:
        for other in neighbours(todo.pop()):
            if other not in seen and board.get(other) == color:
                seen.add(other)
                todo.append(other)
    return seen


def value(board, color, move, variant):
    """How good ``move`` from ``color`` is: higher is better."""
    square = square_of(move)
    if square is None:
        return 0.0
    tile = move.split()[0]
    joined = {frozenset(group_of(board, s)) for s in neighbours(square) if board.get(s) == color}
    score = 10.0 * (len(joined) - 1)  # a lone new tile is a group more; joining k groups, k - 1 fewer
    if square in board:  # a capture
        lonely = not any(board.get(s) == board[square] for s in neighbours(square))
        score -= 8.0 if variant == "blockers" else 4.0 if lonely else 0.5
    if tile == "$":
        score -= 2.0  # the wild tile fits anywhere: keep it for a square nothing else fits
    return score


def choose(request):
    board = {}  # square -> colour, after every move played (a capture takes the square)
    for color, move in request["moves"]:
        square = square_of(move)
        if square:
            board[square] = color
    rand = random.Random(request["seed"])
    variant = request.get("variant", "standard")
    scored = [(value(board, color, move, variant) + rand.random() / 100, color, move)
              for color, move in request["legal"]]
    _, color, move = max(scored)
    return color, move


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:  # the end of the input (the host gone) ends the loop
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": "uptown-engine-1", "name": "joiner",
                  "author": "uptown examples", "version": "1", "options": {}})
        elif kind == "ping":
            send({"type": "pong", "id": message["id"]})
        elif kind == "move":
            color, move = choose(message)
            send({"type": "move", "id": message["id"], "move": move, "color": color})
        elif kind == "quit":
            return
        elif kind == "error":
            print(f"the host says: {message.get('message')}", file=sys.stderr, flush=True)
        else:
            send({"type": "error", "id": message.get("id"), "message": f"unknown message type {kind!r}"})


if __name__ == "__main__":
    main()
