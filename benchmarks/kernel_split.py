"""The kernel's cost in this tree beside another (0.9.1, before the kernel was split into its modules),
measured side by side in one run: the cold compile of every part of the kernel and the heads-up compact
throughput.

Run: ``.venv/bin/python benchmarks/kernel_split.py --baseline PATH [--repeats N] [--budget STEPS]
[--rates-only]``

``PATH`` is a source tree of the other version (``git worktree add /tmp/kernel-091 fbc9854``, say). Each
repeat measures both trees in turn, the order swapped every repeat (the machine is shared: neighbours
come and go), each in fresh processes with the tree first on ``PYTHONPATH``:

- compile: ``kernel.compile(group)`` for every group, from an empty ``NUMBA_CACHE_DIR``; the CPU seconds
  of each group (``time.process_time`` in the child) and of the whole child (user + system, its imports
  included);
- throughput: 4,096 tables of ``ShootPontoon-Playtech-v0`` heads-up (two seats, one stake level) with the
  compact observation, random legal actions, on the cache the compile left; agent decisions per CPU
  second of the steps alone (``vector_throughput.py``'s measure).

``--rates-only`` compiles each tree once into a cache of its own and then measures only the throughput,
``--repeats`` rounds of it (longer runs with ``--budget``: a throughput run of the default budget takes
about half a CPU second). Prints every measurement, then the medians and each ratio (this tree /
baseline, and the median of the repeats' own ratios).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

COMPILE = """
import json, time
from shoot_pontoon_env.vector import kernel
from shoot_pontoon_env.vector.compiler import GROUPS
seconds = {}
for group in GROUPS:
    start = time.process_time()
    kernel.compile(group)
    seconds[group] = time.process_time() - start
print(json.dumps(seconds))
"""

THROUGHPUT = """
import json, sys, time
import gymnasium as gym, numpy as np
from gymnasium.vector import AutoresetMode
import shoot_pontoon_env.envs
envs = gym.make_vec("ShootPontoon-Playtech-v0", num_envs=4096, autoreset_mode=AutoresetMode.NEXT_STEP,
                    copy=False, num_players=2, stake_levels=[1], observation="compact")
rng = np.random.default_rng(0)
_, info = envs.reset(seed=0)
spent, decisions = 0.0, 0
resetting = np.zeros(envs.num_envs, dtype=bool)
for _ in range(int(sys.argv[1])):
    actions = np.argmax(rng.random(info["action_mask"].shape) * info["action_mask"], axis=1)
    start = time.process_time()
    _, _, terminated, truncated, info = envs.step(actions)
    spent += time.process_time() - start
    decisions += int((~resetting).sum())
    resetting = terminated | truncated
print(json.dumps(decisions / spent))
"""


def child(tree: Path, cache: str, script: str, *args: str) -> tuple[object, float]:
    """What the child printed (JSON) and its CPU seconds (user + system)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, cwd=tree, capture_output=True,
                          text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(done.stdout.strip().splitlines()[-1]), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other version's source tree")
    parser.add_argument("--repeats", type=int, default=5, help="rounds (each measures both trees)")
    parser.add_argument("--budget", type=int, default=2_000_000,
                        help="table steps of a throughput run (4,096 tables: budget / 4,096 steps)")
    parser.add_argument("--rates-only", action="store_true",
                        help="measure the throughput alone, on warm caches")
    args = parser.parse_args()
    this = Path(__file__).resolve().parent.parent
    trees = {"baseline": args.baseline.resolve(), "this": this}
    steps = str(max(20, args.budget // 4096))
    results: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    with tempfile.TemporaryDirectory(prefix="kernel-split-") as warm:
        caches = {name: str(Path(warm) / name) for name in trees}
        if args.rates_only:
            for name in trees:
                child(trees[name], caches[name], COMPILE)
        print("| round | tree | compile CPU s (child) | compile CPU s by group | decisions/s (CPU) |")
        print("|---|---|---|---|---|")
        for repeat in range(args.repeats):
            order = list(trees) if repeat % 2 == 0 else list(trees)[::-1]
            for name in order:
                record = results[name]
                if args.rates_only:
                    rate, _ = child(trees[name], caches[name], THROUGHPUT, steps)
                    compiled = "| |"
                else:
                    with tempfile.TemporaryDirectory(prefix="kernel-split-") as cache:
                        groups, compile_cpu = child(trees[name], cache, COMPILE)
                        rate, _ = child(trees[name], cache, THROUGHPUT, steps)
                    record.setdefault("compile", []).append(compile_cpu)
                    record.setdefault("groups", []).append(sum(groups.values()))
                    parts = ", ".join(f"{group} {seconds:.1f}" for group, seconds in groups.items())
                    compiled = f"{compile_cpu:.1f} | {parts} |"
                record.setdefault("rate", []).append(rate)
                print(f"| {repeat + 1} | {name} | {compiled} {rate:,.0f} |", flush=True)
    print(f"\nMedians of {args.repeats} rounds (this tree: {this}; baseline: {trees['baseline']}):\n")
    print("| measure | baseline | this tree | this / baseline | median of the rounds' ratios |")
    print("|---|---|---|---|---|")
    for key, label in (("compile", "compile, child CPU s"), ("groups", "compile, the groups' CPU s"),
                       ("rate", "heads-up compact decisions/s")):
        if key not in results["this"]:
            continue
        base, mine = results["baseline"][key], results["this"][key]
        ratios = [m / b for m, b in zip(mine, base)]
        print(f"| {label} | {statistics.median(base):,.1f} | {statistics.median(mine):,.1f} | "
              f"{statistics.median(mine) / statistics.median(base):.3f} | {statistics.median(ratios):.3f} |")


if __name__ == "__main__":
    main()
