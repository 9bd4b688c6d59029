"""Morris endgame tables on a Ray cluster: one task per material pair (`morris-tb --only
MvO`, building MvO and OvM), started with the outputs of the pairs its captures lead into as
arguments, so Ray runs it once those are done. Table files travel as task results (bytes), so
nodes share no disk; the driver gathers them into one directory, writing each file under a
temporary name and renaming it, so a file under its final name is complete. A rerun reuses
the pairs whose files the directory already holds (their checksums are verified by
`morris-tb --only` when a task reads them, which refuses a corrupt file by name)."""

import math
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


def memory_bytes(m, o):
    """About the memory a task needs: 3 bytes a slot for the pair being built (slots are
    about 1/16 of the positions plus up to 27 % in symmetric rows) and 1 byte a slot for the
    tables it reads, with a quarter more for the level queues and the runtime."""
    def slots(a, b):
        return math.comb(24, a) * math.comb(24 - a, b) * 1.3 / 16
    built = slots(m, o) + (slots(o, m) if m != o else 0)
    read = sum(slots(a, b) for a, b in [(o - 1, m), (m - 1, o)] if a >= 3)
    return int((3 * built + read) * 1.25) + (200 << 20)


@ray.remote(max_retries=3, num_cpus=1)
def build_pair(morris_tb, flying, m, o, *inputs):
    """Builds pair (m, o) from `inputs` (dicts of file name to bytes): its files by name."""
    with tempfile.TemporaryDirectory() as tmp:
        for files in inputs:
            for name, data in files.items():
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(data)
        before = set(os.listdir(tmp))
        # One thread, as the task asked Ray for one CPU; no checkpoints, as the directory
        # goes with the task (a retried task starts from nothing anyway).
        common.run_binary(
            [morris_tb, "--only", f"{m}v{o}", "--flying", str(flying).lower(), "--dir", tmp,
             "--threads", "1", "--checkpoint-minutes", "0"]
        )
        out = {}
        for name in sorted(set(os.listdir(tmp)) - before):
            with open(os.path.join(tmp, name), "rb") as f:
                out[name] = f.read()
        return out


def write_file(path, data):
    """Writes `data` under `path` through a synced temporary file and a rename."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def existing(out_dir, flying, m, o):
    """The files of pair (m, o) already in `out_dir` (name to bytes), or None if one is
    missing."""
    kind = "fly" if flying else "nofly"
    names = {f"morris-{kind}-{a}v{b}.tb" for a, b in [(m, o), (o, m)]}
    if not all(os.path.exists(os.path.join(out_dir, n)) for n in names):
        return None
    files = {}
    for name in sorted(names):
        with open(os.path.join(out_dir, name), "rb") as f:
            files[name] = f.read()
    return files


def run_tables(morris_tb, max_side, max_total, flying, out_dir, log=common.log):
    """Builds every pair up to the limits through Ray (`flying` True, False or "both");
    writes the files to `out_dir`, reusing the pairs already there."""
    os.makedirs(out_dir, exist_ok=True)
    start = time.time()
    refs = {}
    names = {}
    for fly in [True, False] if flying == "both" else [flying]:
        for m, o in pairs(max_side, max_total):
            found = existing(out_dir, fly, m, o)
            if found is not None:
                refs[(fly, m, o)] = ray.put(found)
                log(f"reusing {m}v{o} (flying={str(fly).lower()}) from {out_dir}")
                continue
            inputs = [refs[(fly,) + p] for p in depends_on(m, o)]
            task = build_pair.options(memory=memory_bytes(m, o))
            refs[(fly, m, o)] = task.remote(morris_tb, fly, m, o, *inputs)
            names[refs[(fly, m, o)]] = (fly, m, o)
    pending = list(names)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        files = ray.get(ready[0])
        for name, data in files.items():
            write_file(os.path.join(out_dir, name), data)
        fly, m, o = names[ready[0]]
        log(f"[{time.time() - start:6.1f}s] built {m}v{o} (flying={str(fly).lower()}): "
            f"{', '.join(sorted(files))}")
    return sorted(n for n in os.listdir(out_dir) if n.endswith(".tb"))
