"""The batched whole table equals the Table-based AEC env: the same cards and actions give every seat
the same observation, mask and reward, the same seat to act, the same chips and hands at every step,
on every preset and with table players in some seats (``pytest -m slow`` plays many more)."""

from __future__ import annotations

import pytest
from whole_table_differential import run_whole_table_differential

from shoot_pontoon_env.rules import SHOOT

VARIANTS = {
    "shoot": {},
    "casino": {"rules": "casino"},
    "playtech": {"rules": "playtech", "num_players": 2},
    "shoot-6-seats-3-deals-random-banker": {"num_players": 6, "deals_per_episode": 3, "first_banker": "random"},
    "shoot-persistent-sales-every-bet-point": {
        "rules": SHOOT.replace(shoe="persistent", shoot_bet_points=("before_deal", "before_second_card",
                                                                  "before_fourth_card"),
                               double_stakes=True, bank_sale_price=4),
        "deals_per_episode": 4, "first_banker": "random"},
    "shoot-table-players": {"deals_per_episode": 3, "players": {1: "tips", 3: "shoot_aware"}},
    "casino-dealer-fixed": {"rules": "casino", "num_players": 3, "deals_per_episode": 2, "players": {0: "dealer"}},
    "shoot-banker-and-one-punter-learning": {"deals_per_episode": 2, "players": {1: "tips", 3: "threshold"}},
    "shoot-solver-players-banking-in-turn": {"deals_per_episode": 3, "first_banker": "random",
                                             "players": {1: "optimal", 2: "optimal"}},
    "shoot-solver-player-betting-the-shoot": {
        "rules": SHOOT.replace(shoot_bet_points=("before_deal", "before_second_card", "before_fourth_card")),
        "deals_per_episode": 2, "players": {2: "optimal", 3: "tips"}},
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_episodes_match_the_table_step_by_step(variant):
    diff = run_whole_table_differential(VARIANTS[variant], tables=16, episodes=200, seed=5)
    assert diff.episodes >= 200
    config = diff.settings.config
    fixed_dealer = config.rules.banker_play == "dealer"  # draws by rule, and the bank never passes
    askable = [s for s, learns in enumerate(diff.settings.learners) if learns and not (fixed_dealer and s == 0)]
    assert all(diff.decisions[s] > 0 for s in askable), diff.decisions  # every learner's seat was asked


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_many_more_episodes_match_the_table(variant):
    run_whole_table_differential(VARIANTS[variant], tables=64, episodes=20_000, seed=6)
