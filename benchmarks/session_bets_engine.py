"""The Shoot part of a multi-deal self-play run's punter at the engine, beside the exact values
``train.session_check`` reports (RESULTS, "Multi-deal self-play and the value of the bank").

At each Shoot of the report's buckets, heads-up against ``stand17`` at new tables holding that Shoot: the
run's punter with its Shoot bets and without them (``NeverBets``), and the solver's optimum betting the
largest level that Shoot's room allows (the report's ``optimum_bet``) and without bets (``optimal`` solved
for no Shoot bets), each pair on the same shuffles. Their differences (chips a deal) are the engine's
measure of each one's Shoot part; the exact values are read from the run's ``session_check.json``.

Run from the checkout's root: ``PYTHONPATH=. .venv/bin/python benchmarks/session_bets_engine.py RUN
[--deals 40000] [--seed 0] [--workers 2]``
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.rules import get_rules
from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS
from train.session_check import NeverBets, optimum_betting
from train.table_selfplay import read_run_config


def punters(run: Path, rules, optimum_bet: int) -> dict[str, tuple]:
    """Each measured punter with and without its Shoot bets."""
    seat = {"rules": rules, "num_players": 2, "starting_chips": STARTING_CHIPS}
    trained = make_policy(str(run / "punter"), role="punter", **seat)
    return {"punter": (trained, NeverBets(trained)),
            "optimal": (optimum_betting(rules, optimum_bet), make_policy("optimal", shoot_bet_levels=(), **seat))}


def net_chips(rules, banker, punter, shoot: int, deals: int, seed: int) -> np.ndarray:
    """The punter's net chips in each deal at a new table holding a Shoot of ``shoot`` chips; deal ``i``'s
    shuffle and Generator depend on ``seed`` and ``i`` only (paired across punters)."""
    streams = np.random.default_rng(seed).integers(2**63, size=(deals, 2))
    at = rules.replace(initial_shoot=shoot)
    out = np.empty(deals)
    for i in range(deals):
        table = Table(at, 2, rng=np.random.default_rng(streams[i, 0]), starting_chips=STARTING_CHIPS)
        play_deal(table, [banker, punter], np.random.default_rng(streams[i, 1]))
        out[i] = sum(h.result for h in table.hands if h.seat == 1)
    return out


def measure(job: tuple[str, str, int, int, int, int]) -> dict:
    run, name, shoot, optimum_bet, deals, seed = job
    begin = time.perf_counter()
    config = read_run_config(Path(run))
    rules = get_rules(config.rules)
    banker = make_policy("stand17", rules=rules, num_players=2, starting_chips=STARTING_CHIPS)
    betting, never = punters(Path(run), rules, optimum_bet)[name]
    part = net_chips(rules, banker, betting, shoot, deals, seed) - net_chips(rules, banker, never, shoot, deals, seed)
    return {"punter": name, "shoot": shoot, "deals": deals, "engine": float(part.mean()),
            "standard_error": float(part.std(ddof=1) / np.sqrt(deals)), "seconds": time.perf_counter() - begin}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--deals", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    report = json.loads((args.run / "session_check.json").read_text())["bets"]["buckets"]
    exact = {(row["shoot"], "punter"): row["shoot_part_vs_stand17"] for row in report}
    exact |= {(row["shoot"], "optimal"): row["optimum_shoot_part_vs_stand17"] for row in report}
    optimum_bet = {row["shoot"]: row["optimum_bet"] for row in report}
    jobs = [(str(args.run), name, shoot, optimum_bet[shoot], args.deals, args.seed + shoot)
            for shoot, name in sorted(exact)]
    with ProcessPoolExecutor(args.workers) as pool:
        for out in pool.map(measure, jobs):
            value = exact[(out["shoot"], out["punter"])]
            print(json.dumps(out | {"exact": value, "z": (out["engine"] - value) / out["standard_error"]}), flush=True)


if __name__ == "__main__":
    main()
