"""The compact punter observation: its values follow the seat's view, and the wrapper passes SB3's checker."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from shoot_pontoon_env.cards import best_total
from shoot_pontoon_env.seat import encoding as enc
from shoot_pontoon_env.envs.features import CompactObservation
from shoot_pontoon_env.seat.features import COMPACT_SIZE, MAX_TOTAL, compact_observation

ENV_IDS = ("ShootPontoon-v0", "ShootPontoon-Casino-v0", "ShootPontoon-Playtech-v0")
TOTAL = slice(len(enc.Phase) + 3 + enc.NUM_KINDS, len(enc.Phase) + 3 + enc.NUM_KINDS + MAX_TOTAL + 2)
PRESENT, SOFT, PAIR = range(TOTAL.stop, TOTAL.stop + 3)
CARDS = slice(PAIR + 1, PAIR + 1 + enc.MAX_CARDS)


def masked_random_play(env, steps, seed):
    """(flat observation, seat view) pairs of random masked play."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for _ in range(steps):
        yield obs, env.unwrapped.view
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            obs, info = env.reset()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_features_follow_the_pending_hand(env_id):
    env = gym.make(env_id)
    checked_pairs = 0
    for obs, view in masked_random_play(env, 400, seed=3):
        features = compact_observation(obs)
        assert features.shape == (COMPACT_SIZE,) and features.dtype == np.float32
        assert 0.0 <= features.min() and features.max() <= 1.0
        hand = view.current_hand
        if hand is None:
            assert features[PRESENT] == 0.0 and features[TOTAL].sum() == 0.0
            continue
        total, soft = best_total(hand.cards)
        assert features[PRESENT] == 1.0 and features[SOFT] == float(soft)
        assert np.flatnonzero(features[TOTAL]).tolist() == [min(total, MAX_TOTAL + 1)]
        held = len(hand.cards) + hand.hidden_cards
        assert np.flatnonzero(features[CARDS]).tolist() == ([held - 1] if held else [])
        is_pair = len(hand.cards) == 2 and hand.cards[0] // 4 == hand.cards[1] // 4
        assert features[PAIR] == float(is_pair)
        checked_pairs += is_pair
    assert checked_pairs or env_id != "ShootPontoon-Playtech-v0"


def test_a_batch_is_encoded_row_by_row():
    env = gym.make("ShootPontoon-v0")
    rows = np.stack([obs for obs, _ in masked_random_play(env, 50, seed=1)])
    assert np.array_equal(compact_observation(rows), np.stack([compact_observation(r) for r in rows]))


def test_the_wrapper_passes_sb3_checker_and_keeps_the_mask():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_check_env(CompactObservation(gym.make("ShootPontoon-Playtech-v0")))
    env = CompactObservation(gym.make("ShootPontoon-v0"))
    obs, info = env.reset(seed=0)
    assert obs.shape == (COMPACT_SIZE,) and np.array_equal(env.action_masks(), info["action_mask"])


def test_a_wrong_observation_is_refused_with_its_length():
    with pytest.raises(ValueError, match="observation of length 10 is not a flat ShootPontoon observation"):
        compact_observation(np.zeros(10))
    with pytest.raises(ValueError, match="needs a flat ShootPontoon observation"):
        CompactObservation(gym.make("Blackjack-v1"))
