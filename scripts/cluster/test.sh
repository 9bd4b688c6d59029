#!/usr/bin/env bash
# The Ray drivers' test (scripts/cluster/test_cluster.py) on a local 2-node cluster, with the
# binaries in BIN_DIR (default target/debug, which `cargo test` builds). When the system
# python3 cannot import Ray, installs it in a virtualenv, target/cluster-venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin_dir="${1:-target/debug}"
if ! command -v python3 >/dev/null; then
    apt-get update -qq && apt-get install -y --no-install-recommends python3 python3-venv
fi
python=python3
if ! python3 -c "import ray" 2>/dev/null; then
    venv=target/cluster-venv
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv" 2>/dev/null || {
            apt-get update -qq && apt-get install -y --no-install-recommends python3-venv
            python3 -m venv "$venv"
        }
    fi
    "$venv/bin/python" -c "import ray" 2>/dev/null || "$venv/bin/python" -m pip install --quiet ray
    python="$venv/bin/python"
fi
exec "$python" scripts/cluster/test_cluster.py "$bin_dir"
