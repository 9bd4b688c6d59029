#!/usr/bin/env bash
# Quick check of the GNU Backgammon sparring partner (well under 30 s once gnubg is installed):
# its answers to positions whose best play is textbook (the opening rolls, a reply as black, a
# bear-off, pointing on a blot) and cube decisions, tabula's XGID and GNU IDs as gnubg reads
# them, then 4 arena games against tabula without a fault, and 4 with the cube; tabula's race
# cube decisions judged by gnubg.
#   scripts/gnubg-test.sh [BIN_DIR]      (default target/debug, which `cargo test` builds)
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir="${1:-target/debug}"
python=$(scripts/gnubg-install.sh --print-python)
engine="$python scripts/gnubg-engine.py --tabula $bin_dir/tabula"

# The positions, and the play every strong player makes there (none depends on the engine).
cases=(
  "position startpos|31|31:8/5,6/5"
  "position startpos|42|42:8/4,6/4"
  "position startpos|53|53:8/3,6/3"
  "position startpos|61|61:13/7,8/7"
  "position startpos moves 31:8/5,6/5|65|65:24/18,18/13"
  "position fen w=2:1,1:1 b=6:15 w -|21|21:2/off,1/off"
  "position fen w=24:2,13:5,8:3,6:5 b=24:1,20:1,13:5,8:3,6:5 w -|31|31:8/5,6/5"
)
for plies in 0 1; do
  input="ugi"$'\n'
  want=()
  for case in "${cases[@]}"; do
    IFS='|' read -r position roll best <<<"$case"
    input+="$position"$'\n'"dice $roll"$'\n'"go movetime 100"$'\n'
    want+=("bestmove $best")
  done
  got=$(printf '%squit\n' "$input" | $engine --plies "$plies" | grep -E '^(bestmove|error)')
  if [[ $got != "$(printf '%s\n' "${want[@]}")" ]]; then
    echo "gnubg-test: gnubg at $plies plies answered:" >&2
    diff <(printf '%s\n' "${want[@]}") <(echo "$got") >&2 || true
    exit 1
  fi
done

# The cube (gnubg's own decisions through its `eval` command): 5 checkers left against 15 is a
# double and a pass; the reply to an opening 31 is no double.
cube_cases=(
  "position fen w=6:2,5:1,4:1,3:1 b=6:3,5:3,4:3,3:3,2:3 w -|double"
  "position fen w=6:2,5:1,4:1,3:1 b=6:3,5:3,4:3,3:3,2:3 w - moves double|drop"
  "position startpos moves 31:8/5,6/5|roll"
)
input="ugi"$'\n'"setoption name GameOptions value cube=on"$'\n'
want=()
for case in "${cube_cases[@]}"; do
  IFS='|' read -r position best <<<"$case"
  input+="$position"$'\n'"go"$'\n'
  want+=("bestmove $best")
done
got=$(printf '%squit\n' "$input" | $engine | grep -E '^(bestmove|error)')
if [[ $got != "$(printf '%s\n' "${want[@]}")" ]]; then
  echo "gnubg-test: gnubg's cube decisions were:" >&2
  diff <(printf '%s\n' "${want[@]}") <(echo "$got") >&2 || true
  exit 1
fi

# The position formats: gnubg reads every `fen gnubgid` and `fen xgid` of 20 random cube and
# match games as the position tabula means, and writes the same GNU IDs back.
"$python" scripts/gnubg-ids.py --games 20 --seed 5 --tabula "$bin_dir/tabula" 2>/dev/null

# Whole games: every move is checked by arena's referee; any fault fails.
summary=$("$bin_dir/arena" --game backgammon --games 4 --tc depth=1 --seed 3 --quiet \
  --engine "cmd=$bin_dir/tabula,name=tabula" --engine "cmd=$engine,name=gnubg")
record=$(mktemp)
trap 'rm -f "$record"' EXIT
cube=$("$bin_dir/arena" --game backgammon --game-options cube=on --games 4 --tc depth=1 --seed 3 \
  --quiet --record "$record" --engine "cmd=$bin_dir/tabula,name=tabula" --engine "cmd=$engine,name=gnubg")
for summary in "$summary" "$cube"; do
  if ! grep -q '^tabula vs gnubg: 4 games' <<<"$summary" \
    || grep -Eq 'illegal-move|time-forfeit|crash|garbage|hang|max-plies' <<<"$summary"; then
    echo "gnubg-test: the arena games went wrong:" >&2
    echo "$summary" >&2
    exit 1
  fi
done

# Race cube decisions against gnubg's: 40 races at 1 ply lose little (the race model alone,
# until session 17, lost 0.03 to 0.08 per position doubling or taking).
"$python" scripts/gnubg-race-cube.py --positions 40 --go "depth 1" --judge 1 --max-loss 0.02 \
  --tabula "$bin_dir/tabula" >/dev/null || {
  echo "gnubg-test: tabula's race cube decisions lose too much against gnubg's" >&2
  exit 1
}

# The judge of cube decisions reads a record as the games went: gnubg 0-ply judging its own
# 0-ply decisions finds no error.
judged=$("$python" scripts/gnubg-cube-errors.py "$record" --judge 0 --tabula "$bin_dir/tabula" 2>/dev/null)
if ! grep -Eq '^gnubg: 4 games, [1-9][0-9]* double and [0-9]+ take decisions; wrong: 0 missed doubles, 0 wrong doubles, 0 wrong takes, 0 wrong drops; lost 0.000' <<<"$judged"; then
  echo "gnubg-test: gnubg's own cube decisions, judged by gnubg 0-ply:" >&2
  echo "$judged" >&2
  exit 1
fi
