#!/usr/bin/env bash
# The strength table: for every game the engine knows, our search at movetime 100 against the
# random mover, the 1-ply greedy player, and itself at depth 1. Each cell is the search's
# score (W/L/D) and Elo with its 95% interval over GAMES games, colours alternating, each pair
# of games starting with 2 random plies (so that deterministic players do not repeat a game).
#   scripts/strength.sh [GAMES] [CONCURRENCY]      (defaults: 20 games, 1 at a time)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
concurrency=${2:-1}
cargo build --release --quiet --bins
engine=./target/release/tabula
# The games come from the engine's own `Game` option: new games join the table by themselves.
list=$(printf 'ugi\nquit\n' | "$engine" | sed -n 's/^option name Game type combo default [a-z]* //p' | sed 's/var //g')
cell() { # GAME OPPONENT-SPEC -> "score (W/L/D) elo"
  local out wld score elo
  out=$(nice ./target/release/arena --quiet --game "$1" --games "$games" \
    --concurrency "$concurrency" --seed 1 --tc movetime=100 --random-plies 2 \
    --engine "cmd=$engine,name=search,option.Player=search" \
    --engine "cmd=$engine,name=opponent,$2") || { echo "failed"; return; }
  wld=$(echo "$out" | sed -n 's/.*(W\/L\/D \(.*\))$/\1/p')
  score=$(echo "$out" | sed -n 's/^score .* = \(.*\)$/\1/p')
  elo=$(echo "$out" | sed -n 's/^elo \([^ ]*\) .*95% interval \(.*\)$/\1 \2/p')
  echo "$score ($wld) $elo"
}
printf '| game | vs random | vs greedy | vs depth 1 |\n|---|---|---|---|\n'
for game in $list; do
  printf '| %s | %s | %s | %s |\n' "$game" \
    "$(cell "$game" "option.Player=random")" \
    "$(cell "$game" "option.Player=greedy")" \
    "$(cell "$game" "option.Player=search,tc=depth=1")"
done
echo
echo "cells: score of the search at movetime 100 (W/L/D), Elo [95% interval]; $games games each"
