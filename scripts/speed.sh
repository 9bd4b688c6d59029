#!/usr/bin/env bash
# Perft speed of every game as a ratio to Stockfish's chess perft (`go perft 6`, one thread),
# both measured in this run on this machine, so the ratio holds across machines.
# Installs Debian's stockfish if it is missing. Usage: scripts/speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
sf=$(command -v stockfish || echo /usr/games/stockfish)
if [ ! -x "$sf" ]; then
  apt-get install -y stockfish >/dev/null
  sf=$(command -v stockfish || echo /usr/games/stockfish)
fi
cargo build --release --quiet --bin tabula
now() { date +%s.%N; }

# Stockfish: time perft 6 minus the time of perft 1, which is all start-up.
t0=$(now); printf 'setoption name Threads value 1\ngo perft 1\n' | "$sf" >/dev/null; t1=$(now)
out=$(printf 'setoption name Threads value 1\ngo perft 6\n' | "$sf"); t2=$(now)
sf_nodes=$(echo "$out" | awk '/Nodes searched/ {print $3}')
sf_rate=$(echo "$sf_nodes / (($t2 - $t1) - ($t1 - $t0))" | bc -l)
printf '%-12s %14s %10s %14s %8s\n' game depth seconds leaves/s ratio
printf '%-12s %14s %10.3f %14.0f %8s\n' stockfish "perft 6" "$(echo "($t2 - $t1) - ($t1 - $t0)" | bc -l)" "$sf_rate" 1.00

# Each game: perft from its start position; the engine logs the time of the perft alone.
for case in "bombardment 6" "morris 6" "cascades 4" "gipf 4" "backgammon 2"; do
  set -- $case
  log=$(printf 'newgame %s\nposition startpos\nperft %s\n' "$1" "$2" | RUST_LOG=info target/release/tabula 2>&1 || true)
  line=$(echo "$log" | grep -o 'perft [0-9]*: [0-9]* in [0-9.]* s, [0-9]* leaves/s' || true)
  echo "$log" | grep -q '^error' && line=
  if [ -z "$line" ]; then
    printf '%-12s %14s\n' "$1" "(not available)"
    continue
  fi
  secs=$(echo "$line" | awk '{print $5}')
  rate=$(echo "$line" | awk '{print $7}')
  printf '%-12s %14s %10.3f %14.0f %8.2f\n' "$1" "perft $2" "$secs" "$rate" "$(echo "$rate / $sf_rate" | bc -l)"
done
