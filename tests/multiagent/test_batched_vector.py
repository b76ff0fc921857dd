"""``batched_env`` as a Gymnasium ``VectorEnv``: its spaces and metadata, Gymnasium's vector wrappers
(``RecordEpisodeStatistics`` counting every table's episodes, ``TransformReward``, ``DictInfoToList``),
seed lists dealing each table as the AEC env with that seed, bool seeds refused, and a frame per table
equal to the AEC env's picture of the same deal."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.spaces import Box, Discrete, MultiDiscrete
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics, TransformReward

from shoot_pontoon_env.multiagent import batched_env, env


def legal_sample(table, info) -> np.ndarray:
    """A legal action per table, by the batched action space's own masked sampling."""
    return table.action_space.sample(mask=tuple(info["action_mask"].astype(np.int8)))


def test_the_vector_env_attributes():
    table = batched_env(5, num_players=3)
    n = len(table.action_table)
    assert isinstance(table, VectorEnv) and table.num_envs == 5 and table.unwrapped is table
    assert table.single_action_space == Discrete(n) and table.action_space == MultiDiscrete([n] * 5)
    single = table.single_observation_space
    assert isinstance(single, Box) and single.dtype == np.float32
    assert table.observation_space.shape == (5, *table.single_observation_space.shape)
    assert table.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert table.metadata["render_modes"] == ["ansi", "rgb_array"] and table.render() is None


def test_an_unmasked_sample_is_a_batch_step_takes():
    table = batched_env(6, illegal_action_penalty=0.5)
    table.action_space.seed(0)
    _, info = table.reset(seed=0)
    for _ in range(20):
        actions = table.action_space.sample()
        legal = info["action_mask"][np.arange(6), actions] | (info["current_seat"] < 0)
        obs, rewards, _, _, info = table.step(actions)
        assert obs.shape == table.observation_space.shape and rewards.shape == (6, 4)
        assert (info["illegal_action"] == ~legal).all()  # an illegal index is played, and costs the penalty


@pytest.mark.parametrize("seat", [1, 3])
def test_record_episode_statistics_counts_every_tables_episodes(seat):
    """Rewards are per seat, (N, P); Gymnasium's wrapper adds one reward per table, so it reads seat
    ``seat``'s through TransformReward (docs/ENVIRONMENTS.md). Its counts, lengths and returns equal
    what the env reported, table by table."""
    tables = 64
    wrapped = RecordEpisodeStatistics(TransformReward(batched_env(tables, deals_per_episode=1, max_cycles=12),
                                                      lambda rewards: rewards[:, seat]), buffer_length=10**6)
    wrapped.action_space.seed(1)
    _, info = wrapped.reset(seed=3)
    lengths = np.zeros(tables, dtype=np.int64)
    returns = np.zeros(tables)
    ended = np.zeros(tables, dtype=bool)
    finished, truncated, recorded_lengths, recorded_returns = 0, 0, [], []
    for _ in range(300):
        _, rewards, terminations, truncations, info = wrapped.step(legal_sample(wrapped, info))
        assert rewards.shape == (tables,)
        lengths = np.where(ended, 0, lengths + 1)  # the autoreset step belongs to no episode
        returns = np.where(ended, 0.0, returns + rewards)
        ended = terminations | truncations
        finished += int(ended.sum())
        truncated += int(truncations.sum())
        if ended.any():
            assert (info["_episode"] == ended).all()
            assert (info["episode"]["l"][ended] == lengths[ended]).all()
            assert np.allclose(info["episode"]["r"][ended], returns[ended])
            recorded_lengths += lengths[ended].tolist()
            recorded_returns += returns[ended].tolist()
        else:
            assert "episode" not in info
    assert wrapped.episode_count == finished > 3 * tables and 0 < truncated < finished
    assert list(wrapped.length_queue) == recorded_lengths
    assert np.allclose(list(wrapped.return_queue), recorded_returns)


def test_dict_info_to_list_gives_each_table_its_info():
    table = DictInfoToList(batched_env(3))
    _, infos = table.reset(seed=0)
    assert len(infos) == 3 and all(info["current_seat"] == 1 for info in infos)
    masks = np.array([info["action_mask"] for info in infos])
    _, _, _, _, infos = table.step(legal_sample(table, {"action_mask": masks}))
    assert sorted(infos[0]) == ["action_mask", "banker", "current_seat", "deal", "illegal_action"]


@pytest.mark.parametrize("first_banker", [0, "random"])
def test_a_seed_list_deals_each_table_as_the_aec_env_with_that_seed(first_banker):
    seeds = [11, 4, 2**40, 4]
    tables = batched_env(len(seeds), deals_per_episode=2, first_banker=first_banker)
    obs, info = tables.reset(seed=seeds)
    references = [env(deals_per_episode=2, first_banker=first_banker, engine="batched") for _ in seeds]
    for reference, seed in zip(references, seeds, strict=True):
        reference.reset(seed=seed)
    rng = np.random.default_rng(5)
    over = np.zeros(len(seeds), dtype=bool)
    while not over.all():
        actions = np.full(len(seeds), -1)
        for i, reference in enumerate(references):
            if over[i]:
                continue
            observation, _, termination, truncation, _ = reference.last()
            assert not (termination or truncation)
            assert reference.agent_selection == f"seat_{info['current_seat'][i]}"
            assert np.array_equal(observation["observation"], obs[i])
            assert reference.unwrapped.episode.banker == info["banker"][i]
            actions[i] = rng.choice(np.flatnonzero(observation["action_mask"]))
            reference.step(int(actions[i]))
        obs, rewards, terminations, _, info = tables.step(actions)
        for i in np.flatnonzero(actions >= 0):
            assert rewards[i].tolist() == [references[i].rewards[f"seat_{s}"] for s in range(4)]
        over |= terminations


def first_legal_trace(seed, steps: int = 12) -> np.ndarray:
    """Every observation of three tables playing their first legal index (cards show after the stakes)."""
    table = batched_env(3)
    obs, info = table.reset(seed=seed)
    trace = [obs]
    for _ in range(steps):
        obs, _, _, _, info = table.step(np.argmax(info["action_mask"], axis=1))
        trace.append(obs)
    return np.stack(trace, axis=1)


def test_a_seed_list_replays_and_an_int_seed_is_one_generator():
    first = first_legal_trace([7, 8, 9])
    assert np.array_equal(first, first_legal_trace(np.array([7, 8, 9], dtype=np.uint32)))
    one = first_legal_trace(7)  # its first table's key is the Generator's first draw, as seed 7's
    assert np.array_equal(first[0], one[0]) and not np.array_equal(first[1:], one[1:])


@pytest.mark.parametrize("seed, message", [
    (True, "seed = True: expected None or a non-negative int"),
    (np.True_, "seed = np.True_: expected None or a non-negative int"),
    (-1, "seed = -1"),
    (1.5, "seed = 1.5"),
    ([1, 2], "a list of 2 seeds for 3 tables"),
    ([1, False, 2], "seed\\[1\\] = False"),
])
def test_bad_seeds_name_the_value(seed, message):
    with pytest.raises(ValueError, match=message):
        batched_env(3).reset(seed=seed)


@pytest.mark.parametrize("make", [lambda: env(), lambda: gym.make("ShootPontoon-v0"),
                                  lambda: gym.make("ShootPontoonBanker-v0")])
def test_the_other_envs_refuse_a_bool_seed(make):
    with pytest.raises(ValueError, match="seed = True: expected None or a non-negative int"):
        make().reset(seed=True)


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_a_frame_per_table_as_the_aec_env_draws_it(mode):
    seeds = [3, 30]
    tables = batched_env(2, render_mode=mode)
    with pytest.raises(RuntimeError, match="reset"):
        tables.render()
    _, info = tables.reset(seed=seeds)
    references = [env(render_mode=mode, engine="batched") for _ in seeds]
    for reference, seed in zip(references, seeds, strict=True):
        reference.reset(seed=seed)
    for _ in range(3):
        frames = tables.render()
        assert len(frames) == 2
        for frame, reference in zip(frames, references, strict=True):
            expected = reference.render()
            assert np.array_equal(frame, expected) if mode == "rgb_array" else frame == expected
        actions = np.array([int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]])
        for reference, action in zip(references, actions, strict=True):
            reference.step(int(action))
        _, _, _, _, info = tables.step(actions)
    if mode == "rgb_array":
        assert frames[0].dtype == np.uint8 and frames[0].ndim == 3 and frames[0].shape[2] == 3
