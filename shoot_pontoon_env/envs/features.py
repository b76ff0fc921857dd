"""The compact punter observation as a Gymnasium wrapper, and its names where users import them.

The features themselves live in ``seat/features.py`` (both engines write them); a punter env made
with ``observation="compact"`` returns them directly, which is what training uses. The wrapper turns
a flat env's observation into them (saved models name it: ``env_wrapper`` in their config).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from ..seat import encoding as enc
from ..seat.features import *  # noqa: F403  (the public names, where 0.3 users import them)
from ..seat.features import COMPACT_SIZE, compact_observation


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
