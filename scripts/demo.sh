#!/usr/bin/env bash
# Builds the engine and plays a short demo game through a pipe: the engine plays both sides
# at `go movetime 200` (as an arbiter would drive it), then shows its last bestmove and the
# board. Usage: scripts/demo.sh [GAME [key=value ...]]  (default: bombardment size=6)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
game=("${@:-bombardment}")
[ $# -eq 0 ] && game=(bombardment size=6)
coproc ENGINE { target/release/tabula; }
send() { echo "> $*" >&2; echo "$*" >&"${ENGINE[1]}"; }
reply() { local line; while IFS= read -r line <&"${ENGINE[0]}"; do echo "< $line" >&2; [[ $line == $1* ]] && { REPLY=$line; return; }; done; }
send "newgame ${game[*]}"
send "isready"; reply readyok
moves=""
for ply in $(seq 1 40); do
  send "position startpos moves$moves"
  send "query gameover"; reply response
  [ "$REPLY" = "response true" ] && break
  send "go movetime 200"; reply bestmove
  moves="$moves ${REPLY#bestmove }"
done 2>/dev/null
send "position startpos moves$moves"
send "go movetime 500"; reply bestmove
send "d"; send "isready"; reply readyok
send "quit"
wait
