#!/usr/bin/env python3
"""Cube decisions of whole matches judged by GNU Backgammon's own match analysis, per player.

Usage: python3 scripts/gnubg-mat-cube.py [--plies N] [--jobs J] [--json FILE] MAT_OR_DIR...
       python3 scripts/gnubg-mat-cube.py --from-json FILE...

Every `.mat` file (a directory stands for the `.mat` files in it: what `arena --match N --mat
DIR` writes) is imported by Debian's gnubg in tty mode (`scripts/gnubg-debian.sh` installs it),
analysed for cube action only (`analyse match` with chequer play and luck off, cube decisions
cubeful at --plies, default 2) and its `show statistics match` read. Prints per player name,
over all matches: the decisions gnubg counts, the wrong ones by kind, and the error in match
winning chance (MWC, percentage points lost per match) and in EMG (gnubg's normalized money
equivalent, per match). --json writes one line per match with the per-player figures, so that
two runs can be compared match by match; --from-json sums such files again (several runs
together) without gnubg. With two players it also prints the first's MWC lost per match less
the second's, in doubling (missed and wrong doubles), taking (wrong takes and passes) and all,
each with its 95% interval (two standard errors of the per-match differences): the two
players' decisions come from the same matches, so the difference is measured more finely
than either rate alone.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import statistics
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ["Missed doubles below CP", "Missed doubles above CP", "Wrong doubles below DP",
         "Wrong doubles above TG", "Wrong takes", "Wrong passes"]
COUNTS = ["Total cube decisions", "Close or actual cube decisions", "Doubles", "Takes", "Passes"]
# "1 (-0.030 ( -0.235%))", "0", or the total's "-0.030 ( -0.235%)"
CELL = re.compile(r"(?:(\d+)\s*)?(?:\(?\s*([+-]?\d+\.\d+)\s*\(\s*([+-]?\d+\.\d+)%\)\)?)?")


def cells(text):
    """The two players' cells of a statistics row: the text after the label, split on runs of
    two or more spaces that separate the columns."""
    return [c for c in re.split(r"\s{2,}", text.strip()) if c]


def parse(stats):
    """Per player name: counts, wrong decisions by kind (count, EMG, MWC%) and the error total
    (EMG, MWC%) of gnubg's `show statistics match` output's cube section."""
    lines = stats.splitlines()
    header = next(l for l in lines if l.startswith("Player "))
    names = cells(header[len("Player"):])
    if len(names) != 2:
        raise ValueError(f"cannot read the players from {header!r}")
    start = next(i for i, l in enumerate(lines) if l.strip() == "Cube statistics")
    section = []
    for line in lines[start + 1:]:
        if line.strip() == "Overall statistics":
            break
        section.append(line)
    out = {name: {"counts": {}, "wrong": {}, "emg": 0.0, "mwc": 0.0} for name in names}
    for line in section:
        label = next((k for k in COUNTS + KINDS + ["Error total EMG (MWC)"] if line.startswith(k)), None)
        if label is None:
            continue
        rest = line[len(label):]
        rest = rest[len(" (EMG (MWC))"):] if rest.startswith(" (EMG (MWC))") else rest
        values = cells(rest)
        if len(values) != 2:
            raise ValueError(f"cannot read two columns from {line!r}")
        for name, value in zip(names, values):
            m = CELL.fullmatch(value.strip())
            if not m:
                raise ValueError(f"cannot read {value!r} in {line!r}")
            count, emg, mwc = m.group(1), m.group(2), m.group(3)
            if label in COUNTS:
                out[name]["counts"][label] = int(count)
            elif label in KINDS:
                out[name]["wrong"][label] = (int(count), float(emg or 0), float(mwc or 0))
            else:
                out[name]["emg"], out[name]["mwc"] = float(emg), float(mwc)
    return out


def analyse(path, gnubg, plies):
    """gnubg's cube statistics of one match file."""
    commands = ["set analysis moves off", "set analysis luck off", "set analysis cube on",
                f"set analysis cubedecision evaluation plies {plies}",
                "set analysis cubedecision evaluation cubeful on",
                f"import mat {os.path.abspath(path)}", "analyse match", "show statistics match"]
    with tempfile.TemporaryDirectory() as home:
        run = subprocess.run([gnubg, "-t", "-q", "-r"], input="\n".join(commands) + "\n",
                             capture_output=True, text=True, timeout=1800,
                             env={**os.environ, "HOME": home})
    try:
        return parse(run.stdout)
    except (StopIteration, ValueError) as e:
        raise SystemExit(f"{path}: gnubg's statistics could not be read ({e}):\n"
                         f"{run.stdout[-2000:]}{run.stderr[-2000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--from-json", nargs="+", metavar="FILE")
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args()
    if args.from_json:
        if args.paths or args.json:
            ap.error("--from-json takes no match files and no --json")
        records = read_json(args.from_json)
        print(f"{len(records)} matches, from {', '.join(args.from_json)}")
        summarize(records)
        return
    if not args.paths:
        ap.error("name match files or --from-json files")
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".mat"))
        else:
            files.append(p)
    if not files:
        raise SystemExit("no .mat files")
    gnubg = subprocess.run([os.path.join(ROOT, "scripts/gnubg-debian.sh")], check=True,
                           capture_output=True, text=True).stdout.strip()
    dump = open(args.json, "w") if args.json else None
    records = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, stats in zip(files, pool.map(lambda f: analyse(f, gnubg, args.plies), files)):
            if dump:
                dump.write(json.dumps({"file": path, "players": stats}) + "\n")
            records.append(stats)
    print(f"{len(files)} matches, cube decisions judged by gnubg {args.plies}-ply (match analysis)")
    summarize(records)


def lost_by_part(stats):
    """A player's MWC (percentage points) lost in one match: doubling, taking and all."""
    doubling = sum(abs(mwc) for kind, (_, _, mwc) in stats["wrong"].items() if "double" in kind)
    taking = sum(abs(mwc) for kind, (_, _, mwc) in stats["wrong"].items()
                 if "double" not in kind)
    return doubling, taking, abs(stats["mwc"])


def summarize(records):
    """Prints the per-player totals of per-match statistics, and the paired difference of two
    players' MWC lost."""
    total = collections.defaultdict(lambda: {"matches": 0, "emg": 0.0, "mwc": 0.0,
                                             "counts": collections.Counter(),
                                             "wrong": collections.Counter()})
    for stats in records:
        for name, s in stats.items():
            t = total[name]
            t["matches"] += 1
            t["emg"] += s["emg"]
            t["mwc"] += s["mwc"]
            t["counts"].update(s["counts"])
            for kind, (count, _, _) in s["wrong"].items():
                t["wrong"][kind] += count
    for name, t in sorted(total.items()):
        n = t["matches"]
        wrong = ", ".join(f"{k.lower()} {t['wrong'][k]}" for k in KINDS)
        print(f"{name}: {t['counts']['Total cube decisions']} decisions "
              f"({t['counts']['Close or actual cube decisions']} close or actual), {wrong}; "
              f"lost {t['mwc'] / n:+.3f}% MWC and {t['emg'] / n:+.4f} EMG per match")
    names = sorted(total)
    pairs = [(r[names[0]], r[names[1]]) for r in records if len(names) == 2 and len(r) == 2]
    if len(pairs) < 2:
        return
    parts = []
    for i, part in enumerate(["doubling", "taking", "all"]):
        diffs = [lost_by_part(a)[i] - lost_by_part(b)[i] for a, b in pairs]
        half = 2 * statistics.stdev(diffs) / len(diffs) ** 0.5
        parts.append(f"{part} {statistics.mean(diffs):+.3f} ± {half:.3f}")
    print(f"{names[0]} less {names[1]}, MWC lost per match: {', '.join(parts)}")


def read_json(paths):
    """The per-match statistics of --json files."""
    return [json.loads(line)["players"] for path in paths for line in open(path) if line.strip()]

if __name__ == "__main__":
    sys.exit(main())
