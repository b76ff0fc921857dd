"""``observation="compact"``: the batched engine writes features.compact_observation's row itself,
equal to the numpy features of the flat row at every step; the env's spec rebuilds it."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.seat.features import COMPACT_SIZE, compact_observation

CONFIGS = [
    ("ShootPontoon-v0", {}),
    ("ShootPontoon-v0", {"num_players": 8, "deals_per_episode": 6, "banker": "shoot_aware",
                         "rules": {"preset": "shoot", "shoe": "persistent", "num_decks": 2}}),
    ("ShootPontoon-v0", {"rules": {"preset": "shoot", "max_boxes": 2, "double_stakes": True}}),
    ("ShootPontoon-Playtech-v0", {"num_players": 2}),
    ("ShootPontoon-Casino-v0", {"num_players": 6, "punters": "random"}),
    ("ShootPontoon-v0", {"rules": {"preset": "shoot", "initial_shoot": 4090, "base_stake": 3, "min_stake": 3,
                                   "max_stake": 30}, "stake_levels": [3, 30], "starting_chips": 100_000}),
]
"""The last: a Shoot that grows past the chip counts whose feature the config tabulates (4,096)."""


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c[0] + "".join(f"-{k}" for k in c[1]))
def test_the_kernels_compact_row_is_the_numpy_features_of_the_flat_row(config):
    env_id, kwargs = config
    flat = gym.make_vec(env_id, num_envs=64, **kwargs)
    compact = gym.make_vec(env_id, num_envs=64, observation="compact", **kwargs)
    assert compact.single_observation_space == gym.spaces.Box(0.0, 1.0, (COMPACT_SIZE,), np.float32)
    flat_obs, info = flat.reset(seed=5)
    compact_obs, _ = compact.reset(seed=5)
    rng = np.random.default_rng(1)
    for step in range(400):
        expected = compact_observation(flat_obs)
        rows = np.flatnonzero((expected != compact_obs).any(axis=1))
        assert rows.size == 0, (f"step {step}, table {rows[:1]}: at {np.flatnonzero(expected[rows[0]] != compact_obs[rows[0]])}"
                                if rows.size else "")
        assert compact_obs in compact.observation_space
        mask = info["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * (mask + (rng.random(mask.shape) < 0.01)), axis=1)
        flat_obs, flat_reward, _, _, info = flat.step(actions)
        compact_obs, compact_reward, _, _, _ = compact.step(actions)
        assert np.array_equal(flat_reward, compact_reward)


@pytest.mark.parametrize("engine", ["batched", "table"])
def test_a_compact_env_is_rebuilt_by_its_spec_and_passes_the_checkers(engine):
    from gymnasium.utils.env_checker import check_env

    env = gym.make("ShootPontoon-v0", observation="compact", engine=engine)
    again = gym.make(env.spec)
    assert again.observation_space == env.observation_space and again.unwrapped.observation == "compact"
    first, _ = env.reset(seed=9)
    second, _ = again.reset(seed=9)
    assert np.array_equal(first, second) and first.shape == (COMPACT_SIZE,)
    check_env(env.unwrapped, skip_render_check=True)


def test_a_bad_observation_is_refused_by_name():
    with pytest.raises(ValueError, match=r"observation = 'small': expected one of \('flat', 'compact'\)"):
        gym.make("ShootPontoon-v0", observation="small")


@pytest.mark.parametrize("unit", [1, 2, 3, 7, 100])
def test_the_tabulated_chip_features_are_the_numpy_features(unit):
    """The encoder looks chip features up (engine.chip_features) instead of calling log1p: every entry
    must be what features.compact_observation makes of the flat row's chips."""
    from shoot_pontoon_env.seat import encoding as enc
    from shoot_pontoon_env.seat import features as feat
    from shoot_pontoon_env.vector.tables import chip_features

    table = chip_features(unit)
    rows = np.zeros((len(table), enc.HANDS_START), dtype=np.float32)
    rows[:, enc.CHIP_SHOOT] = np.minimum(np.arange(len(table)) / unit, enc.CHIP_BOUND).astype(np.float32)
    assert np.array_equal(compact_observation(rows)[:, feat.CF_CHIPS], table.astype(np.float32))
