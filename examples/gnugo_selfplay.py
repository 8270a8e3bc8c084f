#!/usr/bin/env python3
"""GNU Go against itself, for game records to fit the move model on.

    examples/gnugo_selfplay.py OUT_DIR --size 13 --games 50 --level 10 --seed 1

Each game starts with two random moves (on the third to fifth lines, so GNU Go, which plays the same
game every time from the same position, plays a different one), then GNU Go plays both sides until
two passes or a resignation. One SGF a game, `OUT_DIR/gnugo-SIZE-SEED-N.sgf`; the run replays
exactly from its seed. GNU Go 3.8 is `gnugo` on PATH or in /usr/games.
"""
import argparse
import os
import random
import shutil
import subprocess

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        answer = []
        while True:
            out = self.p.stdout.readline()
            if not out:
                raise RuntimeError("GNU Go stopped on: " + line)
            if out.strip() == "" and answer:
                break
            if out.strip():
                answer.append(out.strip())
        text = " ".join(answer)
        if not text.startswith("="):
            raise RuntimeError(f"{line}: {text}")
        return text[1:].strip()

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.p.wait()


def sgf_point(vertex, size):
    col = LETTERS.index(vertex[0].upper())
    row = int(vertex[1:])
    return "abcdefghijklmnopqrstuvwxy"[col] + "abcdefghijklmnopqrstuvwxy"[size - row]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=13)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    gnugo = shutil.which("gnugo") or "/usr/games/gnugo"
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    n = args.size
    band = [i for i in range(2, n - 2) if min(i, n - 1 - i) in (2, 3, 4)]
    for g in range(args.games):
        engine = Gtp([gnugo, "--mode", "gtp", "--level", str(args.level), "--chinese-rules",
                      "--seed", str(args.seed * 1000 + g)])
        engine.ask(f"boardsize {n}")
        engine.ask("clear_board")
        engine.ask("komi 7.5")
        moves = []
        for color in "BW":
            while True:
                v = LETTERS[rng.choice(band)] + str(rng.choice(band) + 1)
                if v not in [m for _, m in moves]:
                    break
            engine.ask(f"play {color} {v}")
            moves.append((color, v))
        color, passes = "B", 0
        while passes < 2 and len(moves) < 3 * n * n:
            v = engine.ask(f"genmove {color}")
            if v.lower() == "resign":
                break
            moves.append((color, v))
            passes = passes + 1 if v.lower() == "pass" else 0
            color = "W" if color == "B" else "B"
        result = engine.ask("final_score") if passes >= 2 else ("W" if color == "B" else "B") + "+R"
        engine.close()
        body = "".join(f";{c}[{'' if v.lower() == 'pass' else sgf_point(v, n)}]" for c, v in moves)
        name = os.path.join(args.out, f"gnugo-{n}-{args.seed}-{g:03d}.sgf")
        with open(name, "w") as f:
            f.write(f"(;GM[1]FF[4]SZ[{n}]KM[7.5]RU[Chinese]PB[GNU Go {args.level}]PW[GNU Go {args.level}]"
                    f"RE[{result}]{body})\n")


if __name__ == "__main__":
    main()
