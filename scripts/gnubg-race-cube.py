#!/usr/bin/env python3
"""tabula's money cube decisions in races, judged by GNU Backgammon.

Usage: .venv-gnubg/bin/python scripts/gnubg-race-cube.py [--positions N] [--seed S]
       [--go "movetime 100"] [--judge PLIES] [--tabula PATH] [--max-loss X]

Race positions (no contact, not both sides all home: gnubg's race class) come from tabula's
own games at `go depth 1`, random dice from S, before a roll, each kept with chance 1/2 when
gnubg's 0-ply winning chance for the side on roll is between 0.6 and 0.92, where doubles and
takes are decided. Each is set in a `cube=on` game with the cube centred and tabula's `go`
prints its cube line: it doubles when the action is `double-...`, and its answer is the lower
of its doubletake and doublepass (the taker's choice as the doubler's search sees it).
gnubg's cubeful equities at --judge plies (default 2) of no double, double/take and
double/pass, from its `eval` command on tabula's XGID, score both: doubling loses the best
choice's equity less the chosen one's (a double scored with gnubg's best answer), taking
loses the chosen answer's equity less the best answer's. Prints the positions, the wrong
decisions and the equity lost per position (per unit of the cube); with --max-loss X it exits
1 when either loss per position exceeds X.
"""
import argparse
import importlib.util
import os
import random
import sys

from requires import require

gnubg = require("gnubg")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


engine = load("engine", "scripts/gnubg-engine.py")
cube_errors = load("cube_errors", "scripts/gnubg-cube-errors.py")
RACE = 8  # gnubg's position class (positionclass in its eval.h)


def races(oracle, count, seed):
    """`count` race positions (tabula position strings, before the roll) of tabula's games."""
    rng = random.Random(seed)
    static = gnubg.eval_context(0, 0, 1, 0, 0.0)
    found = []
    while len(found) < count:
        oracle.tell("newgame backgammon")
        while len(found) < count:
            fen = oracle.ask("fen", "fen")[0][4:]
            if not oracle.ask("legalmoves", "legalmoves")[0].split()[1:]:
                break
            board, _ = engine.parse_fen(fen)
            if gnubg.classify(board) == RACE and rng.random() < 0.5:
                win = gnubg.evaluate(board, gnubg.cube_info(), static)[0]
                if 0.6 < win < 0.92:
                    found.append(fen)
            while True:
                high, low = rng.randint(1, 6), rng.randint(1, 6)
                if not ("opening" in fen and high == low):
                    break
            oracle.tell(f"dice {high}{low}")
            oracle.tell("move " + oracle.ask("go depth 1", "bestmove")[0].split()[1])
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--go", default="movetime 100")
    parser.add_argument("--judge", type=int, default=2, choices=range(0, 3))
    parser.add_argument("--tabula", default=os.path.join(ROOT, "target/release/tabula"))
    parser.add_argument("--max-loss", type=float)
    args = parser.parse_args()
    engine.printed("set threads 1")
    engine.printed(f"set evaluation cubedecision evaluation plies {args.judge}")
    engine.printed(f"set evaluation chequerplay evaluation plies {args.judge}")
    oracle = engine.Oracle(args.tabula)
    positions = races(oracle, args.positions, args.seed)
    oracle.tell("newgame backgammon cube=on")
    lost, wrong = [0.0, 0.0], [0, 0]
    for fen in positions:
        errors = oracle.tell(f"position fen {fen}")
        if errors:
            raise SystemExit(f"tabula refused {fen}: {errors}")
        words = oracle.ask(f"go {args.go}", "info string cube")[0].split()
        oracle.ask("isready", "readyok")
        value = {w: float(words[i + 1]) for i, w in enumerate(words[:-1]) if w.startswith("double")}
        doubles = words[words.index("action") + 1].startswith("double-")
        takes = value["doubletake"] <= value["doublepass"]
        no_double, take, drop, _xgid = cube_errors.equities(oracle)
        answer = min(take, drop)
        errors = (max(no_double, answer) - (answer if doubles else no_double),
                  (take if takes else drop) - answer)
        for k, error in enumerate(errors):
            lost[k] += error
            wrong[k] += error > 1e-9
    oracle.close()
    n = max(len(positions), 1)
    print(f"{len(positions)} races, tabula at go {args.go}, judge gnubg {args.judge}-ply: "
          f"doubling {wrong[0]} wrong, lost {lost[0] / n:.4f} per position; "
          f"taking {wrong[1]} wrong, lost {lost[1] / n:.4f} per position")
    if args.max_loss is not None and max(lost) / n > args.max_loss:
        sys.exit(1)


if __name__ == "__main__":
    main()
