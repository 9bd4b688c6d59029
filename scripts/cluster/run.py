#!/usr/bin/env python3
"""Runs tabula's heavy jobs on a Ray cluster (docs/cluster.md):

  run.py match  [--shards N] [--out DIR] [--record FILE] -- ARENA ARGS...
  run.py tables --max K [--max-total T] [--flying true|false] --out DIR
  run.py selfplay --rounds R --workers W --games G [--hidden H] [--alpha X] [--seed S] --out DIR

Every command takes --address (default: auto, the cluster `ray start` made) and --bin (the
directory of the release binaries, the same path on every node; default target/release).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import common  # noqa: E402


def main(argv=None):
    root = os.path.dirname(os.path.dirname(common.HERE))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default="auto")
    parser.add_argument("--bin", default=os.path.join(root, "target", "release"))
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="an arena match as shards")
    m.add_argument("--shards", type=int, default=8)
    m.add_argument("--out", default="cluster-match")
    m.add_argument("--record")
    m.add_argument("--kill-after", type=float, help="SIGKILL one busy worker after S seconds")
    m.add_argument("arena_args", nargs=argparse.REMAINDER)
    t = sub.add_parser("tables", help="Morris endgame tables, a task per material pair")
    t.add_argument("--max", type=int, default=3)
    t.add_argument("--max-total", type=int)
    t.add_argument("--flying", choices=["true", "false"], default="true")
    t.add_argument("--out", default="tablebases")
    s = sub.add_parser("selfplay", help="backgammon training: workers play, a learner learns")
    s.add_argument("--rounds", type=int, default=10)
    s.add_argument("--workers", type=int, default=2)
    s.add_argument("--games", type=int, default=500, help="games per worker and round")
    s.add_argument("--hidden", type=int, default=80)
    s.add_argument("--alpha", type=float, default=0.1)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", default="cluster-selfplay")
    args = parser.parse_args(argv)
    common.connect(args.address)
    if args.command == "match":
        import matches

        arena_args = [a for a in args.arena_args if a != "--"]
        arena = common.binary(args.bin, "arena")
        print(matches.run_match(arena, arena_args, args.shards, args.out, args.record,
                                args.kill_after), end="")
    elif args.command == "tables":
        import tables

        morris_tb = common.binary(args.bin, "morris-tb")
        total = args.max_total or 2 * args.max
        tables.run_tables(morris_tb, args.max, total, args.flying == "true", args.out)
    else:
        import selfplay

        trainer = common.binary(args.bin, "backgammon-train")
        print(selfplay.run_selfplay(trainer, args.rounds, args.workers, args.games,
                                    args.hidden, args.alpha, args.seed, args.out))


if __name__ == "__main__":
    main()
