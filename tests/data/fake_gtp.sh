#!/bin/sh
# A misbehaving GTP engine for the referee tests of `tengen match`.
# Usage: sh fake_gtp.sh MODE N LOG
#   Its first N-1 `genmove`s play the first point of a fixed list (top and right edges, 5x5 and up) that
#   no `play` has named: real moves, not passes, so that the game cannot end by two passes before the
#   fault (a winning engine rightly passes after its opponent's pass). Then, by MODE:
#   crash    exits (as a crashing program would);
#   illegal  answers A1 from then on (illegal once A1 is occupied);
#   refuse   answers `? cannot`;
#   hang     never answers (reads the next command instead).
#   Modes that play their N-1 moves, then pass for good:
#   crash_clear  exits at its first start's second `clear_board` (the first game's setup after the
#                check, which the checked process plays);
#   quit_on_pass exits when told of a pass after its own pass (the pass that ends the game);
#   no_clock     refuses `time_settings`, as GTP allows, and writes what it was sent to LOG.ts.
#   clock        takes `time_settings` and `time_left` but, like GNU Go, not `kgs-time_settings`,
#                and writes every clock command it was sent to LOG.ts.
#   slow         takes two seconds over every `genmove` (a match clock's flag falls on it).
#   Every mode answers `fixed_handicap` with stones where GTP does not put them.
#   Every start appends a line to LOG, so a test can count restarts.
mode=$1
limit=$2
echo start >> "$3"
n=0
clears=0
played=" "
passed=no
while read -r cmd rest; do
  case "$cmd" in
    play)
      # "play COLOR VERTEX": remember the vertex, upper-cased.
      vertex=$(printf '%s' "${rest#* }" | tr 'a-z' 'A-Z')
      if [ "$mode" = quit_on_pass ] && [ "$vertex" = PASS ] && [ "$passed" = yes ]; then exit 0; fi
      played="$played$vertex "
      printf '=\n\n'
      ;;
    time_settings)
      if [ "$mode" = no_clock ]; then
        echo "time_settings $rest" >> "$3.ts"
        printf '? unknown command\n\n'
      else
        if [ "$mode" = clock ]; then echo "time_settings $rest" >> "$3.ts"; fi
        printf '=\n\n'
      fi
      ;;
    kgs-time_settings)
      if [ "$mode" = clock ]; then
        echo "kgs-time_settings $rest" >> "$3.ts"
        printf '? unknown command\n\n'
      else
        printf '=\n\n'
      fi
      ;;
    time_left)
      if [ "$mode" = clock ]; then echo "time_left $rest" >> "$3.ts"; fi
      printf '=\n\n'
      ;;
    genmove)
      if [ "$mode" = slow ]; then sleep 2; fi
      n=$((n + 1))
      if [ "$n" -lt "$limit" ]; then
        move=pass
        for v in E5 E4 D5 E3 C5 E2 B5; do
          case "$played" in
            *" $v "*) ;;
            *) move=$v; break ;;
          esac
        done
        played="$played$move "
        printf '= %s\n\n' "$move"
      else
        case "$mode" in
          crash) exit 3 ;;
          illegal) printf '= A1\n\n' ;;
          refuse) printf '? cannot\n\n' ;;
          hang) ;;
          *) passed=yes; printf '= pass\n\n' ;;
        esac
      fi
      ;;
    clear_board)
      clears=$((clears + 1))
      if [ "$mode" = crash_clear ] && [ "$(wc -l < "$3")" -eq 1 ] && [ "$clears" -eq 2 ]; then exit 3; fi
      played=" "; passed=no; printf '=\n\n' ;;
    fixed_handicap) printf '= A1 B2\n\n' ;;  # not where GTP fixes them
    name) printf '= fake\n\n' ;;
    version) printf '= 1\n\n' ;;
    known_command) printf '= false\n\n' ;;
    final_score) printf '? cannot score\n\n' ;;
    quit) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
