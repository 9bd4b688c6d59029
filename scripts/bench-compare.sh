#!/usr/bin/env bash
# Compares two builds by the engine's own `bench`: the node-count signature per game (equal
# unless search, evaluation or move generation changed) and the speed (the best nodes/s of
# RUNS runs per build, the runs of the two builds interleaved so machine load hits both alike).
# Usage: scripts/bench-compare.sh REV_A REV_B [RUNS]
#   REV is any git revision (HEAD~3, a branch, a hash) or `.` for the working tree as it is.
# Each revision is exported with `git archive` and built in /tmp/tabula-bench/<hash>.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 2,6p "$0"; exit 2; }
runs=${3:-3}
root=/tmp/tabula-bench

# Builds REV; prints the path of its engine binary.
build() {
  local rev=$1 dir
  if [ "$rev" = . ]; then
    cargo build --release --quiet --bin tabula >&2
    echo "$PWD/target/release/tabula"
    return
  fi
  local hash
  hash=$(git rev-parse --verify "$rev^{commit}")
  dir=$root/$hash
  if [ ! -x "$dir/target/release/tabula" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    git archive "$hash" | tar -x -C "$dir"
    (cd "$dir" && cargo build --release --quiet --bin tabula >&2)
  fi
  echo "$dir/target/release/tabula"
}

# One bench run: `GAME NODES NPS` lines.
bench() {
  printf 'bench\n' | "$1" | awk '/^info string/ {
      for (i = 1; i <= NF; i++) { if ($i == "nodes") n = $(i + 1); if ($i == "nps") s = $(i + 1) }
      print $3, n, s }'
}

a=$(build "$1")
b=$(build "$2")
results=$(mktemp)
for run in $(seq 1 "$runs"); do
  bench "$a" | sed 's/^/A /' >>"$results"
  bench "$b" | sed 's/^/B /' >>"$results"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)   A=$1   B=$2   best of $runs runs each"
printf '%-12s %12s %12s %9s %12s %12s %7s\n' game "nodes A" "nodes B" signature "nps A" "nps B" B/A
awk '
  { games[$2] = 1; nodes[$1, $2] = $3; if ($4 > best[$1, $2]) best[$1, $2] = $4 }
  END {
    for (g in games) {
      same = nodes["A", g] == nodes["B", g] ? "same" : "DIFFERS"
      printf "%-12s %12s %12s %9s %12s %12s %7.3f\n", g, nodes["A", g], nodes["B", g], same,
        best["A", g], best["B", g], best["B", g] / best["A", g]
    }
  }' "$results" | sort
rm -f "$results"
