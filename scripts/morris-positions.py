#!/usr/bin/env python3
"""Morris positions from arena records, for measuring the search (docs/morris.md).

usage: scripts/morris-positions.py RECORDS... [--count 100] > positions.txt

Takes the `position startpos moves ...` line of every game in the records and writes one
`position` line per sampled position: from every game the same number of plies, spread evenly
from ply 2 to the last position before the end, taken from the games round-robin until
`--count` are written (so short games count as much as long ones, and the placing and moving
phases appear in the proportion they have in the games).
"""
import argparse
import sys


def games(paths):
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("position startpos moves "):
                    yield line.split()[3:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("records", nargs="+")
    ap.add_argument("--count", type=int, default=100)
    args = ap.parse_args()
    moves_of = list(games(args.records))
    per_game = -(-args.count // len(moves_of))
    # The final position is left out: the game is over there, and `go` has nothing to search.
    plies = [
        sorted({2 + (len(moves) - 3) * i // max(per_game - 1, 1) for i in range(per_game)})
        for moves in moves_of
    ]
    out = []
    rank = 0
    while len(out) < args.count and any(rank < len(p) for p in plies):
        for moves, picks in zip(moves_of, plies):
            if rank < len(picks) and len(out) < args.count:
                out.append("position startpos moves " + " ".join(moves[: picks[rank]]))
        rank += 1
    if len(out) < args.count:
        sys.exit(f"only {len(out)} positions in the records")
    print("\n".join(out))


if __name__ == "__main__":
    main()
