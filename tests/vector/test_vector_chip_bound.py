"""Every chip on every legal table: the batched engine, which counts chips in int32, either plays a
table exactly as the Table does (chips compared at every step) or refuses it up front, naming the
arguments. The hard tables are the Shoot-doubling ones: no bank limit, Shoot bet levels up to all of
the Shoot, long episodes, and a punter who bets as much as the Shoot allows at every point."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from differential import Differential, RecordingShoe
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shoot_pontoon_env.actions import ActionKind
from shoot_pontoon_env.engine import table as table_module
from shoot_pontoon_env.rules import SHOOT, SHOOT_BET_POINTS

DOUBLING_LEVELS = tuple(2**k for k in range(30))
"""Shoot bets of every power of two up to 2**29: the largest one the Shoot's room allows is at least
half of it, so betting it and losing grows the Shoot by half or more each time."""


class AllInDifferential(Differential):
    """The differential harness with a punter who mostly bets the largest Shoot bet the Shoot allows."""

    feed_capacity = 128  # every deal of an 80-deal episode can pass in one step (the agent seat banks them)

    def _choose(self, env) -> int:
        legal = np.flatnonzero(env.action_masks())
        bets = [int(i) for i in legal if env.action_table.entries[i].kind == ActionKind.SHOOT_BET]
        if bets and self.rng.random() < 0.9:
            return max(bets, key=lambda i: env.action_table.entries[i].amount)
        return int(self.rng.choice(legal))


def run_all_in(kwargs: dict, tables: int, steps: int, seed: int) -> AllInDifferential:
    """Play ``steps`` steps on both engines, compared at every step, and check the batch's chips
    against the starting chips at every step too."""
    original = table_module.Shoe
    table_module.Shoe = RecordingShoe
    try:
        diff = AllInDifferential("ShootPontoon-v0", kwargs, tables, seed, illegal_rate=0.0)
        starting = diff.envs[0].num_players * diff.envs[0].starting_chips
        diff.reset()
        for _ in range(steps):
            diff.step()
            assert (diff.batch.total_chips() == starting).all(), "the batched engine lost or made chips"
    finally:
        table_module.Shoe = original
    return diff


def table_engine_keeps_every_chip(kwargs: dict, episodes: int, seed: int) -> None:
    """The Table (Python ints) on a table the batched engine refuses, with the all-in punter."""
    env = gym.make("ShootPontoon-v0", **kwargs)
    assert env.unwrapped.engine_in_use == "table"
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    starting = env.unwrapped.num_players * env.unwrapped.starting_chips
    ended = 0
    while ended < episodes:
        legal = np.flatnonzero(info["action_mask"])
        entries = env.unwrapped.action_table.entries
        bets = [int(i) for i in legal if entries[i].kind == ActionKind.SHOOT_BET]
        action = max(bets, key=lambda i: entries[i].amount) if bets else int(rng.choice(legal))
        _, _, terminated, truncated, info = env.step(action)
        assert env.unwrapped.table.total_chips == starting
        if terminated or truncated:
            ended += 1
            _, info = env.reset()


@st.composite
def shoot_doubling_tables(draw) -> dict:
    points = tuple(p for p in SHOOT_BET_POINTS if draw(st.booleans())) or ("before_deal",)
    rules = SHOOT.replace(
        name="doubling",
        initial_shoot=draw(st.sampled_from([1, 50, 1000])),
        shoot_cap=draw(st.sampled_from([None, None, 10**6, 10**9])),
        shoot_bet_points=points,
        max_shoot_bet=draw(st.sampled_from([None, None, 10**9, 500])),
        reserved_shoot_percent=draw(st.sampled_from([0, 10])),
        progressive_shoot_chips=draw(st.sampled_from([0, 1])),
        bank_sale=draw(st.booleans()),
        max_stake=draw(st.sampled_from([10, 10**6])),
    )
    num_players = draw(st.integers(2, 5))
    return {
        "rules": rules, "num_players": num_players, "seat": draw(st.integers(1, num_players - 1)),
        "shoot_bet_levels": DOUBLING_LEVELS[:draw(st.integers(3, 30))],
        "punters": draw(st.sampled_from(["tips", "threshold"])),  # deterministic: both engines agree
        "deals_per_episode": draw(st.sampled_from([1, 3, 12, 40, 80])),
        "starting_chips": draw(st.sampled_from([0, 1000, 10**6, 10**9])),
    }


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kwargs=shoot_doubling_tables(), seed=st.integers(0, 10_000))
def test_shoot_doubling_tables_are_played_exactly_or_refused_up_front(kwargs, seed):
    try:
        gym.make("ShootPontoon-v0", **kwargs, engine="batched")
    except ValueError as error:
        assert "int32 limit" in str(error) and "deals_per_episode" in str(error), error
        table_engine_keeps_every_chip(kwargs, episodes=2, seed=seed)
        return
    run_all_in(kwargs, tables=3, steps=80, seed=seed)


DOUBLING_TABLE = {"shoot_bet_levels": DOUBLING_LEVELS, "deals_per_episode": 40, "num_players": 2}
"""A table of the outside fuzz that the old bound let through: an all-in punter doubles the uncapped
Shoot every deal he loses, past 2**31 within 40 deals."""


def test_the_uncapped_doubling_table_is_refused_by_the_batched_engine_by_name():
    with pytest.raises(ValueError, match=r"deals_per_episode = 40: chip counts of this table could pass "):
        gym.make("ShootPontoon-v0", **DOUBLING_TABLE, engine="batched")
    with pytest.raises(ValueError, match="int32 limit"):
        gym.make_vec("ShootPontoon-v0", num_envs=2, **DOUBLING_TABLE)
    table_engine_keeps_every_chip(DOUBLING_TABLE, episodes=1, seed=0)


def test_a_bank_limit_or_small_bets_keep_the_same_long_table_on_the_batched_engine():
    capped = {**DOUBLING_TABLE, "rules": SHOOT.replace(shoot_cap=10**6)}
    assert gym.make("ShootPontoon-v0", **capped).unwrapped.engine_in_use == "batched"
    small = {**DOUBLING_TABLE, "shoot_bet_levels": (2, 4, 10)}
    assert gym.make("ShootPontoon-v0", **small).unwrapped.engine_in_use == "batched"
    run_all_in(capped, tables=2, steps=300, seed=3)
