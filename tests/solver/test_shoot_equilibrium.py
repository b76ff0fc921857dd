"""The heads-up equilibrium with Shoot bets (issue 38, item 2): ``shoot_equilibrium_rules``' reduced game,
at each betting point nothing or the allowance.

- On the small game of the euchre pack (fast): the CFR+ pair's exploitability by the best-response code
  (the same functions as every other pair, Shoot bets included on both sides) is at most 0.001; the LP
  of cutting planes (a second optimiser) gives its value within 0.0005; the pair played at the engine
  matches the exact value within 3 standard errors; the report reads reached boxes only.
- Under ``-m slow``: the same on the 52-card small game (no buys).
- The reduced game without bets is unchanged: its rules refuse bets, and a game with bets is built only
  from ``shoot_equilibrium_rules``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from shoot_pontoon_env.players.session import heads_up_results
from shoot_pontoon_env.rules import SHOOT_BET_POINTS
from shoot_pontoon_env.solver.__main__ import main as solver_main
from shoot_pontoon_env.solver.headsup.equilibrium import EquilibriumPlayer, measure, solve_equilibrium
from shoot_pontoon_env.solver.headsup.equilibrium_game import (
    build_game, check_equilibrium_rules, equilibrium_rules, shoot_equilibrium_rules)
from shoot_pontoon_env.solver.headsup.equilibrium_lp import solve_lp
from shoot_pontoon_env.solver.headsup.shoot_equilibrium import banker_draws_by_bet, engine_pair, punter_bet_chances

EUCHRE = shoot_equilibrium_rules(equilibrium_rules("shoot").replace(max_buys=0, pack="euchre"))
SMALL = shoot_equilibrium_rules(equilibrium_rules("shoot").replace(max_buys=0))


def test_the_rules_of_the_game_with_bets() -> None:
    assert SMALL.shoot_bet_points == SHOOT_BET_POINTS and SMALL.max_shoot_bet == 2 and SMALL.initial_shoot == 6
    assert SMALL.max_split_hands == 1 and SMALL.min_stake == SMALL.max_stake == 2
    with pytest.raises(ValueError, match="the equilibrium game has no Shoot bets"):
        check_equilibrium_rules(SMALL)  # the game without bets (the agent's, OpenSpiel's) refuses them
    check_equilibrium_rules(SMALL, shoot_bets=True)
    sizes = build_game(SMALL, perfect_recall=True).sizes
    assert sizes["states"] > 4 * build_game(equilibrium_rules(SMALL.replace(shoot_bet_points=())), True).sizes[
        "states"]


@pytest.mark.parametrize("rules, iterations, deals", [
    (EUCHRE, 100, 10_000),
    pytest.param(SMALL, 150, 40_000, marks=pytest.mark.slow),
], ids=["euchre", "full-pack"])
def test_the_equilibrium_with_bets_is_certified_and_checked(rules, iterations, deals) -> None:
    eq = solve_equilibrium(rules, iterations)
    m = measure(eq)
    assert m.exploitability <= 0.001, m.to_dict()
    assert m.banker_best_response <= m.pair_value <= m.punter_best_response
    lp = solve_lp(eq.game)
    assert abs(lp.value - m.pair_value) <= 0.0005, (lp, m.pair_value)
    assert m.banker_best_response - 1e-9 <= lp.value <= m.punter_best_response + 1e-9
    mean, se = engine_pair(eq, deals, seed=3)
    assert abs(mean - m.pair_value) < 3 * se, (mean, se, m.pair_value)
    bets = punter_bet_chances(eq)
    assert bets["before_second_card_by_first_value"][0] > 0.99  # an ace first: the allowance goes on
    assert set(bets["before_second_card_by_first_value"]) == {v for v in range(10) if rules.value_counts[v]}
    draws = banker_draws_by_bet(eq)
    assert 0 in draws and bets["before_deal"] == 0
    assert max(draws) <= rules.max_shoot_bet  # no deal bet: a box stuck on two cards carries one bet at most
    assert 0 < bets["before_fourth_card"]["offered"] < 1 and 0 <= bets["before_fourth_card"]["bets_given_offered"] <= 1


class CountingPlayer(EquilibriumPlayer):
    """The equilibrium at the engine, counting the punter's offers before the fourth card and its bets there."""

    offers = bets = 0

    def act(self, view, rng):
        action = super().act(view, rng)
        if not view.is_banker and view.shoot_bet_point == "before_fourth_card":
            CountingPlayer.offers += 1
            CountingPlayer.bets += action.amount > 0
        return action


@pytest.mark.slow  # 40 s (the command line's bets are checked in CI below): run by `make benchmark`, keeping CI under 10 minutes
def test_the_fourth_card_bets_reported_are_the_engines() -> None:
    """``punter_bet_chances``' exact chance of an offer before the fourth card, and of a bet given one,
    against the counts of 20,000 engine deals (binomial standard errors)."""
    eq = solve_equilibrium(EUCHRE, 40)
    exact = punter_bet_chances(eq)["before_fourth_card"]
    player, deals = CountingPlayer(eq), 20_000
    heads_up_results(player, player, EUCHRE, deals, seed=4)
    offered = CountingPlayer.offers / deals
    assert abs(offered - exact["offered"]) < 3 * np.sqrt(exact["offered"] * (1 - exact["offered"]) / deals)
    share, n = CountingPlayer.bets / CountingPlayer.offers, CountingPlayer.offers
    q = exact["bets_given_offered"]
    assert 0 < q < 1 and abs(share - q) < 3 * np.sqrt(q * (1 - q) / n), (share, q, n)


def test_the_command_line_reports_the_bets_and_the_engine(capsys) -> None:
    argv = ["equilibrium", "--max-buys", "0", "--pack", "euchre", "--shoot-bets", "--iterations", "30",
            "--deals", "2000", "--json"]
    assert solver_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "shoot-euchre-equilibrium-max_buys0-shoot2of6" and out["exploitability"] >= 0
    assert out["shoot_bets"]["allowance"] == 2 and out["shoot_bets"]["initial_shoot"] == 6
    assert out["monte_carlo"]["deals"] == 2000 and abs(out["monte_carlo"]["z"]) < 4
    from shoot_pontoon_env.cli import run

    assert run(solver_main, ["equilibrium", "--allowance", "4"]) == 2
    assert "argument --allowance: applies only with --shoot-bets" in capsys.readouterr().err
