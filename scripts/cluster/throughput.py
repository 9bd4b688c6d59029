#!/usr/bin/env python3
"""Match throughput against the number of Ray worker processes on this machine: for each
count K, a local 2-node cluster (ray.cluster_utils.Cluster) with K CPUs in all plays the same
sharded Bombardment match (depth 2 against depth 1) and the games per second are printed.

  throughput.py BIN_DIR [GAMES] [SHARDS] [K...]     (defaults: 400 games, 8 shards, 1 2 4)
"""

import os
import sys
import tempfile
import time

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

import common  # noqa: E402
import matches  # noqa: E402

STORE = 80 * 1024 * 1024


def main():
    bin_dir = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    shards = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    counts = [int(k) for k in sys.argv[4:]] or [1, 2, 4]
    arena, tabula = common.binary(bin_dir, "arena"), common.binary(bin_dir, "tabula")
    args = ["--game", "bombardment", "--engine", f"cmd={tabula},name=d2,tc=depth=2",
            "--engine", f"cmd={tabula},name=d1,tc=depth=1", "--games", str(games),
            "--seed", "1", "--random-plies", "4"]
    for k in counts:
        # Half the CPUs on each node (the head gets the odd one).
        cluster = Cluster(initialize_head=True,
                          head_node_args={"num_cpus": (k + 1) // 2, "object_store_memory": STORE,
                                          "include_dashboard": False})
        cluster.add_node(num_cpus=k // 2, object_store_memory=STORE)
        try:
            common.connect(cluster.address)
            with tempfile.TemporaryDirectory() as tmp:
                start = time.time()
                matches.run_match(arena, args, shards, tmp, log=lambda line: None)
                wall = time.time() - start
            print(f"{k} worker processes: {games} games in {wall:.1f} s, "
                  f"{games / wall:.1f} games/s", flush=True)
        finally:
            ray.shutdown()
            cluster.shutdown()


if __name__ == "__main__":
    main()
