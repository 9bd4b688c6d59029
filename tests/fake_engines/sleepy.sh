#!/bin/sh
# A fake engine that thinks far past any short time limit before it answers.
on_go() { sleep 3; echo "bestmove a1a1"; }
. "$(dirname "$0")/common.sh"
