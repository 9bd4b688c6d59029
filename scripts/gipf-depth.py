#!/usr/bin/env python3
"""Depth and nodes/s of `go movetime T` over GIPF positions from real games (docs/gipf.md).

usage: scripts/gipf-depth.py ENGINE RESULTS... [--count 100] [--movetime 500]
       [--options "variant=basic"] [--env NAME=VALUE]...

RESULTS are arena results files (`--results`): each `game` line's `moves=` field is a whole
game. From every game the same number of positions is taken, spread evenly from ply 4 to the
last position before the end, round-robin over the games until `--count` are chosen (so short
games count as much as long ones). ENGINE is started once with `newgame gipf OPTIONS`; for each
position it gets `position startpos moves ...` and `go movetime T`. The last `info` line before
each `bestmove` gives depth, nodes and time; printed: average depth, range, and nodes/s as total
nodes over total time.
"""
import argparse
import os

from depth_at_movetime import measure


def games(paths):
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("game\t"):
                    fields = dict(kv.split("=", 1) for kv in line.rstrip("\n").split("\t")[1:])
                    moves = fields.get("moves", "").split()
                    if len(moves) > 5:
                        yield moves


def sample(all_games, count):
    per_game = -(-count // len(all_games))
    picks = []
    for moves in all_games:
        last = len(moves) - 1
        plies = [4 + (last - 4) * i // max(per_game - 1, 1) for i in range(per_game)]
        picks.append([moves[:p] for p in plies])
    chosen = []
    for i in range(per_game):
        for game in picks:
            if len(chosen) < count and i < len(game):
                chosen.append(game[i])
    return chosen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("results", nargs="+")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--movetime", type=int, default=500)
    ap.add_argument("--options", default="")
    ap.add_argument("--env", action="append", default=[])
    args = ap.parse_args()
    env = dict(os.environ)
    for pair in args.env:
        name, value = pair.split("=", 1)
        env[name] = value
    positions = sample(list(games(args.results)), args.count)
    measure(
        args.engine,
        [f"newgame gipf {args.options}".strip()],
        ["position startpos moves " + " ".join(moves) for moves in positions],
        args.movetime,
        env,
    )


if __name__ == "__main__":
    main()
