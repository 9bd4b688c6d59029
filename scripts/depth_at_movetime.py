"""Shared by scripts/morris-depth.py and scripts/gipf-depth.py: the depth and nodes/s that
`go movetime T` reaches over a list of `position ...` commands, on one engine process."""
import subprocess


def measure(engine, setup, positions, movetime, env=None):
    """Starts ENGINE, sends the SETUP lines, then each position and `go movetime T`; from the
    last `info` line before each `bestmove` takes depth, nodes and time. Prints the average
    depth, the range, and nodes/s as total nodes over total time."""
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    for line in setup:
        send(line)
    depths, nodes, times = [], 0, 0
    for position in positions:
        send(position)
        send(f"go movetime {movetime}")
        last = None
        while True:
            out = proc.stdout.readline()
            if not out:
                raise SystemExit("engine exited")
            words = out.split()
            if words[:1] == ["info"] and "depth" in words:
                last = words
            elif words[:1] == ["bestmove"]:
                break
            elif words[:1] == ["error"]:
                raise SystemExit(f"{position}: {out.strip()}")
        if last is None:
            continue
        field = lambda name: int(last[last.index(name) + 1])
        depths.append(field("depth"))
        nodes += field("nodes")
        times += field("time")
    send("quit")
    proc.wait()
    print(
        f"{len(depths)} positions, movetime {movetime}: depth avg "
        f"{sum(depths) / len(depths):.2f} min {min(depths)} max {max(depths)}, "
        f"nodes/s {nodes * 1000 // max(times, 1)}"
    )
