#!/usr/bin/env bash
# tabula inside GNU Backgammon through gnubg-bridge (about a minute): Debian's gnubg in tty
# mode (installed with apt-get if missing) plays a 5-point match, its player 0 against tabula
# as its external player 1. Checks: the match is finished; gnubg's own record of it, exported
# as .mat, replays with tabula's rules (every play legal, every dance a real one, cube actions
# and results right); the bridge's own match file (--mat), rebuilt from the boards it saw,
# holds the same games action for action (only gnubg's rolls that its plays do not show may
# differ, each one named in a comment, and the last game may lack gnubg's final play, which
# the bridge never sees); the bridge ends by itself with status 0. Then a peer that
# disconnects mid-match (after one board) ends the bridge cleanly too, tabula with it, and
# leaves the match file written so far.
#   scripts/gnubg-bridge-test.sh [BIN_DIR]      (default target/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir="${1:-target/debug}"
gnubg=$(scripts/gnubg-debian.sh)
work=$(mktemp -d)
bridge_pid=""
cleanup() {
  [ -n "$bridge_pid" ] && kill "$bridge_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A free TCP port on the loopback interface.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
address="127.0.0.1:$port"

wait_for_listener() {
  for _ in $(seq 100); do
    grep -q "waiting for gnubg" "$work/bridge.log" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "FAIL: the bridge did not start:" >&2
  cat "$work/bridge.log" >&2
  exit 1
}

"$bin_dir/gnubg-bridge" --listen "$address" --tabula "$bin_dir/tabula" --movetime 100 --mat "$work/seen.mat" 2>"$work/bridge.log" &
bridge_pid=$!
wait_for_listener
printf '%s\n' \
  "set player 0 gnubg" \
  "set player 0 chequerplay evaluation plies 0" "set player 0 cubedecision evaluation plies 0" \
  "set player 1 external $address" \
  "set rng mersenne" "set seed 5" "set matchlength 5" "set cube use on" \
  "new match" "export match mat $work/bridge.mat" |
  HOME="$work" timeout 600 "$gnubg" -t -q -r >"$work/gnubg.log" 2>&1
status=0
wait "$bridge_pid" || status=$?
bridge_pid=""
if [ "$status" -ne 0 ]; then
  echo "FAIL: the bridge exited with status $status:" >&2
  tail -5 "$work/bridge.log" >&2
  exit 1
fi
grep -q "has won the match" "$work/gnubg.log" || {
  echo "FAIL: the match did not finish:" >&2
  tail -20 "$work/gnubg.log" >&2
  exit 1
}
if grep -q "Warning: badly formed\|Error: tabula" "$work/gnubg.log" "$work/bridge.log"; then
  echo "FAIL: gnubg or the bridge reported a bad answer:" >&2
  grep "Warning: badly formed\|Error: tabula" "$work/gnubg.log" "$work/bridge.log" >&2
  exit 1
fi
"$bin_dir/backgammon-mat" check "$work/bridge.mat" "$work/seen.mat"
echo "ok: $(grep -c ' -> ' "$work/bridge.log") answers from tabula; $(grep 'has won the match' "$work/gnubg.log" | sed 's/.*points)//')"
"$bin_dir/backgammon-mat" show "$work/bridge.mat" >"$work/gnubg-record.txt"
"$bin_dir/backgammon-mat" show "$work/seen.mat" >"$work/seen-record.txt"
python3 - "$work/gnubg-record.txt" "$work/seen-record.txt" "$work/seen.mat" <<'PY'
import sys
truth = open(sys.argv[1]).read().splitlines()
seen = open(sys.argv[2]).read().splitlines()
guesses = sum("is a guess" in line for line in open(sys.argv[3]))
def fail(why):
    sys.exit(f"FAIL: the bridge's match file: {why}")
# gnubg (player 0) is white in both files, tabula (player 1) black.
missing = truth[len(seen):]
if len(seen) > len(truth) or len(missing) > 2 or any(" white " not in m and " wins white " not in m for m in missing):
    fail(f"{len(seen)} actions and results against gnubg's {len(truth)}: {missing}")
differ = [(a, b) for a, b in zip(truth, seen) if a != b]
for a, b in differ:
    if not (a.split()[:3] == b.split()[:3] and a.split()[2] == "white" and ":" in a):
        fail(f"'{b}' where gnubg recorded '{a}'")
if len(differ) > guesses:
    fail(f"{len(differ)} of gnubg's rolls differ, {guesses} marked as guesses")
print(f"ok: the bridge's match file holds gnubg's {len(seen)} of {len(truth)} actions and results; "
      f"{len(differ)} of gnubg's rolls differ ({guesses} marked as guesses)")
PY

# A peer that goes away mid-match: one board, one answer, then the connection closes.
"$bin_dir/gnubg-bridge" --listen "$address" --tabula "$bin_dir/tabula" --movetime 50 --mat "$work/cut.mat" 2>"$work/bridge.log" &
bridge_pid=$!
wait_for_listener
answer=$(python3 - "$port" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
board = "board:gnubg:tabula:5:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0\n\0"
s.sendall(board.encode())
print(s.makefile().readline().strip())
s.close()
PY
)
status=0
wait "$bridge_pid" || status=$?
bridge_pid=""
[ "$answer" = "8/5 6/5" ] || { echo "FAIL: opening 31 answered '$answer'" >&2; exit 1; }
[ "$status" -eq 0 ] || { echo "FAIL: the bridge exited with $status after the peer left" >&2; exit 1; }
"$bin_dir/backgammon-mat" show "$work/cut.mat" >"$work/cut.txt"
[ "$(cat "$work/cut.txt")" = "$(printf 'match 5\ngame 1 black 31:8/5,6/5')" ] ||
  { echo "FAIL: the match file after the peer left holds:" >&2; cat "$work/cut.txt" >&2; exit 1; }
echo "ok: a peer leaving mid-match ends the bridge with status 0 (its one answer: $answer), the match file written so far"
