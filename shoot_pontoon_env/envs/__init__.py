"""Gymnasium environments: ``ShootPontoon-v0`` (a punter's seat), ``ShootPontoonBanker-v0`` (the
banker's seat) and the casino rule sets ``ShootPontoon-Casino-v0`` / ``ShootPontoon-Playtech-v0``.

Importing this package registers the ids. The env classes load lazily, so that registration stays
cheap for Gymnasium's plugin loader.
"""

from __future__ import annotations

from typing import Any

from .registration import ENV_IDS, register_envs

register_envs()

__all__ = ["ENV_IDS", "ShootPontoonBankerEnv", "ShootPontoonEnv", "register_envs"]


def __getattr__(name: str) -> Any:
    if name == "ShootPontoonEnv":
        from .punter import ShootPontoonEnv
        return ShootPontoonEnv
    if name == "ShootPontoonBankerEnv":
        from .banker import ShootPontoonBankerEnv
        return ShootPontoonBankerEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
