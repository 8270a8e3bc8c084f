#!/bin/sh
# A misbehaving Phantom Go player for the referee tests of `tengen match --rules phantom`.
# Usage: sh fake_phantom.sh MODE
#   It claims every command (`known_command` answers true) and answers `=` to the referee's
#   phantom-* messages. Its `genmove`, by MODE:
#   repeat   always E5: legal once, then its own stone, proposed again and again (each a repeat,
#            until the referee passes for it at the 50-attempt limit);
#   crash    E5, then exits at its second genmove;
#   refuse   E5, then answers `? cannot` to its second genmove.
mode=$1
n=0
while read -r cmd rest; do
  case "$cmd" in
    genmove)
      n=$((n + 1))
      if [ "$n" -ge 2 ] && [ "$mode" = crash ]; then exit 3; fi
      if [ "$n" -ge 2 ] && [ "$mode" = refuse ]; then printf '? cannot\n\n'; continue; fi
      printf '= E5\n\n'
      ;;
    clear_board) n=0; printf '=\n\n' ;;
    name) printf '= fake\n\n' ;;
    version) printf '= 1\n\n' ;;
    known_command) printf '= true\n\n' ;;
    final_score) printf '? cannot score\n\n' ;;
    quit) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
