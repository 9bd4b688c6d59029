#!/bin/sh
# A fake engine that answers `go` with a line that is not part of the protocol.
on_go() { echo "I resign, good game"; }
. "$(dirname "$0")/common.sh"
