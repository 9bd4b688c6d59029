#!/usr/bin/env bash
# Replays transcripts against the release engine and shows the exchange up to the first
# difference. Usage: scripts/replay.sh tests/transcripts/bad_input.txt [more.txt ...]
# When the difference is an intended change of output, rewrite the expected lines with
#   BLESS=1 cargo test --test protocol transcripts::
# and review the result with `git diff tests/transcripts` (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin tabula --bin replay
if ! target/release/replay "$@"; then
  echo "intended change? BLESS=1 cargo test --test protocol transcripts::, then git diff tests/transcripts" >&2
  exit 1
fi
