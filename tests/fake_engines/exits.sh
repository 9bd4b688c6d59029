#!/bin/sh
# A fake engine that exits (status 3) when asked for its first move, in the middle of a game.
on_go() { exit 3; }
. "$(dirname "$0")/common.sh"
