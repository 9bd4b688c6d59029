#!/usr/bin/env python3
"""Where tabula's checker play loses equity, by kind of position, judged by GNU Backgammon.

Usage: .venv-gnubg/bin/python scripts/gnubg-errors.py [--games N] [--seed S] [--go "movetime 100"]
       [--judge PLIES] [--tabula PATH] [--show-blunders] [--options "cube=on"]

tabula plays both sides of N games (random dice from S) with the given `go` command. At every
position with a choice, gnubg scores at --judge plies (gnubg's numbering, default 1) the 12
plays its network likes best and tabula's play; a play's error is the best of those
equities less its own. The same is done for gnubg's 0-ply choice (a yardstick that shares
the judge's network, so its errors come out low). Errors are summed per gnubg position
class (contact, crashed, race, bear-off) and printed per move, with blunders (> 0.08);
--show-blunders also prints each of tabula's blunders as it comes: the error, the position
string with the dice, tabula's play and the judge's best. --options are game options for
`newgame backgammon`. With `cube=on` (tabula then ranks plays by its cubeful equity; the dice
are set before every turn, so nobody doubles and the cube stays centred) the judge is cubeful
too: gnubg's `hint` on tabula's XGID, every play at 0 plies and those its move filter keeps at
the judge's plies; a play the filter dropped keeps its 0-ply equity.
Install the module first: scripts/gnubg-install.sh.
"""
import argparse
import collections
import importlib.util
import os
import random

from requires import require

gnubg = require("gnubg")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("engine", os.path.join(ROOT, "scripts/gnubg-engine.py"))
engine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(engine)

# gnubg's position classes (positionclass in its eval.h), the ones checker play meets.
CLASSES = {4: "bear-off (two-sided)", 6: "bear-off (one-sided)", 8: "race", 9: "crashed", 10: "contact"}
BLUNDER = 0.08


def cubeless_errors(board, legal, ours, judge, static):
    """(tabula's error, gnubg 0-ply's error, the judge's best play as a tabula token): the 12
    plays gnubg's 0-ply likes best and tabula's, scored cubeless by the judge."""
    cube = gnubg.cube_info()

    def score(after, context):
        return -gnubg.evaluate(engine.swapped(after), cube, context)[5]

    results = {engine.after_steps(board, engine.tabula_steps(m)): m for m in legal}
    static_scores = {a: score(a, static) for a in results}
    ranked = sorted(results, key=lambda a: -static_scores[a])
    judged = {a: score(a, judge) for a in ranked[:12]}
    mine = engine.after_steps(board, engine.tabula_steps(ours))
    if mine not in judged:
        judged[mine] = score(mine, judge)
    best = max(judged.values())
    top = max(judged, key=judged.get)
    return best - judged[mine], best - judged[ranked[0]], results[top]


def cubeful_errors(board, xgid, ours, plies):
    """(tabula's error, gnubg 0-ply's error, the judge's best play in gnubg's words) by gnubg's
    cubeful `hint` at `plies`."""
    steps = tuple(x for step in engine.tabula_steps(ours) for x in step)
    mine = gnubg.move_tuple_to_string(steps, board)
    static_best = engine.hint(xgid, 0)[0][0]
    ranked = engine.hint(xgid, plies)
    judged = dict(ranked)
    if mine not in judged:
        raise SystemExit(f"tabula's play {ours} ({mine}) is not in gnubg's hint for {xgid}")
    top, best = ranked[0]
    return best - judged[mine], best - judged[static_best], top


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--go", default="movetime 100")
    parser.add_argument("--judge", type=int, default=1, choices=range(0, 3))
    parser.add_argument("--tabula", default=os.path.join(ROOT, "target/release/tabula"))
    parser.add_argument("--show-blunders", action="store_true")
    parser.add_argument("--options", default="")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    oracle = engine.Oracle(args.tabula)
    cubeful = "cube=on" in args.options.split()
    engine.printed("set threads 1")
    judge = gnubg.eval_context(0, args.judge, 1, 0, 0.0)
    static = gnubg.eval_context(0, 0, 1, 0, 0.0)
    # per class: positions, tabula's error sum, gnubg 0-ply's, tabula's blunders, gnubg's
    tally = collections.defaultdict(lambda: [0, 0.0, 0.0, 0, 0])
    for _ in range(args.games):
        oracle.tell(f"newgame backgammon {args.options}".rstrip())
        while True:
            fen = oracle.ask("fen", "fen")[0][4:]
            if fen.split()[3] == "-":
                if not oracle.ask("legalmoves", "legalmoves")[0].split()[1:]:
                    break
                while True:
                    high, low = rng.randint(1, 6), rng.randint(1, 6)
                    if not ("opening" in fen and high == low):
                        break
                oracle.tell(f"dice {high}{low}")
                fen = oracle.ask("fen", "fen")[0][4:]
            legal = oracle.ask("legalmoves", "legalmoves")[0].split()[1:]
            ours = oracle.ask(f"go {args.go}", "bestmove")[0].split()[1]
            if len(legal) > 1:
                board, _ = engine.parse_fen(fen)
                if cubeful:
                    xgid = oracle.ask("fen xgid", "xgid")[0].split(" ", 1)[1]
                    ours_error, gnubg_error, top = cubeful_errors(board, xgid, ours, args.judge)
                else:
                    ours_error, gnubg_error, top = cubeless_errors(board, legal, ours, judge, static)
                row = tally[gnubg.classify(board)]
                row[0] += 1
                row[1] += ours_error
                row[2] += gnubg_error
                row[3] += ours_error > BLUNDER
                row[4] += gnubg_error > BLUNDER
                if args.show_blunders and ours_error > BLUNDER:
                    print(f"blunder {ours_error:.3f} {CLASSES.get(gnubg.classify(board), '?')}"
                          f" | {fen} | played {ours} | best {top}", flush=True)
            errors = oracle.tell(f"move {ours}")
            if errors:
                raise SystemExit(f"tabula refused its own move {ours} in {fen}: {errors}")
    oracle.close()
    games = f"{args.games} games {args.options}".rstrip()
    print(f"{games}, tabula at go {args.go}, judge gnubg {args.judge}-ply; "
          "error per move (equity), blunders > 0.08")
    total = [0, 0.0, 0.0, 0, 0]
    for cls, row in sorted(tally.items()):
        total = [t + r for t, r in zip(total, row)]
        name = CLASSES.get(cls, f"class {cls}")
        print(f"{name:22} moves {row[0]:5}  tabula {row[1] / row[0]:.4f} ({row[3]} blunders)"
              f"  gnubg 0-ply {row[2] / row[0]:.4f} ({row[4]})")
    if total[0]:
        print(f"{'all':22} moves {total[0]:5}  tabula {total[1] / total[0]:.4f} ({total[3]} blunders)"
              f"  gnubg 0-ply {total[2] / total[0]:.4f} ({total[4]})")


if __name__ == "__main__":
    main()
