#!/usr/bin/env bash
# The web board's named levels (docs/web.md, web/app.js LEVELS), each played against the next
# one up with the arena: how much stronger each step is.
#   scripts/levels.sh [GAME] [GAMES] [BIN_DIR] [arena options ...]
#   scripts/levels.sh bombardment 40 target/release --concurrency 1
# STEPS=3 plays only the first three steps (the cheap ones: no clock); FIRST=4 starts at the
# fifth (full vs strong). Use --random-plies N: a search limited by depth or nodes plays the
# same game every time from the same start.
# A level is the engine's `Player` option and a `go` limit, the same pairs the page sends.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-bombardment}
games=${2:-40}
bin=${3:-target/release}
shift $(($# < 3 ? $# : 3))
# name, Player, arena time control (the page's go limit): keep in step with web/app.js.
levels=(
  "beginner random depth=1"
  "novice greedy depth=1"
  "casual search nodes=300"
  "club search nodes=5000"
  "strong search movetime=200"
  "full search movetime=1000"
)
spec() {
  read -r name player tc <<<"$1"
  echo "cmd=$bin/tabula,name=$name,option.Player=$player,tc=$tc"
}
steps=${STEPS:-$((${#levels[@]} - 1))}
first=${FIRST:-0}
for ((i = first; i < first + steps && i + 1 < ${#levels[@]}; i++)); do
  lower=${levels[i]%% *}
  upper=${levels[i + 1]%% *}
  echo "== $upper vs $lower ($game, $games games)"
  # The stronger level first: the summary's score is its score.
  nice "$bin/arena" --game "$game" --games "$games" --seed 1 --quiet \
    --engine "$(spec "${levels[i + 1]}")" --engine "$(spec "${levels[i]}")" "$@"
done
