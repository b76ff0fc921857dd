"""The envs against Gymnasium's and SB3's checkers, registration, and argument errors."""

import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from env_helpers import CONFIGS, config_id, make
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from shoot_pontoon_env.envs import ENV_IDS, ShootPontoonBankerEnv, ShootPontoonEnv, register_envs
from shoot_pontoon_env.rules import CASINO, SHOOT


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_gymnasium_and_sb3_checkers_pass_with_warnings_as_errors(config, capsys):
    env_id, kwargs = config
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(env_id, **kwargs).unwrapped)  # renders every mode ("human" prints)
        sb3_check_env(gym.make(env_id, **kwargs).unwrapped)
        check_env(gym.make(env_id, engine="table", **kwargs).unwrapped)
        sb3_check_env(gym.make(env_id, render_mode="ansi", **kwargs).unwrapped, skip_render_check=False)
        check_env(gym.make(env_id, render_mode="rgb_array", **kwargs).unwrapped)  # checks the picture's array
        sb3_check_env(gym.make(env_id, render_mode="rgb_array", **kwargs).unwrapped, skip_render_check=False)


def test_every_id_is_registered_and_registration_is_idempotent():
    for env_id in ("ShootPontoon-v0", "ShootPontoonBanker-v0", "ShootPontoon-Casino-v0",
                   "ShootPontoon-Playtech-v0"):
        assert env_id in gym.registry and env_id in ENV_IDS
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_envs()
    assert isinstance(gym.make("ShootPontoon-v0").unwrapped, ShootPontoonEnv)
    assert isinstance(gym.make("ShootPontoonBanker-v0").unwrapped, ShootPontoonBankerEnv)
    assert gym.make("ShootPontoon-v0", rules="playtech").unwrapped.rules.name == "playtech"
    assert gym.make("ShootPontoon-Casino-v0").unwrapped.rules.name == "casino"
    assert gym.make("ShootPontoon-v0", rules=SHOOT.replace(double_stakes=True)).unwrapped.rules.double_stakes


@pytest.mark.parametrize("module", ["shoot_pontoon_env", "shoot_pontoon_env.envs"])
def test_gym_make_in_a_fresh_interpreter_without_importing_the_package(module):
    """Gymnasium >= 1.0 loads no ``gymnasium.envs`` entry points (the package declares none); a
    module-prefixed id imports and registers on its own."""
    code = (
        "import sys, gymnasium as gym\n"
        "assert 'shoot_pontoon_env' not in sys.modules\n"
        f"env = gym.make('{module}:ShootPontoon-v0')\n"
        "env.reset(seed=0)\n"
        "print(env.spec.id)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ShootPontoon-v0"


def test_the_banker_env_refuses_a_dealer_who_draws_by_fixed_rules():
    for rules in ("casino", "playtech", CASINO):
        with pytest.raises(ValueError, match=r"banker_play='free'"):
            make("ShootPontoonBanker-v0", rules=rules)


@pytest.mark.parametrize("kwargs, match", [
    ({"rules": "blackjack"}, r"rules = 'blackjack': expected a preset name"),
    ({"rules": 3}, r"rules = 3"),
    ({"num_players": 1}, r"num_players = 1: expected an int 2\.\.10"),
    ({"num_players": 11}, r"num_players = 11"),
    ({"seat": 0}, r"seat = 0: expected an int 1\.\.3"),
    ({"seat": 4}, r"seat = 4"),
    ({"banker": "croupier"}, r"banker = 'croupier': expected a strategy name"),
    ({"punters": ["tips"]}, r"punters = \['tips'\]: .*sequence of 2"),
    ({"punters": ["tips", "nobody"]}, r"punters\[1\] = 'nobody'"),
    ({"agent_banker": 7}, r"agent_banker = 7"),
    ({"stake_levels": [1, 2]}, r"stake_levels = \(1, 2\): .* in 2\.\.10"),
    ({"stake_levels": [4, 2]}, r"stake_levels = \(4, 2\): expected strictly increasing"),
    ({"stake_levels": []}, r"stake_levels = \(\)"),
    ({"shoot_bet_levels": [0]}, r"shoot_bet_levels = \(0,\)"),
    ({"buy_levels": [3.0]}, r"buy_levels = \(3\.0,\): .* in 1\.\.2"),
    ({"deals_per_episode": 0}, r"deals_per_episode = 0: expected an int 1..1000000"),
    ({"illegal_action_penalty": float("nan")}, r"illegal_action_penalty = nan"),
    ({"strict": "yes"}, r"strict = 'yes': expected True or False"),
    ({"starting_chips": -5}, r"starting_chips = -5"),
    ({"render_mode": "rgb"}, r"render_mode = 'rgb': expected None or one of \('ansi', 'human', 'rgb_array'\)"),
])
def test_bad_punter_arguments_name_the_argument_and_what_is_allowed(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ShootPontoonEnv(**kwargs)


def test_bad_arguments_for_the_casino_and_banker_envs():
    with pytest.raises(ValueError, match=r"shoot_bet_levels = \(2,\): expected \(\) because .* no Shoot"):
        ShootPontoonEnv(rules="casino", shoot_bet_levels=[2])
    with pytest.raises(ValueError, match=r"punters = 5"):
        ShootPontoonBankerEnv(punters=5)
    with pytest.raises(ValueError, match=r"num_players = 10: 27 boxes"):
        ShootPontoonEnv(rules=SHOOT.replace(max_boxes=3), num_players=10)


def test_reset_options_are_checked():
    env = make()
    with pytest.raises(ValueError, match=r"reset options \['shuffle'\]"):
        env.reset(options={"shuffle": True})
    with pytest.raises(ValueError, match=r"reset option stacked = 'XX'"):
        env.reset(options={"stacked": "XX"})
    obs, info = env.reset(options={"stacked": ["AS", 40, "TD"]})  # codes and card ints mix
    assert obs in env.observation_space


def test_mask_is_in_every_info_and_from_action_masks():
    env = make()
    obs, info = env.reset(seed=1)
    assert info["action_mask"].dtype == bool and info["action_mask"].shape == (env.action_space.n,)
    assert np.array_equal(info["action_mask"], env.action_masks())
    info["action_mask"][:] = False  # the caller's copy
    assert env.action_masks().any()
    _, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert "action_mask" in info and "illegal_action" in info


def test_step_before_reset_is_an_error():
    with pytest.raises(RuntimeError, match="reset"):
        make().step(1)


def test_the_readme_example_runs(capsys):
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2] / "README.md"
    section = readme.read_text().split("## Environments", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    assert "reward of the last step" in capsys.readouterr().out


def test_a_stacked_shoe_the_packs_cannot_hold_is_refused():
    env = make()
    with pytest.raises(ValueError, match=r"reset option stacked = 'AS AS'.*more than 1 time"):
        env.reset(options={"stacked": "AS AS"})
    obs, info = env.reset(seed=0)  # the env is usable again
    assert info["action_mask"].any()


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_masks_are_found_through_gym_make_and_user_wrappers(env_id):
    """The documented ways (``get_wrapper_attr``, ``unwrapped``) and sb3-contrib's helpers, through
    Gymnasium's wrappers and more stacked on top; the plain attribute is not forwarded (Gymnasium 1.x)."""
    from gymnasium.wrappers import RecordEpisodeStatistics, TimeLimit
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = TimeLimit(RecordEpisodeStatistics(gym.make(env_id)), max_episode_steps=100)
    obs, info = env.reset(seed=0)
    for masks in (env.get_wrapper_attr("action_masks")(), env.unwrapped.action_masks(), get_action_masks(env)):
        assert np.array_equal(masks, info["action_mask"]) and masks.any()
    assert is_masking_supported(env)
    with pytest.raises(AttributeError):
        env.action_masks  # noqa: B018  (what the README no longer suggests)


def test_rules_as_a_preset_with_changes():
    env = gym.make("ShootPontoon-v0", rules={"preset": "shoot", "shoot_bet_points": ["before_second_card"],
                                            "max_shoot_bet": 2})
    assert env.unwrapped.rules.shoot_bet_points == ("before_second_card",) and env.unwrapped.rules.max_shoot_bet == 2
    with pytest.raises(ValueError, match=r"rules = .*unknown option\(s\) \['max_shot_bet'\]"):
        gym.make("ShootPontoon-v0", rules={"preset": "shoot", "max_shot_bet": 2})
