#!/usr/bin/env python3
"""The cube decisions of an arena record judged by GNU Backgammon, per engine.

Usage: .venv-gnubg/bin/python scripts/gnubg-cube-errors.py RECORD [--judge PLIES] [--tabula PATH]
       [--dump FILE]

RECORD is what `arena --game backgammon --game-options cube=on --record FILE` wrote (money
games). Every game is replayed with tabula as the rules oracle. At each roll where the player
on roll could double, it either doubled (the record's next move is `double`) or rolled; each
`double` was answered `take`, `drop` or `beaver`. gnubg's cubeful equities at --judge plies
(gnubg's numbering, default 2) of no double, double/take and double/pass, from its `eval`
command on tabula's XGID, score each decision: the error is the best choice's equity less the
chosen one's (the doubler's choice is scored with the best answer to it), in points (gnubg's
equities are per unit of the cube before the double, times that cube). Prints per engine the
decisions, the wrong ones by kind and the equity they lost in all and per game (doubling and
taking apart). --dump writes every judged decision as a JSON line (engine, kind `double` or
`take`, XGID, cube, the move played, gnubg's three equities), the positions that
`gnubg-cube-replay.py` puts to another build.
"""
import argparse
import collections
import importlib.util
import json
import os
import re

from requires import require

gnubg = require("gnubg")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("engine", os.path.join(ROOT, "scripts/gnubg-engine.py"))
engine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(engine)

LINE = re.compile(r"^\d\. (No double|No redouble|Double, take|Redouble, take|Double, pass|"
                  r"Redouble, pass|Double, beaver|Redouble, beaver)\s+([+-]\d+\.\d+)")


def equities(oracle):
    """gnubg's cubeful (no double, double/take, double/pass) for the player who may double
    now, or who doubled when a double is pending, and the position's XGID."""
    xgid = oracle.ask("fen xgid", "xgid")[0].split(" ", 1)[1]
    engine.printed(lambda: gnubg.set_gnubg_id(xgid))
    found = {}
    for line in engine.printed("eval").splitlines():
        match = LINE.match(line.strip())
        if match:
            kind = match.group(1).replace("Redouble", "Double").replace("No redouble", "No double")
            found[kind] = float(match.group(2))
    take = found.get("Double, take", found.get("Double, beaver"))
    if "No double" not in found or take is None or "Double, pass" not in found:
        raise SystemExit(f"gnubg gave no cube equities for {xgid}")
    return found["No double"], take, found["Double, pass"], xgid


def games(path):
    """(white name, black name, moves) of each game of a record."""
    for block in open(path).read().split("\n\n"):
        headers = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        line = next((l for l in block.splitlines() if l.startswith("position startpos")), None)
        if line is None:
            continue
        words = line.split()
        moves = words[3:] if len(words) > 2 and words[2] == "moves" else []
        yield headers["White"], headers["Black"], moves, headers.get("Options", "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record")
    parser.add_argument("--judge", type=int, default=2, choices=range(0, 3))
    parser.add_argument("--tabula", default=os.path.join(ROOT, "target/release/tabula"))
    parser.add_argument("--dump", help="write each judged decision as a JSON line")
    args = parser.parse_args()
    dump = open(args.dump, "w") if args.dump else None
    engine.printed("set threads 1")
    engine.printed(f"set evaluation cubedecision eval plies {args.judge}")
    oracle = engine.Oracle(args.tabula)
    # per engine: decisions, equity lost, and counts of each kind of wrong decision
    tally = collections.defaultdict(lambda: collections.Counter())
    played = collections.Counter()
    for white, black, moves, options in games(args.record):
        if "match=" in options and "match=0" not in options:
            raise SystemExit("money games only")
        names = {"w": white, "b": black}
        played[white] += 1
        played[black] += 1
        oracle.tell(f"newgame backgammon {options}")
        for i, move in enumerate(moves):
            fen = oracle.ask("fen", "fen")[0][4:]
            mover = names[fen.split()[2]]
            cube = next((int(w[5:].split(":")[0]) for w in fen.split() if w.startswith("cube=")), 1)
            legal = oracle.ask("legalmoves", "legalmoves")[0].split()[1:]
            if "double" in legal:
                no_double, take, cash, xgid = equities(oracle)
                doubled = move == "double"
                best = max(no_double, min(take, cash))
                chosen = min(take, cash) if doubled else no_double
                row = tally[mover]
                row["double decisions"] += 1
                row["lost"] += (best - chosen) * cube
                row["lost doubling"] += (best - chosen) * cube
                if doubled and chosen < best:
                    row["wrong doubles"] += 1
                elif not doubled and chosen < best:
                    row["missed doubles"] += 1
            elif move in ("take", "drop", "beaver"):
                no_double, take, cash, xgid = equities(oracle)
                row = tally[mover]
                row["take decisions"] += 1
                chosen = -cash if move == "drop" else -take
                best = max(-take, -cash)
                row["lost"] += (best - chosen) * cube
                row["lost taking"] += (best - chosen) * cube
                if chosen < best:
                    row["wrong drops" if move == "drop" else "wrong takes"] += 1
            if dump and ("double" in legal or move in ("take", "drop", "beaver")):
                kind = "double" if "double" in legal else "take"
                dump.write(json.dumps({"engine": mover, "kind": kind, "xgid": xgid, "cube": cube,
                                       "options": options, "played": move, "nd": no_double,
                                       "dt": take, "dp": cash}) + "\n")
                dump.flush()
            errors = oracle.tell(f"move {move}")
            if errors:
                raise SystemExit(f"the record's move {move} is refused in {fen}: {errors}")
    oracle.close()
    print(f"cube decisions judged by gnubg {args.judge}-ply (equity lost in points)")
    for name, row in sorted(tally.items()):
        wrong = ", ".join(f"{row[k]} {k}" for k in
                          ("missed doubles", "wrong doubles", "wrong takes", "wrong drops"))
        print(f"{name}: {played[name]} games, {row['double decisions']} double and "
              f"{row['take decisions']} take decisions; wrong: {wrong}; lost {row['lost']:.3f} "
              f"({row['lost'] / played[name]:.4f} per game: {row['lost doubling'] / played[name]:.4f} "
              f"doubling, {row['lost taking'] / played[name]:.4f} taking)")


if __name__ == "__main__":
    main()
