#!/usr/bin/env python3
"""Positions for the tactical suite from tengen's own self-play games, answered by GNU Go 3.8.

    extract.py GNUGO OUT.txt GAME.sgf...

For every game, positions every few moves are loaded into GNU Go (`loadsgf FILE N`), their stones
read back (`list_stones`), and set up again in a fresh GNU Go exactly as tests/tactics.rs sets them
up (stones played in reading order, the game's last move last). GNU Go then chooses a move for the
side to move (`reg_genmove`) and lists what it values (`top_moves`). A position is kept when GNU Go's
best move is worth at least MIN_VALUE points and at least twice any move it does not accept; the
accepted answers are the moves within a point of the best; the reason is GNU Go's `move_reasons`.
GNU Go plays with its default (Japanese) rules and the game's komi; the suite searches with area
scoring, which changes no tactic worth this much.
"""
import re
import subprocess
import sys

MIN_VALUE = 6.0
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def gtp(gnugo, commands):
    """Runs GNU Go on the commands; the payload of each answer."""
    text = "\n".join(commands) + "\nquit\n"
    out = subprocess.run([gnugo, "--mode", "gtp"], input=text, capture_output=True, text=True).stdout
    answers = [a.strip() for a in out.split("\n\n") if a.strip()]
    return [a[1:].strip() for a in answers[: len(commands)]]


def sgf_info(path):
    text = open(path).read()
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    komi = float(re.search(r"KM\[([-\d.]+)\]", text).group(1))
    moves = re.findall(r";([BW])\[([a-z]{0,2})\]", text)
    return size, komi, moves


def vertex(size, sgf_point):
    x, y = ord(sgf_point[0]) - 97, ord(sgf_point[1]) - 97
    return f"{COLUMNS[x]}{size - y}"


def reading_order(size, stones):
    """(colour, vertex) pairs in reading order, top row first, as the test plays them."""
    def key(s):
        v = s[1]
        return (-int(v[1:]), COLUMNS.index(v[0]))
    return sorted(stones, key=key)


def category(reason):
    r = reason.lower()
    for word, name in [
        ("semeai", "semeai"),
        ("owl", "life-and-death"),
        ("eye", "life-and-death"),
        ("attacks", "capture"),
        ("defends", "escape"),
        ("connect", "connect"),
        ("cut", "cut"),
        ("territor", "endgame"),
        ("expand", "endgame"),
        ("invade", "invasion"),
    ]:
        if word in r:
            return name
    return "shape"


def main():
    gnugo, out_path, games = sys.argv[1], sys.argv[2], sys.argv[3:]
    blocks = []
    for path in games:
        size, komi, moves = sgf_info(path)
        game = re.sub(r"\W+", "", path.split("/")[-2] + path.split("/")[-1].split(".")[0])
        step = 7 if size == 9 else 15
        for n in range(12 if size == 9 else 30, len(moves) - 4, step):
            loaded = gtp(gnugo, [f"loadsgf {path} {n + 1}", "list_stones black", "list_stones white"])
            to_play = loaded[0]
            stones = [("X", v) for v in loaded[1].split()] + [("O", v) for v in loaded[2].split()]
            stones = reading_order(size, stones)
            colour, last = moves[n - 1]
            last_v = vertex(size, last) if last else None
            if last_v and any(v == last_v for _, v in stones):
                s = next(s for s in stones if s[1] == last_v)
                stones.remove(s)
                stones.append(s)
            else:
                last_v = None
            setup = [f"boardsize {size}", "clear_board", f"komi {komi}"]
            setup += [f"play {'black' if c == 'X' else 'white'} {v}" for c, v in stones]
            answers = gtp(gnugo, setup + [f"reg_genmove {to_play}", "top_moves"])
            best, top = answers[-2].upper(), answers[-1].split()
            values = [(top[i].upper(), float(top[i + 1])) for i in range(0, len(top) - 1, 2)]
            if best == "PASS" or not values or values[0][0] != best or values[0][1] < MIN_VALUE:
                continue
            accept = [m for m, v in values if v >= values[0][1] - 1.0]
            others = [v for m, v in values if m not in accept]
            if others and others[0] * 2 > values[0][1]:
                continue
            reasons = gtp(gnugo, setup + [f"reg_genmove {to_play}", f"move_reasons {best}"])[-1]
            lines = [l.strip() for l in reasons.splitlines() if l.strip().startswith("Move at")]
            reason = "; ".join(l.replace(f"Move at {best} ", "") for l in lines[:3]) or "best by far"
            grid = [["."] * size for _ in range(size)]
            for c, v in stones:
                grid[size - int(v[1:])][COLUMNS.index(v[0])] = c
            name = f"go-{size}x{size}-{category(reason)}-{game}-move{n + 1}"
            block = [f"[{name}]", "rules: go", f"play: {to_play}"]
            if last_v:
                block.append(f"last: {last_v}")
            block.append(f"accept: {' '.join(accept)}")
            block.append(f"reason: GNU Go ({values[0][1]:.1f} points): {reason}")
            block.append("board:")
            block += [" ".join(row) for row in grid]
            blocks.append("\n".join(block))
            print(name, best, values[:3], file=sys.stderr)
    header = (
        "# Positions from tengen's self-play games, answered by GNU Go 3.8 (extract.py; README.md).\n"
        "# Generated; edit by regenerating, or move a position to handmade.txt first.\n\n"
    )
    open(out_path, "w").write(header + "\n\n".join(blocks) + "\n")


if __name__ == "__main__":
    main()
