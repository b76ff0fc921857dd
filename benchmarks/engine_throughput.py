"""Table throughput: deals per second per preset at the Table, beside Gymnasium's Blackjack-v1 in the
same run.

Run: ``.venv/bin/python benchmarks/engine_throughput.py [--deals 20000]``

Shared, noisy machines: read the ratio column (Table deals per Blackjack-v1 episode in the same
process, same minute), not the absolute numbers. Results are recorded in ``docs/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import gymnasium as gym
import numpy as np

from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.rules import PRESETS
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.players.strategies import DealerRulesBanker, StandOnBanker, ThresholdPunter


def blackjack_episodes_per_second(episodes: int) -> float:
    env = gym.make("Blackjack-v1")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(episodes):
        env.reset()
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(int(rng.integers(2)))
            done = terminated or truncated
    return episodes / (time.perf_counter() - start)


def engine_deals_per_second(preset: str, deals: int, players: int) -> tuple[float, int]:
    rules = PRESETS[preset]
    banker = DealerRulesBanker() if rules.banker_play == "dealer" else StandOnBanker()
    seats = [banker] + [ThresholdPunter() for _ in range(players - 1)]
    table = Table(rules, players, rng=np.random.default_rng(0))
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    for _ in range(deals):
        play_deal(table, seats, rng)
    seconds = time.perf_counter() - start
    tracemalloc.start()  # a separate, shorter pass: tracing slows the loop several times over
    for _ in range(min(deals, 1000)):
        play_deal(table, seats, rng)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return deals / seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--players", type=int, default=2, help="seats, banker included")
    args = parser.parse_args()
    reference = blackjack_episodes_per_second(args.deals)
    print(f"Gymnasium Blackjack-v1 (random actions): {reference:,.0f} episodes/s")
    print(f"{'preset':<10} {'deals/s':>10} {'ratio to Blackjack-v1':>22} {'peak traced memory':>20}")
    for preset in PRESETS:
        rate, peak = engine_deals_per_second(preset, args.deals, args.players)
        print(f"{preset:<10} {rate:>10,.0f} {rate / reference:>22.2f} {peak / 1024:>17,.0f} KiB")


if __name__ == "__main__":
    main()
