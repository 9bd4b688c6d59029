#!/usr/bin/env python3
"""The Ray drivers on a local 2-node cluster (ray.cluster_utils.Cluster, one CPU a node):
a sharded match with one worker killed mid-run merges to exactly the single arena run; Morris
tables built pair by pair through Ray are byte-identical to one `morris-tb` run; distributed
self-play gives exactly the weights of the same rounds played and learnt locally. First,
without a cluster, run.py's bad command lines are usage errors before it joins one.

  test_cluster.py BIN_DIR   (the binaries arena, tabula, morris-tb, backgammon-train)
"""

import filecmp
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

import common  # noqa: E402
import matches  # noqa: E402
import run  # noqa: E402
import selfplay  # noqa: E402
import tables  # noqa: E402

STORE = 80 * 1024 * 1024  # bytes of object store a node: the jobs move a few MB at most


def log(line):
    print(f"  {line}", flush=True)


def check_match(bin_dir, tmp):
    arena, tabula = common.binary(bin_dir, "arena"), common.binary(bin_dir, "tabula")
    args = ["--game", "bombardment", "--game-options", "size=6",
            "--engine", f"cmd={tabula},name=d2,tc=depth=2",
            "--engine", f"cmd={tabula},name=d1,tc=depth=1",
            "--games", "160", "--seed", "11", "--random-plies", "2"]
    single = subprocess.run([arena, *args, "--quiet", "--record", f"{tmp}/single.rec"],
                            capture_output=True, text=True, check=True).stdout
    merged = matches.run_match(arena, args, 4, f"{tmp}/match", f"{tmp}/merged.rec",
                               kill_after=0, log=log)
    assert merged == single, f"merged:\n{merged}\nsingle:\n{single}"
    assert filecmp.cmp(f"{tmp}/single.rec", f"{tmp}/merged.rec", shallow=False)
    assert "160 games" in merged, merged
    print("ok: 160 games in 4 shards, one worker killed: merged output and records equal "
          "the single run")


def check_tables(bin_dir, tmp):
    morris_tb = common.binary(bin_dir, "morris-tb")
    os.makedirs(f"{tmp}/one")
    subprocess.run([morris_tb, "--max", "4", "--max-total", "7", "--flying", "false",
                    "--dir", f"{tmp}/one"], check=True, capture_output=True)
    names = tables.run_tables(morris_tb, 4, 7, False, f"{tmp}/ray", log=log)
    assert names == sorted(os.listdir(f"{tmp}/one")), names
    assert len(names) == 3, names
    match, mismatch, errors = filecmp.cmpfiles(f"{tmp}/one", f"{tmp}/ray", names, shallow=False)
    assert not mismatch and not errors, (mismatch, errors)
    assert tables.depends_on(4, 4) == [(3, 4)] and tables.depends_on(4, 5) == [(3, 5), (4, 4)]
    # A rerun after a lost file rebuilds only that pair (3v3 is reused), identically.
    os.remove(f"{tmp}/ray/morris-nofly-4v3.tb")
    lines = []
    again = tables.run_tables(morris_tb, 4, 7, False, f"{tmp}/ray", log=lines.append)
    assert again == names, again
    assert any(line.startswith("reusing 3v3") for line in lines), lines
    assert sum(" built 3v4 " in line for line in lines) == 1, lines
    match, mismatch, errors = filecmp.cmpfiles(f"{tmp}/one", f"{tmp}/ray", names, shallow=False)
    assert not mismatch and not errors, (mismatch, errors)
    print(f"ok: Morris tables {', '.join(names)} through Ray byte-identical to morris-tb, "
          "and a rerun rebuilds only the missing pair")


def check_selfplay(bin_dir, tmp):
    trainer = common.binary(bin_dir, "backgammon-train")
    final = selfplay.run_selfplay(trainer, 2, 2, 40, 8, 0.1, 3, f"{tmp}/sp", log=log)
    # The same rounds on this machine: the workers' seeds and the learner's file order.
    weights = f"{tmp}/sp/round-0.weights"
    for r in (1, 2):
        games = []
        for w in range(2):
            games.append(f"{tmp}/local-{r}-{w}.txt")
            subprocess.run([trainer, "--play-to", games[-1], "--from", weights, "--games", "40",
                            "--seed", str(3 * 1_000_003 + r * 1000 + w)], check=True)
        following = f"{tmp}/local-{r}.weights"
        subprocess.run([trainer, "--learn-from", *games, "--from", weights, "--alpha", "0.1",
                        "--out", following], check=True)
        weights = following
    assert filecmp.cmp(final, weights, shallow=False)
    assert not filecmp.cmp(final, f"{tmp}/sp/round-0.weights", shallow=False)
    print("ok: 2 rounds of 2 x 40 self-play games through Ray give the local run's weights")


def check_usage_errors(bin_dir):
    """Bad values are refused before any cluster is joined (none is up yet): status 2."""
    bad = [
        ["match", "--shards", "0", "--", "--game", "nim"],
        ["match"],
        ["match", "--record", "/nonexistent/dir/r.txt", "--", "--game", "nim"],
        ["tables", "--max", "2"],
        ["tables", "--max", "3", "--max-total", "7"],
        ["selfplay", "--hidden", "0"],
        ["selfplay", "--alpha", "nan"],
        ["selfplay", "--seed", "-1"],
        ["selfplay", "--workers", "1000"],
    ]
    for args in bad:
        try:
            run.main(["--bin", bin_dir, *args])
        except SystemExit as e:
            assert e.code == 2, (args, e.code)
        else:
            raise AssertionError(f"{args} was accepted")
    print(f"ok: {len(bad)} bad command lines refused before joining a cluster")


def main():
    bin_dir = sys.argv[1]
    check_usage_errors(bin_dir)
    started = time.time()
    cluster = Cluster(initialize_head=True,
                      head_node_args={"num_cpus": 1, "object_store_memory": STORE,
                                      "include_dashboard": False})
    cluster.add_node(num_cpus=1, object_store_memory=STORE)
    try:
        common.connect(cluster.address)
        print(f"2-node cluster up in {time.time() - started:.0f}s")
        with tempfile.TemporaryDirectory() as tmp:
            check_match(bin_dir, tmp)
            check_tables(bin_dir, tmp)
            check_selfplay(bin_dir, tmp)
    finally:
        ray.shutdown()
        cluster.shutdown()
    print(f"cluster tests passed in {time.time() - started:.0f}s")


if __name__ == "__main__":
    main()
