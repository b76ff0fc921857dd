"""The solver's values agree with the engine playing its policy (small samples; the 1M-hand check
is ``benchmarks/solver_validation.py``), and the command line answers in JSON."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from shoot_pontoon_env.rules import PRESETS, SHOOT
from shoot_pontoon_env.solver import solve
from shoot_pontoon_env.solver.solve import node_index
from shoot_pontoon_env.solver.validate import estimate
from shoot_pontoon_env.players.strategies import StandOnBanker
from tests.hang_guard import HANG_GUARD_S

ALL_POINTS = ("before_deal", "before_second_card", "before_fourth_card")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_expected_return_agrees_with_the_engine(name: str) -> None:
    sol = solve(name)
    est = estimate(name, 20_000, seed=11, workers=2)
    assert abs(est.z(sol.expected_return)) < 4, (est, sol.expected_return)


def test_shoot_policy_agrees_with_the_engine() -> None:
    ratio = 1
    rules = SHOOT.replace(shoot_bet_points=ALL_POINTS, initial_shoot=10**9, max_shoot_bet=ratio * SHOOT.base_stake)
    sol = solve(rules, shoot_ratio=ratio)
    est = estimate(rules, 12_000, seed=5, workers=2, shoot_ratio=ratio)
    assert abs(est.z(sol.shoot.expected_return)) < 4, (est, sol.shoot.expected_return)


def test_a_resplit_start_agrees_with_the_engine() -> None:
    """Every deal starts 8-8 (split and resplit in the Shoot preset's one-deck shoe)."""
    sol = solve("shoot")
    assert sol.splits[(None, 7)].split and sol.splits[(None, 7)].resplit
    value = sol.start_values[None][node_index((7, 7))]
    est = estimate("shoot", 12_000, seed=3, workers=2, start=((7, 7), None))
    assert abs(est.z(value)) < 4, (est, value)


def test_cli_json() -> None:
    out = subprocess.run([sys.executable, "-m", "shoot_pontoon_env.solver", "--rules", "playtech", "--json"],
                         capture_output=True, text=True, check=True, timeout=HANG_GUARD_S)
    data = json.loads(out.stdout)
    assert data["expected_return"] == pytest.approx(solve("playtech").expected_return, abs=1e-12)
    assert data["seconds"] > 0 and "infinite_deck_return" in data
    assert data["strategy"]["hidden"]["play"]["stake 1"]["2 cards hard 16"] == "S"


def test_cli_text_with_shoot_analysis() -> None:
    out = subprocess.run([sys.executable, "-m", "shoot_pontoon_env.solver", "--rules", "shoot", "--shoot-ratio", "1"],
                         capture_output=True, text=True, check=True, timeout=HANG_GUARD_S)
    assert "Expected return per unit of initial stake" in out.stdout
    assert "before the fourth card" in out.stdout and "Time taken" in out.stdout


VARIANTS = [
    SHOOT.replace(name="shoot-double-nopeek", double_stakes=True, banker_peek=False, ties="push"),
    SHOOT.replace(name="shoot-2decks-literal", num_decks=2, split_bust_pays_double=True,
                  pontoon_after_split=False, punter_loses_at_or_below=None, draw_on_21="no"),
    PRESETS["casino"].replace(name="casino-push-s17", num_decks=2, ties="push", dealer_hits_soft_17=False,
                              banker_peek=True, banker_five_cards="total", draw_on_21="any"),
    PRESETS["playtech"].replace(name="playtech-rank", split_match="rank", max_split_hands=4, buy_max_multiple=2,
                                max_stake_multiple=3, max_buys=None, buy_after_twist=False),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_rule_variants_agree_with_the_engine(rules) -> None:
    """Other options than the presets' (and a banker standing on 16): the engine accepts every
    decision of the policy and the values agree."""
    banker = StandOnBanker(16) if rules.banker_play == "free" else None
    sol = solve(rules, banker=banker)
    est = estimate(rules, 6_000, seed=21, workers=2, banker=banker)
    assert abs(est.z(sol.expected_return)) < 4, (est, sol.expected_return)
