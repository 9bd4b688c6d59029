"""A match as shards on a Ray cluster: each shard is one `arena --shard I/N` task; the driver
streams progress (`arena merge --partial` after every finished shard) and merges the lot.

A task whose worker dies is retried by Ray (`max_retries`); results are kept per shard index,
so a shard that reports twice counts once, and `arena merge` itself ignores repeated games.
"""

import os
import subprocess
import tempfile
import threading
import time

import ray

import common


@ray.remote(max_retries=5, num_cpus=1)
def run_shard(arena, arena_args, index, count):
    """Plays shard `index` of `count`; returns (index, the results file's text)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "shard.res")
        common.run_binary(
            [arena, *arena_args, "--shard", f"{index}/{count}", "--results", path, "--quiet"]
        )
        with open(path) as f:
            return index, f.read()


def merge(arena, files, extra=()):
    """`arena merge` over the files: (stdout, stderr) text."""
    proc = subprocess.run([arena, "merge", *extra, *files], capture_output=True, text=True)
    if proc.returncode != 0 and "--partial" not in extra:
        raise RuntimeError(proc.stderr.strip())
    return proc.stdout, proc.stderr


def progress_line(done, count, summary, note):
    """One progress line: shards done, games counted in order, Elo so far, SPRT state."""
    games = next((l for l in summary.splitlines() if " games, " in l), "")
    elo = next((l for l in summary.splitlines() if l.startswith("elo ")), "")
    sprt = next((l for l in summary.splitlines() if l.startswith("sprt ")), "")
    counted = games.split(": ")[1].split(",")[0] if ": " in games else "0 games"
    parts = [f"shards {done}/{count}", f"{counted} in order", elo]
    if sprt:
        parts.append(sprt.split(": ", 1)[1])
    if note:
        parts.append(note.strip().split("arena merge: ")[-1])
    return " | ".join(p for p in parts if p)


def run_match(arena, arena_args, shards, out_dir, record=None, kill_after=None, log=common.log):
    """Runs the match as `shards` tasks; writes `shard-I.res`, `summary.txt` (and `record`)
    into `out_dir`; returns the merged summary text. `kill_after` seconds: then SIGKILL the
    first local worker found running a shard, once (fault injection)."""
    os.makedirs(out_dir, exist_ok=True)
    start = time.time()
    pending = [run_shard.remote(arena, list(arena_args), i, shards) for i in range(shards)]
    killed = []
    if kill_after is not None:

        def killer():
            time.sleep(kill_after)
            while not killed and time.time() < start + kill_after + 600:
                pid = common.kill_one_busy_worker("run_shard")
                if pid is not None:
                    killed.append(pid)
                    log(f"fault injection: killed worker pid {pid} running a shard")
                time.sleep(0.05)

        threading.Thread(target=killer, daemon=True).start()
    files = {}
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        index, text = ray.get(ready[0])
        if index in files:
            continue
        files[index] = os.path.join(out_dir, f"shard-{index}.res")
        with open(files[index], "w") as f:
            f.write(text)
        summary, note = merge(arena, sorted(files.values()), ("--partial", "--quiet"))
        log(f"[{time.time() - start:6.1f}s] " + progress_line(len(files), shards, summary, note))
        if "accepted" in summary and pending:
            log("sprt decided: cancelling the remaining shards")
            for ref in pending:
                ray.cancel(ref)
            pending = []
    extra = ["--quiet"] + (["--record", record] if record else [])
    summary, _ = merge(arena, sorted(files.values()), extra)
    with open(os.path.join(out_dir, "summary.txt"), "w") as f:
        f.write(summary)
    log(f"done in {time.time() - start:.1f}s" + (f", worker {killed[0]} killed" if killed else ""))
    return summary
