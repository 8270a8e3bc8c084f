#!/usr/bin/env python3
"""Does tengen's score estimate agree with the count at the end of the game?

For every game of a `tengen match` or `tengen selfplay` run that ended by two passes, replays the
record into `tengen gtp` at every `--every`-th move from `--from` on and asks, at each of those
positions, `kata-analyze` (for `--seconds`, the side to move's `scoreLead` of the best move) and
`final_score`. Each is compared with the game's counted result (the record's RE): they agree when
their sign is the result's and they are within `--points` of its margin.

    python3 examples/score_agreement.py target/release/tengen runs/gnugo19 --from 150 --every 10

Prints a line a position and a summary; the engine options after `--` go to `tengen gtp`.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time


def black_margin(result):
    """B+3.5 -> 3.5, W+0.5 -> -0.5; None for a resignation, time loss or draw."""
    m = re.fullmatch(r"([BW])\+([0-9.]+)", result.strip())
    if not m:
        return None
    v = float(m.group(2))
    return v if m.group(1) == "B" else -v


def sgf_moves(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return len(re.findall(r";[BW]\[", text))


class Gtp:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def answer(self):
        """The lines of one answer, up to its blank line."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError("tengen closed its output")
            line = line.rstrip("\n")
            if line == "" and lines:
                return lines
            if line != "":
                lines.append(line)

    def ask(self, line):
        self.send(line)
        lines = self.answer()
        if not lines[0].startswith("="):
            raise RuntimeError(f"{line}: {lines[0]}")
        return " ".join(lines)[1:].strip()

    def analyze(self, color, seconds):
        """The best move's scoreLead for `color` after `seconds` of `kata-analyze`."""
        self.send(f"kata-analyze {color} 50")
        deadline = time.monotonic() + seconds
        lead = None
        # The first line is the '=' of the answer; then info lines, until interrupted.
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError("tengen closed its output")
            m = re.search(r"^info move \S+ .*?scoreLead (-?[0-9.]+)", line)
            if m:
                lead = float(m.group(1))
            if time.monotonic() >= deadline and lead is not None:
                break
        # Any command stops the analysis; its answer ends after the analysis's blank line.
        self.send("name")
        while True:
            line = self.p.stdout.readline()
            if line.startswith("= ") and "tengen" in line.lower():
                self.p.stdout.readline()
                break
        return lead


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tengen")
    ap.add_argument("run", help="a match or self-play output directory (results.jsonl and the records)")
    ap.add_argument("--from", dest="start", type=int, default=150, help="first move number [150]")
    ap.add_argument("--every", type=int, default=10, help="positions this many moves apart [10]")
    ap.add_argument("--seconds", type=float, default=2.0, help="kata-analyze time a position [2]")
    ap.add_argument("--points", type=float, default=5.0, help="agreement within this many points [5]")
    ap.add_argument("engine", nargs="*", help="options for `tengen gtp` (after --)")
    a = ap.parse_args()

    games = [json.loads(l) for l in open(os.path.join(a.run, "results.jsonl"), encoding="utf-8")]
    gtp = Gtp([a.tengen, "gtp", "--threads", "1", *a.engine])
    agree = {"scoreLead": [0, 0], "final_score": [0, 0]}
    for g in games:
        result = black_margin(g["result"])
        if g.get("reason") != "two_passes" or result is None:
            continue
        sgf = os.path.join(a.run, g["sgf"])
        moves = sgf_moves(sgf)
        for n in range(a.start, moves + 1, a.every):
            gtp.ask(f"loadsgf {sgf} {n + 1}")
            # After n moves (handicap games aside) Black is to move when n is even.
            to_move = "B" if n % 2 == 0 else "W"
            lead = gtp.analyze(to_move, a.seconds)
            lead_black = lead if to_move == "B" else -lead
            # A draw ("0") counts as no margin.
            fs = black_margin(gtp.ask("final_score")) or 0.0
            row = [g["sgf"], n, result, lead_black, fs]
            for name, v in (("scoreLead", lead_black), ("final_score", fs)):
                ok = (v > 0) == (result > 0) and abs(v - result) <= a.points
                agree[name][0] += ok
                agree[name][1] += 1
                row.append("agrees" if ok else "differs")
            print("{} move {}: result {:+.1f}, scoreLead {:+.1f}, final_score {:+.1f}: {}, {}".format(*row))
            sys.stdout.flush()
    gtp.send("quit")
    for name, (ok, n) in agree.items():
        share = ok / n if n else 0.0
        print(f"{name}: {ok} of {n} positions agree with the count ({share:.0%})")


if __name__ == "__main__":
    main()
