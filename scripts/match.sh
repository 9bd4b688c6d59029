#!/usr/bin/env bash
# A match between two players of our engine (search, greedy or random: the `Player` option),
# colours alternating, at movetime 100 unless a --tc among the extra arguments overrides it.
#   scripts/match.sh GAME [GAMES] [PLAYER_A] [PLAYER_B] [arena options ...]
#   scripts/match.sh bombardment 100 search random --game-options size=6 --record games.txt
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/match.sh GAME [GAMES] [PLAYER_A] [PLAYER_B] [arena options ...]}
games=${2:-100}
a=${3:-search}
b=${4:-random}
shift $(($# < 4 ? $# : 4))
cargo build --release --quiet --bins
engine=./target/release/tabula
exec nice ./target/release/arena --game "$game" --games "$games" --tc movetime=100 \
  --engine "cmd=$engine,name=$a,option.Player=$a" \
  --engine "cmd=$engine,name=$b,option.Player=$b" \
  --seed 1 "$@"
