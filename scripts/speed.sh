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

# Stockfish: time `go perft 6` (the issue's yardstick) five times in one process, about 1 s in
# all (one run, 0.2 s, was too short to time well), minus the time of perft 1, all start-up.
t0=$(now); printf 'setoption name Threads value 1\ngo perft 1\n' | "$sf" >/dev/null; t1=$(now)
out=$({ echo 'setoption name Threads value 1'; for _ in 1 2 3 4 5; do echo 'go perft 6'; done; } | "$sf")
t2=$(now)
sf_nodes=$(echo "$out" | awk '/Nodes searched/ {n += $3} END {print n}')
sf_rate=$(echo "$sf_nodes / (($t2 - $t1) - ($t1 - $t0))" | bc -l)
printf '%-12s %14s %10s %14s %8s\n' game depth seconds leaves/s ratio
printf '%-12s %14s %10.3f %14.0f %8s\n' stockfish "perft 6 x5" "$(echo "($t2 - $t1) - ($t1 - $t0)" | bc -l)" "$sf_rate" 1.00

# Each game: perft from its start position; the engine logs the time of the perft alone.
# Depths chosen so that each run lasts about 2-15 s on the project's machine (idle load).
for case in "bombardment 7" "breakthrough 7" "morris 7" "cascades 6" "gipf 6" "backgammon 3"; do
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
