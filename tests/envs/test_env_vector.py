"""Gymnasium vector envs (``gym.make_vec``) under each autoreset mode: every mask a user receives
holds at least one legal action, so the obvious masked sampler never fails, and no action it picks
is ever illegal."""

import gymnasium as gym
import numpy as np
import pytest
from env_helpers import CONFIGS, config_id  # noqa: F401  (registers the ids)
from gymnasium.vector import AutoresetMode

NUM_ENVS = 3
STEPS = 120


def masked_sample(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal index per row, uniformly: what a user writes first (fails on an empty row)."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.name)
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_mask_of_a_vector_env_holds_a_legal_action_and_no_sampled_action_is_illegal(config, mode):
    env_id, kwargs = config
    envs = gym.make_vec(env_id, num_envs=NUM_ENVS, vectorization_mode="sync",
                        vector_kwargs={"autoreset_mode": mode}, **kwargs)
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=0)
    masks = info["action_mask"]
    episodes, autoreset = 0, np.zeros(NUM_ENVS, dtype=bool)
    for _ in range(STEPS):
        assert masks.shape == (NUM_ENVS, envs.single_action_space.n) and masks.any(axis=1).all()
        obs, rewards, terminated, truncated, info = envs.step(masked_sample(masks, rng))
        assert not truncated.any()
        assert not info["illegal_action"][info["_illegal_action"]].any()
        if mode == AutoresetMode.NEXT_STEP:
            # the step after a terminal one is a reset: its action was ignored, its reward is 0
            assert (rewards[autoreset] == 0).all() and not terminated[autoreset].any()
            autoreset = terminated | truncated
            masks = info["action_mask"]
        elif mode == AutoresetMode.SAME_STEP:
            if terminated.any():  # already reset: the terminal step's data is in final_info
                assert info["_final_obs"].tolist() == terminated.tolist()
                final = info["final_info"]["action_mask"][terminated]
                assert final.all(), "a terminal mask allows every index (any action, ignored)"
            masks = info["action_mask"]
        else:  # DISABLED: the user resets the finished envs; only they get new masks
            masks = info["action_mask"]
            if terminated.any():
                assert masks[terminated].all()
                obs, reset_info = envs.reset(options={"reset_mask": terminated.copy()})
                fresh = reset_info["_action_mask"]
                assert fresh.tolist() == terminated.tolist()
                masks = np.where(fresh[:, None], reset_info["action_mask"], masks)
        episodes += int(terminated.sum())
    assert episodes > NUM_ENVS  # several episodes ended in every run
    envs.close()


def test_next_step_autoreset_ignores_the_action_after_a_terminal_step():
    """Even an index the terminal mask allows only because the episode is over does nothing: the
    sub-env is reset and the step returns its first observation, reward 0 and a fresh mask."""
    envs = gym.make_vec("ShootPontoon-v0", num_envs=1, vectorization_mode="sync")
    obs, info = envs.reset(seed=5)
    rng = np.random.default_rng(1)
    terminated = np.array([False])
    while not terminated[0]:
        obs, _, terminated, _, info = envs.step(masked_sample(info["action_mask"], rng))
    assert info["action_mask"][0].all()
    obs, reward, terminated, truncated, info = envs.step(np.array([envs.single_action_space.n - 1]))
    assert reward[0] == 0 and not terminated[0] and not info["illegal_action"][0]
    assert info["action_mask"][0].any() and not info["action_mask"][0].all()  # a new episode's mask
