"""Asking a trained banker the heads-up model's questions: one view at a time (its ``act``) against a
level's views as one batch through its network (``Policy.act_batch``), side by side on the same
observations in one run (a ratio: these machines are shared). A deal's law at one Shoot asks
``zoo:shoot_banker_headsup`` about 850,000 questions; the session check asks it at every Shoot a session
reaches (``train/session_check.py``).

Run: ``.venv/bin/python benchmarks/banker_asking.py [--observations 400] [--repeats 3]``
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from shoot_pontoon_env.models.resolve import make_policy
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.solver.headsup.banker_views import batches, observation_draws
from shoot_pontoon_env.solver.headsup.game_banker import banker_space
from shoot_pontoon_env.solver.headsup.game_punter import STARTING_CHIPS, punter_rows, strategy_policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--observations", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = punter_rows(SHOOT, strategy_policy(make_strategy("tips")))
    keep = np.random.default_rng(0).choice(len(rows.observations), args.observations, replace=False)
    observations, live = [rows.observations[i] for i in keep], ~rows.all_settled[keep]
    space = banker_space(SHOOT)
    seat = {"rules": SHOOT, "num_players": 2, "starting_chips": STARTING_CHIPS}
    batched = make_policy("zoo:shoot_banker_headsup", role="banker", **seat)
    single = make_policy("zoo:shoot_banker_headsup", role="banker", **seat)
    single.act = single.act  # replaced on the object: the solver asks it one view at a time
    assert batches(batched) and not batches(single)
    seconds: dict[str, list[float]] = {"one_at_a_time": [], "batched": []}
    answers = {}
    for _ in range(args.repeats):
        for name, banker in (("one_at_a_time", single), ("batched", batched)):
            begin = time.perf_counter()
            answers[name] = observation_draws(banker, SHOOT, observations, live, space)
            seconds[name].append(time.perf_counter() - begin)
    assert all(np.array_equal(answers["batched"][m], answers["one_at_a_time"][m]) for m in answers["batched"])
    best = {name: min(times) for name, times in seconds.items()}
    print(json.dumps({"observations": args.observations, "repeats": args.repeats, "seconds": best,
                      "speedup": best["one_at_a_time"] / best["batched"]}))


if __name__ == "__main__":
    main()
