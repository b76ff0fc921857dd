"""The scalar env's two engines: the batched engine at one table (``engine="auto"``'s choice wherever
it can play the table) and the Table (the reference, which renders and keeps the event log).

That the two play the same game is ``tests/vector``'s differential test (observations, masks,
rewards, chips, hands and the seat's view at every step); here: the choice itself, what each
engine offers, and that ``gym.make`` on the batched engine is ``gym.make_vec`` at one table.
"""

import gymnasium as gym
import numpy as np
import pytest
from env_helpers import CONFIGS, config_id, make
from gymnasium.vector import AutoresetMode

from shoot_pontoon_env.actions import IllegalActionError
from shoot_pontoon_env.engine.table import Table
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.players.strategies import TipsPunter

SESSION = {"deals_per_episode": 4, "rules": SHOOT.replace(
    name="shoot-persistent-bets", shoe="persistent", shoot_bet_points=("before_deal", "before_fourth_card"))}


class CustomPunter(TipsPunter):
    """A Python strategy of the user's own (a subclass may change any decision)."""


@pytest.mark.parametrize("config", CONFIGS + [("ShootPontoon-v0", SESSION)], ids=config_id)
def test_gym_make_plays_exactly_as_make_vec_at_one_table(config):
    """Same seed, same actions (some illegal): the same observations, rewards, masks and infos, across
    seeded and unseeded resets (the vector env's NEXT_STEP autoreset is the scalar env's reset())."""
    env_id, kwargs = config
    env = gym.make(env_id, **kwargs)
    assert env.unwrapped.engine == "auto" and env.unwrapped.engine_in_use == "batched"
    vec = gym.make_vec(env_id, num_envs=1, autoreset_mode=AutoresetMode.NEXT_STEP, **kwargs)
    rng = np.random.default_rng(0)
    for episode in range(60):
        seed = episode if episode % 20 == 0 else None
        obs, info = env.reset(seed=seed)
        if seed is not None:
            vec_obs, vec_info = vec.reset(seed=seed)
        else:
            vec_obs, _, _, _, vec_info = vec.step(np.zeros(1, dtype=np.int64))  # the autoreset
        terminated = False
        while True:
            assert np.array_equal(obs, vec_obs[0]) and np.array_equal(info["action_mask"], vec_info["action_mask"][0])
            assert info["deal"] == vec_info["deal"][0]
            if terminated:
                break
            mask = info["action_mask"]
            pool = np.flatnonzero(mask) if rng.random() > 0.03 else np.flatnonzero(~mask)
            action = int(rng.choice(pool if pool.size else np.flatnonzero(mask)))
            obs, reward, terminated, truncated, info = env.step(action)
            vec_obs, vec_reward, vec_terminated, _, vec_info = vec.step(np.array([action]))
            assert (reward, terminated, truncated) == (vec_reward[0], vec_terminated[0], False)
            assert info["illegal_action"] == vec_info["illegal_action"][0]
            assert "message" not in info and bool(env.unwrapped.last_message) == info["illegal_action"]


def test_auto_chooses_the_table_where_the_batched_engine_cannot_play():
    env = make(punters=CustomPunter())
    assert env.engine_in_use == "table"
    env.reset(seed=0)
    assert isinstance(env.table, Table)


def test_a_render_mode_does_not_choose_the_engine_or_the_cards():
    plain, drawn = make(), make(render_mode="ansi")
    assert drawn.engine_in_use == "batched"
    plain.reset(seed=7)
    drawn.reset(seed=7)
    assert plain.hands() == drawn.hands() and "Shoot" in drawn.render()
    assert "keeps no log" in drawn.render()  # only the Table keeps the deal's log


@pytest.mark.parametrize("kwargs, match", [
    ({"engine": "fast"}, r"engine = 'fast': expected one of \('auto', 'batched', 'table'\)"),
    ({"engine": None}, r"engine = None: expected one of"),
    ({"engine": "batched", "punters": CustomPunter()},
     r"engine = 'batched': punters = CustomPunter\(.*\): the batched engine plays only the library's"),
])
def test_a_bad_engine_choice_names_the_argument_and_what_is_allowed(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make(**kwargs)


def test_an_episode_on_the_batched_engine_has_no_table_and_no_picture_without_a_render_mode():
    env = make()
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="engine='table' to read env.table"):
        env.table  # noqa: B018
    with pytest.raises(RuntimeError, match="make it with a render_mode"):
        env.render()
    assert env.view.seat == 1 and env.view.legal  # the view works on either engine


def test_a_stacked_reset_plays_on_the_table_and_the_next_reset_returns():
    env = make()
    env.reset(seed=0, options={"stacked": "TS TD 8H 7C AS KD 9H 6C"})
    assert isinstance(env.table, Table) and env.table.events  # the stacked deal, with its event log
    obs, info = env.reset()
    with pytest.raises(RuntimeError):
        env.table  # noqa: B018
    assert obs in env.observation_space and info["action_mask"].any()


def test_strict_refuses_an_illegal_action_on_the_batched_engine_and_changes_nothing():
    strict, plain = make(strict=True), make()
    obs, info = strict.reset(seed=5)
    plain.reset(seed=5)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(IllegalActionError, match=f"index {illegal}"):
        strict.step(illegal)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    after_strict, after_plain = strict.step(legal), plain.step(legal)
    assert np.array_equal(after_strict[0], after_plain[0]) and after_strict[1:4] == after_plain[1:4]


def test_hands_and_turnovers_read_either_engine():
    for engine in ("table", "batched"):
        env = make(engine=engine)
        obs, info = env.reset(seed=2)
        terminated = False
        while not terminated:
            obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        hands = env.hands()
        assert hands and all(h.settled for h in hands) and env.bank_turnovers == 0


def test_engine_in_use_says_which_engine_plays():
    assert make().engine_in_use == "batched" and make(engine="table").engine_in_use == "table"
    assert make(render_mode="ansi").engine_in_use == "batched"  # a picture does not choose the engine
    huge = make(starting_chips=10**9)  # chip counts that could pass the batched engine's int32
    assert huge.engine_in_use == "table"
    with pytest.raises(ValueError, match="engine = 'batched': starting_chips = 1000000000.*int32 limit"):
        make(starting_chips=10**9, engine="batched")
    env = make()
    env.reset(seed=0, options={"stacked": "TS TD 8H 7C AS KD 9H 6C"})
    assert env.engine_in_use == "table"
    env.reset()
    assert env.engine_in_use == "batched"


def test_attributes_changed_between_episodes_act_on_both_engines():
    """What the batched engine copied when it was built is read again at the next reset."""
    results = {}
    for engine in ("table", "batched"):
        env = make(engine=engine)
        env.reset(seed=3)
        env.illegal_action_penalty, env.deals_per_episode = 5.0, 3
        obs, info = env.reset(seed=3)
        _, reward, terminated, _, _ = env.step(int(np.flatnonzero(~info["action_mask"])[0]))
        obs, info = env.reset(seed=4)
        terminated = False
        while not terminated:
            obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        results[engine] = (reward, env.deals_played)
    assert results["table"] == results["batched"] == (-6.0, 3)
    env = make()
    env.players[2] = CustomPunter()  # a Python strategy: auto moves to the Table at the next reset
    env.reset(seed=0)
    assert env.engine_in_use == "table"
