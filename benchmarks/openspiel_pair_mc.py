"""A Monte Carlo of ``python_shoot_pontoon`` beside the exact value of a rule-based pair: the heads-up
reduced game without buys played by OpenSpiel's state API (the cards sampled at each chance node), the
punter's mean return against the solver's exact pair value, in standard errors.

Run: ``.venv/bin/python benchmarks/openspiel_pair_mc.py [--punter tips] [--banker stand17] [--episodes 100000]``
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel

from shoot_pontoon_env.engine.view import seat_view
from shoot_pontoon_env.openspiel import GAME_NAME
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.solver.headsup.best_response import pair_value

GAME = f"{GAME_NAME}(players=2,reduced=True,max_buys=0)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--punter", default="tips")
    parser.add_argument("--banker", default="stand17")
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(GAME)
    table = game.settings.table.config.action_table
    players = {0: make_strategy(args.banker), 1: make_strategy(args.punter)}
    rng = np.random.default_rng(args.seed)
    returns = np.empty(args.episodes)
    for episode in range(args.episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                cards, chances = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(cards, p=chances)))
                continue
            player = state.current_player()
            view = seat_view(state.table, player)
            action = players[player].act(view, rng)
            state.apply_action(next(i for i in state.legal_actions(player) if table.to_action(i, view) == action))
        returns[episode] = state.returns()[1] * game.settings.rules.base_stake / game.settings.rules.min_stake
    exact = pair_value(players[1], players[0], game.settings.rules).value
    error = returns.std(ddof=1) / np.sqrt(args.episodes)
    print(f"{args.punter} against {args.banker}: Monte Carlo {returns.mean():+.5f} +/- {error:.5f} over "
          f"{args.episodes} episodes, exact {exact:+.5f}, z = {(returns.mean() - exact) / error:+.2f}")


if __name__ == "__main__":
    main()
