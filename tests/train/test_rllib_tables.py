"""The RLlib env of many tables loses no reward: over 1,000 table episodes, no seat is paid before it
has acted (RLlib would set such a reward aside), and each seat's paid rewards add up to its chips won,
so the seats' returns sum to zero at every table. No Ray needed: the env speaks RLlib's protocol in
plain dicts (train/rllib_tables.py)."""

from __future__ import annotations

import numpy as np
import pytest

from train.rllib_tables import TablesForRLlib


@pytest.mark.parametrize("kwargs", [{"deals_per_episode": 4, "first_banker": "random"},
                                    {"num_players": 6, "deals_per_episode": 2}])
def test_every_seats_return_is_its_chips_and_the_table_sums_to_zero(kwargs):
    env = TablesForRLlib(num_tables=16, **kwargs)
    rng = np.random.default_rng(0)
    starting, unit = env.tables.settings.config.starting_chips, env.tables.rules.base_stake
    table_episodes = 0
    for episode in range(70):
        observations, _ = env.reset(seed=episode)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        acted: set[str] = set()
        chips: dict[int, list[float]] = {}
        finished: set[str] = set()
        done = False
        while not done:
            actions = {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                       for agent, obs in observations.items() if agent not in finished}  # as RLlib asks
            acted |= set(actions)
            observations, rewards, terminateds, truncateds, _ = env.step(actions)
            for agent, reward in rewards.items():
                assert agent in acted or reward == 0.0, f"{agent} paid {reward} before it acted"
                returns[agent] += reward
            assert not truncateds["__all__"]
            done = terminateds["__all__"]
            finished |= {agent for agent, over in terminateds.items() if over}
            for table in {int(agent[1:].split("_")[0]) for agent in terminateds if agent != "__all__"}:
                chips[table] = [(env.tables.batch.wealth(s)[table] - starting) / unit for s in range(env.num_players)]
            assert all(agent in acted for agent in terminateds if agent != "__all__")
        for table in range(env.num_tables):
            seats = [returns[f"t{table}_seat_{s}"] for s in range(env.num_players)]
            assert seats == pytest.approx(chips[table], abs=1e-4), (episode, table)
            assert abs(sum(seats)) < 1e-4
        table_episodes += env.num_tables
    assert table_episodes >= 1000
