"""Samples per second of the ways to scale training on one machine (docs/SCALING.md).

``.venv/bin/python benchmarks/scaling.py [--steps 20000]`` measures, in one run so that the ratios
compare (the machine is shared and noisy):

- stepping ``ShootPontoon-v0`` with random legal actions in one process (the env alone);
- the whole-table AEC env with random legal actions (decisions of all seats per second);
- MaskablePPO training (sampling and updates, the compact punter config's network) on the punter env
  with SB3's ``DummyVecEnv`` (all envs in one process) and ``SubprocVecEnv`` (one process per env).

RLlib's numbers come from ``train/rllib_selfplay.py`` (its own venv); the batched engine's from its
own benchmark once it is on main.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # train/ runs from the checkout


def env_alone(steps: int) -> float:
    env = gym.make("ShootPontoon-v0").unwrapped
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            obs, info = env.reset()
    return steps / (time.perf_counter() - start)


def whole_table(steps: int) -> float:
    from shoot_pontoon_env.multiagent import raw_env

    table = raw_env(num_players=4, deals_per_episode=10)
    rng = np.random.default_rng(0)
    table.reset(seed=0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        agent = table.agent_selection
        if table.terminations[agent] or table.truncations[agent]:
            table.step(None)
            if not table.agents:
                table.reset()
            continue
        table.step(int(rng.choice(np.flatnonzero(table.observe(agent)["action_mask"]))))
        done += 1
    return steps / (time.perf_counter() - start)


def sb3_training(steps: int, vec_env: str, n_envs: int) -> float:
    import torch

    from train.config import TrainConfig
    from train.run import build_model, make_vec_env

    torch.set_num_threads(1)
    config = TrainConfig(env_id="ShootPontoon-v0", env_kwargs={"num_players": 4}, observation="compact",
                         n_envs=n_envs, vec_env=vec_env, n_steps=max(256, 2048 // n_envs), batch_size=512,
                         n_epochs=10, net_arch=[64, 64], log_dir="/tmp/scaling-bench", run_name=vec_env,
                         total_timesteps=steps, progress_bar=False)
    env = make_vec_env(config)
    model = build_model(config, env)
    model.learn(2048)  # start-up (processes, first rollout) outside the timing
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    seconds = time.perf_counter() - start
    env.close()
    return steps / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20000)
    args = parser.parse_args()
    results = {
        "ShootPontoon-v0, random actions, 1 process (env steps/s)": env_alone(args.steps),
        "whole-table AEC env, random actions (decisions/s)": whole_table(args.steps),
        "SB3 MaskablePPO, DummyVecEnv x 8 (samples/s)": sb3_training(args.steps, "dummy", 8),
        "SB3 MaskablePPO, batched engine x 8 (samples/s)": sb3_training(args.steps, "batched", 8),
        "SB3 MaskablePPO, SubprocVecEnv x 2 (samples/s)": sb3_training(args.steps, "subproc", 2),
        "SB3 MaskablePPO, SubprocVecEnv x 8 (samples/s)": sb3_training(args.steps, "subproc", 8),
    }
    for name, rate in results.items():
        print(f"{name:<58} {rate:>10,.0f}")
    print(json.dumps({k: round(v) for k, v in results.items()}))


if __name__ == "__main__":
    main()
