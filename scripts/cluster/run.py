#!/usr/bin/env python3
"""Runs tabula's heavy jobs on a Ray cluster (docs/cluster.md):

  run.py match  [--shards N] [--out DIR] [--record FILE] [--kill-after S] -- ARENA ARGS...
  run.py tables [--max K] [--max-total T] [--flying true|false|both] [--out DIR]
  run.py selfplay [--rounds R] [--workers W] [--games G] [--hidden H] [--alpha X] [--seed S]
                  [--out DIR]

Every command takes --address (default: auto, the cluster `ray start` made) and --bin (the
directory of the release binaries, the same path on every node; default this checkout's
target/release). Every value is checked, and the binaries found, before the cluster is
joined: a bad one is a usage error (status 2), not a task failing on the cluster.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import common  # noqa: E402


def ranged(low, high=None, kind=int):
    """An argparse type: a number of `kind` from `low` to `high` (inclusive; no upper bound
    when None)."""

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text} is not a number") from None
        if value != value or value < low or (high is not None and value > high):
            bound = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{text} is not {bound}")
        return value

    return parse


def main(argv=None):
    root = os.path.dirname(os.path.dirname(common.HERE))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--address", default="auto")
    parser.add_argument("--bin", default=os.path.join(root, "target", "release"))
    sub = parser.add_subparsers(dest="command", required=True)
    defaults = argparse.ArgumentDefaultsHelpFormatter
    m = sub.add_parser("match", help="an arena match as shards", formatter_class=defaults)
    m.add_argument("--shards", type=ranged(1, 10_000), default=8)
    m.add_argument("--out", default="cluster-match")
    m.add_argument("--record")
    m.add_argument("--kill-after", type=ranged(0.0, kind=float),
                   help="SIGKILL one busy worker after S seconds")
    m.add_argument("arena_args", nargs=argparse.REMAINDER)
    t = sub.add_parser("tables", help="Morris endgame tables, a task per material pair",
                       formatter_class=defaults)
    t.add_argument("--max", type=ranged(3, 9), default=3, help="most men a side has")
    t.add_argument("--max-total", type=ranged(6, 18), default=argparse.SUPPRESS,
                   help="most men in all (when not given: 2 x max)")
    t.add_argument("--flying", choices=["true", "false", "both"], default="true")
    t.add_argument("--out", default="tablebases")
    s = sub.add_parser("selfplay", help="backgammon training: workers play, a learner learns",
                       formatter_class=defaults)
    s.add_argument("--rounds", type=ranged(1, 100_000), default=10)
    s.add_argument("--workers", type=ranged(1, 999), default=2)
    s.add_argument("--games", type=ranged(1, 10**8), default=500,
                   help="games per worker and round")
    s.add_argument("--hidden", type=ranged(1, 256), default=80)
    s.add_argument("--alpha", type=ranged(1e-9, 10.0, kind=float), default=0.1)
    # Worker seeds are seed * 1,000,003 + round * 1,000 + worker: this keeps them in u64.
    s.add_argument("--seed", type=ranged(0, 10**12), default=1)
    s.add_argument("--out", default="cluster-selfplay")
    args = parser.parse_args(argv)
    # Everything checked here, before joining the cluster: a mistake is a usage error, not a
    # traceback from a task (or a connection error hiding it when no cluster is up).
    if args.command == "match":
        # Only the first `--` separates run.py's options from arena's.
        arena_args = args.arena_args[1:] if args.arena_args[:1] == ["--"] else args.arena_args
        if not arena_args:
            parser.error("match: give arena's arguments after --")
        if args.record and not os.path.isdir(os.path.dirname(os.path.abspath(args.record))):
            parser.error(f"match: --record {args.record}: no such directory")
        binary = common.binary(args.bin, "arena")
    elif args.command == "tables":
        total = getattr(args, "max_total", 2 * args.max)
        if total > 2 * args.max:
            parser.error(f"tables: --max-total {total} is more than 2 x --max {args.max}")
        binary = common.binary(args.bin, "morris-tb")
    else:
        binary = common.binary(args.bin, "backgammon-train")
    common.connect(args.address)
    if args.command == "match":
        import matches

        print(matches.run_match(binary, arena_args, args.shards, args.out, args.record,
                                args.kill_after), end="")
    elif args.command == "tables":
        import tables

        flying = "both" if args.flying == "both" else args.flying == "true"
        tables.run_tables(binary, args.max, total, flying, args.out)
    else:
        import selfplay

        print(selfplay.run_selfplay(binary, args.rounds, args.workers, args.games,
                                    args.hidden, args.alpha, args.seed, args.out))


if __name__ == "__main__":
    main()
