#!/usr/bin/env bash
# tabula (`go movetime 100`) against GNU Backgammon at PLIES (0, 1 or 2: 500 games at 2 plies
# take about 15 minutes on 2 cores) in duplicate-dice backgammon through arena; prints arena's
# summary with the points per game and their interval.
#   scripts/gnubg-match.sh GAMES PLIES [arena options ...]
#   scripts/gnubg-match.sh 200 0 --seed 7 --concurrency 2 --results /tmp/g.res
# Later arena options override the defaults (--seed 1, --tc movetime=100). gnubg ignores the
# clock (it plays at fixed plies): its seat has `go depth 1` bounded only by --timeout. The
# margin is 2 s: on a loaded machine a late `bestmove` is the scheduler's doing, and the engine
# still stops thinking at its own movetime (so a loaded run is a lower bound on its strength).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:?usage: scripts/gnubg-match.sh GAMES PLIES [arena options ...]}
plies=${2:?usage: scripts/gnubg-match.sh GAMES PLIES [arena options ...]}
shift 2
cargo build --release --quiet --bins
python=$(scripts/gnubg-install.sh --print-python)
exec nice ./target/release/arena --game backgammon --games "$games" --tc movetime=100 --margin 2000 --seed 1 \
  --engine "cmd=./target/release/tabula,name=tabula" \
  --engine "cmd=$python scripts/gnubg-engine.py --plies $plies,name=gnubg-${plies}ply,tc=depth=1" \
  --quiet "$@"
