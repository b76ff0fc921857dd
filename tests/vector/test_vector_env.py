"""The batched envs' Gymnasium and SB3 front doors: make_vec, spaces, masks, autoreset modes,
seeding, argument errors, and MaskablePPO training on the SB3 adapter."""

from __future__ import annotations

import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.actions import IllegalActionError
from shoot_pontoon_env.envs import ENV_IDS
from shoot_pontoon_env.players.strategies import ThresholdPunter
from shoot_pontoon_env.envs.vector_env import ShootPontoonBankerVectorEnv, ShootPontoonVectorEnv

MODES = list(AutoresetMode)


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


@pytest.mark.parametrize("env_id", list(ENV_IDS))
def test_make_vec_returns_the_batched_env_with_batched_spaces(env_id):
    envs = gym.make_vec(env_id, num_envs=5)
    single = gym.make(env_id).unwrapped
    assert isinstance(envs, VectorEnv)
    assert isinstance(envs, ShootPontoonBankerVectorEnv if "Banker" in env_id else ShootPontoonVectorEnv)
    assert envs.num_envs == 5
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space.shape == (5, *single.observation_space.shape)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=0)
    assert obs in envs.observation_space and obs.dtype == np.float32
    assert info["action_mask"].shape == (5, single.action_space.n)
    assert np.array_equal(info["action_mask"], envs.action_masks())
    envs.close()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("env_id", ["ShootPontoon-v0", "ShootPontoonBanker-v0", "ShootPontoon-Casino-v0"])
def test_every_mask_holds_a_legal_action_and_chips_are_conserved(env_id, mode):
    envs = gym.make_vec(env_id, num_envs=16, autoreset_mode=mode, deals_per_episode=2)
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=1)
    chips = envs.unwrapped.batch.total_chips()
    finished = 0
    for _ in range(300):
        mask = info["action_mask"]
        assert mask.any(axis=1).all(), "a mask row without a legal action"
        assert np.array_equal(mask, envs.action_masks())
        obs, rewards, terminated, truncated, info = envs.step(random_actions(rng, mask))
        assert obs in envs.observation_space
        assert rewards.dtype == np.float32 and not truncated.any()
        assert not info["illegal_action"].any()
        assert np.array_equal(envs.unwrapped.batch.total_chips(), chips)
        finished += int(terminated.sum())
        if mode == AutoresetMode.SAME_STEP and terminated.any():
            assert info["_final_obs"].tolist() == terminated.tolist()
            for i in np.flatnonzero(terminated):
                assert info["final_obs"][i] in envs.single_observation_space
                assert info["final_info"]["action_mask"][i].all(), "the terminal mask allows every index"
            assert (info["deal"][terminated] == 1).all()
        if mode == AutoresetMode.DISABLED and terminated.any():
            assert info["action_mask"][terminated].all()
            with pytest.raises(RuntimeError, match="reset them first"):
                envs.step(random_actions(rng, info["action_mask"]))
            obs, reset_info = envs.reset(options={"reset_mask": terminated.copy()})
            assert reset_info["_action_mask"].tolist() == terminated.tolist()
            info = {**info, "action_mask": np.where(terminated[:, None], reset_info["action_mask"],
                                                    info["action_mask"])}
    assert finished > 100


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_episode():
    envs = gym.make_vec("ShootPontoon-Playtech-v0", num_envs=8)
    rng = np.random.default_rng(3)
    obs, info = envs.reset(seed=3)
    for _ in range(200):
        obs, rewards, terminated, _, info = envs.step(random_actions(rng, info["action_mask"]))
        if terminated.any():
            break
    done = terminated.copy()
    assert done.any() and info["action_mask"][done].all()
    actions = random_actions(rng, info["action_mask"])
    actions[done] = envs.single_action_space.n - 1  # double stakes: never legal at the first decision
    obs, rewards, terminated, _, info = envs.step(actions)
    assert (rewards[done] == 0).all() and not terminated[done].any()
    assert not info["illegal_action"][done].any() and (info["deal"][done] == 1).all()


def test_a_seeded_reset_replays_exactly():
    def play(seed: int) -> list[np.ndarray]:
        envs = gym.make_vec("ShootPontoon-v0", num_envs=6, rules="shoot", deals_per_episode=3)
        rng = np.random.default_rng(7)
        obs, info = envs.reset(seed=seed)
        seen = [obs]
        for _ in range(60):
            obs, rewards, terminated, _, info = envs.step(random_actions(rng, info["action_mask"]))
            seen += [obs, rewards, terminated]
        return seen

    first, second, other = play(5), play(5), play(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


def test_copy_false_returns_the_buffer_and_copy_true_a_copy():
    shared = gym.make_vec("ShootPontoon-v0", num_envs=2, copy=False)
    obs, _ = shared.reset(seed=0)
    assert obs is shared.unwrapped.batch.obs
    copied = gym.make_vec("ShootPontoon-v0", num_envs=2)
    obs, _ = copied.reset(seed=0)
    assert obs is not copied.unwrapped.batch.obs and np.array_equal(obs, copied.unwrapped.batch.obs)


def test_an_illegal_action_forfeits_like_the_scalar_env_and_strict_raises():
    envs = gym.make_vec("ShootPontoon-v0", num_envs=2)
    obs, info = envs.reset(seed=0)
    illegal = int(np.flatnonzero(~info["action_mask"][0])[0])
    legal = int(np.flatnonzero(info["action_mask"][1])[0])
    obs, rewards, terminated, _, info = envs.step(np.array([illegal, legal]))
    assert info["illegal_action"].tolist() == [True, False] and terminated[0]
    assert rewards[0] <= -1.0  # the forfeited minimum stake and the penalty
    strict = gym.make_vec("ShootPontoon-v0", num_envs=2, strict=True)
    obs, info = strict.reset(seed=0)
    before = strict.unwrapped.batch.t.copy()
    with pytest.raises(IllegalActionError, match="table 0"):
        strict.step(np.array([illegal, legal]))
    assert np.array_equal(strict.unwrapped.batch.t, before), "a rejected step changed the tables"


class HomeMadePunter(ThresholdPunter):
    """A subclass may change any decision: the batch cannot know, so it refuses it."""


@pytest.mark.parametrize(("kwargs", "argument"), [
    ({"punters": [HomeMadePunter(), "tips"]}, "punters[0]"),
    ({"punters": HomeMadePunter()}, "punters"),
    ({"banker": HomeMadePunter()}, "banker"),
    ({"agent_banker": HomeMadePunter()}, "agent_banker"),
])
def test_a_player_the_batch_cannot_play_is_refused_naming_its_argument(kwargs, argument):
    with pytest.raises(ValueError, match="^" + re.escape(argument) + " = "):
        gym.make_vec("ShootPontoon-v0", num_envs=2, **kwargs)
    with pytest.raises(ValueError, match="punters"):
        gym.make_vec("ShootPontoonBanker-v0", num_envs=2, punters=HomeMadePunter())


@pytest.mark.parametrize(("call", "message"), [
    (lambda: gym.make_vec("ShootPontoon-v0", num_envs=0), "num_envs = 0"),
    (lambda: gym.make_vec("ShootPontoon-v0", num_envs=2, render_mode="human"), "render_mode = 'human'"),
    (lambda: gym.make_vec("ShootPontoon-v0", num_envs=2, engine="table"), "engine = 'table': gym.make_vec's env"),
    (lambda: gym.make_vec("ShootPontoonBanker-v0", num_envs=2, engine=3), "engine = 3"),
    (lambda: gym.make_vec("ShootPontoon-v0", num_envs=2, autoreset_mode="Sometimes"), "autoreset_mode"),
    (lambda: gym.make_vec("ShootPontoon-v0", num_envs=2, copy="yes"), "copy = 'yes'"),
    (lambda: gym.make_vec("ShootPontoon-v0", num_envs=2, seat=7), "seat = 7"),
    (lambda: gym.make_vec("ShootPontoonBanker-v0", num_envs=2, rules="casino"), "banker_play='free'"),
])
def test_bad_arguments_raise_errors_that_name_them(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_bad_actions_and_calls_out_of_order_raise():
    envs = gym.make_vec("ShootPontoon-v0", num_envs=3)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(3, dtype=np.int64))
    envs.reset(seed=0)
    for actions, message in [(np.zeros(2, dtype=np.int64), "shape"), (np.array([0, 0, 99]), "table 2"),
                             (np.array([0.0, 1.0, 2.0]), "dtype")]:
        with pytest.raises(ValueError, match=message):
            envs.step(actions)
    with pytest.raises(ValueError, match="options"):
        envs.reset(options={"stacked": "AS KD"})
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.array([1, 0, 1])})


def test_the_sb3_adapter_trains_maskable_ppo_and_reports_episodes():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecEnv

    from shoot_pontoon_env.seat.features import COMPACT_SIZE, compact_observation
    from shoot_pontoon_env.envs.sb3 import PontoonVecEnv

    venv = gym.make_vec("ShootPontoon-Playtech-v0", num_envs=32, autoreset_mode=AutoresetMode.SAME_STEP,
                        num_players=2, stake_levels=[1])
    space = gym.spaces.Box(0.0, 1.0, shape=(COMPACT_SIZE,), dtype=np.float32)
    env = PontoonVecEnv(venv, observation=(compact_observation, space))
    assert isinstance(env, VecEnv)
    env.seed(0)
    obs = env.reset()
    assert obs.shape == (32, COMPACT_SIZE)
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (32, venv.single_action_space.n) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=128, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=32 * 16 * 2)
    assert len(model.ep_info_buffer) > 0
    env.step_async(np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()]))
    obs, rewards, dones, infos = env.step_wait()
    for i in np.flatnonzero(dones):
        assert infos[i]["terminal_observation"].shape == (COMPACT_SIZE,)
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import VecNormalize

    assert env.env_is_wrapped(Monitor) == [True] * 32 and env.env_is_wrapped(VecNormalize, [0]) == [False]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3 warns when it finds no Monitor's episode records
        from sb3_contrib.common.maskable.evaluation import evaluate_policy

        returns, lengths = evaluate_policy(model, env, n_eval_episodes=64, return_episode_rewards=True)
    assert len(returns) == 64 and all(length >= 1 for length in lengths)
    with pytest.raises(ValueError, match="SAME_STEP"):
        PontoonVecEnv(gym.make_vec("ShootPontoon-v0", num_envs=2))


@pytest.mark.parametrize("env_id", list(ENV_IDS))
def test_a_seed_per_table_shuffles_each_table_as_the_scalar_env_with_that_seed(env_id):
    seeds = [3, 11, 2026]
    envs = gym.make_vec(env_id, num_envs=3)
    obs, info = envs.reset(seed=seeds)
    for i, seed in enumerate(seeds):
        single = gym.make(env_id).unwrapped
        single_obs, single_info = single.reset(seed=seed)
        assert np.array_equal(obs[i], single_obs), f"table {i}, seed {seed}"
        assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
    again, _ = envs.reset(seed=seeds)
    assert np.array_equal(again, obs)


@pytest.mark.parametrize("seed, match", [
    ([1, 2], r"seed = \[1, 2\]: expected None, an int, or a list of 3 non-negative ints"),
    ([1, 2, -3], r"seed = \[1, 2, -3\]"),
    ([1, 2, "3"], r"seed = \[1, 2, '3'\]"),
    (True, r"seed = True"),
    (1.5, r"seed = 1\.5"),
])
def test_a_bad_seed_list_is_refused_by_name(seed, match):
    envs = gym.make_vec("ShootPontoon-v0", num_envs=3)
    with pytest.raises(ValueError, match=match):
        envs.reset(seed=seed)


def test_the_batched_env_draws_a_frame_per_table_like_the_scalar_env():
    pytest.importorskip("PIL")
    envs = gym.make_vec("ShootPontoon-v0", num_envs=2, render_mode="rgb_array")
    assert envs.render_mode == "rgb_array" and "rgb_array" in envs.metadata["render_modes"]
    envs.reset(seed=[5, 6])
    frames = envs.render()
    assert len(frames) == 2 and all(f.shape == (540, 960, 3) and f.dtype == np.uint8 for f in frames)
    single = gym.make("ShootPontoon-v0", render_mode="rgb_array")
    single.reset(seed=6)
    assert np.array_equal(frames[1], single.render())
    texts = gym.make_vec("ShootPontoon-v0", num_envs=2, render_mode="ansi")
    texts.reset(seed=0)
    assert all("you are seat 1" in text for text in texts.render())
    with pytest.raises(ValueError, match=r"render_mode = 'human': expected None or one of \('ansi', 'rgb_array'\)"):
        gym.make_vec("ShootPontoon-v0", num_envs=2, render_mode="human")
