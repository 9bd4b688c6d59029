#!/usr/bin/env python3
"""Time to depth with Threads 1 and 2 (Lazy SMP), per game, over a few positions.

Usage: scripts/threads.py [ENGINE] [--runs N] [--game GAME]
Each position is searched with `go depth D` (D chosen per game so one thread takes about a
second), from a fresh engine each time (empty table), and the wall time from `go` to
`bestmove` is measured. Prints per game the total time over the positions at 1 and 2
threads and the speed-up. Run it on an idle machine: two threads need two free cores.
"""
import subprocess
import sys
import time

ENGINE = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "target/release/tabula"
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 1
GAME = sys.argv[sys.argv.index("--game") + 1] if "--game" in sys.argv else None

# (game, depth, positions as `position ...` lines)
CASES = [
    ("bombardment", 9, ["position startpos", "position startpos moves e2e3 d7d6",
                        "position startpos moves c2c3 f7f6 xc3"]),
    ("gipf", 8, ["position startpos", "position startpos moves a5-b5 i5-h5"]),
    ("cascades", 7, ["position startpos", "position startpos moves b5 b4,c4"]),
    ("morris", 11, ["position startpos", "position startpos moves d2 d6 f4 b4"]),
    # Backgammon's checker play: the three lookahead passes (depth 3), roll given.
    ("backgammon", 3, ["position fen w=24:1,13:5,9:1,8:2,6:5,5:1 b=24:2,13:4,11:1,8:3,6:5 w -\ndice 42",
                       "position fen w=bar:1,13:4,8:3,6:4,4:2,3:1 b=20:2,13:4,8:3,6:4,5:2 w -\ndice 31",
                       "position fen w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening\ndice 53"]),
]


def time_to_depth(game, threads, position, depth):
    proc = subprocess.Popen([ENGINE, game], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    proc.stdin.write(f"setoption name Threads value {threads}\n{position}\nisready\n")
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "readyok":
        pass
    start = time.monotonic()
    proc.stdin.write(f"go depth {depth}\n")
    proc.stdin.flush()
    nodes = 0
    while True:
        line = proc.stdout.readline()
        if line.startswith("info depth"):
            words = line.split()
            nodes = int(words[words.index("nodes") + 1])
        if line.startswith("bestmove"):
            break
    elapsed = time.monotonic() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return elapsed, nodes


def main():
    print("game depth positions | 1 thread s (nodes) | 2 threads s (nodes) | speed-up")
    for game, depth, positions in CASES:
        if GAME and game != GAME:
            continue
        totals = {1: [0.0, 0], 2: [0.0, 0]}
        # 1 and 2 threads alternate, so a change in the machine's load hits both alike.
        for _ in range(RUNS):
            for position in positions:
                for threads in (1, 2):
                    s, n = time_to_depth(game, threads, position, depth)
                    totals[threads][0] += s
                    totals[threads][1] += n
        (s1, n1), (s2, n2) = totals[1], totals[2]
        print(f"{game} {depth} {len(positions)} | {s1:.2f} ({n1}) | {s2:.2f} ({n2}) | {s1 / s2:.2f}x")


if __name__ == "__main__":
    main()
