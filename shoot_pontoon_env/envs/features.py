"""A compact observation for a punter's seat: the decision-relevant part of the flat observation,
re-coded so that a small network learns it fast.

The flat observation (``encoding.py``) is complete but hard to learn from: hand totals are scalars
(the rules switch at 15, 16, 17 and 21, which one-hot codes make linear), chip fields are unbounded
(a stake range of 1..100 beside fractions of 1), and most of its indices describe other seats'
hands. :func:`compact_observation` keeps only what a punter's decisions depend on, all in [0, 1]:

=============== ================================================================================
PHASE, BET_POINT, LEGAL_KINDS  copied from the flat observation
TOTAL           one-hot visible total of the pending hand, 0..21, then one slot for a bust
HAND            present, soft, pair (two cards of one rank), cards held one-hot 1..5 (none: 0), stake /
                original stake / 4, buys / 3, twists / 3, doubled, from split, has a Shoot bet
BANKER          the flat observation's BANKER block (first visible card, counts, total, flags)
COUNT           the flat observation's COUNT block (fraction of each rank seen)
CHIPS           log-scaled Shoot, reserve and Shoot capacity, in base stakes
EPISODE         deals left / deals per episode
=============== ================================================================================

It is a pure function of the flat observation, so a trained agent applies it to what any env
gives it, and rule-based agents keep reading the flat observation.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from . import encoding as enc

MAX_TOTAL = 21
CHIP_LOG_SCALE = float(np.log1p(enc.CHIP_BOUND))

_COPIED = (enc.PHASE, enc.BET_POINT, enc.LEGAL_KINDS)
_HAND_EXTRA = 3  # doubled, from split, Shoot bet (after buys and twists)
COMPACT_SIZE = (
    sum(block.stop - block.start for block in _COPIED)
    + MAX_TOTAL + 2
    + 1 + 1 + 1 + enc.MAX_CARDS + 1 + 2 + _HAND_EXTRA
    + (enc.BANKER.stop - enc.BANKER.start)
    + (enc.COUNT.stop - enc.COUNT.start)
    + 3 + 1
)


def compact_observation(obs: np.ndarray) -> np.ndarray:
    """The compact features of one flat observation (shape ``(n,)``) or a batch (``(b, n)``)."""
    obs = np.asarray(obs, dtype=np.float32)
    batch = obs.reshape(-1, obs.shape[-1])
    if batch.shape[1] < enc.HANDS_START:
        raise ValueError(
            f"observation of length {batch.shape[1]} is not a flat ShootPontoon observation "
            f"(at least {enc.HANDS_START} values)"
        )
    rows = np.arange(len(batch))
    current = batch[:, enc.CURRENT]
    present = current[:, enc.H_PRESENT]

    total = np.rint(current[:, enc.H_TOTAL] * enc.TOTAL_SCALE).astype(np.int64)
    total_onehot = np.zeros((len(batch), MAX_TOTAL + 2), dtype=np.float32)
    total_onehot[rows, np.minimum(total, MAX_TOTAL + 1)] = 1.0
    total_onehot *= present[:, None]

    cards = np.rint(current[:, enc.H_VISIBLE] * enc.MAX_CARDS + current[:, enc.H_HIDDEN] * enc.MAX_CARDS)
    cards_onehot = np.zeros((len(batch), enc.MAX_CARDS), dtype=np.float32)
    held = np.clip(cards.astype(np.int64), 1, enc.MAX_CARDS) - 1
    cards_onehot[rows, held] = present * (cards >= 1)  # a hand can be pending before its first card
    rank_counts = np.rint(current[:, enc.H_RANKS] * enc.MAX_CARDS)
    pair = ((cards == 2) & (rank_counts.max(axis=1) == 2)).astype(np.float32)
    original = current[:, enc.H_ORIGINAL]
    stake_ratio = np.divide(current[:, enc.H_STAKE], 4.0 * original,
                            out=np.zeros_like(original), where=original > 0)
    hand = np.column_stack([
        present, current[:, enc.H_SOFT], pair, cards_onehot, np.minimum(stake_ratio, 1.0),
        current[:, enc.H_BUYS], current[:, enc.H_TWISTS], current[:, enc.H_DOUBLED],
        current[:, enc.H_FROM_SPLIT], (current[:, enc.H_SHOOT_BET] > 0).astype(np.float32),
    ])
    chips = np.log1p(np.maximum(batch[:, [enc.CHIP_SHOOT, enc.CHIP_RESERVE, enc.CHIP_CAPACITY]], 0.0))
    parts = [batch[:, block] for block in _COPIED] + [
        total_onehot, hand, batch[:, enc.BANKER], batch[:, enc.COUNT],
        chips / CHIP_LOG_SCALE, batch[:, enc.EPISODE],
    ]
    features = np.clip(np.concatenate(parts, axis=1), 0.0, 1.0).astype(np.float32)
    return features.reshape(obs.shape[:-1] + (COMPACT_SIZE,))


class CompactObservation(gym.ObservationWrapper):
    """Replaces a punter env's flat observation with :func:`compact_observation` (for training)."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        if env.observation_space.shape is None or env.observation_space.shape[0] < enc.HANDS_START:
            raise ValueError(
                f"CompactObservation needs a flat ShootPontoon observation, got {env.observation_space}"
            )
        self.observation_space = gym.spaces.Box(0.0, 1.0, shape=(COMPACT_SIZE,), dtype=np.float32)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return compact_observation(observation)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()
