"""The heads-up equilibrium (``solver/headsup/equilibrium.py``, ``cfr.py``, ``equilibrium_lp.py``): checks
that can fail.

- The small game (the reduced game without buys): the LP of cutting planes (an optimiser independent
  of CFR+'s regrets and averages, on the same game arrays and ``cfr.Solver`` value algebra) gives a
  value within 0.0005 of the equilibrium pair's, and inside the best responses' bounds; the
  exploitability by the best-response code is at most 0.001 (both bankers: the ``SeatView``'s and the
  reduced game's).
- The best-response code and the solver's own algebra give the same numbers (1e-9): the game arrays
  are the best responses' model.
- Under ``-m slow``: the whole reduced game of the ``shoot`` preset (buys of every amount) to an
  exploitability of at most 0.001 by the best-response code.
- The ``equilibrium`` agents played by the engine from their flat observations: the mean of the
  punter's net equals the pair's exact value within 3 standard errors (10,000 deals; 40,000 under
  ``-m slow``), each decision taken from the observation is the one taken from the seat's view, and
  every action taken has a positive chance under the solved profile at the true state.
- The agent refuses rules other than a solved game's, naming the difference, and an equilibrium of
  perfect recall (it cannot tell its twisted cards); the CLI's bad input
  is one line on stderr and exit status 2.
"""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

from agents import agent_names, make_agent
from agents.base import EnvContext
from agents.equilibrium import EquilibriumAgent
from shoot_pontoon_env.actions import ActionKind
from shoot_pontoon_env.cli import run
from shoot_pontoon_env.engine import Table
from shoot_pontoon_env.seat.encoding import decode_view
from shoot_pontoon_env.rules import get_rules
from shoot_pontoon_env.players.session import play_deal
from shoot_pontoon_env.solver.__main__ import main
from shoot_pontoon_env.solver.headsup.cfr import Solver
from shoot_pontoon_env.solver.headsup.equilibrium import Equilibrium, Measured, measure, measure_pair, solve_equilibrium
from shoot_pontoon_env.players.strategies import make_strategy
from shoot_pontoon_env.solver.headsup.equilibrium_game import build_game, equilibrium_rules
from shoot_pontoon_env.solver.headsup.game_punter import observation_of, value_index

FULL = equilibrium_rules("shoot")
SMALL = FULL.replace(max_buys=0, name="shoot-equilibrium-no-buys")
"""The small game: the reduced game of the preset without buys (1,889 punter states)."""
ENGINE_DEALS = 10_000
"""Deals of the fast engine test (the slow one plays 40,000)."""


@pytest.fixture(scope="module")
def perfect() -> tuple[Equilibrium, Measured]:
    eq = solve_equilibrium(SMALL, 40, recall="perfect")
    return eq, measure(eq)


@pytest.fixture(scope="module")
def observed() -> tuple[Equilibrium, Measured]:
    eq = solve_equilibrium(SMALL, 30, recall="observation")
    return eq, measure(eq)


def test_reduced_game_is_named_and_keeps_the_rest_of_the_rules() -> None:
    shoot = get_rules("shoot")
    assert FULL.name == "shoot-equilibrium"
    assert (FULL.min_stake, FULL.max_stake, FULL.shoot_bet_points, FULL.max_split_hands) == (2, 2, (), 1)
    assert FULL.replace(name="x", min_stake=2, max_stake=10, shoot_bet_points=("before_deal",),
                        max_split_hands=4) == shoot.replace(name="x")
    assert equilibrium_rules(FULL) is FULL


def test_small_game_exploitability_by_the_best_response_code(perfect) -> None:
    _, m = perfect
    assert m.banker_gain >= -1e-12 and m.punter_gain >= -1e-12
    assert m.exploitability <= 0.001, m.to_dict()
    # a banker who sees more (the SeatView's, the order of the twists) gains no less
    assert m.exploitability >= m.exploitability_reduced_game - 1e-12


def test_best_response_code_and_solver_algebra_agree(perfect) -> None:
    eq, m = perfect
    value, punter_best, banker_best = Solver(eq.game).measure(eq.profile)
    assert value == pytest.approx(m.pair_value, abs=1e-9)
    assert punter_best == pytest.approx(m.punter_best_response, abs=1e-9)
    assert banker_best == pytest.approx(m.banker_best_response_reduced_game, abs=1e-9)


def test_pairs_with_the_equilibrium_are_measured_by_the_same_code(perfect) -> None:
    """``measure_pair``: with both seats the equilibrium it is ``measure``'s pair; a rule-based seat
    against the equilibrium cannot gain more than the equilibrium concedes (within its exploitability),
    and the best responses are those of the seat left to the equilibrium."""
    eq, m = perfect
    both = measure_pair(eq)
    assert (both.pair_value, both.banker_best_response, both.punter_best_response) == pytest.approx(
        (m.pair_value, m.banker_best_response, m.punter_best_response), abs=1e-12)
    tips = measure_pair(eq, punter=make_strategy("tips"))
    assert tips.punter == "tips" and tips.banker == "equilibrium"
    assert tips.pair_value <= m.punter_best_response + 1e-12  # no punter beats the banker's best response
    assert tips.punter_best_response == pytest.approx(m.punter_best_response, abs=1e-12)
    stand = measure_pair(eq, banker=make_strategy("stand17"))
    assert stand.pair_value >= m.banker_best_response - 1e-12
    assert stand.banker_best_response == pytest.approx(m.banker_best_response, abs=1e-12)
    assert stand.banker_gain > 0.0 and tips.punter_gain > 0.0


def test_lp_agrees_with_the_equilibrium_value(perfect) -> None:
    pytest.importorskip("scipy")
    from shoot_pontoon_env.solver.headsup.equilibrium_lp import solve_lp

    _, m = perfect
    lp = solve_lp(build_game(SMALL, perfect_recall=True), tolerance=1e-7)
    assert lp.upper - lp.lower <= 1e-6, lp
    assert abs(lp.value - m.pair_value) <= 0.0005, (lp, m.pair_value)
    assert m.banker_best_response_reduced_game - 1e-7 <= lp.value <= m.punter_best_response + 1e-7, (
        lp, m.to_dict())


@pytest.mark.slow
def test_full_reduced_game_exploitability_at_most_a_thousandth() -> None:
    eq = solve_equilibrium(FULL, 80, recall="perfect")
    m = measure(eq)
    assert m.exploitability <= 0.001, m.to_dict()


class CheckedPlayer(EquilibriumAgent):
    """An agent at the table (an agent is a Policy) that also checks its decision from the observation against the one its
    strategy gives on the seat's real view, and that the action it takes has a positive chance under
    the solved profile at the true state (the punter's hand as dealt, the banker's cards and the
    punter's box as they are)."""

    decisions = 0

    def act(self, view, rng):
        decoded = decode_view(self.encoder.encode(view), self.context.rules,
                              starting_chips=self.context.starting_chips)
        if view.legal:
            assert self.distribution(decoded) == self.distribution(view)
        action = super().act(view, rng)
        eq = self.equilibrium
        hand = None if view.is_banker else view.current_hand
        if view.is_banker and action.kind in (ActionKind.TWIST, ActionKind.STICK) and view.legal and not all(
                h.settled for h in view.hands):
            p = eq.draw_chance(tuple(sorted(value_index(c) for c in view.banker_cards)),
                               observation_of(view.hands))
            assert (p if action.kind == ActionKind.TWIST else 1.0 - p) > 0, (action, view)
            CheckedPlayer.decisions += 1
        elif hand is not None and action.kind not in (ActionKind.STAKE, ActionKind.SHOOT_BET):
            key = eq.punter_key([value_index(c) for c in hand.cards], hand.stake, hand.buys, hand.twists)
            assert eq.punter_actions(key).get(action, 0.0) > 0, (action, key)
            CheckedPlayer.decisions += 1
        return action


def _engine_mean(eq: Equilibrium, deals: int, seed: int) -> tuple[float, float]:
    """The punter's mean net per unit stake and its standard error over ``deals`` deals of the
    ``equilibrium`` agents at the engine's table."""
    contexts = [EnvContext.of(gym.make(env, rules=SMALL, num_players=2))
                for env in ("ShootPontoonBanker-v0", "ShootPontoon-v0")]
    players = [CheckedPlayer(eq).bind(c) for c in contexts]
    rng = np.random.default_rng(seed)
    table = Table(SMALL, 2, rng=np.random.default_rng(rng.integers(2**63)), starting_chips=0)
    out = np.empty(deals)
    before = CheckedPlayer.decisions
    for i in range(deals):
        play_deal(table, players, rng)
        out[i] = sum(h.result + 0.0 for h in table.hands if h.seat == 1) / table.hands[0].original_stake
    assert CheckedPlayer.decisions - before >= deals  # every deal has a punter decision at least
    return float(out.mean()), float(out.std(ddof=1) / np.sqrt(deals))


def test_equilibrium_agents_on_the_engine_match_the_exact_value(observed) -> None:
    eq, m = observed
    mean, se = _engine_mean(eq, ENGINE_DEALS, 22)
    assert abs(mean - m.pair_value) < 3 * se, (mean, se, m.pair_value)


@pytest.mark.slow
def test_equilibrium_agents_on_the_engine_many_deals(observed) -> None:
    eq, m = observed
    mean, se = _engine_mean(eq, 40_000, 23)
    assert abs(mean - m.pair_value) < 3 * se, (mean, se, m.pair_value)


def test_observation_punter_is_measured_against_a_punter_who_knows_its_twists(observed, perfect) -> None:
    _, obs = observed
    _, full = perfect
    # the observation's punter is a strategy of the perfect-recall game (the same banker information),
    # so the banker's best response holds it to at most that game's value, which the best response of
    # a punter who knows its twists to the perfect-recall banker is at least
    assert obs.banker_best_response_reduced_game <= full.punter_best_response + 1e-9
    assert obs.punter_gain >= -1e-12 and obs.banker_gain_reduced_game >= -1e-12
    assert obs.banker_gain >= obs.banker_gain_reduced_game - 1e-12


def test_agent_is_registered_and_refuses_other_rules() -> None:
    assert "equilibrium" in agent_names()
    with pytest.raises(ValueError, match="max_split_hands=4.*no splits|num_players=4"):
        make_agent("equilibrium", gym.make("ShootPontoon-v0"))
    with pytest.raises(ValueError, match="shoot_bet_points"):
        make_agent("equilibrium", gym.make("ShootPontoon-v0", num_players=2,
                                           rules=FULL.replace(shoot_bet_points=("before_deal",))))


def test_agent_refuses_a_perfect_recall_equilibrium(perfect) -> None:
    with pytest.raises(ValueError, match="recall='perfect'"):
        EquilibriumAgent(perfect[0])


@pytest.mark.parametrize("argv, words", [
    (["--iterations", "0"], "--iterations"),
    (["--rules", "casino"], "--rules"),
    (["--max-buys", "9"], "--max-buys"),
    (["--lp", "--recall", "observation"], "--lp"),
])
def test_cli_bad_input_is_one_line_and_status_2(argv, words, capsys) -> None:
    assert run(main, ["equilibrium", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err


def test_cli_json_prints_value_and_exploitability(capsys) -> None:
    assert run(main, ["equilibrium", "--max-buys", "0", "--iterations", "10", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "shoot-equilibrium-max_buys0"
    assert out["exploitability"] == pytest.approx((out["banker_gain"] + out["punter_gain"]) / 2)
    assert out["exploitability_reduced_game"] == pytest.approx(
        (out["banker_gain_reduced_game"] + out["punter_gain"]) / 2)
    assert out["exploitability"] >= out["exploitability_reduced_game"] - 1e-12
    assert -0.13 < out["game_value"] < -0.12 and 0 <= out["exploitability"] < 0.01
