"""OpenSpiel's own exploitability against ours, on a game small enough for its tree walk.

The game: the heads-up reduced game without buys on the euchre pack (``Rules.pack``, a research variant in
docs/RULES.md), chance dealing card values (``chance=values``): 1,694 chance nodes, 5,908 decisions and
8,506 terminal states. On it OpenSpiel's ``exploitability`` (its best responses walk the whole tree) must
equal ours to 1e-6 for three policies: uniform random (ours: the best-response code asked through
OpenSpiel states, ``openspiel.measure``), a rule-based pair (ours: ``solver exploitability``'s code), and
our CFR+ equilibrium (ours: ``equilibrium.measure``). About 30 s each.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as openspiel_policy  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score  # noqa: E402
from open_spiel.python.algorithms import exploitability as openspiel_exploitability  # noqa: E402

from shoot_pontoon_env.openspiel import load_game  # noqa: E402
from shoot_pontoon_env.openspiel.measure import exploitability as measured_exploitability  # noqa: E402
from shoot_pontoon_env.openspiel.policies import ViewPolicy, deterministic  # noqa: E402
from shoot_pontoon_env.players.strategies import make_strategy  # noqa: E402
from shoot_pontoon_env.solver.headsup.best_response import exploitability  # noqa: E402
from shoot_pontoon_env.solver.headsup.equilibrium import measure, solve_equilibrium  # noqa: E402

SMALL = {"players": 2, "reduced": True, "max_buys": 0, "chance": "values", "rules": "shoot pack:euchre"}
BANKER, PUNTER = 0, 1


@pytest.fixture(scope="module")
def game():
    return load_game(**SMALL)


def test_the_small_game_is_small(game) -> None:
    counts = [0, 0, 0]

    def walk(state) -> None:
        if state.is_terminal():
            counts[2] += 1
        elif state.is_chance_node():
            counts[0] += 1
            assert np.isclose(sum(p for _, p in state.chance_outcomes()), 1.0)
            for action, _ in state.chance_outcomes():
                walk(state.child(action))
        else:
            counts[1] += 1
            for action in state.legal_actions():
                walk(state.child(action))

    walk(game.new_initial_state())
    assert counts == [1694, 5908, 8506]


@pytest.mark.slow  # 110 s (OpenSpiel's tree walk; the rule-based pair's cross-check stays in CI): run by `make benchmark`, keeping CI under 10 minutes
def test_uniform_random(game) -> None:
    uniform = openspiel_policy.UniformRandomPolicy(game)
    ours = measured_exploitability(game, uniform)
    theirs = openspiel_exploitability.exploitability(game, uniform)
    assert abs(theirs - ours.exploitability) < 1e-6, (theirs, ours)
    assert theirs > 0.2


def test_a_rule_based_pair(game) -> None:
    punter, banker = make_strategy("tips"), make_strategy("stand17")
    ours = exploitability(punter, banker, game.settings.rules, {})
    policy = ViewPolicy(game, {BANKER: deterministic(banker), PUNTER: deterministic(punter)})
    theirs = openspiel_exploitability.exploitability(game, policy)
    assert abs(theirs - ours.exploitability) < 1e-6, (theirs, ours)
    assert np.isclose(expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[PUNTER],
                      ours.pair_value, atol=1e-9)


@pytest.mark.slow  # 140 s (CFR+ and OpenSpiel's tree walk): run by `make benchmark`, keeping CI under 10 minutes
def test_our_equilibrium(game) -> None:
    eq = solve_equilibrium(game.settings.rules, 200)
    ours = measure(eq)
    policy = ViewPolicy(game, {BANKER: eq.distribution, PUNTER: eq.distribution})
    theirs = openspiel_exploitability.exploitability(game, policy)
    assert abs(theirs - ours.exploitability) < 1e-6, (theirs, ours)
    assert ours.exploitability < 1e-4


@pytest.mark.slow
def test_openspiels_cfr_plus_reaches_our_game_value(game) -> None:
    """After 20 iterations (about 2 minutes), OpenSpiel's CFR+ average policy's value is our equilibrium's
    within its own NashConv (where every profile's value and the game's value both lie)."""
    ours = measure(solve_equilibrium(game.settings.rules, 400))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    nash_conv = openspiel_exploitability.nash_conv(game, average)
    value = expected_game_score.policy_value(game.new_initial_state(), [average, average])[PUNTER]
    assert abs(value - ours.pair_value) <= nash_conv, (value, ours.pair_value, nash_conv)
    assert nash_conv < 0.005
