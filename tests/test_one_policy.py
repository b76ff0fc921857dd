"""One policy interface and one resolver (issue 36, item 2): an agent of ``agents/`` is a Policy, seated
as an env's opponent and measured by the solver's exploitability as any rule-based policy; a user's
plain callable is evaluated and seated at the whole table; ``models.resolve.make_policy`` takes every
spec and names a bad one with what is allowed."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from agents import make_agent
from agents.base import Agent
from shoot_pontoon_env.evaluate.tournament import run_tournament
from shoot_pontoon_env.models.player import SOLVER_PLAYERS, CallablePolicy, ObservationPolicy
from shoot_pontoon_env.models.resolve import ALLOWED, RoleMismatch, UnknownPolicy, make_policy
from shoot_pontoon_env.multiagent.config import whole_table_settings
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.players.roles import RolePlayers
from shoot_pontoon_env.players.session import heads_up_results
from shoot_pontoon_env.players.strategies import STRATEGIES, StandOnBanker, ThresholdPunter, TipsPunter
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.seat.action_table import punter_action_table
from shoot_pontoon_env.solver.headsup.best_response import exploitability


def first_legal(observation, action_mask):
    return int(np.flatnonzero(action_mask)[0])


class FirstLegal(Agent):
    """A deterministic agent over observations: the first legal index."""

    name = "first-legal"

    def choose(self, observation, action_mask, rng):
        return first_legal(observation, action_mask)


def test_an_agent_is_a_policy_seated_as_an_opponent_and_measured_by_the_solver():
    punter_env = gym.make("ShootPontoon-v0", num_players=2)
    punter = FirstLegal().bind(punter_env)
    assert isinstance(punter, Policy) and punter.roles == ("punter",)
    assert make_policy(punter) is punter  # a Policy is returned as it is
    banker_env = gym.make("ShootPontoonBanker-v0", num_players=2, punters=punter)  # seated as the opponent
    banker_env.reset(seed=0)
    for i in range(20):
        _, info = banker_env.reset(seed=i)
        done = False
        while not done:
            _, _, terminated, truncated, info = banker_env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert not info["illegal_action"]
            done = terminated or truncated
    # the solver asks it through views; the same as the callable it decides by
    by_agent = exploitability(punter, "stand17")
    by_callable = exploitability(make_policy(first_legal, rules=SHOOT, num_players=2, role="punter"), "stand17")
    assert by_agent.exploitability == by_callable.exploitability > 0
    assert by_agent.punter == "first-legal"
    # and at the engine's table, it plays as it does through the env's observations
    results = heads_up_results(StandOnBanker(), punter, SHOOT, 200, seed=3)
    assert np.isfinite(results).all()


def test_a_plain_callable_is_evaluated_on_the_batched_engine_and_on_the_scalar_env_alike():
    """No class attribute to set: a function of one observation is asked row by row over every table."""
    def make_env():
        return gym.make("ShootPontoon-Playtech-v0", num_players=2)

    batch = CallablePolicy(lambda observations, masks: np.argmax(masks, axis=1), batched=True, name="batch")
    records = run_tournament(make_env, [first_legal, batch], hands=300, seed=1, num_tables=64)
    assert [r.name for r in records] == ["first_legal", "batch"]
    assert [r.engine for r in records] == ["batched", "batched"]
    assert all(r.illegal == 0 and len(r.returns) == 300 for r in records)
    assert np.array_equal(records[0].returns, records[1].returns)  # the same choices on the same hands
    scalar = run_tournament(make_env, [batch], hands=300, seed=1, batched=False)[0]
    assert scalar.engine == "scalar" and scalar.decisions == records[0].decisions
    assert np.array_equal(scalar.returns, records[0].returns)


def test_a_callable_takes_the_generator_when_it_asks_for_it():
    seen = []

    def uniform(observation, action_mask, rng):
        seen.append(rng)
        legal = np.flatnonzero(action_mask)
        return int(legal[rng.integers(len(legal))])

    env = gym.make("ShootPontoon-v0")
    agent = make_agent(uniform, env)
    assert isinstance(agent, CallablePolicy) and agent.context.action_table is env.unwrapped.action_table
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    assert info["action_mask"][agent.choose(obs, info["action_mask"], rng)] and seen == [rng]
    with pytest.raises(TypeError, match=r"returned 'stick': expected an action index"):
        CallablePolicy(lambda o, m: "stick", context=env).choose(obs, info["action_mask"], rng)
    with pytest.raises(TypeError, match=r"expected one action index \(an int\) per row"):
        CallablePolicy(lambda o, m: m, batched=True, context=env).choose_batch(obs[None], info["action_mask"][None],
                                                                              rng)
    with pytest.raises(RuntimeError, match="bind it to the env it acts in"):
        CallablePolicy(first_legal).act(env.unwrapped.view, rng)


def test_the_whole_table_seats_a_callable_and_a_resolved_name():
    players = whole_table_settings(players={1: first_legal, 2: "threshold15", 3: "tips/stand17"},
                                   num_players=5).config.players
    assert isinstance(players[1], CallablePolicy) and players[1].roles == ("punter", "banker")
    assert type(players[2]) is ThresholdPunter and players[2].stick_on == 15
    assert isinstance(players[3], RolePlayers) and players[3].name == "tips/stand17"
    observation = players[1].encoder.encode  # bound to the whole table's seat: its size and seat action table
    assert players[1].encoder.num_players == 5 and observation is not None
    from shoot_pontoon_env.multiagent import batched_env

    with pytest.raises(ValueError, match=r"players\[1\] = 'first_legal' \(CallablePolicy\): .*numpy actor"):
        batched_env(2, players={1: first_legal})  # the kernel plays no Python policy: refused naming the seat


def test_make_policy_takes_every_kind_of_spec():
    assert isinstance(make_policy("tips"), TipsPunter)
    assert make_policy("threshold16").stick_on == 16 and make_policy("threshold16").name == "threshold16"
    both = make_policy("threshold15/stand17")
    assert isinstance(both, RolePlayers) and both.punter.stick_on == 15
    optimal = make_policy("optimal", rules=SHOOT, shoot_bet_levels=())
    assert optimal.name == "optimal" and not optimal.shoot_bets
    assert make_policy("basic", rules="shoot").name == "basic"
    table = punter_action_table(SHOOT, stake_levels=[2])
    seat = {"rules": SHOOT, "num_players": 3, "starting_chips": 500, "action_table": table}
    policy = make_policy(first_legal, role="punter", **seat)
    assert isinstance(policy, ObservationPolicy) and policy.action_table is table
    assert policy.encoder.num_players == 3 and policy.encoder.starting_chips == 500
    paired = make_policy(first_legal, **seat)  # a seat whose bank comes and goes: it banks by the fallback
    assert isinstance(paired, RolePlayers) and type(paired.banker) is StandOnBanker
    unbound = FirstLegal()
    assert make_policy(unbound, rules=SHOOT, role="banker") is unbound and unbound.roles == ("banker",)


@pytest.mark.parametrize(("spec", "kwargs", "error", "says"), [
    ("bridge", {}, UnknownPolicy, "policy = 'bridge': expected a strategy or player by name"),
    ("bridge", {"label": "--opponents"}, UnknownPolicy, "--opponents 'bridge': expected a strategy"),
    (42, {"label": "players[1]"}, UnknownPolicy, r"players\[1\] = 42: expected"),
    (TipsPunter, {}, UnknownPolicy, r"got the class TipsPunter \(expected an instance: TipsPunter\(\)\)"),
    ("a/b/c", {}, UnknownPolicy, "'a/b/c': expected NAME or PUNTER/BANKER"),
    ("optimal", {}, ValueError, "'optimal': needs the rules it plays under"),
    (first_legal, {}, ValueError, "needs the rules it plays under"),
    ("equilibrium", {}, ValueError, "the heads-up equilibrium plays only its reduced game"),
    ("tips", {"role": "dealer"}, ValueError, r"role = 'dealer': expected None or one of \['punter', 'banker'\]"),
])
def test_a_bad_spec_is_named_with_what_is_allowed(spec, kwargs, error, says):
    with pytest.raises(error, match=says) as raised:
        make_policy(spec, **kwargs)
    assert "\n" not in str(raised.value)
    if error is UnknownPolicy and "PUNTER/BANKER" not in says:
        assert ALLOWED in str(raised.value)
        for name in (*STRATEGIES, "thresholdN", *SOLVER_PLAYERS, "zoo:NAME", "PUNTER/BANKER", "callable"):
            assert name in str(raised.value), name


def test_a_model_of_the_other_role_is_refused_naming_both():
    agent = FirstLegal().bind(gym.make("ShootPontoonBanker-v0"))
    with pytest.raises(RoleMismatch, match="'first-legal' is a model of the banker's role, given as the punter"):
        make_policy(agent, role="punter")


def test_make_agent_keeps_its_own_names_and_delegates_the_rest():
    env = gym.make("ShootPontoon-v0")
    assert make_agent("random", env).name == "random"
    tips = make_agent("tips", env)
    assert isinstance(tips, ObservationPolicy) and type(tips.policy) is TipsPunter
    with pytest.raises(ValueError, match=r"unknown agent 'genius': expected one of \['random'"):
        make_agent("genius", env)
