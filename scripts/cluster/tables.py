"""Morris endgame tables on a Ray cluster: one task per material pair (`morris-tb --only
MvO`, building MvO and OvM), started with the outputs of the pairs its captures lead into as
arguments, so Ray runs it once those are done. Table files travel as task results (bytes), so
nodes share no disk; the driver gathers them into one directory."""

import os
import tempfile
import time

import ray

import common


def pairs(max_side, max_total):
    """The pairs (m, o), m <= o, with 3..max_side pieces a side and at most max_total in all,
    smallest total first (morris-tb's order)."""
    return [
        (m, total - m)
        for total in range(6, min(max_total, 2 * max_side) + 1)
        for m in range(3, max_side + 1)
        if m <= total - m <= max_side
    ]


def depends_on(m, o):
    """The pairs whose tables the captures of pair (m, o) lead into: (o-1)vm and (m-1)vo
    (`Tablebase::captures_into`), each as its pair (smaller count first)."""
    needed = {tuple(sorted(t)) for t in [(o - 1, m), (m - 1, o)] if min(t) >= 3}
    return sorted(needed)


@ray.remote(max_retries=3, num_cpus=1)
def build_pair(morris_tb, flying, m, o, *inputs):
    """Builds pair (m, o) from `inputs` (dicts of file name to bytes): its files by name."""
    with tempfile.TemporaryDirectory() as tmp:
        for files in inputs:
            for name, data in files.items():
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(data)
        before = set(os.listdir(tmp))
        common.run_binary(
            [morris_tb, "--only", f"{m}v{o}", "--flying", str(flying).lower(), "--dir", tmp]
        )
        out = {}
        for name in sorted(set(os.listdir(tmp)) - before):
            with open(os.path.join(tmp, name), "rb") as f:
                out[name] = f.read()
        return out


def run_tables(morris_tb, max_side, max_total, flying, out_dir, log=common.log):
    """Builds every pair up to the limits through Ray; writes the files to `out_dir`."""
    os.makedirs(out_dir, exist_ok=True)
    start = time.time()
    refs = {}
    for m, o in pairs(max_side, max_total):
        inputs = [refs[p] for p in depends_on(m, o)]
        refs[(m, o)] = build_pair.remote(morris_tb, flying, m, o, *inputs)
    names = {ref: pair for pair, ref in refs.items()}
    pending = list(refs.values())
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        files = ray.get(ready[0])
        for name, data in files.items():
            with open(os.path.join(out_dir, name), "wb") as f:
                f.write(data)
        m, o = names[ready[0]]
        log(f"[{time.time() - start:6.1f}s] built {m}v{o}: {', '.join(sorted(files))}")
    return sorted(os.listdir(out_dir))
