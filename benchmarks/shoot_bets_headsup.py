"""Heads-up with Shoot bets at every betting point: the exact pair value and banker best response of ``tips``
(against ``stand17``), the punter's best response with Shoot bets (against ``stand17`` and ``shoot_aware``),
and the best-response banker's gain over ``dealer`` on the same shuffles, each beside an engine Monte Carlo,
each deal at a new table (a new Shoot of 50, the model's).

Run: ``.venv/bin/python benchmarks/shoot_bets_headsup.py [--deals 40000] [--seed 0]``
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from shoot_pontoon_env.players.session import heads_up_results
from shoot_pontoon_env.players.strategies import TipsPunter, make_strategy
from shoot_pontoon_env.rules import SHOOT, SHOOT_BET_POINTS
from shoot_pontoon_env.solver.headsup.best_banker import ResponseBanker
from shoot_pontoon_env.solver.headsup.best_response import (
    ResponsePunter, banker_best_response, pair_value, punter_response_to)


def engine_mean(banker, punter, rules, deals: int, seed: int) -> tuple[float, float]:
    out = heads_up_results(banker, punter, rules, deals, seed)
    return float(out.mean()), float(out.std(ddof=1) / np.sqrt(deals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    tips, stand17 = TipsPunter(), make_strategy("stand17")
    every = SHOOT.replace(name="shoot-every-point", shoot_bet_points=SHOOT_BET_POINTS, max_split_hands=1)
    two = SHOOT.replace(name="shoot-two-points", shoot_bet_points=("before_deal", "before_second_card"),
                        max_split_hands=2)
    best = banker_best_response(tips, every)
    cases = [("pair value, every point, one hand a box", pair_value(tips, stand17, every).value, stand17, every),
             ("against the banker's best response, every point", best.value, ResponseBanker(best), every),
             ("pair value, before the deal and the second card, splits", pair_value(tips, stand17, two).value,
              stand17, two)]
    for k, (name, exact, banker, rules) in enumerate(cases):
        mean, se = engine_mean(banker, tips, rules, args.deals, args.seed + k)
        print(json.dumps({"case": name, "exact": exact, "engine": mean, "standard_error": se,
                          "deals": args.deals, "z": (mean - exact) / se}), flush=True)
    for k, (name, banker, rules) in enumerate([
            ("punter's best response with Shoot bets to stand17, every point, one hand a box", stand17, every),
            ("punter's best response with Shoot bets to shoot_aware, two points, splits",
             make_strategy("shoot_aware"), two)]):
        response = punter_response_to(banker, rules, shoot_bets=True)
        mean, se = engine_mean(banker, ResponsePunter(response), rules, args.deals, args.seed + 10 + k)
        print(json.dumps({"case": name, "exact": response.value, "engine": mean, "standard_error": se,
                          "deals": args.deals, "z": (mean - response.value) / se, "seconds": response.seconds}),
              flush=True)
    dealer = make_strategy("dealer")
    best_two = banker_best_response(tips, two)
    exact = best_two.value - pair_value(tips, dealer, two).value
    diff = (heads_up_results(ResponseBanker(best_two), tips, two, args.deals, args.seed + 20)
            - heads_up_results(dealer, tips, two, args.deals, args.seed + 20))
    mean, se = float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(args.deals))
    print(json.dumps({"case": "best-response banker minus dealer against tips, two points, splits (paired)",
                      "exact": exact, "engine": mean, "standard_error": se, "deals": args.deals,
                      "z": (mean - exact) / se, "margin_in_se": -mean / se}), flush=True)


if __name__ == "__main__":
    main()
