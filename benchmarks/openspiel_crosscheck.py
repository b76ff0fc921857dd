"""OpenSpiel's own exploitability beside ours on the euchre pack's heads-up reduced game (chance by value,
small enough for OpenSpiel's tree walk), and OpenSpiel's CFR+ converging to our game value.

Prints JSON lines: the tree's size; for uniform random, tips against stand17 and our CFR+ equilibrium,
OpenSpiel's ``exploitability`` and ours (the best-response code: ``openspiel.measure`` for a policy given
as an OpenSpiel policy, ``solver exploitability``'s code for the pair, ``equilibrium.measure``); then
OpenSpiel's CFR+ at checkpoints: its NashConv, exploitability and value beside our equilibrium's value;
then a Monte Carlo of our equilibrium pair played through the game's states beside its exact value.

Run: ``.venv/bin/python benchmarks/openspiel_crosscheck.py [--stages exploitability cfr mc]
[--checkpoints 1 5 10 20 40] [--episodes 40000] [--seed 0]``
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import cfr, expected_game_score
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from shoot_pontoon_env.openspiel import GAME_NAME
from shoot_pontoon_env.openspiel.measure import exploitability as measured_exploitability
from shoot_pontoon_env.openspiel.policies import ViewPolicy, deterministic
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.solver.headsup.best_response import exploitability
from shoot_pontoon_env.solver.headsup.equilibrium import measure, solve_equilibrium
from checkpoints import trained_to  # benchmarks/checkpoints.py (the script's own folder)

GAME = f"{GAME_NAME}(players=2,reduced=True,max_buys=0,chance=values,rules=shoot pack:euchre)"
BANKER, PUNTER = 0, 1


def tree_size(game: pyspiel.Game) -> dict[str, int]:
    counts = {"chance": 0, "decision": 0, "terminal": 0}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            counts["terminal"] += 1
            continue
        counts["chance" if state.is_chance_node() else "decision"] += 1
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        stack += [state.child(a) for a in actions]
    return counts


def timed(function, *args):
    begin = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - begin


def episode_return(game: pyspiel.Game, policy: ViewPolicy, rng: np.random.Generator) -> float:
    """The punter's return in one episode, chance and both seats sampled."""
    state = game.new_initial_state()
    while not state.is_terminal():
        outcomes = state.chance_outcomes() if state.is_chance_node() else list(
            policy.action_probabilities(state).items())
        actions, chances = zip(*outcomes)
        state.apply_action(int(actions[rng.choice(len(actions), p=np.asarray(chances) / sum(chances))]))
    return state.returns()[PUNTER]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stages", nargs="+", choices=["exploitability", "cfr", "mc"],
                        default=["exploitability", "cfr", "mc"])
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[1, 5, 10, 20, 40])
    parser.add_argument("--episodes", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(GAME)
    rules = game.settings.rules
    size, seconds = timed(tree_size, game)
    print(json.dumps({"game": GAME, **size, "walk_seconds": round(seconds, 1)}), flush=True)

    eq, eq_seconds = timed(solve_equilibrium, rules, 400)
    ours_eq = measure(eq)
    print(json.dumps({"our_cfr_plus": {"iterations": 400, "seconds": round(eq_seconds, 1),
                                       "exploitability": ours_eq.exploitability, "value": ours_eq.pair_value}}),
          flush=True)
    if "exploitability" in args.stages:
        compare(game, eq, ours_eq.exploitability)
    if "cfr" in args.stages:
        openspiel_cfr_plus(game, args.checkpoints, ours_eq.pair_value)
    if "mc" in args.stages:
        policy = ViewPolicy(game, {BANKER: eq.distribution, PUNTER: eq.distribution})
        rng = np.random.default_rng(args.seed)
        returns, seconds = timed(lambda: np.array([episode_return(game, policy, rng) for _ in range(args.episodes)]))
        se = float(returns.std(ddof=1) / np.sqrt(len(returns)))
        print(json.dumps({"monte_carlo_of_our_equilibrium": {
            "episodes": args.episodes, "mean": float(returns.mean()), "standard_error": se,
            "exact": ours_eq.pair_value, "z": (float(returns.mean()) - ours_eq.pair_value) / se,
            "seconds": round(seconds, 1)}}), flush=True)


def compare(game: pyspiel.Game, eq, ours_eq: float) -> None:
    """OpenSpiel's exploitability beside ours for three policies."""
    rules = game.settings.rules
    tips, stand17 = make_strategy("tips"), make_strategy("stand17")
    uniform = openspiel_policy.UniformRandomPolicy(game)
    cases = [
        ("uniform random", uniform, measured_exploitability(game, uniform).exploitability),
        ("tips vs stand17", ViewPolicy(game, {BANKER: deterministic(stand17), PUNTER: deterministic(tips)}),
         exploitability(tips, stand17, rules, {}).exploitability),
        ("our CFR+ (400 iterations)", ViewPolicy(game, {BANKER: eq.distribution, PUNTER: eq.distribution}),
         ours_eq),
    ]
    for name, policy, ours in cases:
        theirs, seconds = timed(openspiel_exploitability.exploitability, game, policy)
        print(json.dumps({"policy": name, "openspiel": theirs, "ours": ours, "difference": theirs - ours,
                          "openspiel_seconds": round(seconds, 1)}), flush=True)


def openspiel_cfr_plus(game: pyspiel.Game, checkpoints: list[int], our_value: float) -> None:
    """OpenSpiel's CFR+ average policy at checkpoints: its NashConv and its value beside ours."""
    solver = cfr.CFRPlusSolver(game)
    for checkpoint, training in trained_to(checkpoints, solver.evaluate_and_update_policy):
        average = solver.average_policy()
        nash_conv = openspiel_exploitability.nash_conv(game, average)
        value = expected_game_score.policy_value(game.new_initial_state(), [average, average])[PUNTER]
        print(json.dumps({"openspiel_cfr_plus_iterations": checkpoint, "training_seconds": round(training, 1),
                          "nash_conv": nash_conv, "exploitability": nash_conv / 2, "value": float(value),
                          "our_value": our_value, "value_gap": float(value) - our_value}),
              flush=True)


if __name__ == "__main__":
    main()
