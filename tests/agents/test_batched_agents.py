"""Agents on batches: choose_batch agrees with choose row by row, and batch_player says which agents the
batched engine plays by itself."""

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from agents import StrategyAgent, make_agent
from shoot_pontoon_env.players.strategies import ThresholdPunter
from shoot_pontoon_env.vector.layout import AP_STRATEGY, AP_TABLE, AP_UNIFORM

KWARGS = {"num_players": 2, "stake_levels": [1]}


def batch_of_states(steps: int = 3, tables: int = 64):
    """Observations and masks of many tables at their decisions (a random agent played them there)."""
    envs = gym.make_vec("ShootPontoon-Playtech-v0", num_envs=tables, autoreset_mode="SameStep", **KWARGS)
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=0)
    for _ in range(steps):
        obs, _, _, _, info = envs.step(np.argmax(rng.random(info["action_mask"].shape) * info["action_mask"], 1))
    return obs, info["action_mask"]


def test_random_choose_batch_picks_a_legal_index_in_every_row():
    obs, masks = batch_of_states()
    env = gym.make("ShootPontoon-Playtech-v0", **KWARGS)
    actions = make_agent("random", env).choose_batch(obs, masks, np.random.default_rng(1))
    assert actions.shape == (len(obs),) and masks[np.arange(len(obs)), actions].all()


def test_a_trained_model_acts_on_a_batch_as_on_each_row():
    pytest.importorskip("sb3_contrib")
    obs, masks = batch_of_states()
    env = gym.make("ShootPontoon-Playtech-v0", **KWARGS)
    agent = make_agent("zoo:playtech_punter", env)
    rng = np.random.default_rng(2)
    batch = agent.choose_batch(obs, masks, rng)
    assert agent.batched and batch.dtype == np.int64
    assert batch.tolist() == [agent.choose(o, m, rng) for o, m in zip(obs, masks)]


class MyPunter(ThresholdPunter):
    """A subclass may decide anything: the kernel cannot play it."""


def test_batch_player_names_what_the_kernel_plays_itself():
    env = gym.make("ShootPontoon-Playtech-v0", **KWARGS)
    assert make_agent("random", env).batch_player().mode == AP_UNIFORM
    assert make_agent("tips", env).batch_player().mode == AP_STRATEGY
    assert make_agent("threshold15", env).batch_player().strategy.stick_on == 15
    optimal = make_agent("optimal", env).batch_player()
    assert optimal.mode == AP_TABLE and optimal.policy.dtype == np.int32 and optimal.policy.size > 1000
    assert StrategyAgent(MyPunter()).bind(env).batch_player() is None
    with pytest.raises(RuntimeError, match="bind"):
        StrategyAgent("tips").batch_player()
