#!/bin/sh
# Regenerates the GNU Go game records used by tests/sgf_files.rs.
# GNU Go's GTP `printsgf` writes the current position as setup stones only, so each game is started
# through GTP (size, komi, handicap) and then played out by `--score finish`, which records the moves.
# The `.moves` files keep GNU Go's own move list in GTP coordinates: an independent check of our
# coordinate conversion.
set -e
GNUGO=${GNUGO:-/usr/games/gnugo}
cd "$(dirname "$0")"

start() { # start FILE GTP-COMMANDS...
    out=$1; shift
    printf '%s\n' "$@" "printsgf $out" quit | "$GNUGO" --mode gtp --level 1 >/dev/null
}

start gnugo_9x9_position.sgf 'boardsize 9' 'komi 7.5' 'genmove black' 'genmove white' 'genmove black'
start /tmp/tengen_start9.sgf 'boardsize 9' 'komi 7.5'
"$GNUGO" --score finish -l /tmp/tengen_start9.sgf --level 1 --seed 7 -o gnugo_9x9_game.sgf 2>&1 \
    | grep ' move ' > gnugo_9x9_game.moves
start /tmp/tengen_start19.sgf 'boardsize 19' 'komi 0.5' 'fixed_handicap 4'
"$GNUGO" --score finish -l /tmp/tengen_start19.sgf --level 1 --seed 7 -o gnugo_19x19_h4_game.sgf 2>&1 \
    | grep ' move ' > gnugo_19x19_h4_game.moves
rm -f /tmp/tengen_start9.sgf /tmp/tengen_start19.sgf
