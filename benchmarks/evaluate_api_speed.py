"""The evaluation API's speed beside ``python -m evaluate``'s, in one run: hands per second of a batched
Python policy through ``shoot_pontoon_env.evaluate.evaluate`` against the zoo model through the
checkout's tournament (what ``python -m evaluate --agents zoo:playtech_punter`` plays), alternated.

Run: ``.venv/bin/python benchmarks/evaluate_api_speed.py [--hands 200000] [--repeats 3]``

The policies, on the Playtech punter's table (``ShootPontoon-Playtech-v0``, heads-up, one stake level):

- ``zoo model (python -m evaluate)``: ``zoo:playtech_punter`` by the checkout's ``agents.make_agent``,
  its torch forward pass over the batch (torch on one thread, as the command sets);
- ``API: batched numpy MLP``: the same network's weights as numpy arrays, a plain function over the
  batch marked with ``batch_policy`` (what a user's own network in numpy looks like);
- ``API: per-observation function``: a plain function of one observation, asked row by row.

Each is timed alone (``reference=None``: no reference played beside it), as wall seconds of the call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # agents/ runs from the checkout

import shoot_pontoon_env.envs  # noqa: E402,F401  (registers the ids)
from shoot_pontoon_env.evaluate import batch_policy, evaluate  # noqa: E402
from shoot_pontoon_env.seat.features import compact_observation  # noqa: E402

ENV_ID = "ShootPontoon-Playtech-v0"
KWARGS = {"num_players": 2, "stake_levels": [1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands of each policy per round")
    parser.add_argument("--repeats", type=int, default=3, help="rounds (each plays every policy once)")
    args = parser.parse_args(argv)
    import gymnasium as gym
    import torch

    from agents import make_agent

    torch.set_num_threads(1)
    env = gym.make(ENV_ID, **KWARGS)
    zoo = make_agent("zoo:playtech_punter", env)
    actor, observation = zoo.kernel_network() or (None, None)
    if actor is None:
        raise SystemExit("zoo:playtech_punter has no numpy actor")

    @batch_policy(name="numpy MLP")
    def numpy_mlp(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        rows = compact_observation(observations) if observation == "compact" else observations
        return np.asarray(actor.act(rows, masks), dtype=np.int64)

    def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    policies = {"zoo model (python -m evaluate)": zoo, "API: batched numpy MLP": numpy_mlp,
                "API: per-observation function": first_legal}
    rates: dict[str, list[float]] = {name: [] for name in policies}
    evaluate(ENV_ID, {"warm": first_legal}, hands=1000, env_kwargs=KWARGS, reference=None)  # compiled first
    print("| round | policy | hands | seconds | hands/s |\n|---|---|---|---|---|")
    for repeat in range(args.repeats):
        order = list(policies) if repeat % 2 == 0 else list(policies)[::-1]
        for name in order:
            start = time.perf_counter()
            evaluate(ENV_ID, {name: policies[name]}, hands=args.hands, env_kwargs=KWARGS, reference=None,
                     resolve=make_agent)
            seconds = time.perf_counter() - start
            rates[name].append(args.hands / seconds)
            print(f"| {repeat + 1} | {name} | {args.hands:,} | {seconds:.1f} | {args.hands / seconds:,.0f} |", flush=True)
    base = statistics.median(rates["zoo model (python -m evaluate)"])
    print("\n| policy | median hands/s | / the zoo model's |\n|---|---|---|")
    for name, values in rates.items():
        print(f"| {name} | {statistics.median(values):,.0f} | {statistics.median(values) / base:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
