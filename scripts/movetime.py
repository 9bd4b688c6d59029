#!/usr/bin/env python3
"""How long `go movetime T` really takes, for every game, over many positions.

For each game and each T, plays RUNS positions reached by random legal plies from the start
(a different seed each run), sends `go movetime T` and times the wall clock from writing the
command to reading `bestmove`. Prints the median and worst overrun (elapsed - T) per game and T,
and the load average at the start and the end (timings on a loaded machine are upper bounds on
the overrun an idle machine would see).

Usage: scripts/movetime.py [--runs N] [--times 20,100,250] [--engine target/release/tabula]
"""

import argparse
import os
import random
import statistics
import subprocess
import time

GAMES = ["backgammon", "bombardment", "cascades", "gipf", "morris"]


class Engine:
    """The engine under a pipe, one command at a time."""

    def __init__(self, path, game):
        self.proc = subprocess.Popen(
            [path, game],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """Reads lines until one starts with `prefix`; returns it."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            if line.startswith(prefix):
                return line.strip()

    def ask(self, line, prefix):
        self.send(line)
        return self.until(prefix)

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def random_position(engine, rng, plies):
    """Plays up to `plies` random legal moves from the start; returns the `position` command."""
    moves = []
    for _ in range(plies):
        engine.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        listed = engine.ask("legalmoves", "legalmoves").split()[1:]
        if not listed:
            break
        moves.append(rng.choice(listed))
    if len(moves) == plies and plies > 0:
        # Keep a position where the game is still on.
        engine.send("position startpos moves " + " ".join(moves))
        if engine.ask("query gameover", "response") == "response true":
            moves.pop()
    return "position startpos moves " + " ".join(moves) if moves else "position startpos"


def measure(engine_path, game, times, runs, seed):
    engine = Engine(engine_path, game)
    engine.ask("isready", "readyok")
    rng = random.Random(seed)
    overruns = {t: [] for t in times}
    for run in range(runs):
        position = random_position(engine, rng, rng.randrange(0, 30))
        for t in times:
            engine.send(position)
            if game == "backgammon":
                engine.ask("roll", "roll")
            engine.ask("isready", "readyok")
            start = time.perf_counter()
            engine.send(f"go movetime {t}")
            engine.until("bestmove")
            elapsed_ms = (time.perf_counter() - start) * 1000
            overruns[t].append(elapsed_ms - t)
    engine.close()
    return overruns


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--times", default="20,100,250")
    parser.add_argument("--engine", default="target/release/tabula")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times = [int(t) for t in args.times.split(",")]
    print(f"load at start: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    print(f"{'game':<12} {'T ms':>6} {'runs':>5} {'median':>8} {'worst':>8}  (overrun = elapsed - T, ms)")
    for game in args.games.split(","):
        overruns = measure(args.engine, game, times, args.runs, args.seed)
        for t in times:
            values = overruns[t]
            print(
                f"{game:<12} {t:>6} {len(values):>5} {statistics.median(values):>8.1f} {max(values):>8.1f}",
                flush=True,
            )
    print(f"load at end: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
