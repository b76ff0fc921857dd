"""Shared helpers of the env tests (a unique module name: tests/ has no packages)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.actions import ActionKind
from shoot_pontoon_env.rules import PRESETS

# Every registered id with every preset it accepts: (id, make kwargs).
CONFIGS = [
    ("ShootPontoon-v0", {"rules": name}) for name in PRESETS
] + [
    ("ShootPontoonBanker-v0", {"rules": name}) for name in PRESETS if PRESETS[name].banker_play == "free"
] + [("ShootPontoon-Casino-v0", {}), ("ShootPontoon-Playtech-v0", {})] + [
    # a banker drawing past five cards: observation bounds and decoding beyond five banker cards
    ("ShootPontoonBanker-v0", {"rules": PRESETS["shoot"].replace(name="shoot-draw-on", banker_five_cards="draw_on")}),
    ("ShootPontoon-v0", {"rules": PRESETS["playtech"].replace(name="playtech-draw-on", banker_five_cards="draw_on")}),
]


def config_id(config: tuple[str, dict]) -> str:
    env_id, kwargs = config
    parts = [v.name if k == "rules" and not isinstance(v, str) else v if k == "rules" else f"{k}={v}"
             for k, v in kwargs.items()]
    return "-".join([env_id, *map(str, parts)]).replace(" ", "")


def make(env_id: str = "ShootPontoon-v0", **kwargs):
    """The raw env (no wrappers), with its spec set by gym.make."""
    return gym.make(env_id, **kwargs).unwrapped


ENGINES = ("table", "batched")
"""The scalar env's two engines (``engine=``): tests of chips and rewards run on both."""


def total_chips(env) -> int:
    """Every chip at the env's table, on either engine."""
    return env.episode.facts().total_chips


def net_chips(env) -> int:
    """The agent seat's chips won or lost in the episode, on either engine."""
    return env.episode.facts().wealth - env.starting_chips


def index(env, kind: ActionKind, amount: int = 0) -> int:
    return env.action_table.index_of(kind, amount)


def buy_index(env, multiple: float) -> int:
    return next(i for i, e in enumerate(env.action_table.entries)
                if e.kind == ActionKind.BUY and e.multiple == multiple)


def random_masked_episode(env, rng: np.random.Generator, seed: int | None = None) -> tuple[float, int]:
    """Play one episode with uniformly random legal actions, checking after every step that chips
    are conserved; the rewards must add up to the seat's net chips. Returns (reward sum, steps)."""
    obs, info = env.reset(seed=seed)
    chips = total_chips(env)
    reward_sum, steps, terminated = 0.0, 0, False
    while not terminated:
        assert obs in env.observation_space
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size > 0 and np.array_equal(info["action_mask"], env.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated and isinstance(reward, float) and not info["illegal_action"]
        assert total_chips(env) == chips, "chips not conserved"
        assert env.view.shoot >= 0
        reward_sum += reward
        steps += 1
    net = net_chips(env) / env.rules.base_stake
    assert abs(reward_sum - net) < 1e-3 * max(1.0, abs(net))
    assert info["action_mask"].all() and env.action_masks().all()  # over: any action, ignored by the reset
    return reward_sum, steps
