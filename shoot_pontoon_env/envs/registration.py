"""Gymnasium ids of the environments. ``register_envs()`` is idempotent: importing
``shoot_pontoon_env.envs`` calls it, and so may anyone else."""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

PUNTER_ENTRY_POINT = "shoot_pontoon_env.envs.punter:ShootPontoonEnv"
BANKER_ENTRY_POINT = "shoot_pontoon_env.envs.banker:ShootPontoonBankerEnv"
PUNTER_VECTOR_ENTRY_POINT = "shoot_pontoon_env.envs.vector_env:ShootPontoonVectorEnv"
BANKER_VECTOR_ENTRY_POINT = "shoot_pontoon_env.envs.vector_env:ShootPontoonBankerVectorEnv"
VECTOR_ENTRY_POINTS = {PUNTER_ENTRY_POINT: PUNTER_VECTOR_ENTRY_POINT, BANKER_ENTRY_POINT: BANKER_VECTOR_ENTRY_POINT}
"""The batched engine's VectorEnv of each seat: what ``gym.make_vec(id, num_envs=N)`` builds."""

ENV_IDS: dict[str, tuple[str, dict]] = {
    "ShootPontoon-v0": (PUNTER_ENTRY_POINT, {}),
    "ShootPontoonBanker-v0": (BANKER_ENTRY_POINT, {}),
    "ShootPontoon-Casino-v0": (PUNTER_ENTRY_POINT, {"rules": "casino"}),
    "ShootPontoon-Playtech-v0": (PUNTER_ENTRY_POINT, {"rules": "playtech"}),
}
"""Every registered id: entry point and default keyword arguments (``gym.make(id, **kwargs)`` and
``gym.make_vec(id, num_envs=N, **kwargs)`` may override them, e.g. ``rules="playtech"``)."""


def register_envs() -> None:
    """Register every id of :data:`ENV_IDS` that is not registered yet."""
    for env_id, (entry_point, kwargs) in ENV_IDS.items():
        if env_id not in registry:
            register(id=env_id, entry_point=entry_point, vector_entry_point=VECTOR_ENTRY_POINTS[entry_point],
                     kwargs=dict(kwargs))
