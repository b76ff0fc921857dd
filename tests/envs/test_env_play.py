"""Determinism, copies, sessions of several deals, and random play with chips checked by the engine."""

import copy
import pickle

import numpy as np
import pytest
from env_helpers import CONFIGS, ENGINES, config_id, make, net_chips, random_masked_episode, total_chips

from shoot_pontoon_env.engine import Phase
from shoot_pontoon_env.seat import encoding as enc
from shoot_pontoon_env.rules import SHOOT

SESSION_CONFIGS = [
    ("ShootPontoon-v0", {"deals_per_episode": 6}),
    ("ShootPontoon-v0", {"deals_per_episode": 6, "shoot_bet_levels": (10, 25, 50), "num_players": 3,
                         "banker": "shoot_aware", "agent_banker": "shoot_aware"}),
    ("ShootPontoon-v0", {"rules": "casino", "deals_per_episode": 4}),
    ("ShootPontoonBanker-v0", {"deals_per_episode": 6}),
    ("ShootPontoonBanker-v0", {"deals_per_episode": 6, "punters": "random",
                               "rules": SHOOT.replace(reserved_shoot_percent=30, progressive_shoot_chips=1)}),
]


def trajectory(env, seed, actions_seed, steps=60):
    """Observations, rewards and flags of a seeded run with seeded random masked actions."""
    rng = np.random.default_rng(actions_seed)
    obs, info = env.reset(seed=seed)
    out = [obs.tobytes()]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((obs.tobytes(), reward, terminated))
        if terminated:
            obs, info = env.reset()
            out.append(obs.tobytes())
    return out


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("config", CONFIGS + SESSION_CONFIGS[:1] + SESSION_CONFIGS[3:4], ids=config_id)
def test_seeded_reset_and_steps_are_deterministic(config, engine):
    env_id, kwargs = config
    first = trajectory(make(env_id, engine=engine, **kwargs), seed=7, actions_seed=1)
    assert trajectory(make(env_id, engine=engine, **kwargs), seed=7, actions_seed=1) == first
    assert trajectory(make(env_id, engine=engine, **kwargs), seed=8, actions_seed=1) != first


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("config", CONFIGS[:1] + SESSION_CONFIGS[1:2] + SESSION_CONFIGS[3:4], ids=config_id)
def test_a_live_env_survives_deepcopy_and_pickle_and_continues_identically(config, engine):
    env_id, kwargs = config
    env = make(env_id, engine=engine, **kwargs)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    for _ in range(5):
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            obs, info = env.reset()
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    state = (rng.bit_generator.state, info["action_mask"].copy())

    def run(target):
        actions = np.random.default_rng(0)
        actions.bit_generator.state = state[0]
        mask, out = state[1], []
        for _ in range(40):
            obs, reward, terminated, _, info = target.step(int(actions.choice(np.flatnonzero(mask))))
            if terminated:
                obs, info = target.reset()
            mask = info["action_mask"]
            out.append((obs.tobytes(), reward, terminated))
        return out

    expected = run(env)
    for clone in clones:
        assert run(clone) == expected


def play_random_steps(config, steps: int, seed: int, reseed_every: int, engine: str = "table") -> None:
    """Random masked episodes (each checking chips and rewards) until ``steps`` steps; every
    ``reseed_every``-th episode is reset with a seed, the others carry the shoe on."""
    env_id, kwargs = config
    env = make(env_id, engine=engine, **kwargs)
    rng = np.random.default_rng(seed)
    played, episode = 0, 0
    while played < steps:
        played += random_masked_episode(env, rng, seed=episode if episode % reseed_every == 0 else None)[1]
        episode += 1


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("config", CONFIGS + SESSION_CONFIGS, ids=config_id)
def test_random_masked_play_conserves_chips(config, engine):
    play_random_steps(config, 2_000, seed=0, reseed_every=10, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("config", CONFIGS[:1] + CONFIGS[3:4] + SESSION_CONFIGS[:1], ids=config_id)
def test_random_unmasked_play_forfeits_conserving_chips(config, engine):
    env_id, kwargs = config
    env = make(env_id, illegal_action_penalty=2.0, engine=engine, **kwargs)
    rng = np.random.default_rng(0)
    illegal = 0
    for episode in range(150):
        obs, info = env.reset(seed=episode)
        total, terminated, rewards = total_chips(env), False, 0.0
        while not terminated:
            obs, reward, terminated, _, info = env.step(int(rng.integers(env.action_space.n)))
            rewards += reward
            assert total_chips(env) == total and obs in env.observation_space
        if info["illegal_action"]:
            illegal += 1
            assert env.view.phase in (Phase.BANK_DECISION, Phase.DEAL_OVER)
            assert "illegal action" in env.unwrapped.last_message
            net = net_chips(env) / env.rules.base_stake
            assert rewards == pytest.approx(net - 2.0)
    assert illegal > 50


def test_a_session_where_the_bank_reaches_the_agent():
    """The agent bets and wins the whole Shoot: the bank turns over to its seat, which banks the
    remaining deals with its rule-based strategy inside the same step."""
    env = make(num_players=2, shoot_bet_levels=(50,), deals_per_episode=3)
    obs, info = env.reset(seed=0, options={"stacked": "TS TD 8H 7C"})
    assert obs[enc.EPISODE.start] == pytest.approx(2 / 3)
    env.step(1)  # stake 2
    env.step(5)  # Shoot bet 50
    _, reward, terminated, _, info = env.step(6)  # stick (index 6 with one Shoot bet level) on 18 v 17
    assert terminated and env.deals_played == 3 and env.table.turnovers >= 1
    # the first deal paid 2 + 50 chips; the two deals the agent's seat banked add their own chips
    assert reward == pytest.approx(env.table.net_position(1) / 2)
    assert [e.kind.value for e in env.table.events][0] == "deal_start" and env.table.events[0].seat == 1


def test_the_banker_env_plays_several_deals_while_it_keeps_the_bank():
    env = make("ShootPontoonBanker-v0", deals_per_episode=4, punters="threshold")
    rng = np.random.default_rng(2)
    obs, info = env.reset(seed=2)
    deals_seen, terminated = {env.deals_played}, False
    while not terminated:
        mask = info["action_mask"]
        action = 2 if mask[2] else int(rng.choice(np.flatnonzero(mask)))  # always keep the bank
        obs, _, terminated, _, info = env.step(action)
        deals_seen.add(env.deals_played)
    assert deals_seen == {1, 2, 3, 4} or env.view.banker != 0


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS + SESSION_CONFIGS, ids=config_id)
def test_long_random_masked_play(config):
    """The CI test above, long: 100k steps per configuration (benchmarks/env_random_play.py times it)."""
    play_random_steps(config, 100_000, seed=1, reseed_every=100)
