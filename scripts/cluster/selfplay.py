"""Backgammon training on a Ray cluster, actor-learner style: each round, `workers` tasks
play games with the current weights (`backgammon-train --play-to`), then the learner
(`backgammon-train --learn-from`, on the driver) makes the next weights from all of them.
Workers send back their games (about 260 bytes each), the driver broadcasts the weights (an object
put once per round)."""

import os
import subprocess
import tempfile
import time

import ray

import common


@ray.remote(max_retries=3, num_cpus=1)
def play(trainer, weights_text, games, seed):
    """Plays `games` games with these weights and dice seed: the games file's text."""
    with tempfile.TemporaryDirectory() as tmp:
        weights = os.path.join(tmp, "w")
        with open(weights, "w") as f:
            f.write(weights_text)
        out = os.path.join(tmp, "games.txt")
        common.run_binary(
            [trainer, "--play-to", out, "--from", weights, "--games", str(games),
             "--seed", str(seed)]
        )
        with open(out) as f:
            return f.read()


def run_selfplay(trainer, rounds, workers, games, hidden, alpha, seed, out_dir, log=common.log):
    """`rounds` rounds of `workers` x `games` games; writes `round-R.weights` to `out_dir` and
    returns the last weights file."""
    os.makedirs(out_dir, exist_ok=True)
    weights = os.path.join(out_dir, "round-0.weights")
    # No games: the random initial weights of `--hidden` and `--seed`.
    subprocess.run([trainer, "--games", "0", "--hidden", str(hidden), "--seed", str(seed),
                    "--out", weights], check=True, capture_output=True)
    start = time.time()
    for r in range(1, rounds + 1):
        with open(weights) as f:
            shared = ray.put(f.read())
        # Seeds distinct per round and worker, fixed by the run's seed.
        tasks = [play.remote(trainer, shared, games, seed * 1_000_003 + r * 1000 + w)
                 for w in range(workers)]
        played = time.time()
        texts = ray.get(tasks)
        played = time.time() - played
        learnt = time.time()
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for w, text in enumerate(texts):
                files.append(os.path.join(tmp, f"games-{w}.txt"))
                with open(files[-1], "w") as f:
                    f.write(text)
            following = os.path.join(out_dir, f"round-{r}.weights")
            common.run_binary([trainer, "--learn-from", *files, "--from", weights,
                               "--alpha", str(alpha), "--out", following])
        weights = following
        log(f"[{time.time() - start:6.1f}s] round {r}: {workers * games} games played in "
            f"{played:.1f}s, learnt in {time.time() - learnt:.1f}s")
    return weights
