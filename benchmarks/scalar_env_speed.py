"""Scalar env speed beside Gymnasium's Blackjack-v1, in one process: steps per second of CPU time,
on each of the scalar env's engines (``engine="batched"``, what ``gym.make`` runs by default, and
``engine="table"``), every env as ``gym.make`` returns it (with its wrappers), random masked actions.

Run: ``.venv/bin/python benchmarks/scalar_env_speed.py``; to compare with another checkout (e.g. a
``git worktree`` of main), run it with ``PYTHONPATH=<that checkout>`` and this one alternately, as
docs/RESULTS.md did.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)


def scalar_rate(env_id: str, steps: int, **kwargs) -> float:
    env = gym.make(env_id, **kwargs)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    start = time.process_time()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated:
            _, info = env.reset()
    return steps / (time.process_time() - start)


def blackjack_rate(steps: int) -> float:
    env = gym.make("Blackjack-v1")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    start = time.process_time()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(int(rng.integers(2)))
        if terminated or truncated:
            env.reset()
    return steps / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4000)
    args = parser.parse_args(argv)
    reference = blackjack_rate(5 * args.steps)
    print(f"Blackjack-v1: {reference:,.0f} steps/s")
    for env_id in ("ShootPontoon-v0", "ShootPontoon-Playtech-v0", "ShootPontoonBanker-v0"):
        rates = {engine: scalar_rate(env_id, args.steps, engine=engine) for engine in ("batched", "table")}
        print(f"{env_id}: " + ", ".join(f"{engine} {rate:,.0f} steps/s ({rate / reference:.3f} x Blackjack-v1)"
                                        for engine, rate in rates.items())
              + f"; batched / table {rates['batched'] / rates['table']:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
