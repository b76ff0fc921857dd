"""The heads-up equilibrium with Shoot bets (``shoot_equilibrium_rules``) beside the punter's best responses to
fixed bankers in the same game: what the Shoot bets are worth, and where the punter bets, against a banker who
reads the bet riding (the equilibrium's) and against bankers who do not (``stand17``) or read it by a rule
(``shoot_aware``).

Run: ``.venv/bin/python benchmarks/shoot_equilibrium.py [--allowances 2 10 50] [--iterations 150] [--max-buys 0]``
(one JSON line per allowance; the Shoot is three allowances).
"""

from __future__ import annotations

import argparse
import json
import time

from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.solver.headsup.banker_views import observation_draws
from shoot_pontoon_env.solver.headsup.best_punter import punter_response
from shoot_pontoon_env.solver.headsup.equilibrium import measure, solve_equilibrium
from shoot_pontoon_env.solver.headsup.equilibrium_game import equilibrium_rules, shoot_equilibrium_rules
from shoot_pontoon_env.solver.headsup.game_banker import banker_space
from shoot_pontoon_env.solver.headsup.shoot_equilibrium import punter_bet_chances


def fixed_banker_response(rules, name: str) -> dict:
    """The punter's best response in the game with bets (nothing or the allowance) to a rule-based banker."""
    banker, space = make_strategy(name), banker_space(rules)
    response = punter_response(rules, lambda obs, live: observation_draws(banker, rules, obs, live, space), space, ())
    plain = rules.replace(shoot_bet_points=())
    without = punter_response(plain, lambda obs, live: observation_draws(banker, plain, obs, live, space), space)
    return {"value": response.value, "value_without_bets": without.value,
            "bets_worth": response.value - without.value, "deal_bet": response.deal_bet,
            "second_card_bets": {str(k): v for k, v in response.second_card_bets.items() if v}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--allowances", type=int, nargs="+", default=[2, 10, 50])
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--max-buys", type=int, default=0)
    args = parser.parse_args()
    base = equilibrium_rules("shoot").replace(max_buys=args.max_buys)
    plain = solve_equilibrium(base, args.iterations)
    plain_value = measure(plain).pair_value
    for allowance in args.allowances:
        rules = shoot_equilibrium_rules(base, allowance)
        begin = time.perf_counter()
        eq = solve_equilibrium(rules, args.iterations)
        m = measure(eq)
        print(json.dumps({
            "rules": rules.name, "allowance": allowance, "initial_shoot": rules.initial_shoot,
            "iterations": args.iterations, "game_value": m.pair_value, "exploitability": m.exploitability,
            "game_value_without_bets": plain_value, "bets_worth_in_equilibrium": m.pair_value - plain_value,
            "equilibrium_punter_bets": punter_bet_chances(eq),
            "against_stand17": fixed_banker_response(rules, "stand17"),
            "against_shoot_aware": fixed_banker_response(rules, "shoot_aware"),
            "seconds": time.perf_counter() - begin}), flush=True)


if __name__ == "__main__":
    main()
