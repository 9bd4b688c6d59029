#!/bin/sh
# A fake backgammon engine that answers every `go` with black's 11 from the start layout: a
# legal roll-and-play token before the roll too, where it would choose its own dice.
on_go() { echo "bestmove 11:6/5,6/5,6/5,6/5"; }
. "$(dirname "$0")/common.sh"
