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
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("positions")
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--options", default="")
    ap.add_argument("--setoption", action="append", default=[])
    args = ap.parse_args()
    proc = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    for pair in args.setoption:
        name, value = pair.split("=", 1)
        send(f"setoption name {name} value {value}")
    send(f"newgame morris {args.options}".strip())
    depths, nodes, times = [], 0, 0
    with open(args.positions) as f:
        lines = [line.strip() for line in f if line.startswith("position")]
    for line in lines:
        send(line)
        send(f"go movetime {args.movetime}")
        last = None
        while True:
            out = proc.stdout.readline()
            if not out:
                raise SystemExit("engine exited")
            words = out.split()
            if words[:1] == ["info"] and "depth" in words:
                last = words
            elif words[:1] == ["bestmove"]:
                break
            elif words[:1] == ["error"]:
                raise SystemExit(f"{line}: {out.strip()}")
        if last is None:
            continue
        field = lambda name: int(last[last.index(name) + 1])
        depths.append(field("depth"))
        nodes += field("nodes")
        times += field("time")
    send("quit")
    proc.wait()
    print(
        f"{len(depths)} positions, movetime {args.movetime}: depth avg {sum(depths) / len(depths):.2f} "
        f"min {min(depths)} max {max(depths)}, nodes/s {nodes * 1000 // max(times, 1)}"
    )


if __name__ == "__main__":
    main()
