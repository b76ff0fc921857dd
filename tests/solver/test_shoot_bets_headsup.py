"""Heads-up with Shoot bets at every betting point (issue 38, item 1, the banker's side): the punter's rows
take the bets before the deal, before the second card and before the fourth, so the pair's value and the
banker's best response (a banker who sees each Shoot bet riding) are exact, and the engine agrees.

Without ``shoot_bets`` the punter's best response bets no Shoot, and ``exploitability`` refuses such rules by
name; with them it bets (tests/solver/test_shoot_bets_punter.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from shoot_pontoon_env.players.session import heads_up_results
from shoot_pontoon_env.players.strategies import TipsPunter, make_strategy
from shoot_pontoon_env.rules import SHOOT, SHOOT_BET_POINTS
from shoot_pontoon_env.solver.headsup.best_banker import ResponseBanker
from shoot_pontoon_env.solver.headsup.best_response import (
    banker_best_response, exploitability, pair_value, punter_best_response)
from shoot_pontoon_env.cards import best_total, is_pontoon_pair
from shoot_pontoon_env.solver.dealer import PONTOON
from shoot_pontoon_env.solver.headsup.game_punter import card_of, check_rules, punter_rows, strategy_policy
from shoot_pontoon_env.solver.payoff import payoff_matrices, punter_class
from shoot_pontoon_env.solver.space import ACE, NUM_VALUES

BETS = SHOOT.replace(name="shoot-every-point", shoot_bet_points=SHOOT_BET_POINTS, max_split_hands=1)
"""Every betting point, one hand a box (a bet before the fourth card is modelled without splits)."""


def test_the_rows_hold_bets_made_at_each_point() -> None:
    """``tips`` bets two units on an ace or a ten-value first card, and on three cards of 11 or less: the
    banker's observations carry each total (0, 4 before the second card, 4 before the fourth, 8 both)."""
    rows = punter_rows(BETS, strategy_policy(TipsPunter()))
    bets = {hand.shoot_bet for observation in rows.observations for hand in observation}
    assert bets == {0, 4, 8}


def test_a_bet_before_the_second_card_rides_into_the_peek() -> None:
    """A banker's Pontoon at the peek takes the bet ``tips`` adds on an ace before its second card: the
    peek row of each start (ace, x) is the before-the-deal-only game's plus that bet's loss, exactly."""
    tips = strategy_policy(TipsPunter())
    with_bet = punter_rows(BETS, tips)
    without = punter_rows(BETS.replace(shoot_bet_points=("before_deal",)), tips)
    _, h = payoff_matrices(BETS, False)
    for second in range(NUM_VALUES):
        k = ACE * NUM_VALUES + second
        cards = [card_of(ACE), card_of(second)]
        cls = punter_class(best_total(cards)[0], 2, is_pontoon_pair(cards))
        assert with_bet.peek_payoff[k] - without.peek_payoff[k] == pytest.approx(h[cls, PONTOON] * 4 / 2, abs=1e-12)
    assert h[punter_class(17, 2, False), PONTOON] < 0


def test_capacity_limits_each_bet_as_the_engine_does() -> None:
    """A Shoot of 9 and bets of at most 7: ``tips`` bets 4 twice at most, the second only where 5 are left
    (the pair's value matches the engine on the same shuffles)."""
    rules = BETS.replace(name="small-shoot", initial_shoot=9, max_shoot_bet=7)
    tips, stand17 = TipsPunter(), make_strategy("stand17")
    rows = punter_rows(rules, strategy_policy(tips))
    assert {hand.shoot_bet for observation in rows.observations for hand in observation} == {0, 4, 8}
    exact = pair_value(tips, stand17, rules).value
    results = heads_up_results(stand17, tips, rules, 40_000, seed=33)
    se = results.std(ddof=1) / np.sqrt(len(results))
    assert abs(results.mean() - exact) < 3 * se, (results.mean(), se, exact)


def test_the_pair_value_with_shoot_bets_matches_the_engine() -> None:
    tips, stand17 = TipsPunter(), make_strategy("stand17")
    exact = pair_value(tips, stand17, BETS).value
    results = heads_up_results(stand17, tips, BETS, 60_000, seed=31)
    se = results.std(ddof=1) / np.sqrt(len(results))
    assert abs(results.mean() - exact) < 3 * se, (results.mean(), se, exact)


TWO_POINTS = SHOOT.replace(name="shoot-two-points", shoot_bet_points=("before_deal", "before_second_card"))
"""The preset (splits) with the bets before the deal and the second card."""


@pytest.mark.parametrize("rules, baseline, deals, seed", [
    (BETS, "stand17", 20_000, 32),
    pytest.param(TWO_POINTS, "dealer", 12_000, 43, marks=pytest.mark.slow),  # 22 s: `make benchmark`
], ids=["every-point-stand17", "two-points-dealer"])
def test_the_banker_best_response_with_shoot_bets_riding_beats_a_rule_paired(rules, baseline, deals, seed) -> None:
    """The exact gain of the best-response banker over a rule-based banker against ``tips`` (about -0.112
    per unit stake over ``stand17`` with every point; -0.043 over ``dealer`` with the preset's splits and
    two points: the quality bar's check) matches the engine's on the same shuffles, and is below zero by
    more than 3 SE."""
    tips, rule = TipsPunter(), make_strategy(baseline)
    best = banker_best_response(tips, rules)
    exact = best.value - pair_value(tips, rule, rules).value
    diff = (heads_up_results(ResponseBanker(best), tips, rules, deals, seed=seed)
            - heads_up_results(rule, tips, rules, deals, seed=seed))
    mean, se = diff.mean(), diff.std(ddof=1) / np.sqrt(len(diff))
    assert abs(mean - exact) < 3 * se, (mean, se, exact)
    assert mean + 3 * se < 0, (mean, se)


def test_what_is_not_modelled_is_refused_by_name() -> None:
    with pytest.raises(NotImplementedError, match=r"the punter's best response without Shoot bets does not "
                                                  r"model the points \['before_second_card', 'before_fourth_card'\]"):
        exploitability("tips", "stand17", BETS)
    with pytest.raises(NotImplementedError, match="the punter's best response without Shoot bets"):
        punter_best_response(make_strategy("shoot_aware"), BETS)
    with pytest.raises(NotImplementedError, match="Shoot bets asked for, but the rules have no Shoot betting point"):
        punter_best_response(make_strategy("stand17"), SHOOT.replace(shoot_bet_points=()), shoot_bets=True)
    with pytest.raises(NotImplementedError, match="before the fourth card is modelled without splits only"):
        check_rules(SHOOT.replace(shoot_bet_points=SHOOT_BET_POINTS))
    check_rules(SHOOT.replace(shoot_bet_points=("before_deal", "before_second_card")))  # splits and all
