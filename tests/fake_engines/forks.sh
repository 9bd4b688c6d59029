#!/bin/sh
# A fake engine that exits (status 5) when asked for its first move, leaving behind a child
# that holds its output open: the arena must notice the exit itself, not wait for the pipe.
on_go() { sleep 10 & exit 5; }
. "$(dirname "$0")/common.sh"
