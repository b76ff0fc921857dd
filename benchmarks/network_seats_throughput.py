"""The batched whole table with two seats played by trained networks inside the kernel, beside the same
table with those seats rule-based, measured in one run (the cost of kernel-played snapshots).

Run: ``.venv/bin/python benchmarks/network_seats_throughput.py [--tables 4096] [--steps 300] [--hidden 64 64]``

Seats 1 and 2 are the table players: either two networks of the zoo models' shape (``--hidden``,
tanh; random weights, masked; seat 1 reads the compact observation, seat 2 the flat one, each over
the whole table's seat action table so that it can also bank), or ``tips`` punters (``--rule-based``
names another strategy). Seats 0 and 3 are learners playing uniformly random legal actions (drawn in
NumPy, outside the timed call). Rates are the learners' decisions per second of CPU time of this
process (``time.process_time``: the machine is shared), only ``step`` timed (each step plays the
table players' decisions up to the next learner's). The rule-based batch is measured before and after
the networks' and averaged.
``--zoo`` seats ``zoo:shoot_punter`` (needs torch; run with ``PYTHONPATH=.`` from the checkout's root,
and ``--deals 1``: its punter's action table has no bank decision) in seat 1 instead of the compact
random network.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from shoot_pontoon_env.models.mlp import ActorArrays
from shoot_pontoon_env.models.player import ActorPlayer
from shoot_pontoon_env.multiagent import batched_env
from shoot_pontoon_env.multiagent.config import seat_action_table
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.seat.encoding import ObservationEncoder
from shoot_pontoon_env.seat.features import COMPACT_SIZE

sys.path.insert(0, str(Path(__file__).parent))
from vector_throughput import random_actions  # noqa: E402


def random_network(observation: str, hidden: list[int], seed: int) -> ActorPlayer:
    table = seat_action_table(SHOOT)
    inputs = COMPACT_SIZE if observation == "compact" else ObservationEncoder(SHOOT, 4).size
    rng = np.random.default_rng(seed)
    sizes = [inputs, *hidden, len(table)]
    actor = ActorArrays(tuple(rng.normal(0.0, 2.0 / np.sqrt(a), (a, b)) for a, b in zip(sizes, sizes[1:])),
                        tuple(rng.normal(0.0, 0.5, b) for b in sizes[1:]), True)
    return ActorPlayer(actor, SHOOT, 4, 1000, table, f"random {observation}", observation=observation)


def learner_rate(tables: int, steps: int, players: dict, deals: int) -> tuple[float, float]:
    """(learner decisions per CPU second, steps per CPU second) of a batch."""
    table = batched_env(tables, players=players, deals_per_episode=deals)
    rng = np.random.default_rng(0)
    _, info = table.reset(seed=0)
    for _ in range(5):  # the first calls compile or load the kernel
        _, _, _, _, info = table.step(random_actions(rng, info["action_mask"]))
    spent, decisions = 0.0, 0
    for _ in range(steps):
        actions = random_actions(rng, info["action_mask"])
        deciding = int((info["current_seat"] >= 0).sum())
        start = time.process_time()
        _, _, _, _, info = table.step(actions)
        spent += time.process_time() - start
        decisions += deciding
    return decisions / spent, steps / spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--hidden", type=int, nargs="+", default=[64, 64])
    parser.add_argument("--rule-based", default="tips")
    parser.add_argument("--zoo", action="store_true")
    args = parser.parse_args(argv)
    compact = random_network("compact", args.hidden, 1)
    if args.zoo:
        from shoot_pontoon_env.models.resolve import make_policy

        compact = make_policy("zoo:shoot_punter", rules=SHOOT, num_players=4, starting_chips=1000)
    networks = {1: compact, 2: random_network("flat", args.hidden, 2)}
    rules = {1: args.rule_based, 2: args.rule_based}
    rates = {}
    for name, players in [("rule-based", rules), ("networks", networks), ("rule-based again", rules)]:
        rates[name] = learner_rate(args.tables, args.steps, players, args.deals)
    base = (rates["rule-based"][0] + rates["rule-based again"][0]) / 2
    print(f"shoot, 4 seats, {args.deals} deals, {args.tables:,} tables, seats 1 and 2 fixed, 0 and 3 learning "
          f"(network hidden layers {args.hidden}{', seat 1 zoo:shoot_punter' if args.zoo else ''})\n")
    print("| seats 1 and 2 | learner decisions/s | steps/s | x rule-based |")
    print("|---|---|---|---|")
    for name, (rate, step_rate) in rates.items():
        print(f"| {name} | {rate:,.0f} | {step_rate:,.1f} | {rate / base:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
