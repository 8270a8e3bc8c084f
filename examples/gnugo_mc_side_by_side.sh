#!/usr/bin/env bash
# tengen's 9x9 search speed side by side with GNU Go 3.8's Monte Carlo mode, one thread each, in one
# run: the installable peer ENGINEERING.md names for speed ratios (GNU Go's Monte Carlo mode plays
# 9x9 and smaller boards only).
#
#   examples/gnugo_mc_side_by_side.sh [ROUNDS] [SECONDS] [GAMES]
#
# Each round runs, for light and heavy playouts, `tengen bench --mode search --size 9` for SECONDS
# and then GNU Go's UCT search (`gnugo --mode gtp --monte-carlo --nofusekidb --level 1
# --mc-games-per-level N`, one `genmove b` from the empty board) at N = GAMES/10 and N = GAMES
# playouts: GNU Go reports no rate of its own, so its rate is the difference in playouts over the
# difference in wall-clock time, which cancels its start-up. Light playouts are compared with GNU
# Go's `--mc-patterns uniform` (no local patterns), heavy ones with its default `montegnu_classic`
# 3x3 patterns. The two programs alternate (A B A B), so machine noise hits both; the last lines
# give each configuration's medians over the rounds. Needs GNU Go (Debian's gnugo, in /usr/games)
# and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECONDS_EACH=${2:-5}
GAMES=${3:-20000}
GNUGO=$(command -v gnugo || echo /usr/games/gnugo)
[ -x "$GNUGO" ] || { echo "GNU Go not found (apt-get install gnugo)" >&2; exit 2; }
cargo build --release --quiet
TENGEN=target/release/tengen
ROWS=$(mktemp)
trap 'rm -f "$ROWS"' EXIT

# Wall-clock seconds of one GNU Go genmove from the empty 9x9 board with $1 playouts, patterns $2.
gnugo_seconds() {
  python3 - "$GNUGO" "$1" "$2" <<'PY'
import subprocess, sys, time
gnugo, games, patterns = sys.argv[1:]
start = time.perf_counter()
subprocess.run([gnugo, "--mode", "gtp", "--monte-carlo", "--nofusekidb", "--level", "1",
                "--mc-games-per-level", games, "--mc-patterns", patterns],
               input="boardsize 9\nclear_board\nkomi 7.5\ngenmove b\nquit\n", text=True,
               capture_output=True, check=True)
print(time.perf_counter() - start)
PY
}

printf '%-6s %6s %12s %12s %6s\n' round policy tengen gnugo ratio
for round in $(seq "$ROUNDS"); do
  for cfg in "light uniform" "heavy montegnu_classic"; do
    set -- $cfg
    t=$("$TENGEN" bench --mode search --rules go --size 9 --policy "$1" --threads 1 \
      --seconds "$SECONDS_EACH" --json 2>/dev/null |
      python3 -c 'import json, sys; print(round(json.loads(sys.stdin.readline())["playouts_per_sec"]))')
    few=$((GAMES / 10))
    s1=$(gnugo_seconds "$few" "$2")
    s2=$(gnugo_seconds "$GAMES" "$2")
    g=$(python3 -c "print(round(($GAMES - $few) / ($s2 - $s1)))")
    printf '%-6s %6s %12s %12s %6s\n' "$round" "$1" "$t" "$g" "$(python3 -c "print(f'{$t / $g:.2f}')")" |
      tee -a "$ROWS"
  done
done
python3 - "$ROWS" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    _, policy, t, g, _ = line.split()
    rows.setdefault(policy, []).append((int(t), int(g)))
print(f"{'median':<6} {'policy':>6} {'tengen':>12} {'gnugo':>12} {'ratio':>6}  rounds' ratios")
for policy, rs in rows.items():
    ratios = [t / g for t, g in rs]
    print(f"{'':<6} {policy:>6} {statistics.median(t for t, _ in rs):>12.0f} "
          f"{statistics.median(g for _, g in rs):>12.0f} {statistics.median(ratios):>6.2f}  "
          f"{min(ratios):.2f} to {max(ratios):.2f}")
PY
