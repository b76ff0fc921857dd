"""Every agent's choose_batch plays a NEXT_STEP vector env as it comes: the row of a table that is being
reset on this step holds the finished episode's observation (no decision pending) and an all-True
mask; its action is ignored, and the agent must still answer a valid index instead of raising."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from agents import make_agent

DEFAULT = {}
SHOOT_PUNTER = {"stake_levels": [2]}  # what agents/zoo/shoot_punter was trained on
AGENTS = [("random", DEFAULT), ("tips", DEFAULT), ("stand17", DEFAULT), ("dealer", DEFAULT),
          ("shoot_aware", DEFAULT), ("threshold", DEFAULT), ("threshold15", DEFAULT), ("optimal", DEFAULT),
          ("basic", DEFAULT), ("zoo:shoot_punter", SHOOT_PUNTER)]


@pytest.mark.parametrize(("name", "env_kwargs"), AGENTS, ids=[name for name, _ in AGENTS])
def test_choose_batch_steps_a_next_step_vector_env(name, env_kwargs):
    if name.startswith("zoo:"):
        pytest.importorskip("sb3_contrib")
    agent = make_agent(name, gym.make("ShootPontoon-v0", **env_kwargs))
    envs = gym.make_vec("ShootPontoon-v0", num_envs=4, autoreset_mode=AutoresetMode.NEXT_STEP, **env_kwargs)
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=0)
    resetting = np.zeros(envs.num_envs, dtype=bool)  # rows whose next step is a reset (action ignored)
    ignored_rows = 0
    for _ in range(300):
        masks = info["action_mask"]
        actions = agent.choose_batch(obs, masks, rng)
        assert actions.shape == (envs.num_envs,)
        assert ((0 <= actions) & (actions < envs.single_action_space.n)).all()
        assert masks[np.arange(envs.num_envs), actions].all()
        ignored_rows += int(resetting.sum())
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not info["illegal_action"].any()
        resetting = terminated | truncated
    envs.close()
    assert ignored_rows > 0  # the agent did answer rows with no decision pending


FINISHED = [("random", DEFAULT), ("tips", DEFAULT), ("optimal", DEFAULT), ("zoo:shoot_punter", SHOOT_PUNTER)]


@pytest.mark.parametrize(("name", "env_kwargs"), FINISHED, ids=[name for name, _ in FINISHED])
def test_a_finished_table_gets_a_valid_index_even_with_an_empty_mask(name, env_kwargs):
    if name.startswith("zoo:"):
        pytest.importorskip("sb3_contrib")
    env = gym.make("ShootPontoon-v0", **env_kwargs)
    agent = make_agent(name, env)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    done = False
    while not done:  # play one episode out: its last observation has no decision pending
        obs, _, terminated, truncated, info = env.step(agent.choose(obs, info["action_mask"], rng))
        done = terminated or truncated
    mask = info["action_mask"]
    assert mask.all()  # a finished episode's mask allows every index
    assert agent.choose_batch(obs[None], np.zeros_like(mask)[None], np.random.default_rng(0)).tolist() == [0]
    assert agent.choose(obs, mask, np.random.default_rng(0)) in range(len(mask))
