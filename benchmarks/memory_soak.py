"""Memory over long runs: the resident set size (RSS) before and after millions of steps of the
default ``gym.make("ShootPontoon-v0")`` (the batched engine at one table, random masked actions) and
of the batched VectorEnv, with every table's chips checked at the end of the soak.

A leak shows as growth in proportion to the steps (before 0.3.2, 48 bytes a kernel call: about
1 GB per 10M scalar steps); flat memory is growth of a few MB at most, the allocator's noise.

Run: ``.venv/bin/python benchmarks/memory_soak.py`` (10M scalar steps, 2,000 vector steps of 4,096
tables); ``--steps`` and ``--vector-steps`` to change them.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)


def rss_mb() -> float:
    """The resident set size now (Linux: /proc/self/statm), in MB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 1e6


def scalar_soak(steps: int, warmup: int = 100_000) -> tuple[float, float, float]:
    """RSS after ``warmup`` steps and after ``steps`` more, and the seconds they took."""
    env = gym.make("ShootPontoon-v0")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)

    def play(n: int) -> None:
        nonlocal info
        for _ in range(n):
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            if terminated or truncated:
                _, info = env.reset()

    play(warmup)
    before = rss_mb()
    start = time.perf_counter()
    play(steps)
    return before, rss_mb(), time.perf_counter() - start


def vector_soak(steps: int, tables: int = 4096, warmup: int = 200) -> tuple[float, float, float]:
    """The same for ``gym.make_vec`` with ``tables`` tables; the chips of every table are checked."""
    envs = gym.make_vec("ShootPontoon-v0", num_envs=tables)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)

    def play(n: int) -> None:
        nonlocal info
        for _ in range(n):
            mask = info["action_mask"]
            scores = rng.random(mask.shape) * mask
            _, _, _, _, info = envs.step(scores.argmax(axis=1))

    play(warmup)
    before = rss_mb()
    start = time.perf_counter()
    play(steps)
    batch = envs.unwrapped.batch
    starting = batch.balances.shape[1] * envs.unwrapped.starting_chips
    assert (batch.total_chips() == starting).all(), "a table lost or made chips"
    return before, rss_mb(), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10_000_000, help="scalar gym.make steps")
    parser.add_argument("--vector-steps", type=int, default=2_000, help="steps of the 4,096-table VectorEnv")
    args = parser.parse_args()
    print("| run | steps | RSS before (MB) | RSS after (MB) | growth (MB) | seconds |")
    print("|---|---|---|---|---|---|")
    before, after, seconds = scalar_soak(args.steps)
    print(f"| gym.make('ShootPontoon-v0') | {args.steps:,} | {before:.1f} | {after:.1f} | {after - before:+.1f} "
          f"| {seconds:.0f} |", flush=True)
    before, after, seconds = vector_soak(args.vector_steps)
    print(f"| gym.make_vec(num_envs=4096) | {args.vector_steps:,} x 4,096 | {before:.1f} | {after:.1f} | "
          f"{after - before:+.1f} | {seconds:.0f} |")


if __name__ == "__main__":
    main()
