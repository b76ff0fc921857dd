"""Gymnasium's masked ``action_space.sample`` with the env's mask, converted as docs/ECOSYSTEM.md
shows: the mask is bool (MaskablePPO and the batched engine take it so), Gymnasium wants int8."""

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)


def test_single_env_samples_legal_actions_from_its_converted_mask():
    env = gym.make("ShootPontoon-v0")
    env.action_space.seed(0)
    obs, info = env.reset(seed=0)
    for _ in range(300):
        assert info["action_mask"].dtype == bool
        action = env.action_space.sample(mask=info["action_mask"].astype(np.int8))
        assert info["action_mask"][action]
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal_action"]
        if terminated or truncated:
            obs, info = env.reset()


def test_vector_env_samples_each_row_from_its_converted_mask():
    envs = gym.make_vec("ShootPontoon-v0", num_envs=4)  # the batched engine, NEXT_STEP autoreset
    envs.single_action_space.seed(0)
    envs.action_space.seed(1)
    obs, info = envs.reset(seed=0)
    for step in range(300):
        masks = info["action_mask"]
        if step % 2:  # row by row
            actions = np.array([envs.single_action_space.sample(mask=row.astype(np.int8)) for row in masks])
        else:  # every row at once: a tuple of per-row masks for the MultiDiscrete space
            actions = envs.action_space.sample(mask=tuple(masks.astype(np.int8)))
        assert masks[np.arange(envs.num_envs), actions].all()
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not info["illegal_action"].any()
    envs.close()
