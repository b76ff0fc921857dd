"""The batched whole table's throughput beside Gymnasium's Blackjack-v1 and the PettingZoo AEC env on
each engine, measured in one run.

Run: ``.venv/bin/python benchmarks/whole_table_throughput.py [--tables 4096] [--steps 200]``

Every seat is a learner's and plays uniformly random legal actions (the mask's indices, drawn in
NumPy for the batched env, outside the timed call). Rates are agent decisions per second of CPU time
of this process (``time.process_time``: the machine is shared); only ``step`` is timed, and a step
that starts a new episode (next-step autoreset) is not counted as a decision. Results are in
``docs/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from vector_throughput import blackjack_rate, random_actions

from shoot_pontoon_env.multiagent import batched_env, env


def batched_rate(tables: int, steps: int, **kwargs) -> float:
    table = batched_env(tables, **kwargs)
    rng = np.random.default_rng(0)
    _, info = table.reset(seed=0)
    for _ in range(5):  # the first calls compile or load the kernel
        _, _, terminated, truncated, info = table.step(random_actions(rng, info["action_mask"]))
    spent, decisions = 0.0, 0
    for _ in range(steps):
        actions = random_actions(rng, info["action_mask"])
        deciding = int((info["current_seat"] >= 0).sum())
        start = time.process_time()
        _, _, terminated, truncated, info = table.step(actions)
        spent += time.process_time() - start
        decisions += deciding
    return decisions / spent


def aec_rate(engine: str, decisions: int, **kwargs) -> float:
    """Decisions per second of the AEC env through PettingZoo's loop (``last`` then ``step``)."""
    table = env(engine=engine, **kwargs)
    rng = np.random.default_rng(0)
    table.reset(seed=0)
    done, start = 0, time.process_time()
    while done < decisions:
        for agent in table.agent_iter():
            observation, _, termination, truncation, _ = table.last()
            if termination or truncation:
                table.step(None)
                continue
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
        table.reset()
    return done / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--aec-decisions", type=int, default=20_000)
    args = parser.parse_args(argv)
    reference = blackjack_rate(200_000)
    print(f"Gymnasium Blackjack-v1 (scalar, random actions): {reference:,.0f} steps/s of CPU\n")
    print("| env | tables | decisions/s | x Blackjack-v1 |")
    print("|---|---|---|---|")
    for name, kwargs in [("shoot, 4 seats (default)", {}), ("shoot, 4 seats, 10 deals", {"deals_per_episode": 10}),
                         ("casino, 4 seats", {"rules": "casino"}), ("playtech, heads-up", {"rules": "playtech",
                                                                                         "num_players": 2})]:
        rate = batched_rate(args.tables, args.steps, **kwargs)
        print(f"| batched_env: {name} | {args.tables:,} | {rate:,.0f} | {rate / reference:.1f}x |")
    batched = aec_rate("batched", args.aec_decisions)
    table = aec_rate("table", args.aec_decisions)
    print(f"| AEC env, engine='batched' (default table) | 1 | {batched:,.0f} | {batched / reference:.2f}x |")
    print(f"| AEC env, engine='table' (default table) | 1 | {table:,.0f} | {table / reference:.2f}x |")
    print(f"\nAEC env: the batched engine is {batched / table:.1f}x the Table")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
