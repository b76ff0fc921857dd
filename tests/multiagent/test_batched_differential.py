"""The batched whole table equals the Table-based AEC env: the same cards and actions give every seat
the same observation, mask and reward, the same seat to act, the same chips and hands at every step,
on every preset and with table players in some seats, trained networks played in the kernel among them
(``pytest -m slow`` plays many more)."""

from __future__ import annotations

import pytest
from whole_table_differential import random_network_player, run_whole_table_differential

from shoot_pontoon_env.multiagent.config import seat_action_table
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.seat.action_table import banker_action_table, punter_action_table

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


EVERY_BET_POINT = SHOOT.replace(shoe="persistent", double_stakes=True,
                                shoot_bet_points=("before_deal", "before_second_card", "before_fourth_card"))


def _shared_network() -> dict:
    network = random_network_player(EVERY_BET_POINT, 4, seat_action_table(EVERY_BET_POINT), 7, observation="compact",
                                    hidden=(24,))
    return {"rules": EVERY_BET_POINT, "deals_per_episode": 2, "first_banker": 1,
            "players": {1: network, 2: "tips", 3: network}}


NETWORK_VARIANTS = {
    # the kernel plays small random networks (models.player.ActorPlayer), as the Table plays them
    "shoot-network-banker-and-compact-punter": lambda: {
        "deals_per_episode": 1, "players": {
            0: random_network_player(SHOOT, 4, banker_action_table(), 1, name="flat banker"),
            2: random_network_player(SHOOT, 4, punter_action_table(SHOOT), 2, observation="compact", hidden=(32,),
                                     name="compact punter")}},
    "shoot-networks-banking-in-turn": lambda: {
        "deals_per_episode": 3, "first_banker": "random", "players": {
            1: random_network_player(SHOOT, 4, seat_action_table(SHOOT), 3, starting_chips=500),
            3: random_network_player(SHOOT, 4, seat_action_table(SHOOT), 4, observation="compact", hidden=(32,))}},
    "every-bet-point-one-network-two-seats": _shared_network,
}


@pytest.mark.parametrize("variant", NETWORK_VARIANTS)
def test_kernel_played_networks_match_the_table_step_by_step(variant):
    diff = run_whole_table_differential(NETWORK_VARIANTS[variant](), tables=16, episodes=200, seed=5)
    assert diff.episodes >= 200
    assert all(diff.decisions[s] > 0 for s, learns in enumerate(diff.settings.learners) if learns), diff.decisions


@pytest.mark.slow
@pytest.mark.parametrize("variant", NETWORK_VARIANTS)
def test_kernel_played_networks_match_the_table_over_many_episodes(variant):
    run_whole_table_differential(NETWORK_VARIANTS[variant](), tables=64, episodes=20_000, seed=6)


def _zoo_punter_variant() -> dict:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from shoot_pontoon_env.models.resolve import make_policy

    player = make_policy("zoo:shoot_punter", rules=SHOOT, num_players=4, starting_chips=1000, role="punter")
    return {"deals_per_episode": 1, "players": {2: player, 3: "tips"}}


def test_a_zoo_model_played_in_the_kernel_matches_the_table():
    diff = run_whole_table_differential(_zoo_punter_variant(), tables=16, episodes=200, seed=5)
    assert diff.episodes >= 200


@pytest.mark.slow
def test_a_zoo_model_played_in_the_kernel_matches_the_table_over_many_episodes():
    run_whole_table_differential(_zoo_punter_variant(), tables=64, episodes=20_000, seed=6)
