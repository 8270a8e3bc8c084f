#!/bin/sh
# A misbehaving GTP engine for the referee tests of `tengen match`.
# Usage: sh fake_gtp.sh MODE N LOG
#   It answers `pass` to its first N-1 `genmove`s, then, by MODE:
#   crash    exits (as a crashing program would);
#   illegal  answers A1 from then on (illegal once A1 is occupied);
#   refuse   answers `? cannot`;
#   hang     never answers (reads the next command instead).
#   Every start appends a line to LOG, so a test can count restarts.
mode=$1
limit=$2
echo start >> "$3"
n=0
while read -r cmd rest; do
  case "$cmd" in
    genmove)
      n=$((n + 1))
      if [ "$n" -lt "$limit" ]; then
        printf '= pass\n\n'
      else
        case "$mode" in
          crash) exit 3 ;;
          illegal) printf '= A1\n\n' ;;
          refuse) printf '? cannot\n\n' ;;
          hang) ;;
        esac
      fi
      ;;
    name) printf '= fake\n\n' ;;
    version) printf '= 1\n\n' ;;
    known_command) printf '= false\n\n' ;;
    final_score) printf '? cannot score\n\n' ;;
    quit) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
