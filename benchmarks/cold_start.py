"""The batched engine's first use from an empty cache, as a fresh install meets it: a new process
imports the package, runs ``gym.make("ShootPontoon-v0")``, ``reset(seed=0)`` and 1,000 steps of
random legal actions, with ``NUMBA_CACHE_DIR`` an empty folder; then once more with that cache warm.

Run: ``.venv/bin/python benchmarks/cold_start.py [--tree PATH ...] [--repeats N] [--compile]``

``--compile`` measures ``python -m shoot_pontoon_env.compile`` instead (every part of the kernel, as
``make install`` runs it), and prints each part's own line (its CPU seconds, from inside the child).

Each ``--tree`` (default: this checkout) is put first on ``PYTHONPATH``, so that two versions (a
``git worktree`` of an older commit, say) are measured side by side in one run, alternating. CPU
seconds are the child's user + system time (what the compile costs, whatever the neighbours do);
wall seconds are printed beside them. The results are in ``docs/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIRST_USE = """
import numpy as np, gymnasium as gym, shoot_pontoon_env.envs
env = gym.make("ShootPontoon-v0")
obs, info = env.reset(seed=0)
rng = np.random.default_rng(0)
for _ in range(1000):
    action = int(rng.choice(np.flatnonzero(info["action_mask"])))
    obs, reward, terminated, truncated, info = env.step(action)
    if terminated or truncated:
        obs, info = env.reset()
"""


def run_once(tree: Path, cache: str, compile_all: bool = False) -> tuple[float, float, str, str]:
    """CPU and wall seconds of one child process, its stdout and its stderr (run in ``tree``, which
    `-c` and `-m` put first on the path, ahead of an editable install)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(tree))
    command = ["-m", "shoot_pontoon_env.compile"] if compile_all else ["-c", FIRST_USE]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *command], env=env, cwd=tree, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout.strip(), done.stderr.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", type=Path, help="a source tree to measure (repeatable)")
    parser.add_argument("--repeats", type=int, default=1, help="cold runs per tree (alternating)")
    parser.add_argument("--compile", action="store_true",
                        help="measure `python -m shoot_pontoon_env.compile` (every part) instead of a first use")
    args = parser.parse_args()
    trees = args.tree or [Path(__file__).resolve().parent.parent]
    print("| tree | run | CPU s | wall s | compile line |")
    print("|---|---|---|---|---|")
    for repeat in range(args.repeats):
        for tree in trees:
            with tempfile.TemporaryDirectory(prefix="cold-start-") as cache:
                for run in ("cold", "warm"):
                    cpu, wall, stdout, stderr = run_once(tree, cache, args.compile)
                    line = "yes" if "compiling the batched engine" in stderr else "no"
                    print(f"| {tree} | {run} {repeat + 1} | {cpu:.1f} | {wall:.1f} | {line} |", flush=True)
                    if args.compile:
                        print("\n".join(f"    {part}" for part in stdout.splitlines()), flush=True)


if __name__ == "__main__":
    main()
