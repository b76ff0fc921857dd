"""Every value a user passes is checked where it enters: NumPy scalars are accepted where Python ints
are (and come back as Python types), everything else wrong is refused with its name and what is
allowed, and a refused action leaves the game unchanged."""

import pickle

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env import SHOOT, Table
from shoot_pontoon_env.actions import Action, ActionKind, IllegalActionError, stake
from shoot_pontoon_env.rules import CHIP_LIMIT, Rules, RulesError

NUMPY_ARGUMENTS = {
    "num_players": np.int64(4), "seat": np.int32(2), "deals_per_episode": np.int64(2),
    "starting_chips": np.int64(500), "illegal_action_penalty": np.float32(0.5), "strict": np.bool_(False),
    "stake_levels": np.array([2, 4]), "shoot_bet_levels": np.array([2]), "buy_levels": np.array([1.0, 2.0]),
}


@pytest.mark.parametrize("engine", ["table", "batched"])
def test_numpy_scalars_are_accepted_as_env_arguments_and_stored_as_python_values(engine):
    env = gym.make("ShootPontoon-v0", **NUMPY_ARGUMENTS, engine=engine).unwrapped
    for name in ("num_players", "seat", "deals_per_episode", "starting_chips", "illegal_action_penalty",
                 "strict"):
        value = getattr(env, name)
        assert type(value) in (int, float, bool), (name, type(value))
    obs, info = env.reset(seed=0)
    obs, reward, *_ = env.step(np.int64(np.flatnonzero(info["action_mask"])[0]))
    view = env.view
    chips = [view.balance, view.shoot, view.reserve, view.shoot_capacity] + [h.stake for h in view.hands]
    assert type(reward) is float and all(type(c) is int for c in chips)
    if engine == "table":
        assert all(type(b) is int for b in env.table.balances)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"num_players": 4.0}, r"num_players = 4\.0: expected an int 2\.\.10"),
    ({"num_players": np.float64(4)}, r"num_players = (np\.float64\()?4\.0\)?: expected an int"),
    ({"seat": True}, r"seat = True: expected an int 1\.\.3"),
    ({"illegal_action_penalty": -1.0}, r"illegal_action_penalty = -1\.0: expected a finite number in 0\.\.1e\+09"),
    ({"illegal_action_penalty": 1e39}, r"illegal_action_penalty = 1e\+39"),  # a -inf float32 reward
    ({"illegal_action_penalty": float("inf")}, r"illegal_action_penalty = inf"),
    ({"illegal_action_penalty": "1"}, r"illegal_action_penalty = '1'"),
    ({"starting_chips": CHIP_LIMIT + 1}, r"starting_chips = 1000000001: expected an int 0\.\.1000000000"),
    ({"starting_chips": 500.0}, r"starting_chips = 500\.0"),
    ({"deals_per_episode": np.int64(0)}, r"deals_per_episode = (np\.int64\()?0\)?: expected an int 1..1000000"),
    ({"strict": 1}, r"strict = 1: expected True or False"),
    ({"stake_levels": [2.5]}, r"stake_levels = \(2\.5,\)"),
])
def test_bad_env_arguments_are_refused_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        gym.make("ShootPontoon-v0", **kwargs)


def _scalar_table(**kwargs):
    return gym.make("ShootPontoon-v0", engine="table", **kwargs)


def _scalar_auto(**kwargs):
    return gym.make("ShootPontoon-v0", **kwargs)


def _vector(**kwargs):
    return gym.make_vec("ShootPontoon-v0", num_envs=2, **kwargs)


def _whole_table(**kwargs):
    from shoot_pontoon_env.multiagent import raw_env
    return raw_env(**kwargs)


ENV_CONSTRUCTORS = [_scalar_table, _scalar_auto, _vector, _whole_table]
"""Each engine's front door: the Table, the default, the batched VectorEnv and the whole-table env
check the same arguments the same way."""


@pytest.mark.parametrize("make", ENV_CONSTRUCTORS, ids=lambda make: make.__name__.strip("_"))
@pytest.mark.parametrize(("kwargs", "match"), [
    ({"stake_levels": 2}, r"stake_levels = 2: expected a list or tuple of levels in increasing order"),
    ({"stake_levels": {2, 4}}, r"stake_levels = \{2, 4\}: expected a list or tuple"),
    ({"shoot_bet_levels": "24"}, r"shoot_bet_levels = '24': expected a list or tuple"),
    ({"buy_levels": 1.0}, r"buy_levels = 1\.0: expected a list or tuple"),
    ({"shoot_bet_levels": [10**30]}, r"shoot_bet_levels = \(10{30},\): expected chip amounts \(ints\) in "
                                     r"1\.\.1,000,000,000"),
    ({"deals_per_episode": 10**40}, r"deals_per_episode = 10{40}: expected an int 1\.\.1000000"),
    ({"starting_chips": 10**40}, r"starting_chips = 10{40}: expected an int 0\.\.1000000000"),
])
def test_every_engine_refuses_the_same_bad_arguments_in_one_line(make, kwargs, match):
    with pytest.raises(ValueError, match=match) as error:
        make(**kwargs)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("num_envs, match", [
    (10**12, r"num_envs = 1000000000000: expected an int in 1\.\.16,777,216"),
    (0, r"num_envs = 0: expected an int in 1\.\."),
    (2.0, r"num_envs = 2\.0: expected an int"),
])
def test_the_vector_env_refuses_a_bad_table_count_before_allocating(num_envs, match):
    with pytest.raises(ValueError, match=match):
        gym.make_vec("ShootPontoon-v0", num_envs=num_envs)


def test_numpy_scalars_in_rules_become_python_values():
    rules = SHOOT.replace(num_decks=np.int64(2), max_stake=np.int32(20), penetration=np.float64(0.5),
                          banker_peek=np.bool_(False))
    assert (type(rules.num_decks), type(rules.max_stake), type(rules.penetration), type(rules.banker_peek)) == (
        int, int, float, bool)
    assert rules == SHOOT.replace(num_decks=2, max_stake=20, penetration=0.5, banker_peek=False)


@pytest.mark.parametrize(("changes", "match"), [
    ({"max_stake": 10**40}, r"Rules\.max_stake = 10{40} .*2\.\.1000000000"),
    ({"initial_shoot": 10**12}, r"Rules\.initial_shoot = 10{12} .*1\.\.1000000000"),
    ({"max_shoot_bet": 10**12}, r"Rules\.max_shoot_bet"),
    ({"bank_sale_price": 10**12}, r"Rules\.bank_sale_price"),
    ({"min_stake": 2.0}, r"Rules\.min_stake = 2\.0"),
    ({"num_decks": np.float64(2.0)}, r"Rules\.num_decks = 2\.0"),
])
def test_rules_bound_every_chip_amount(changes, match):
    with pytest.raises(RulesError, match=match):
        SHOOT.replace(**changes)
    assert isinstance(Rules(), Rules)


def test_the_engine_takes_numpy_ints_and_refuses_a_fractional_chip_leaving_the_table_unchanged():
    table = Table(SHOOT, np.int64(3), rng=np.random.default_rng(0), starting_chips=np.int64(100),
                  banker=np.int64(0))
    assert type(table.num_players) is int and all(type(b) is int for b in table.balances)
    table.start_deal()
    before = pickle.dumps(table)
    for amount in (2.5, 4.0, "4", None):
        with pytest.raises(IllegalActionError, match=r"not a whole number of chips"):
            table.apply(Action(ActionKind.STAKE, amount))
    assert pickle.dumps(table) == before
    table.apply(stake(np.int64(4)))
    assert all(type(b) is int for b in table.balances) and table.balances[1] == 96


@pytest.mark.parametrize("stacked", [[1.5], [52], [-1], [True], ["AS", 2.0], 5, "AS XX", [np.float64(3)]])
def test_a_bad_stacked_shoe_is_refused_and_the_env_stays_usable(stacked):
    env = gym.make("ShootPontoon-v0").unwrapped
    with pytest.raises(ValueError, match=r"reset option stacked = "):
        env.reset(options={"stacked": stacked})
    obs, info = env.reset(seed=0, options={"stacked": [np.int64(0), 40, "TD"]})
    assert obs in env.observation_space and info["action_mask"].any()


def test_a_bad_stacked_shoe_leaves_the_table_as_it_was():
    table = Table(SHOOT, 3, rng=np.random.default_rng(0))
    before = pickle.dumps(table)
    with pytest.raises(ValueError, match=r"stacked card must be an int in 0\.\.51"):
        table.start_deal(stacked=[1.5])
    assert pickle.dumps(table) == before


@pytest.mark.parametrize("action", [1.0, "1", None, np.array([1, 2]), 15, -1, True])
def test_a_step_outside_the_action_space_is_an_error_naming_the_space(action):
    env = gym.make("ShootPontoon-v0").unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"is not in the action space Discrete\(15\)"):
        env.step(action)
