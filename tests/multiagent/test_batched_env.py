"""``batched_env``: N whole tables at once. Shapes and the info, replay from a seed, zero-sum rewards
that add up to each seat's chips, next-step autoreset, seats played by the kernel, strict mode,
truncation, one-line errors, and the AEC env at one table dealt the same as table 0 of a batch."""

from __future__ import annotations

import numpy as np
import pytest

from shoot_pontoon_env.actions import IllegalActionError
from shoot_pontoon_env.multiagent import batched_env, env

STICK = 8  # the shoot preset's seat action table (test_multiagent_env.py)


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def play(table, steps: int, seed: int = 0, action_seed: int = 1):
    rng = np.random.default_rng(action_seed)
    obs, info = table.reset(seed=seed)
    trace = [(obs, info["current_seat"])]
    for _ in range(steps):
        obs, rewards, terminations, truncations, info = table.step(random_legal(rng, info["action_mask"]))
        trace.append((obs, rewards, terminations, truncations, info["current_seat"]))
    return trace


def test_shapes_dtypes_and_the_info():
    table = batched_env(8, num_players=4)
    obs, info = table.reset(seed=0)
    n = len(table.action_table)
    assert obs.shape == table.observation_space.shape == (8, table.single_observation_space.shape[0])
    assert obs.dtype == np.float32
    assert info["current_seat"].shape == (8,) and info["current_seat"].dtype == np.int64
    assert info["action_mask"].shape == (8, n) and info["action_mask"].dtype == np.bool_
    assert (info["current_seat"] == 1).all()  # the first to stake sits left of the banker, seat 0
    assert info["action_mask"].any(axis=1).all()
    obs, rewards, terminations, truncations, info = table.step(random_legal(np.random.default_rng(0),
                                                                            info["action_mask"]))
    assert rewards.shape == (8, 4) and rewards.dtype == np.float32
    assert terminations.shape == truncations.shape == (8,) and terminations.dtype == np.bool_
    assert table.observation_space.contains(obs)
    assert all(table.single_observation_space.contains(row) for row in obs)


def test_a_seed_replays_exactly():
    first = play(batched_env(16, deals_per_episode=3), 200, seed=7)
    again = play(batched_env(16, deals_per_episode=3), 200, seed=7)
    other = play(batched_env(16, deals_per_episode=3), 200, seed=8)
    for a, b in zip(first, again, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(first, other))


@pytest.mark.parametrize("kwargs", [{}, {"rules": "casino"}, {"rules": "playtech", "num_players": 2},
                                    {"num_players": 6, "deals_per_episode": 5, "first_banker": "random"}])
def test_rewards_are_zero_sum_and_add_up_to_each_seats_chips(kwargs):
    table = batched_env(32, **kwargs)
    rng = np.random.default_rng(3)
    _, info = table.reset(seed=1)
    players, starting = table.num_players, table.settings.config.starting_chips
    totals = np.zeros((32, players))
    episodes = 0
    for _ in range(600):
        _, rewards, terminations, truncations, info = table.step(random_legal(rng, info["action_mask"]))
        assert np.abs(rewards.sum(axis=1)).max() < 1e-4  # legal actions: zero-sum at every step
        totals += rewards
        for i in np.flatnonzero(terminations):
            wealth = np.array([table.batch.wealth(s)[i] for s in range(players)])
            assert np.allclose(totals[i], (wealth - starting) / table.rules.base_stake, atol=1e-3)
            totals[i] = 0.0
            episodes += 1
        assert (table.batch.total_chips() == players * starting).all()
    assert episodes > 100


def test_the_next_step_after_the_end_starts_a_new_episode_with_zero_rewards():
    table = batched_env(4)
    rng = np.random.default_rng(0)
    _, info = table.reset(seed=0)
    ended = np.zeros(4, dtype=bool)
    for _ in range(100):
        _, rewards, terminations, _, info = table.step(random_legal(rng, info["action_mask"]))
        assert not rewards[ended].any() and (info["current_seat"][ended] >= 0).all()
        assert (info["current_seat"][terminations] == -1).all() and info["action_mask"][terminations].all()
        ended = terminations


def test_an_illegal_action_forfeits_and_costs_the_penalty():
    table = batched_env(2, illegal_action_penalty=2.5)
    _, info = table.reset(seed=0)
    actions = np.array([STICK, int(np.flatnonzero(info["action_mask"][1])[0])])  # a stake is due: stick is illegal
    _, rewards, _, _, info = table.step(actions)
    assert info["illegal_action"].tolist() == [True, False]
    assert rewards[0, 1] == -1.0 - 2.5 and rewards[0].sum() == -2.5  # a minimum stake lost, then the penalty


def test_strict_mode_raises_and_no_table_moves():
    table = batched_env(3, strict=True)
    obs, info = table.reset(seed=0)
    t = table.batch.t.copy()
    with pytest.raises(IllegalActionError, match="table 0, seat 1"):
        table.step(np.full(3, STICK))
    assert np.array_equal(t, table.batch.t)


def test_seats_of_table_players_are_never_asked():
    table = batched_env(16, deals_per_episode=4, players={0: "stand17", 2: "tips"})
    rng = np.random.default_rng(0)
    _, info = table.reset(seed=0)
    asked = set()
    for _ in range(300):
        asked |= set(info["current_seat"].tolist())
        _, rewards, _, _, info = table.step(random_legal(rng, info["action_mask"]))
        assert np.abs(rewards.sum(axis=1)).max() < 1e-4
    assert asked - {-1} == {1, 3}


def test_max_cycles_truncates_after_that_many_decisions():
    table = batched_env(4, deals_per_episode=50, max_cycles=6)
    rng = np.random.default_rng(0)
    _, info = table.reset(seed=0)
    for step in range(1, 14):
        _, _, terminations, truncations, info = table.step(random_legal(rng, info["action_mask"]))
        assert not terminations.any()
        assert truncations.all() == (step in (6, 13)) and (info["current_seat"][truncations] == -1).all()


def test_the_aec_env_deals_what_table_0_of_a_batch_deals():
    batch = batched_env(1, deals_per_episode=3)
    aec = env(deals_per_episode=3, engine="batched")
    rng = np.random.default_rng(2)
    obs, info = batch.reset(seed=9)
    aec.reset(seed=9)
    for agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        assert agent == f"seat_{info['current_seat'][0]}"
        assert np.array_equal(observation["observation"], obs[0])
        assert np.array_equal(observation["action_mask"], info["action_mask"][0].astype(np.int8))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        aec.step(action)
        obs, rewards, terminations, _, info = batch.step(np.array([action]))
        assert [aec.rewards[f"seat_{s}"] for s in range(4)] == rewards[0].tolist()
    assert terminations[0]


@pytest.mark.parametrize("kwargs, message", [
    ({"num_tables": 0}, "num_tables = 0"),
    ({"players": {4: "tips"}}, "players' seat = 4"),
    ({"players": {1: "bridge"}}, "players\\[1\\] = 'bridge'.*solver player \\['optimal', 'basic'\\]"),
    ({"players": {1: "optimal", 2: "basic"}}, "players\\[2\\]: a solver's policy unlike players\\[1\\]'s"),
    ({"players": {s: "tips" for s in range(4)}}, "every episode must ask a learner"),
    ({"players": {1: "tips", 2: "tips", 3: "tips"}}, "a learner's seat must punt in the first deal"),
    ({"players": {1: "tips", 2: "tips"}, "num_players": 3, "rules": "casino"}, "ShootPontoonBanker-v0"),
    ({"players": {0: "tips", 1: "tips", 2: "tips"}, "first_banker": "random"}, "first_banker = 'random'"),
    ({"players": ["tips"]}, "expected a dict"),
    ({"num_players": 1}, "num_players = 1"),
    ({"max_cycles": 10**40}, r"max_cycles = 10{40}: expected an int 1\.\.999999 \(with deals_per_episode=No"),
    ({"max_cycles": 10**40, "deals_per_episode": 3}, r"max_cycles = 10{40}: expected an int 1\.\.10{12}$"),
    ({"max_cycles": True}, "max_cycles = True"),
    ({"render_mode": "human"}, "render_mode = 'human': expected None or one of \\('ansi', 'rgb_array'\\)"),
])
def test_bad_arguments_name_the_value(kwargs, message):
    kwargs = {"num_tables": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        batched_env(**kwargs)


@pytest.mark.parametrize("actions, message", [
    (np.zeros(3, dtype=np.int64), "expected 2 action indices"),
    (np.array([0.5, 1.0]), "dtype float64"),
    (np.array([0, 17]), "actions\\[1\\] = 17"),
])
def test_bad_actions_name_the_value_and_change_nothing(actions, message):
    table = batched_env(2)
    table.reset(seed=0)
    t = table.batch.t.copy()
    with pytest.raises(ValueError, match=message):
        table.step(actions)
    assert np.array_equal(t, table.batch.t)


def test_a_table_given_minus_one_waits():
    table = batched_env(2)
    _, info = table.reset(seed=0)
    waiting = table.batch.t[1].copy()
    stake = int(np.flatnonzero(info["action_mask"][0])[1])
    _, rewards, terminations, _, after = table.step(np.array([stake, -1]))
    assert np.array_equal(table.batch.t[1], waiting) and not rewards[1].any() and not terminations[1]
    assert after["current_seat"][1] == info["current_seat"][1] and not after["illegal_action"][1]
    assert not np.array_equal(table.batch.t[0], waiting)

