"""OpenSpiel's NFSP (PyTorch) on ``python_shoot_pontoon``'s heads-up reduced game without buys, its average
policy networks' exploitability measured at checkpoints by this project's exact best-response code
(``shoot_pontoon_env.openspiel.measure``), beside the wall time.

Run: ``.venv/bin/python benchmarks/openspiel_nfsp.py [--checkpoints 2000 8000 32000] [--seed 0]``
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import nfsp

from shoot_pontoon_env.openspiel import GAME_NAME
from shoot_pontoon_env.openspiel.measure import exploitability
from checkpoints import trained_to  # benchmarks/checkpoints.py (the script's own folder)

GAME = f"{GAME_NAME}(players=2,reduced=True,max_buys=0)"


def average_policy(agents: list[nfsp.NFSP], num_actions: int):
    """The agents' average-policy networks as a function of (state, player): action chances."""

    def probabilities(state: pyspiel.State, player: int) -> dict[int, float]:
        legal = state.legal_actions(player)
        mask = np.zeros(num_actions, dtype=bool)
        mask[legal] = True
        with torch.no_grad():
            _, _, probs = agents[player]._act(np.asarray(state.information_state_tensor(player)), mask)
        return {a: float(probs[a]) for a in legal}

    return probabilities


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[2000, 8000, 32000])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    np.random.seed(args.seed)  # OpenSpiel's agents sample with NumPy's global generator
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    game = pyspiel.load_game(GAME)
    env = rl_environment.Environment(game)
    size, num_actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    agents = [nfsp.NFSP(player, size, num_actions, [64, 64], reservoir_buffer_capacity=200_000,
                        anticipatory_param=0.1, batch_size=128, rl_learning_rate=0.01, sl_learning_rate=0.01,
                        min_buffer_size_to_learn=1000, learn_every=64, seed=args.seed,
                        replay_buffer_capacity=200_000, epsilon_start=0.06, epsilon_end=0.001)
              for player in range(2)]
    def episode() -> None:
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([agents[player].step(step).action])
        for agent in agents:
            agent.step(step)

    for done, training in trained_to(args.checkpoints, episode):
        begin = time.perf_counter()
        measured = exploitability(game, average_policy(agents, num_actions))
        print(json.dumps({"episodes": done, "training_seconds": round(training, 1), **measured.to_dict(),
                          "measure_seconds": round(time.perf_counter() - begin, 1)}), flush=True)


if __name__ == "__main__":
    main()
