#!/usr/bin/env python3
"""Nine Men's Morris endgames: the engine with tables against itself without.

Random positions with no pieces in hand (seeded), classified by the tables (`solve`): each
position the tables call a win for the side to move in at least --min-distance plies (default
15) is played twice, once with the tables
engine as the winner and once with the engine without tables as the winner, the other side
played by the other engine, `go movetime MS` per move, to the game's own end (the no-capture
and repetition rules included). Prints how often each converts, and in how many plies.

  scripts/morris-tb-match.py DIR [--flying true|false] [--pieces 4v4,3v4,4v3] [--positions N]
                             [--movetime MS] [--seed N] [--min-distance PLIES]

DIR holds tables built by `morris-tb`; needs `cargo build --release` first.
"""

import argparse
import random
import subprocess
import sys

ENGINE = "./target/release/tabula"
NAMES = ["a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6",
         "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7"]
RANKS = [["a7", "d7", "g7"], ["b6", "d6", "f6"], ["c5", "d5", "e5"],
         ["a4", "b4", "c4", "e4", "f4", "g4"], ["c3", "d3", "e3"], ["b2", "d2", "f2"],
         ["a1", "d1", "g1"]]


class Engine:
    def __init__(self, flying, tables=None):
        self.proc = subprocess.Popen([ENGINE, "morris", f"flying={flying}"], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if tables:
            self.send(f"setoption name TablebasePath value {tables}")
            while "loaded" not in self.until("info string morris tablebases"):
                pass

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            if line.startswith(prefix):
                return line.strip()

    def position(self, fen, moves):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))

    def go(self, fen, moves, movetime):
        self.position(fen, moves)
        self.send(f"go movetime {movetime}")
        return self.until("bestmove ").split()[1]

    def result(self, fen, moves):
        self.position(fen, moves)
        self.send("result")
        return self.until("result ")


def fen_of(white, black):
    square = lambda n: "W" if n in white else "B" if n in black else "."
    return "/".join("".join(square(n) for n in rank) for rank in RANKS) + " w 0 0 0"


def play(fen, white, black, referee, movetime):
    moves = []
    while True:
        result = referee.result(fen, moves)
        if result != "result none":
            return result.split()[1], result.split()[2], len(moves)
        mover = white if len(moves) % 2 == 0 else black
        moves.append(mover.go(fen, moves, movetime))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--flying", default="false")
    ap.add_argument("--pieces", default="4v4,3v4,4v3")
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-distance", type=int, default=15)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with_tables = Engine(args.flying, args.dir)
    without = Engine(args.flying)
    referee = Engine(args.flying)
    counts = [tuple(map(int, p.split("v"))) for p in args.pieces.split(",")]
    rows = {True: [], False: []}
    found = 0
    while found < args.positions:
        w, b = rng.choice(counts)
        points = rng.sample(NAMES, w + b)
        fen = fen_of(set(points[:w]), set(points[w:]))
        if referee.result(fen, []) != "result none":
            continue
        with_tables.position(fen, [])
        with_tables.send("solve movetime 1")
        solved = with_tables.until("solve ").split()
        if solved[1] != "win" or int(solved[3]) < args.min_distance:
            continue
        found += 1
        distance = int(solved[3])
        for tables_win in (True, False):
            winner, loser = (with_tables, without) if tables_win else (without, with_tables)
            who, reason, plies = play(fen, winner, loser, referee, args.movetime)
            rows[tables_win].append((who == "white", plies, distance))
            print(f"{fen} {w}v{b} win in {distance}: "
                  f"{'tables' if tables_win else 'no tables'} as winner -> {who} {reason} "
                  f"after {plies} plies", flush=True)
    for tables_win, label in ((True, "with tables"), (False, "without tables")):
        games = rows[tables_win]
        won = [g for g in games if g[0]]
        exact = sum(1 for g in won if g[1] == g[2])
        print(f"winner {label}: converted {len(won)}/{len(games)}, "
              f"{exact} in exactly the tables' distance, "
              f"mean plies {sum(g[1] for g in won) / max(1, len(won)):.1f} "
              f"(tables' mean {sum(g[2] for g in won) / max(1, len(won)):.1f})")


if __name__ == "__main__":
    main()
