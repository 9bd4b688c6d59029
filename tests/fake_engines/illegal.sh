#!/bin/sh
# A fake engine that answers every `go` with a move that is legal in no position.
on_go() { echo "bestmove a1a1"; }
. "$(dirname "$0")/common.sh"
