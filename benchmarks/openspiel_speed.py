"""The OpenSpiel game's speed: random episodes (chance sampled, random legal actions) and outcome-sampling
MCCFR iterations on the heads-up reduced game without buys, in one process.

Run: ``.venv/bin/python benchmarks/openspiel_speed.py [--episodes 300] [--iterations 3000]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import outcome_sampling_mccfr

import shoot_pontoon_env.openspiel  # noqa: F401


def random_episodes(spec: str, episodes: int, seed: int = 0) -> tuple[float, float]:
    """Milliseconds an episode and moves (chance and decisions) an episode."""
    game, rng, moves = pyspiel.load_game(spec), np.random.default_rng(seed), 0
    begin = time.perf_counter()
    for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                cards, chances = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(cards, p=chances)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            moves += 1
    return (time.perf_counter() - begin) * 1000 / episodes, moves / episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=3000)
    args = parser.parse_args()
    for spec in ("python_shoot_pontoon(players=2)", "python_shoot_pontoon(players=4)",
                 "python_shoot_pontoon(players=4,deals=5)"):
        ms, moves = random_episodes(spec, args.episodes)
        print(f"{spec}: {ms:.2f} ms an episode, {moves:.1f} moves")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(
        pyspiel.load_game("python_shoot_pontoon(players=2,reduced=True,max_buys=0)"))
    begin = time.perf_counter()
    for _ in range(args.iterations):
        solver.iteration()
    seconds = time.perf_counter() - begin
    print(f"outcome-sampling MCCFR, heads-up reduced game without buys: {args.iterations / seconds:.0f} "
          f"iterations/s, {len(solver._infostates)} information states after {args.iterations}")


if __name__ == "__main__":
    main()
