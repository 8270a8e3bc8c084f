#!/usr/bin/env python3
"""Fits Phantom Go's placement weights (`PLACEMENT_WEIGHTS` in src/engine/phantom.rs) on the true
boards of Phantom Go game records, and prints the table as Rust.

    python3 examples/phantom_placement_weights.py RUN_DIR [RUN_DIR ...] > table.txt

Each RUN_DIR holds `game-*.sgf` from `tengen selfplay --rules phantom ... --out RUN_DIR` or
`tengen match --rules phantom ... --out RUN_DIR` (the records hold the true moves).

The engine draws the unseen opponent stones one at a time, each empty point with a weight by the
stage of the game, the point's line, the engine's stones within two steps and the opponent stones
within two steps (known or drawn before it). The fit mirrors that draw: at every third move of a
record, the stones of the player who just moved are put back in a random order, and each one is
counted in its cell against the empty points it could have taken then (each of those adds
1 / their number to its own cell). A cell's weight is (chosen + 20) / (expected + 20): how much
likelier than a uniform draw the cell's points are, with 20 uniform draws added so that thin cells
stay near 1, and never below 0.01. Seeded, so the same records read in the same order give the same
table.
"""

import glob
import os
import random
import re
import sys

SMOOTHING = 20
CAP = 3  # counts of stones within two steps: 0, 1, 2, 3 or more
STAGES = 4  # up to 20, 40, 60 and more stones on 9x9, scaled to the board's points elsewhere


def neighbours(size, p):
    x, y = p
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        q = (x + dx, y + dy)
        if 0 <= q[0] < size and 0 <= q[1] < size:
            yield q


def chain(board, size, p):
    colour, stones, liberties, todo = board[p], {p}, set(), [p]
    while todo:
        for q in neighbours(size, todo.pop()):
            if q not in board:
                liberties.add(q)
            elif board[q] == colour and q not in stones:
                stones.add(q)
                todo.append(q)
    return stones, liberties


def play(board, size, colour, p):
    board[p] = colour
    other = "W" if colour == "B" else "B"
    for q in neighbours(size, p):
        if board.get(q) == other:
            stones, liberties = chain(board, size, q)
            if not liberties:
                for s in stones:
                    del board[s]


def near(size, p):
    x, y = p
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            if 0 < abs(dx) + abs(dy) <= 2 and 0 <= x + dx < size and 0 <= y + dy < size:
                yield (x + dx, y + dy)


def line(size, p):
    x, y = p
    return min(x, y, size - 1 - x, size - 1 - y, 4)


def fit(paths):
    rng = random.Random(1)
    chosen, expected = {}, {}
    for path in paths:
        sgf = open(path, encoding="utf-8").read()
        size = int(re.search(r"SZ\[(\d+)\]", sgf).group(1))
        board = {}
        for i, (mover, vertex) in enumerate(re.findall(r";([BW])\[([a-z]{0,2})\]", sgf)):
            if vertex:
                play(board, size, mover, (ord(vertex[0]) - 97, ord(vertex[1]) - 97))
            if i % 3:
                continue
            engine = "W" if mover == "B" else "B"
            stage = min(STAGES - 1, len(board) * 81 // (20 * size * size))
            theirs = [p for p, c in board.items() if c == mover]
            rng.shuffle(theirs)
            own_near = {}
            for p, c in board.items():
                if c == engine:
                    for q in near(size, p):
                        own_near[q] = own_near.get(q, 0) + 1
            their_near = {}
            free = {(x, y) for x in range(size) for y in range(size) if board.get((x, y)) != engine}

            def cell(p):
                return (stage, line(size, p), min(own_near.get(p, 0), CAP), min(their_near.get(p, 0), CAP))

            for p in theirs:
                for q in free:
                    expected[cell(q)] = expected.get(cell(q), 0.0) + 1.0 / len(free)
                chosen[cell(p)] = chosen.get(cell(p), 0) + 1
                free.discard(p)
                for q in near(size, p):
                    their_near[q] = their_near.get(q, 0) + 1
    return chosen, expected


def main():
    paths = sorted(p for d in sys.argv[1:] for p in glob.glob(os.path.join(d, "game-*.sgf")))
    if not paths:
        sys.exit("usage: phantom_placement_weights.py RUN_DIR [RUN_DIR ...] (directories of game-*.sgf)")
    chosen, expected = fit(paths)

    def weight(k):
        # Never zero: the engine draws by rejection, and a point must stay possible.
        return max(0.01, (chosen.get(k, 0) + SMOOTHING) / (expected.get(k, 0.0) + SMOOTHING))

    stages = []
    for st in range(STAGES):
        lines = []
        for ln in range(5):
            rows = []
            for own in range(CAP + 1):
                cells = ", ".join("%.2f" % weight((st, ln, own, t)) for t in range(CAP + 1))
                rows.append("[" + cells + "]")
            lines.append("[" + ", ".join(rows) + "]")
        stages.append("[" + ",\n  ".join(lines) + "]")
    print("[\n " + ",\n ".join(stages) + "\n]")
    print(f"# {len(paths)} records", file=sys.stderr)


if __name__ == "__main__":
    main()
