"""Tournament speed: hands per second of ``python -m evaluate``'s batched path (the agent played by the
kernel, or a trained model with one forward pass per step) beside its scalar path (one ``gym.make`` env,
which runs on the batched engine at one table, and the same on the Table), in one run.

Run: ``.venv/bin/python benchmarks/evaluation_speed.py [--hands 10000000] [--model-hands 1000000]``

The table is the Playtech punter's (``ShootPontoon-Playtech-v0``, heads-up, one stake level), where the
zoo model was trained. Times are wall seconds with torch on one thread; results in ``docs/RESULTS.md``.
The run starts with Gymnasium's Blackjack-v1 steps/s, the yardstick of the machine's speed that day
(the targets are in seconds, and these shared machines differ from day to day).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # agents/ and evaluate/ run from the checkout

import shoot_pontoon_env.envs  # noqa: E402,F401  (registers the ids)
from agents import make_agent  # noqa: E402
from shoot_pontoon_env.evaluate.tournament import play_agent, play_agent_batched  # noqa: E402
from vector_throughput import blackjack_rate  # noqa: E402  (benchmarks/, the script's own folder)

ENV_ID = "ShootPontoon-Playtech-v0"
KWARGS = {"num_players": 2, "stake_levels": [1]}


def timed(label: str, hands: int, play) -> float:
    start = time.perf_counter()
    record = play()
    seconds = time.perf_counter() - start
    per_stake = float(np.mean(record.per_stake))
    print(f"| {label} | {hands:,} | {seconds:,.1f} | {hands / seconds:,.0f} | {per_stake:+.4f} |")
    return hands / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000, help="hands of each rule-based agent")
    parser.add_argument("--model-hands", type=int, default=1_000_000, help="hands of the zoo model")
    parser.add_argument("--scalar-hands", type=int, default=5_000, help="hands of each agent on the scalar path")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)

    def env() -> gym.Env:
        return gym.make(ENV_ID, **KWARGS)

    def table_env() -> gym.Env:
        return gym.make(ENV_ID, **KWARGS, engine="table")

    print(f"Gymnasium Blackjack-v1 (scalar, random actions): {blackjack_rate(100_000):,.0f} steps/s of CPU\n")
    print(f"{ENV_ID} {KWARGS}\n")
    print("| agent, path | hands | seconds | hands/s | per unit stake |")
    print("|---|---|---|---|---|")
    for name, hands in (("threshold17", args.hands), ("basic", args.hands), ("zoo:playtech_punter", args.model_hands)):
        batched = timed(f"{name}, batched", hands,
                        lambda: play_agent_batched(env(), KWARGS, make_agent(name, env()), hands, 1_000_000))
        scalar = timed(f"{name}, scalar (gym.make: batched engine, one table)", args.scalar_hands,
                       lambda: play_agent(env, make_agent(name, env()), args.scalar_hands, 1_000_000))
        table = timed(f"{name}, scalar on the Table", args.scalar_hands,
                      lambda: play_agent(table_env, make_agent(name, env()), args.scalar_hands, 1_000_000))
        print(f"| {name}: batched / scalar / Table | | | "
              f"{batched / scalar:,.0f}x / {batched / table:,.0f}x | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
