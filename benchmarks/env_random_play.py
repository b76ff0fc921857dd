"""Random masked play through every registered env id and preset on the Table (``engine="table"``,
whose ``Table`` is read): steps per second, with chip conservation checked at the Table after every
step.

Run: ``.venv/bin/python benchmarks/env_random_play.py [--steps 100000]``

Each configuration plays ``--steps`` steps of uniformly random legal actions (episodes of one deal,
the defaults), asserting after every step that ``Table.total_chips`` is unchanged and that the
observation lies in the observation space, and at every episode's end that the rewards add up to the
seat's net chips. The test suite runs the same loop for 2,000 steps per configuration (CI) and for
100,000 under ``pytest -m slow``. Shared machines are noisy: compare numbers from the same run.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.rules import PRESETS

CONFIGS = [("ShootPontoon-v0", name) for name in PRESETS] + [("ShootPontoonBanker-v0", "shoot")] + [
    ("ShootPontoon-v0", "shoot", {"deals_per_episode": 10}),
    ("ShootPontoonBanker-v0", "shoot", {"deals_per_episode": 10}),
]


def run(env_id: str, rules: str, steps: int, seed: int = 0, **kwargs) -> tuple[float, int]:
    """Steps per second and episodes played."""
    env = gym.make(env_id, rules=rules, engine="table", **kwargs).unwrapped  # the Table's chips are read
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    chips, rewards, episodes = env.table.total_chips, 0.0, 0
    start = time.perf_counter()
    for _ in range(steps):
        obs, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        rewards += reward
        assert env.table.total_chips == chips, "chips not conserved"
        assert obs in env.observation_space
        if terminated:
            net = env.table.net_position(env.seat) / env.rules.base_stake
            assert abs(rewards - net) < 1e-3 * max(1.0, abs(net)), (rewards, net)
            obs, info = env.reset()
            chips, rewards, episodes = env.table.total_chips, 0.0, episodes + 1
    return steps / (time.perf_counter() - start), episodes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    args = parser.parse_args(argv)
    print(f"{'env id':<24}{'rules':<10}{'options':<24}{'steps/s':>10}{'episodes':>10}")
    for env_id, rules, *extra in CONFIGS:
        kwargs = extra[0] if extra else {}
        rate, episodes = run(env_id, rules, args.steps, **kwargs)
        options = ", ".join(f"{k}={v}" for k, v in kwargs.items()) or "-"
        print(f"{env_id:<24}{rules:<10}{options:<24}{rate:>10,.0f}{episodes:>10,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
