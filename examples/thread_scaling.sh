#!/usr/bin/env bash
# Two threads against one in the shared-tree search, each pair classified by how fast a cache line
# travels between the two cores just before and just after it (docs/performance.md's thread figures).
#
#   examples/thread_scaling.sh [PAIRS] [SIZE] [POLICY] [SECONDS]     (defaults: 8 9 light 2)
#
# On this project's virtual machines the line's round trip between the two vCPUs, as `core_latency`
# reads it, switches between about 70-90 ns and about 310-360 ns from one minute to the next (the
# fast and slow states of docs/performance.md), while one thread's rate stays where it was. A shared
# tree's two-thread rate moves with it, so a pair counts only when both probes around it agree:
# `fast` under 150 ns, `slow` above. The last lines give each state's median ratio over its pairs,
# then all pairs'.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-8}
SIZE=${2:-9}
POLICY=${3:-light}
SECS=${4:-2}
cargo build --release --quiet --example core_latency
cargo build --release --quiet
PROBE=target/release/examples/core_latency
TENGEN=target/release/tengen
ROWS=$(mktemp)
trap 'rm -f "$ROWS"' EXIT
probe() { "$PROBE" 1000000 | sed -n 's/^round trip \([0-9.]*\) ns.*/\1/p'; }
printf '%-5s %10s %10s %10s %10s %6s\n' pair before after 1-thread 2-thread ratio
for pair in $(seq "$PAIRS"); do
  before=$(probe)
  rates=$("$TENGEN" bench --mode search --rules go --size "$SIZE" --policy "$POLICY" --threads 1,2 \
    --seconds "$SECS" --json 2>/dev/null |
    python3 -c 'import json, sys; print(" ".join(str(round(json.loads(l)["playouts_per_sec"])) for l in sys.stdin))')
  after=$(probe)
  set -- $rates
  printf '%-5s %10s %10s %10s %10s %6s\n' "$pair" "$before" "$after" "$1" "$2" \
    "$(python3 -c "print(f'{$2 / $1:.2f}')")" | tee -a "$ROWS"
done
python3 - "$ROWS" <<'PY'
import statistics, sys
states, every = {}, []
for line in open(sys.argv[1]):
    _, before, after, one, two, _ = line.split()
    every.append(int(two) / int(one))
    fast = [float(before) < 150, float(after) < 150]
    if fast[0] != fast[1]:
        continue  # the machine changed state during the pair
    states.setdefault("fast" if fast[0] else "slow", []).append(int(two) / int(one))
for state, ratios in sorted(states.items()):
    print(f"{state}: {len(ratios)} pairs, median {statistics.median(ratios):.2f} "
          f"(range {min(ratios):.2f} to {max(ratios):.2f})")
if not states:
    print("no pair had agreeing probes")
print(f"all: {len(every)} pairs, median {statistics.median(every):.2f} "
      f"(range {min(every):.2f} to {max(every):.2f})")
PY
