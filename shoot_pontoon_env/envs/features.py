"""The compact punter observation as a Gymnasium wrapper (``CompactObservation``).

The features themselves live in ``seat/features.py`` (both engines write them); a punter env made
with ``observation="compact"`` returns them directly, which is what training uses. The wrapper turns
a flat env's observation into them (saved models name it: ``env_wrapper`` in their config).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.wrappers import TransformObservation

from ..seat import encoding as enc

from ..seat.features import COMPACT_SIZE, compact_observation


class CompactObservation(TransformObservation):
    """Replaces a punter env's flat observation with :func:`compact_observation` (for training).

    A ``TransformObservation`` (``func`` is ``compact_observation``), so Gymnasium's vector wrapper
    takes it as it is: ``VectorizeTransformObservation(envs, CompactObservation)`` over any vector env
    of flat punter observations, row by row in Python. The batched engine writes the same features
    itself with ``gym.make_vec(id, num_envs=N, observation="compact")``, much faster. Its constructor
    arguments are recorded (none but the env), so ``gym.make(env.spec)`` rebuilds a wrapped env."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # first: no func or space to record
        if env.observation_space.shape is None or env.observation_space.shape[0] < enc.HANDS_START:
            raise ValueError(
                f"CompactObservation needs a flat ShootPontoon observation, got {env.observation_space}"
            )
        TransformObservation.__init__(self, env, compact_observation,
                                      gym.spaces.Box(0.0, 1.0, shape=(COMPACT_SIZE,), dtype=np.float32))

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()
