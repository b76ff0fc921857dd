"""One pairing for every agent: hand h of an evaluation deals the same cards whichever route plays it
(the batched engine's evaluation, the scalar env on the batched engine, the scalar env on the Table),
so a deterministic policy gets the same result hand by hand on each, and a paired difference is paired
whichever engines its two sides played on."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401
from shoot_pontoon_env.evaluate.tournament import play_agent, play_agent_batched
from shoot_pontoon_env.rules import get_rules
from shoot_pontoon_env.shoe import Shoe, hand_key, mix
from shoot_pontoon_env.vector import kernel_evaluation

PRESETS = {"playtech": "ShootPontoon-Playtech-v0", "casino": "ShootPontoon-Casino-v0", "shoot": "ShootPontoon-v0"}


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic Python policy (no class, no attribute): the first legal index (stick before twist)."""
    return int(np.flatnonzero(mask)[0])


def last_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[-1])


def test_the_python_hand_key_is_the_kernels() -> None:
    for seed, hand in [(0, 0), (1, 2), (2**62 - 1, 10**9), (1_000_000, 12345)]:
        assert hand_key(seed, hand) == kernel_evaluation.hand_key(seed, hand)
    assert mix(0) == 0 and mix(1) != 1


def test_a_keyed_shoe_is_a_permutation_decided_by_its_key_alone() -> None:
    def dealt(key: int) -> list[int]:
        shoe = Shoe(2, key)
        shoe.shuffle(np.random.default_rng(999))  # a keyed shoe draws nothing from the Generator
        return [shoe.draw() for _ in range(104)]

    first = dealt(7)
    assert sorted(first) == sorted(list(range(52)) * 2)
    assert dealt(7) == first and dealt(8) != first


def routes(env_id: str, policy, hands: int, seed: int, **kwargs) -> dict[str, np.ndarray]:
    """Per-hand returns of ``policy`` on each route."""
    def make(engine: str):
        return lambda: gym.make(env_id, engine=engine, **kwargs)

    env = gym.make(env_id, **kwargs)
    found = {"batched evaluation": play_agent_batched(env, kwargs, policy, hands, seed, num_tables=512).returns}
    for engine in ("batched", "table"):
        found[f"scalar env, engine={engine}"] = np.asarray(play_agent(make(engine), policy, hands, seed).returns)
    return found


def assert_same_hands(found: dict[str, np.ndarray]) -> None:
    (first, expected), *others = found.items()
    for name, returns in others:
        differ = np.flatnonzero(returns != expected)
        assert len(differ) == 0, f"{name} differs from {first} at hands {differ[:10].tolist()}"


@pytest.mark.parametrize("policy", ["optimal", first_legal], ids=["optimal", "python function"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_route_deals_hand_h_alike(preset: str, policy) -> None:
    assert_same_hands(routes(PRESETS[preset], policy, hands=600, seed=11))


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["optimal", first_legal], ids=["optimal", "python function"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_route_deals_hand_h_alike_on_ten_thousand_hands(preset: str, policy) -> None:
    assert_same_hands(routes(PRESETS[preset], policy, hands=10_000, seed=2026))


def test_a_persistent_shoe_reshuffled_and_restocked_deals_alike_on_both_engines() -> None:
    """One pack at six seats over eight deals: the shoe is reshuffled at the cut card (keeping its
    arrangement between shuffles) and restocked mid-deal; both engines follow the key the same way."""
    rules = get_rules("shoot").replace(shoe="persistent", num_decks=1, penetration=0.95)
    kwargs = {"rules": rules, "num_players": 6, "deals_per_episode": 8}
    env = gym.make("ShootPontoon-v0", engine="table", **kwargs)
    env.reset(options={"shuffle_key": hand_key(5, 0)})
    done = False
    while not done:
        _, _, done, _, info = env.step(last_legal(None, env.unwrapped.action_masks()))
    assert env.unwrapped.table.shoe.shuffles >= 2  # shuffled again since the first
    assert_same_hands(routes("ShootPontoon-v0", last_legal, hands=300, seed=5, **kwargs))


def test_reset_with_a_shuffle_key_replays_and_is_checked() -> None:
    env = gym.make("ShootPontoon-v0", engine="table")
    first, _ = env.reset(options={"shuffle_key": 12345})
    env.step(0)
    again, _ = env.reset(options={"shuffle_key": 12345})
    assert np.array_equal(first, again)
    for bad in (-1, 2**62, 1.5, True, "7"):
        with pytest.raises(ValueError, match=r"reset option shuffle_key = .*\[0, 2\*\*62\)"):
            env.reset(options={"shuffle_key": bad})
    with pytest.raises(ValueError, match="stacked and shuffle_key"):
        env.reset(options={"shuffle_key": 1, "stacked": "AS KD"})
