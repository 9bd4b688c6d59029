#!/usr/bin/env bash
# Memory over a long session: 10 000 consecutive `position` + `go depth 1` commands per game,
# with the engine's resident set size (VmRSS) read before the first and after every 1000.
# Usage: scripts/rss.sh [COUNT]
# Prints one line per game: RSS before the commands, after 1000, after COUNT, and the largest
# seen after any block of 1000 (a leak shows as a steady climb; a flat line is the goal).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
cargo build --release --quiet --bin tabula
games=$(printf 'ugi\n' | target/release/tabula | grep 'option name Game ' | grep -o 'var [a-z]*' | awk '{print $2}')
printf '%-12s %12s %12s %12s %12s\n' game "rss@0 KiB" "rss@1000 KiB" "rss@$count KiB" "max KiB"
for game in $games; do
  coproc ENGINE { exec target/release/tabula "$game"; }
  pid=$ENGINE_PID
  exec 3>&"${ENGINE[1]}" 4<&"${ENGINE[0]}"
  printf 'isready\n' >&3
  while IFS= read -r line <&4; do
    [ "$line" = readyok ] && break
  done
  before=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  first="" last="" max=0
  for block in $(seq 1 $((count / 1000))); do
    # One block of commands written in the background (the engine's answers must be read
    # while it runs), then its RSS once it has answered the block's isready.
    {
      for i in $(seq 1 1000); do
        printf 'position startpos\n'
        if [ "$game" = backgammon ]; then printf 'dice 31\n'; fi
        printf 'go depth 1\nwait\n'
      done
      printf 'isready\n'
    } >&3 &
    while IFS= read -r line <&4; do
      [ "$line" = readyok ] && break
    done
    wait $!
    last=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    [ -z "$first" ] && first=$last
    [ "$last" -gt "$max" ] && max=$last
  done
  printf 'quit\n' >&3
  exec 3>&- 4<&-
  wait "$pid" 2>/dev/null || true
  printf '%-12s %12s %12s %12s %12s\n' "$game" "$before" "$first" "$last" "$max"
done
