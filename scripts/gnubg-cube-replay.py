#!/usr/bin/env python3
"""A tabula build's cube decisions on positions already judged by GNU Backgammon.

Usage: python3 scripts/gnubg-cube-replay.py DUMP [--go CMD] [--go-take CMD] [--tabula PATH]
       [--engine NAME] [--window X] [--out FILE]

DUMP is what `gnubg-cube-errors.py RECORD --dump DUMP` wrote: each cube decision of a match
with gnubg's cubeful equities (no double, double/take, double/pass, per unit of the cube
before the double). Each position is set up in tabula from its XGID and decided with `go CMD`
(default `go movetime 100`; facing a double `--go-take CMD` if given: fixed depths, e.g. `go depth
2` and `go depth 3`, give the same decisions on a loaded machine); the decision is scored like the judge does (the doubler's choice
with the best answer to it; the error in points, times the cube). Double decisions where gnubg
values no double more than --window (default 0.3) above the double are skipped unless the
record's engine doubled there: a build that doubles in them would have to double a clear no
double, which the full judge of a match catches. The positions come from matches played
without this build, so a change judged here is judged on decisions it was not tuned on only
when the dump's seed differs from the one it was tuned on. Prints, per kind, the decisions,
the wrong ones and the points lost; --out writes each decision with tabula's cube line.
"""
import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Tabula:
    """A tabula process answering `go` on positions set from XGIDs."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def decide(self, options, xgid, go):
        """The `bestmove` and the cube line of `go` in the position."""
        self.proc.stdin.write(f"newgame backgammon {options}\nposition xgid {xgid}\n{go}\n")
        note = ""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("tabula exited")
            line = line.rstrip("\n")
            if line.startswith("error"):
                raise RuntimeError(f"{xgid}: {line}")
            if line.startswith("info string cube"):
                note = line[len("info string "):]
            if line.startswith("bestmove"):
                return line.split()[1], note

    def close(self):
        self.proc.stdin.write("quit\n")
        self.proc.stdin.flush()
        self.proc.wait(timeout=5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump")
    parser.add_argument("--go", default="go movetime 100")
    parser.add_argument("--go-take", help="the go command facing a double (default: --go)")
    parser.add_argument("--tabula", default=os.path.join(ROOT, "target/release/tabula"))
    parser.add_argument("--engine", help="only the decisions of this engine of the record")
    parser.add_argument("--window", type=float, default=0.3)
    parser.add_argument("--out")
    args = parser.parse_args()
    tabula = Tabula(args.tabula)
    out = open(args.out, "w") if args.out else None
    tally = {kind: {"decisions": 0, "wrong": 0, "lost": 0.0, "skipped": 0}
             for kind in ("double", "take")}
    for line in open(args.dump):
        d = json.loads(line)
        if args.engine and d["engine"] != args.engine:
            continue
        row = tally[d["kind"]]
        nd, dt, dp, cube = d["nd"], d["dt"], d["dp"], d["cube"]
        if d["kind"] == "double":
            if nd - min(dt, dp) > args.window and d["played"] != "double":
                row["skipped"] += 1
                continue
            best = max(nd, min(dt, dp))
            move, note = tabula.decide(d["options"], d["xgid"], args.go)
            chosen = min(dt, dp) if move == "double" else nd
        else:
            best = max(-dt, -dp)
            move, note = tabula.decide(d["options"], d["xgid"], args.go_take or args.go)
            chosen = -dp if move == "drop" else -dt
        row["decisions"] += 1
        row["wrong"] += chosen < best
        row["lost"] += (best - chosen) * cube
        if out:
            out.write(json.dumps({**d, "tabula": move, "note": note,
                                  "lost": (best - chosen) * cube}) + "\n")
            out.flush()
    tabula.close()
    for kind, row in tally.items():
        print(f"{kind}: {row['decisions']} decisions ({row['skipped']} clear no doubles "
              f"skipped), {row['wrong']} wrong, {row['lost']:.3f} points lost")


if __name__ == "__main__":
    main()
