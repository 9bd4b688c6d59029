#!/usr/bin/env python3
"""The take decisions of whole matches judged by GNU Backgammon, and put again to tabula.

Usage: .venv-gnubg/bin/python scripts/gnubg-mat-takes.py MAT_OR_DIR... [--judge PLIES]
       [--tabula PATH] [--go CMD]... [--out FILE]
       python3 scripts/gnubg-mat-takes.py --judged OUT_FILE... [--tabula PATH] --go CMD...

Every `.mat` file (a directory stands for the `.mat` files in it, as `arena --match N --mat DIR`
writes them) is read by `backgammon-mat show --positions`, which gives the position of every
action with the match score and the Crawford flag. At every double that was answered, gnubg's cubeful match
winning chances (MWC) of double/take and double/pass come from its `eval` of tabula's XGID at
--judge plies (default 2) and at 0 plies. Prints, in percentage points of MWC per match:

- per player of the files, its takes, the wrong ones (a take where passing wins more, or the
  reverse) and the MWC they lost, the sum gnubg's own match analysis (`gnubg-mat-cube.py`)
  reports as wrong takes and passes;
- on all of those positions, both players' answers together: what gnubg 0-ply's answer
  would lose, and for each --go command (e.g. `go depth 3`) what the tabula build's answer
  loses, with the mean and spread of its take MWC (its `info string cube` line) less the
  judge's. The positions come from matches already played, so a build is judged on answers it
  was not tuned on only when the matches differ from those it was tuned on.

--out writes each position as a JSON line (file, game, XGID, cube, the answer played, the
judge's and 0-ply's MWC, each --go answer and take MWC).

--judged reads such files instead of match files and puts their positions to the build again
without gnubg (gnubg 0-ply's figures come from the file; about 40 s for 1,300 answers): the
quick way to compare builds, e.g. two cube networks, on positions judged once. The spread is
also given apart for first doubles and redoubles: a redouble's match equities swing twice as
far, and so do the errors.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
gnubg = engine = None


def load_script(name):
    """A module of scripts/ whose file name is not an identifier."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"),
                                                  os.path.join(ROOT, "scripts", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Tabula = load_script("gnubg-cube-replay").Tabula


def load_gnubg():
    """The gnubg module and scripts/gnubg-engine.py, needed only to judge match files."""
    global engine, gnubg
    from requires import require
    gnubg = require("gnubg")
    engine = load_script("gnubg-engine")

LINE = re.compile(r"^\d\. (?:Re)?[Dd]ouble, (take|pass)\s+([+-]?\d+\.\d+)%")
CUBE = re.compile(r"mwc ([\d.]+)% ([\d.]+)%")


def doubler_mwc(xgid, plies):
    """gnubg's cubeful MWC (double/take, double/pass) of the doubler, in percent."""
    engine.printed(f"set evaluation cubedecision eval plies {plies}")
    engine.printed(lambda: gnubg.set_gnubg_id(xgid))
    found = {}
    for line in engine.printed("eval").splitlines():
        match = LINE.match(line.strip())
        if match:
            found[match.group(1)] = float(match.group(2))
    if len(found) != 2:
        raise SystemExit(f"gnubg gave no cube equities for {xgid}")
    return found["take"], found["pass"]


def mat_files(paths):
    """The .mat files named, a directory standing for the ones in it."""
    for path in paths:
        yield from sorted(glob.glob(os.path.join(path, "*.mat"))) if os.path.isdir(path) else [path]


def answered_doubles(path, oracle):
    """The match length, and (game, answering player's name, XGID, cube before the double,
    `take` or `drop`) of every answered double of a match file, from `backgammon-mat show
    --positions`."""
    names = re.findall(r"(\S+) : \d+", next(l for l in open(path) if " : " in l))
    colour = {"white": names[0], "black": names[1]}
    shown = subprocess.run([os.path.join(ROOT, "target/release/backgammon-mat"), "show",
                            "--positions", path], capture_output=True, text=True, check=True)
    lines = shown.stdout.splitlines()
    length = int(lines[0].split()[1])
    oracle.tell(f"newgame backgammon cube=on match={length}")
    doubles = []
    for line in lines[1:]:
        action, _, fen = line.partition(" | ")
        words = action.split()
        if len(words) != 4 or words[3] not in ("take", "drop"):
            continue
        errors = oracle.tell(f"position fen {fen}")
        if errors:
            raise SystemExit(f"{path}: {errors}")
        cube = next((int(w[5:].split(":")[0]) for w in fen.split() if w.startswith("cube=")), 1)
        xgid = oracle.ask("fen xgid", "xgid")[0].split(" ", 1)[1]
        doubles.append((int(words[1]), colour[words[2]], xgid, cube, words[3]))
    return length, doubles


def tabula_answer(build, length, xgid, go):
    """A build's answer and take MWC (percent; `None` without a cube line) to the double of
    an XGID."""
    answer, note = build.decide(f"cube=on match={length}", xgid, go)
    found = CUBE.search(note)
    return answer, float(found.group(1)) if found else None


def lost(answer, take, drop):
    """The taker's MWC lost by an answer, given the doubler's MWC after a take and a drop."""
    return max(0.0, (take - drop) if answer == "take" else (drop - take))


def spread_line(errors):
    """The mean and spread of take MWC errors, for a summary line."""
    return f"mean {statistics.mean(errors):+.2f}, spread {statistics.pstdev(errors):.2f}"


def judged_records(paths):
    """The match count and positions of --out files, a match being a file name within one."""
    matches, records = 0, []
    for path in paths:
        rows = [json.loads(line) for line in open(path) if line.strip()]
        matches += len({row["file"] for row in rows})
        records += rows
    return matches, records


def replay(args):
    """--judged: each --go answer of a build on positions judged before."""
    matches, records = judged_records(args.judged)
    build = Tabula(args.tabula)
    print(f"{matches} matches, {len(records)} answered doubles")
    for go in ["gnubg 0-ply", *args.go]:
        mwc_lost, wrong, errors = 0.0, 0, {"first doubles": [], "redoubles": []}
        for record in records:
            if go == "gnubg 0-ply":
                answer = "take" if record["take0"] <= record["drop0"] else "drop"
                taker_take = 100 - record["take0"]
            else:
                length = int(record["xgid"].split(":")[8])
                answer, taker_take = tabula_answer(build, length, record["xgid"], go)
            loss = lost(answer, record["take"], record["drop"])
            mwc_lost += loss
            wrong += loss > 0
            if taker_take is not None:
                kind = "first doubles" if record["cube"] == 1 else "redoubles"
                errors[kind].append(taker_take - (100 - record["take"]))
        line = f"all answers by {go}: {wrong} wrong, {mwc_lost / matches:.3f}% MWC lost per match"
        both = errors["first doubles"] + errors["redoubles"]
        if both:
            line += f"; take MWC less the judge's: {spread_line(both)}"
        print(line)
        for kind, values in errors.items():
            if values:
                print(f"  {kind} ({len(values)}): {spread_line(values)}")
    build.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mats", nargs="*")
    parser.add_argument("--judged", nargs="+", metavar="OUT_FILE")
    parser.add_argument("--judge", type=int, default=2, choices=range(0, 3))
    parser.add_argument("--tabula", default=os.path.join(ROOT, "target/release/tabula"))
    parser.add_argument("--go", action="append", default=[])
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.judged:
        if args.mats or args.out or not args.go:
            parser.error("--judged takes --go commands and no match files or --out")
        replay(args)
        return
    if not args.mats:
        parser.error("name match files or --judged files")
    load_gnubg()
    engine.printed("set threads 1")
    engine.printed("set output mwc on")
    oracle = engine.Oracle(args.tabula)
    build = Tabula(args.tabula) if args.go else None
    out = open(args.out, "w") if args.out else None
    players = {}
    all_lost = {"gnubg 0-ply": 0.0, **{go: 0.0 for go in args.go}}
    take_error = {go: [] for go in args.go}
    matches = positions = 0
    for path in mat_files(args.mats):
        matches += 1
        length, doubles = answered_doubles(path, oracle)
        for game, name, xgid, cube, played in doubles:
            positions += 1
            take, drop = doubler_mwc(xgid, args.judge)
            take0, drop0 = doubler_mwc(xgid, 0)
            row = players.setdefault(name, [0, 0, 0.0])
            row[0] += 1
            row[1] += lost(played, take, drop) > 0
            row[2] += lost(played, take, drop)
            all_lost["gnubg 0-ply"] += lost("take" if take0 <= drop0 else "drop", take, drop)
            record = {"file": os.path.basename(path), "game": game, "xgid": xgid, "cube": cube,
                      "player": name, "played": played, "take": take, "drop": drop,
                      "take0": take0, "drop0": drop0}
            for go in args.go:
                answer, taker_take = tabula_answer(build, length, xgid, go)
                all_lost[go] += lost(answer, take, drop)
                if taker_take is not None:
                    take_error[go].append(taker_take - (100 - take))
                record[go] = (answer, taker_take)
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
    oracle.close()
    if build:
        build.close()
    print(f"{matches} matches, {positions} answered doubles")
    for name, (n, wrong, mwc) in sorted(players.items()):
        print(f"{name}: {n} answers, {wrong} wrong, {mwc / matches:.3f}% MWC lost per match")
    for who, mwc in all_lost.items():
        line = f"all answers by {who}: {mwc / matches:.3f}% MWC lost per match"
        if take_error.get(who):
            errors = take_error[who]
            line += f"; take MWC less the judge's: {spread_line(errors)}"
        print(line)


if __name__ == "__main__":
    main()
