#!/usr/bin/env python3
"""Nine Men's Morris: random openings that perfect play still draws, for `arena --openings`.

`arena --random-plies N` may hand the side to move a forced win (without flying, four random
placements often do), so a loss from such a game says nothing about the engine. This draws
random legal placements (seeded), keeps an opening only when `solve` with the tables in DIR calls
it a draw, and prints the kept lines in arena's openings format after two `#` comments: the
settings, and how many of the openings drawn had each value. Needs the placement tables of the rule set (`morris-tb --max 9
--placement`, docs/morris.md) so each `solve` is one probe; without them it still works, slower.

  scripts/morris-drawn-openings.py DIR [--flying true|false] [--plies 4] [--count 20]
                                   [--seed 1] [--engine target/release/tabula]
"""

import argparse
import random
import subprocess
import sys


class Engine:
    """The engine in a pipe, answering one command at a time."""

    def __init__(self, path, flying, tables):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send(f"newgame morris flying={flying}")
        self.send(f"setoption name TablebasePath value {tables}")
        self.ask("isready", "readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def ask(self, line, prefix):
        self.send(line)
        while True:
            answer = self.proc.stdout.readline()
            if not answer:
                sys.exit(f"engine ended while answering {line!r}")
            if answer.startswith("error"):
                sys.exit(f"engine: {answer.strip()} (after {line!r})")
            if answer.startswith(prefix):
                return answer.split()[1:]

    def close(self):
        self.send("quit")
        self.proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--flying", default="true", choices=["true", "false"])
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="target/release/tabula")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    engine = Engine(a.engine, a.flying, a.dir)
    kept, seen, values = [], set(), {}
    while len(kept) < a.count:
        moves = []
        for _ in range(a.plies):
            engine.send("position startpos moves " + " ".join(moves))
            moves.append(rng.choice(engine.ask("legalmoves", "legalmoves")))
        engine.send("position startpos moves " + " ".join(moves))
        value = engine.ask("solve movetime 60000", "solve")[0]
        values[value] = values.get(value, 0) + 1
        if value == "draw" and tuple(moves) not in seen:
            seen.add(tuple(moves))
            kept.append(" ".join(moves))
    engine.close()
    print(f"# morris flying={a.flying}: {a.count} random {a.plies}-ply openings that `solve` "
          f"calls a draw (seed {a.seed})")
    print("# values of the openings drawn (for the side to move): " +
          ", ".join(f"{v} {n}" for v, n in sorted(values.items())))
    for line in kept:
        print(line)


if __name__ == "__main__":
    main()
