"""Helpers shared by the Ray drivers: connecting, running a project binary inside a task."""

import ctypes
import os
import signal
import subprocess
import sys

try:
    import ray
except ImportError as error:
    # The driver without Ray is a usage error naming it, not a traceback (exit status 2).
    script = os.path.basename(sys.argv[0]) or "python"
    sys.stderr.write(f"{script}: needs the Python module ray ({error}): "
                     "pip install 'ray[default]' (scripts/cluster/test.sh installs it)\n")
    sys.exit(2)

HERE = os.path.dirname(os.path.abspath(__file__))


def connect(address):
    """Joins the Ray cluster at `address` ("auto" for the local one), shipping this package
    to the workers (runtime_env working_dir), so tasks import it on any node."""
    if not ray.is_initialized():
        ray.init(address=address, runtime_env={"working_dir": HERE}, log_to_driver=False)


def _die_with_parent():
    # A worker killed with SIGKILL cannot clean up: the kernel kills its child for it, so a
    # retried task never races the orphan of its first try.
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def run_binary(args, cwd=None):
    """Runs a project binary to completion; its stdout, or RuntimeError with its stderr."""
    proc = subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, preexec_fn=_die_with_parent
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout


def binary(bin_dir, name):
    """The absolute path of a release binary; the same path must exist on every node."""
    path = os.path.join(os.path.abspath(bin_dir), name)
    if not os.access(path, os.X_OK):
        raise SystemExit(f"no executable {path}: build it (cargo build --release --bin {name})")
    return path


def kill_one_busy_worker(task_name):
    """Fault injection for tests and demonstrations: SIGKILLs one local Ray worker process
    that is running a task called `task_name` (its process title is `ray::NAME`). Returns
    the pid killed, or None if none was busy."""
    for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                title = f.read().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        if title.strip() == f"ray::{task_name}":
            os.kill(pid, signal.SIGKILL)
            return pid
    return None


def log(line):
    """Prints a progress line at once (also when stdout is a file)."""
    print(line, flush=True)
