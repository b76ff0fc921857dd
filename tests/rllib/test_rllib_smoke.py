"""Ray RLlib: the whole table as an RLlib multi-agent env and a tiny multi-agent PPO run.

Runs only where the ``rllib`` extra is installed (its own venv: ``make test-rllib``); elsewhere the
module is skipped as a whole."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the rllib extra is not installed (make install-rllib)")

from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from tests.hang_guard import HANG_GUARD_S  # noqa: E402
from train.rllib_tables import rllib_env  # noqa: E402

pytestmark = pytest.mark.rllib
ROOT = Path(__file__).resolve().parents[2]


def test_rllibs_own_checker_accepts_the_tables():
    check_multiagent_environments(rllib_env({"num_tables": 4, "num_players": 4, "deals_per_episode": 3}))


@pytest.mark.parametrize("rules", ["shoot", "playtech"])
def test_rllibs_own_episodes_keep_every_reward_and_each_table_is_zero_sum(rules):
    """RLlib's MultiAgentEpisode, fed as its env runner feeds it, over 1,000 table episodes: each
    seat's return (what RLlib trains on) is its chips won, and the table's returns sum to zero."""
    tables, players = 16, 4 if rules == "shoot" else 2
    env = rllib_env({"num_tables": tables, "rules": rules, "num_players": players, "deals_per_episode": 4,
                     "first_banker": "random"})
    rng = np.random.default_rng(0)
    starting, unit = env.tables.settings.config.starting_chips, env.tables.rules.base_stake
    for episode_number in range(63):
        observations, infos = env.reset(seed=episode_number)
        episode = MultiAgentEpisode(observation_space=env.observation_spaces, action_space=env.action_spaces)
        episode.add_env_reset(observations=observations, infos=infos)
        done, finished, chips, bankers = False, set(), {}, {}
        while not done:
            actions = {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                       for agent, obs in observations.items() if agent not in finished}
            observations, rewards, terminateds, truncateds, infos = env.step(actions)
            episode.add_env_step(observations, actions, rewards, infos, terminateds=terminateds,
                                 truncateds=truncateds)
            finished |= {agent for agent, over in terminateds.items() if over}
            for table in {int(agent[1:].split("_")[0]) for agent in terminateds if agent != "__all__"}:
                chips[table] = [(env.tables.batch.wealth(s)[table] - starting) / unit for s in range(players)]
                bankers[table] = int(env.tables.batch.banker[table])
            done = terminateds["__all__"]
        dealer = env.tables.rules.banker_play == "dealer"  # draws by rule: never decides, so no agent
        for table in range(tables):
            seats = [s for s in range(players) if not (dealer and s == bankers[table])]
            returns = [episode.agent_episodes[f"t{table}_seat_{s}"].get_return() for s in seats]
            assert returns == pytest.approx([chips[table][s] for s in seats], abs=1e-4), (episode_number, table)
            if not dealer:
                assert abs(sum(returns)) < 1e-4


def test_multi_agent_ppo_trains_in_local_mode():
    command = [sys.executable, "-m", "train.rllib_multiagent", "--iterations", "2", "--batch", "256",
               "--minibatch", "128", "--epochs", "1", "--env-runners", "0", "--hidden", "16", "--tables", "8"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 0, result.stderr[-3000:]
    assert '"iteration": 2' in result.stdout and "agent steps (decisions)/s" in result.stdout
