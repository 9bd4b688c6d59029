#!/usr/bin/env bash
# Match files (.mat) round-tripped through GNU Backgammon itself (Debian's gnubg in tty mode,
# installed with apt-get if missing), well under a minute:
#   1. backgammon-match plays a 5-point match (neural against pubeval) and writes it as .mat;
#      gnubg imports it (`import mat`) and exports it again (`export match mat`); both files
#      must hold the same games, action for action (`backgammon-mat show`).
#   2. gnubg plays a 3-point match against itself with the cube and exports it; tabula reads it
#      (every play and cube action replayed with the rules), writes it again (`backgammon-mat
#      copy`), and gnubg's import and export of that copy must hold the same games.
#   scripts/gnubg-mat-test.sh [BIN_DIR]      (default target/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir="${1:-target/debug}"
gnubg=$(scripts/gnubg-debian.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# gnubg in tty mode, commands on stdin, without its user settings.
run_gnubg() {
  HOME="$work" timeout 300 "$gnubg" -t -q -r >"$work/gnubg.log" 2>&1 || {
    echo "gnubg failed:" >&2
    tail -20 "$work/gnubg.log" >&2
    exit 1
  }
}

same_games() {
  "$bin_dir/backgammon-mat" show "$1" >"$work/a.txt"
  "$bin_dir/backgammon-mat" show "$2" >"$work/b.txt"
  if ! diff "$work/a.txt" "$work/b.txt" >/dev/null; then
    echo "FAIL: $1 and $2 differ after going through gnubg:" >&2
    diff "$work/a.txt" "$work/b.txt" | head -20 >&2
    exit 1
  fi
  echo "ok: $(wc -l <"$work/a.txt") actions and results the same in $(basename "$1") and $(basename "$2")"
}

"$bin_dir/backgammon-match" --mat "$work/tabula.mat" --length 5 1 43 neural pubeval
printf '%s\n' "import mat $work/tabula.mat" "export match mat $work/tabula-gnubg.mat" | run_gnubg
same_games "$work/tabula.mat" "$work/tabula-gnubg.mat"

printf '%s\n' \
  "set player 0 gnubg" "set player 1 gnubg" \
  "set player 0 chequerplay evaluation plies 0" "set player 1 chequerplay evaluation plies 0" \
  "set player 0 cubedecision evaluation plies 0" "set player 1 cubedecision evaluation plies 0" \
  "set rng mersenne" "set seed 11" "set matchlength 3" "set cube use on" \
  "new match" "export match mat $work/gnubg.mat" | run_gnubg
"$bin_dir/backgammon-mat" check "$work/gnubg.mat"
"$bin_dir/backgammon-mat" copy "$work/gnubg.mat" "$work/gnubg-tabula.mat"
same_games "$work/gnubg.mat" "$work/gnubg-tabula.mat"
printf '%s\n' "import mat $work/gnubg-tabula.mat" "export match mat $work/gnubg-tabula-gnubg.mat" | run_gnubg
same_games "$work/gnubg.mat" "$work/gnubg-tabula-gnubg.mat"

# scripts/mat-states.py reads both matches: each game's gain in match winning chance runs from
# the 50% of the start to the winner's 100%, so over a whole match the sides' sums are +50.00
# and -50.00 (a game misread, a cube or a Crawford state wrong, and they are not).
for match in tabula.mat gnubg.mat; do
  mkdir -p "$work/states/$match"
  cp "$work/$match" "$work/states/$match/"
  read -r first _ _ second _ < <(grep -m1 -E '^ *[^ ]+ : [0-9]+ +[^ ]+ : [0-9]+' "$work/$match")
  totals=$(for player in "$first" "$second"; do
    python3 scripts/mat-states.py --player "$player" "$work/states/$match" | tail -1 | awk '{print $3}'
  done | sort | tr '\n' ' ')
  if [ "$totals" != "+50.00 -50.00 " ]; then
    echo "FAIL: mat-states.py on $match: the sides gained $totals, not +50.00 and -50.00" >&2
    exit 1
  fi
  echo "ok: mat-states.py on $match: $first and $second gained $totals"
done

# A malformed file gets one clear error naming the file and the line.
sed '6s/.*/  1) 21: 24\/20/' "$work/tabula.mat" >"$work/bad.mat"
if error=$("$bin_dir/backgammon-mat" check "$work/bad.mat" 2>&1); then
  echo "FAIL: a malformed .mat was accepted" >&2
  exit 1
fi
case "$error" in
  "$work/bad.mat:6: "*) echo "ok: malformed file refused: ${error#"$work/"}" ;;
  *) echo "FAIL: unexpected error: $error" >&2; exit 1 ;;
esac
