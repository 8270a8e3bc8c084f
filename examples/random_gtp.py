#!/usr/bin/env python3
"""A uniformly random GTP player for any tengen variant: a baseline opponent for `tengen match`.

It runs `tengen gtp` as its rules engine and forwards every command to it, except `genmove`: there
it asks `gogui-rules_legal_moves` for the legal moves of the side to move and plays one uniformly at
random (in Stones `pass` is the return or stake the rules make of it). In standard Go and Stoical Go
it passes only when no placement is left, so that games are played out rather than ended at once.
Under War Go (`--rules war`, RULES.md 7) it chooses among every legal move word that
`tengen-legal_moves` lists (soldiers, drops, piece moves), passing only when none is left.

Under Phantom Go (`--rules phantom`, RULES.md 5.2) it keeps its own view instead: it proposes a
point uniformly at random among those it does not know to be occupied (its own stones, and the
points refused to it in this position), passing only when none is left, and answers the referee's
`phantom-*` messages itself (GTP.md), checking their order as tengen does.

    tengen match --opponent "python3 examples/random_gtp.py target/release/tengen --rules stones --seed 1" \\
        --rules stones --size 9 --games 20 --playouts 2000 --out runs/stones-vs-random

Usage: random_gtp.py TENGEN [--rules RULES] [--seed S]
"""
import random
import subprocess
import sys


def main() -> None:
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    tengen, rest = args[0], args[1:]
    seed = 0
    if "--seed" in rest:
        i = rest.index("--seed")
        seed = int(rest[i + 1])
        del rest[i : i + 2]
    rng = random.Random(seed)
    engine = subprocess.Popen(
        [tengen, "gtp", "--playouts", "1", "--threads", "1", *rest],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )

    def ask(line: str) -> str:
        """Sends one command to the rules engine and returns its whole response (with `=`/`?`)."""
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        lines = []
        while True:
            got = engine.stdout.readline()
            if got == "":
                sys.exit("random_gtp: the rules engine stopped")
            if got.strip() == "" and lines:
                return "\n".join(lines)
            if got.strip() != "" or lines:
                lines.append(got.rstrip("\n"))

    columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    # Phantom Go: own stones, points refused this turn, the proposal awaiting the referee.
    own: set = set()
    refused: set = set()
    pending = None

    def phantom() -> bool:
        return ask("tengen-rules")[1:].strip().startswith("phantom")

    def accept() -> None:
        """The referee's next message after a proposal accepts it: a new position."""
        nonlocal pending
        if pending is not None:
            pending = None
            refused.clear()

    def phantom_reply(command: list) -> str:
        """The answer (after `=` or `?` and the id) to a Phantom Go message or move, or None."""
        nonlocal pending
        name, args = command[0], [a.upper() for a in command[1:]]
        if name == "phantom-illegal":
            if len(args) != 1 or pending is None or args[0] != pending:
                return "? no proposal is pending" if pending is None else "? that is not the pending proposal"
            own.discard(pending)
            refused.add(pending)
            pending = None
            return "="
        if name == "phantom-opponent-moved" and args in ([], ["PASS"]):
            accept()
            refused.clear()
            return "="
        if name == "phantom-opponent-illegal" and not args:
            accept()
            return "="
        if name == "phantom-removed" and args:
            accept()
            own.difference_update(args)
            return "="
        if name == "play" and len(args) == 2:
            accept()
            refused.clear()
            if args[1] != "PASS":
                own.add(args[1])
            return "="
        if name.startswith("phantom-"):
            return "? syntax error"
        return None

    for raw in sys.stdin:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        ident = words[0] if words[0].isdigit() else ""
        command = words[1:] if ident else words
        if not command:
            continue
        if command[0] in ("clear_board", "boardsize", "tengen-rules"):
            own.clear()
            refused.clear()
            pending = None
        answer = phantom_reply(command) if (command[0].startswith("phantom-") or command[0] == "play") and phantom() else None
        if answer is not None:
            reply = answer[0] + ident + answer[1:]
        elif command[0] == "genmove" and len(command) == 2 and phantom():
            accept()
            # One row a line (`gogui-rules_board_size` is offered only where GoGui needs a referee).
            size = len(ask("gogui-rules_board")[1:].strip().splitlines())
            points = [f"{columns[x]}{y}" for x in range(size) for y in range(1, size + 1)]
            choices = [p for p in points if p not in own and p not in refused]
            if choices:
                pending = rng.choice(choices)
                own.add(pending)
                reply = f"={ident} {pending}"
            else:
                reply = f"={ident} pass"
        elif command[0] == "name":
            reply = f"={ident} random"
        elif command[0] == "genmove" and len(command) == 2:
            variant = ask("gogui-rules_game_id")[1:].strip()
            # War Go (RULES.md 7): every legal move word (soldiers, drops, piece moves); elsewhere
            # GoGui's legal moves. A pass only when there is nothing else, except in Stones, where
            # the pass-like moves are real moves.
            legal = ask("tengen-legal_moves" if variant == "War" else "gogui-rules_legal_moves")
            moves = legal[1:].split() if legal.startswith("=") else []
            placements = [m for m in moves if m.lower() != "pass"]
            choices = moves if variant == "Stones" else (placements or moves)
            if not choices:
                reply = f"={ident} resign"
            else:
                move = rng.choice(choices)
                played = ask(f"play {command[1]} {move}")
                reply = f"={ident} {move}" if played.startswith("=") else f"?{ident} {played[1:].strip()}"
        else:
            response = ask(line if not ident else " ".join(command))
            reply = response[0] + ident + response[1:]
        sys.stdout.write(reply + "\n\n")
        sys.stdout.flush()
        if command[0] == "quit":
            break
    engine.kill()


if __name__ == "__main__":
    main()
