#!/usr/bin/env bash
# Instructions per playout and per playout move inside the search, Pachi against tengen, counted by
# valgrind (the speed targets' second check: unlike the rates, the counts do not move with a noisy
# machine; docs/performance.md).
#
#   examples/pachi_instructions.sh [CONFIG ...]     CONFIG: SIZE:POLICY:N1:N2, e.g. 9:light:2000:6000
#
# (Pachi takes a playout count of 500 at least.)
#
# With no arguments: light 9x9 (2,000 and 6,000 playouts), light 19x19 (500 and 1,500), heavy 9x9
# (1,000 and 3,000) and heavy 19x19 (600 and 1,800). Each program runs one search from the empty
# board at both playout counts, under `valgrind --tool=callgrind`: Pachi one `genmove b` with `-s 1
# -t =N threads=1,pondering=0,playout=light|moggy` (a fixed seed, one thread, no pondering; built by
# examples/pachi_build.sh without -march=native, whose AVX-512 instructions valgrind may not run),
# tengen `search_iters go SIZE POLICY N mercy=off` (both without the mercy rule, their default;
# `MERCY=on examples/pachi_instructions.sh` counts tengen with it). Differences over the difference in playouts cancel the
# start-up both pay (Pachi's pattern files, tengen's pattern tables). A playout move is a stone
# placed in an iteration, in the tree's descent or the playout (passes not counted): calls of
# Pachi's `board_play_f` and of tengen's `Board::place`, read from callgrind's call counts. Needs
# valgrind (with callgrind_annotate), python3, curl, make and a C compiler; takes about seven
# minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
. examples/pachi_build.sh
PACHI=$(pachi_build target/pachi/portable "")
cargo build --release --quiet --example search_iters
TENGEN=$(realpath target/release/examples/search_iters)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT/run"
CONFIGS=("$@")
[ ${#CONFIGS[@]} -gt 0 ] || CONFIGS=(9:light:2000:6000 19:light:500:1500 9:heavy:1000:3000 19:heavy:600:1800)

# Total instructions, and the calls of function $2 in callgrind output $1 less the calls of function
# $3 from callers not matching $4 (placements that read ahead on a copy of the board, not moves).
count() {
  python3 - "$@" <<'PY'
import re, subprocess, sys
out, fn, sub_fn, keep = sys.argv[1:5]
text = subprocess.run(["callgrind_annotate", "--tree=caller", out], capture_output=True, text=True).stdout
total = int(re.search(r"^\s*([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))

def callers(name):
    """(caller, calls) for each call site of `name`: a block lists a function's callers ("<", with
    their call counts) above the function itself ("*")."""
    for block in text.split("\n\n"):
        lines = block.strip().splitlines()
        if any(re.search(r"\*\s+\S*:" + re.escape(name) + r"( |$)", l) for l in lines):
            for l in lines:
                if m := re.search(r"<\s+(.*) \(([\d,]+)x\)", l):
                    # "file:function": the file ends at the first colon not part of a "::".
                    yield re.sub(r"^[^:]*:(?!:)", "", m.group(1)), int(m.group(2).replace(",", ""))

calls = sum(n for _, n in callers(fn))
calls -= sum(n for caller, n in callers(sub_fn) if not re.fullmatch(keep, caller))
print(total, calls)
PY
}

printf '%-6s %-6s %7s %12s %12s %6s %10s %10s %6s %7s %7s\n' size policy playouts \
  "pachi/po" "tengen/po" ratio "pachi/mv" "tengen/mv" ratio "p mv/po" "t mv/po"
for cfg in "${CONFIGS[@]}"; do
  IFS=: read -r size policy n1 n2 <<<"$cfg"
  pachi_policy=$([ "$policy" = light ] && echo light || echo moggy)
  for n in "$n1" "$n2"; do
    (cd "$OUT/run" && printf 'boardsize %s\nclear_board\nkomi 7.5\ngenmove b\nquit\n' "$size" |
      valgrind --tool=callgrind --callgrind-out-file="$OUT/pachi.$n" "$PACHI" -s 1 -t "=$n" \
        "threads=1,pondering=0,playout=$pachi_policy" >/dev/null 2>&1)
    valgrind --tool=callgrind --callgrind-out-file="$OUT/tengen.$n" "$TENGEN" go "$size" "$policy" "$n" \
      "mercy=${MERCY:-off}" >/dev/null 2>&1
  done
  # Pachi's moves: board_play_f's calls, less the placements its heavy policy's reading (nakade
  # shapes) makes through board_play; the game's own come from the playout, the tree's descent and
  # GTP. tengen reads ladders only for the tree's priors (a few hundred placements in these runs).
  game='play_random_game|play_random_move|uct_playout|board_play_random|gtp_parse'
  read -r p1 pc1 < <(count "$OUT/pachi.$n1" board_play_f board_play "$game")
  read -r p2 pc2 < <(count "$OUT/pachi.$n2" board_play_f board_play "$game")
  place="tengen::board::board::Board::place"
  read -r t1 tc1 < <(count "$OUT/tengen.$n1" "$place" "$place" '.*')
  read -r t2 tc2 < <(count "$OUT/tengen.$n2" "$place" "$place" '.*')
  python3 - "$size" "$policy" "$n1" "$n2" "$p1" "$p2" "$pc1" "$pc2" "$t1" "$t2" "$tc1" "$tc2" <<'PY'
import sys
size, policy = sys.argv[1], sys.argv[2]
n1, n2, p1, p2, pc1, pc2, t1, t2, tc1, tc2 = map(int, sys.argv[3:])
dn = n2 - n1
p_po, t_po = (p2 - p1) / dn, (t2 - t1) / dn
p_mv, t_mv = (pc2 - pc1) / dn, (tc2 - tc1) / dn
print(f"{size + 'x' + size:<6} {policy:<6} {f'{n1},{n2}':>7} {p_po:>12,.0f} {t_po:>12,.0f} {p_po / t_po:>6.2f} "
      f"{p_po / p_mv:>10,.0f} {t_po / t_mv:>10,.0f} {(p_po / p_mv) / (t_po / t_mv):>6.2f} "
      f"{p_mv:>7.1f} {t_mv:>7.1f}")
PY
done
