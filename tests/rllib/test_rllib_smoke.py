"""Ray RLlib: the whole table as an RLlib multi-agent env and a tiny multi-agent PPO run.

Runs only where the ``rllib`` extra is installed (its own venv: ``make test-rllib``); elsewhere the
module is skipped as a whole."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the rllib extra is not installed (make install-rllib)")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from train.rllib_multiagent import make_rllib_env  # noqa: E402

pytestmark = pytest.mark.rllib
ROOT = Path(__file__).resolve().parents[2]


def test_rllibs_own_checker_accepts_the_table():
    check_multiagent_environments(make_rllib_env({"num_players": 4, "deals_per_episode": 3}))


@pytest.mark.parametrize("rules", ["shoot", "casino"])
def test_only_the_seat_to_act_observes_and_each_episode_is_zero_sum(rules):
    env = make_rllib_env({"rules": rules, "num_players": 4, "deals_per_episode": 4, "first_banker": "random"})
    rng = np.random.default_rng(0)
    for episode in range(10):
        obs, _ = env.reset(seed=episode)
        totals: dict[str, float] = {}
        done = False
        while not done:
            assert len(obs) == 1
            (agent, observation), = obs.items()
            assert observation in env.observation_spaces[agent]
            assert set(observation) == {"observations", "action_mask"}
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            obs, rewards, terminated, truncated, _ = env.step({agent: action})
            for name, reward in rewards.items():
                totals[name] = totals.get(name, 0.0) + reward
            done = terminated["__all__"] or truncated["__all__"]
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)


def test_multi_agent_ppo_trains_in_local_mode():
    command = [sys.executable, "-m", "train.rllib_multiagent", "--iterations", "1", "--batch", "256",
               "--minibatch", "128", "--epochs", "1", "--env-runners", "0", "--hidden", "16"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert '"iteration": 1' in result.stdout and "env steps/s" in result.stdout
