"""The value of the bank over a session (issue 38, item 4): the exact chain of ``solver/session/chain.py`` beside
sessions played at the engine, heads-up, for the preset at Shoots of 50, 100 and 200 chips (``tips`` against
``shoot_aware``, who sells the bank at three times the posted Shoot, and against ``dealer``, who never sells)
and for two tables where the Shoot moves more (bets before the second card too; a posted Shoot of 10 chips).

Run: ``.venv/bin/python benchmarks/bank_value.py [--sessions 100000] [--deals 20] [--seed 0] [--workers 2]``
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.rules import SHOOT, Rules
from shoot_pontoon_env.solver.session.sessions import PASSED, SOLD, play_sessions
from shoot_pontoon_env.solver.session.chain import BankChain

SECOND = SHOOT.replace(name="shoot-second", shoot_bet_points=("before_deal", "before_second_card"))
SMALL = SECOND.replace(name="shoot-second-initial10", initial_shoot=10)
CASES = [(SHOOT, "shoot_aware", (50, 100, 200)), (SHOOT, "dealer", (50, 100, 200)),
         (SECOND, "shoot_aware", (50, 100, 200)), (SMALL, "shoot_aware", (10,))]


def _chunk(job: tuple[Rules, str, int, int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rules, banker, shoot, deals, sessions, seed = job
    sample = play_sessions(rules, make_strategy("tips"), make_strategy(banker), shoot, deals, sessions, seed)
    return sample.profit, sample.ended, sample.deals


def sessions(pool: ProcessPoolExecutor, rules: Rules, banker: str, shoot: int, deals: int, total: int, seed: int,
             chunks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sizes = [total // chunks + (i < total % chunks) for i in range(chunks)]
    parts = list(pool.map(_chunk, [(rules, banker, shoot, deals, n, seed * 1000 + i) for i, n in enumerate(sizes)]))
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100_000)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        for k, (rules, banker, shoots) in enumerate(CASES):
            chain = BankChain(rules, make_strategy("tips"), make_strategy(banker))
            fair = chain.value(rules.initial_shoot, args.deals).value
            for j, shoot in enumerate(shoots):
                exact = chain.value(shoot, args.deals)
                profit, ended, played = sessions(pool, rules, banker, shoot, args.deals, args.sessions,
                                                 args.seed + 10 * k + j, 8 * args.workers)
                mean, se = float(profit.mean()), float(profit.std(ddof=1) / np.sqrt(len(profit)))
                print(json.dumps({
                    "rules": rules.name, "banker": banker, "punter": "tips", "shoot": shoot, "deals": args.deals,
                    "exact": exact.value, "fair_price": fair, "pass_chance": exact.pass_chance,
                    "sale_chance": exact.sale_chance, "expected_deals": exact.expected_deals,
                    "states": exact.states, "classes": chain.laws.classes, "law_seconds": chain.laws.seconds,
                    "engine": mean, "standard_error": se, "z": (mean - exact.value) / se if se else 0.0,
                    "engine_pass": float((ended == PASSED).mean()), "engine_sale": float((ended == SOLD).mean()),
                    "engine_deals": float(played.mean()), "sessions": len(profit)}), flush=True)


if __name__ == "__main__":
    main()
