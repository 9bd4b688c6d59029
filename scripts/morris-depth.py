#!/usr/bin/env python3
"""Nodes/s and depth reached by `go movetime T` over a positions file (docs/morris.md).

usage: scripts/morris-depth.py ENGINE POSITIONS [--movetime 200] [--options "flying=true"]
       [--setoption "NAME=VALUE"]...

Starts ENGINE once, plays `newgame morris OPTIONS`, then for every line of POSITIONS (a
`position ...` command, as scripts/morris-positions.py writes) sends it and `go movetime T`.
From the last `info` line before each `bestmove` it takes the depth, nodes and time; it prints
the average depth, the range, and nodes/s as total nodes over total time.
"""
import argparse

from depth_at_movetime import measure


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("positions")
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--options", default="")
    ap.add_argument("--setoption", action="append", default=[])
    args = ap.parse_args()
    setup = [f"setoption name {name} value {value}"
             for name, value in (pair.split("=", 1) for pair in args.setoption)]
    setup.append(f"newgame morris {args.options}".strip())
    with open(args.positions) as f:
        lines = [line.strip() for line in f if line.startswith("position")]
    measure(args.engine, setup, lines, args.movetime)


if __name__ == "__main__":
    main()
