#!/usr/bin/env bash
# Runs every test: unit tests, rule scenarios, perft against reference generators, protocol
# transcripts against the real binary. The test profile is optimised (see Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo not found: install Rust from https://rustup.rs" >&2; exit 1; }
# Formatting and lints first: they take under a minute and fail fast.
cargo fmt --check
cargo clippy --quiet --all-targets -- -D warnings
cargo test --all-targets
# Matches, tables and self-play through Ray on a local 2-node cluster (about 2 minutes).
bash scripts/cluster/test.sh target/debug
bash scripts/gnubg-test.sh target/debug  # GNU Backgammon as sparring partner: known plays, 4 arena games (installs gnubg)
bash scripts/gnubg-mat-test.sh target/debug  # .mat files round-tripped through Debian's gnubg -t (apt-get installs it)
bash scripts/gnubg-bridge-test.sh target/debug  # tabula as gnubg's external player through gnubg-bridge: a 5-point match
# The web board in a real browser: every game and option played at two sizes, 100 sessions (about 4 min).
bash scripts/web-e2e.sh
