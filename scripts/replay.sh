#!/usr/bin/env bash
# Replays transcripts against the release engine and shows the exchange up to the first
# difference. Usage: scripts/replay.sh tests/transcripts/bad_input.txt [more.txt ...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin tabula --bin replay
exec target/release/replay "$@"
