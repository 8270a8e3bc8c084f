#!/usr/bin/env bash
# Two builds of tengen taking turns on one benchmark configuration: how docs/performance.md compares
# a change with the build before it on a machine whose speed drifts from minute to minute.
#
#   examples/ab_builds.sh OLD NEW [PAIRS] [SIZE] [POLICY] [MODE] [SECONDS] [RULES]
#       (defaults: 12 9 light search 1 go)
#
# OLD and NEW are two `tengen` binaries (copy `target/release/tengen` aside before rebuilding).
# Each pair runs `tengen bench --threads 1 --json` once with each (`THREADS=2` in the environment
# for two threads), the order alternating from pair to pair (A B, B A, A B, ...) so that a steady
# drift hits both alike. Prints each build's rates, the median of the pairs' ratios NEW/OLD and
# their range. Needs python3.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
OLD=$1 NEW=$2
PAIRS=${3:-12} SIZE=${4:-9} POLICY=${5:-light} MODE=${6:-search} SECS=${7:-1} RULES=${8:-go}
rate() {
  "$1" bench --mode "$MODE" --rules "$RULES" --size "$SIZE" --policy "$POLICY" --threads "${THREADS:-1}" \
    --seconds "$SECS" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["playouts_per_sec"])'
}
for i in $(seq "$PAIRS"); do
  if [ $((i % 2)) -eq 1 ]; then
    o=$(rate "$OLD"); n=$(rate "$NEW")
  else
    n=$(rate "$NEW"); o=$(rate "$OLD")
  fi
  echo "$o $n"
done | python3 -c '
import statistics, sys
pairs = [tuple(map(float, line.split())) for line in sys.stdin]
ratios = sorted(n / o for o, n in pairs)
print("old:", " ".join(f"{o:.0f}" for o, _ in pairs))
print("new:", " ".join(f"{n:.0f}" for _, n in pairs))
print(f"new/old: median {statistics.median(ratios):.3f} over {len(ratios)} pairs "
      f"(range {ratios[0]:.3f} to {ratios[-1]:.3f})")'
