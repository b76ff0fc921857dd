"""Scripted deals through the envs on a stacked shoe, with rewards computed by hand.

Two seats unless said otherwise: seat 0 banks (posts a Shoot of 50), seat 1 punts. Dealing order:
punter, banker, punter, banker; then draws in playing order. Rewards are chips / base stake (2).
The shoot preset's punter actions: 0 no further box, 1-3 stake 2/4/10, 4 no Shoot bet,
5-7 Shoot bet 2/4/10, 8 stick, 9 twist, 10-12 buy 1x/1.5x/2x, 13 split, 14 double stakes.
"""

import copy
import pickle

import numpy as np
import pytest
from env_helpers import make

from shoot_pontoon_env.actions import TWIST as TWIST_ACTION
from shoot_pontoon_env.actions import IllegalActionError
from shoot_pontoon_env.cards import parse_card
from shoot_pontoon_env.engine import Phase
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.players.policy import Policy
from shoot_pontoon_env.players.strategies import ThresholdPunter

NO_BOX, STAKE2, STAKE4, STAKE10, NO_BET, BET2, BET4, BET10 = range(8)
STICK, TWIST, BUY1, BUY15, BUY2, SPLIT, DOUBLE = range(8, 15)
B_STICK, B_TWIST, B_KEEP, B_SELL = range(4)


def punter_env(**kwargs):
    return make("ShootPontoon-v0", num_players=2, **kwargs)


def banker_env(**kwargs):
    kwargs.setdefault("punters", ThresholdPunter())  # minimum stake, no Shoot bets, sticks on 17
    return make("ShootPontoonBanker-v0", num_players=2, **kwargs)


def play(env, cards, actions):
    """Reset on a stacked shoe, apply the actions; return the rewards and the last step's flags."""
    obs, info = env.reset(seed=0, options={"stacked": cards})
    total = env.table.total_chips
    rewards, terminated, info = [], False, info
    for action in actions:
        assert not terminated, "episode ended before the script did"
        assert info["action_mask"][action], f"{action} not legal: {np.flatnonzero(info['action_mask'])}"
        _, reward, terminated, _, info = env.step(action)
        rewards.append(reward)
        assert env.table.total_chips == total
    return rewards, terminated, info


def test_table_of_the_shoot_actions_is_as_documented():
    env = punter_env()
    assert env.action_table.labels == [
        "no further box", "stake 2", "stake 4", "stake 10", "no Shoot bet", "Shoot bet 2", "Shoot bet 4",
        "Shoot bet 10", "stick", "twist", "buy 1x", "buy 1.5x", "buy 2x", "split", "double stakes",
    ]


def test_punter_wins_stake_and_shoot_bet():
    # P TS 8H = 18 sticks; banker TD 7C = 17 stands: +4 stake, +2 from the Shoot
    env = punter_env()
    rewards, terminated, _ = play(env, "TS TD 8H 7C", [STAKE4, BET2, STICK])
    assert rewards == [0.0, 0.0, 3.0] and terminated
    assert env.table.shoot == 48


def test_buy_then_bust_loses_the_whole_stake_at_once():
    # P 9S 5H = 14, buys 1.5 x 2 = 3 chips, gets KD face down: 24, bust: -5 chips
    env = punter_env()
    rewards, terminated, _ = play(env, "9S TD 5H 7C KD", [STAKE2, NO_BET, BUY15])
    assert rewards == [0.0, 0.0, -2.5] and terminated
    assert env.table.balances == [950 + 5, 995]


def test_split_hands_are_played_one_after_the_other():
    # P 8S 8H splits (2 more chips); hand 0: 8S TS = 18 sticks; hand 1: 8H 3C = 11, twists KC = 21,
    # sticks. Banker TD 7C = 17: hand 0 wins +2, hand 1 (21 in three cards) wins +2.
    env = punter_env()
    rewards, terminated, _ = play(env, "8S TD 8H 7C TS 3C KC", [STAKE2, NO_BET, SPLIT, STICK, TWIST, STICK])
    assert rewards == [0.0, 0.0, 0.0, 0.0, 0.0, 2.0] and terminated
    assert [h.result for h in env.table.hands] == [2, 2]


def test_pontoon_stands_at_once_and_pays_double():
    # P AS KH: Pontoon, no play decision; banker 9C 8D = 17. Stake 2 pays 4, Shoot bet 2 pays 2.
    env = punter_env()
    rewards, terminated, _ = play(env, "AS 9C KH 8D", [STAKE2, BET2])
    assert rewards == [0.0, 3.0] and terminated


def test_banker_pontoon_on_the_peek_collects_double_and_the_shoot_bet():
    env = punter_env()
    rewards, terminated, _ = play(env, "9S AS 7H KD", [STAKE2, BET4])
    assert rewards == [0.0, -4.0] and terminated  # 2 x 2 stake + 4 Shoot bet
    assert env.table.shoot == 54


def test_five_card_trick_pays_double():
    # P 2S 3H, twists 4C 5D 6S: five cards, 20: a trick; banker TD 7C stands; +2 x 2 chips
    env = punter_env()
    rewards, terminated, _ = play(env, "2S TD 3H 7C 4C 5D 6S", [STAKE2, NO_BET, TWIST, TWIST, TWIST])
    assert rewards == [0.0, 0.0, 0.0, 0.0, 2.0] and terminated


def test_double_stakes_then_one_twist():
    rules = SHOOT.replace(double_stakes=True)
    env = punter_env(rules=rules)
    # P 6S 5H = 11 doubles (stake 4), twists 9C = 20 and stands; banker TD 7C: +4 chips
    rewards, terminated, _ = play(env, "6S TD 5H 7C 9C", [STAKE2, NO_BET, DOUBLE, TWIST])
    assert rewards == [0.0, 0.0, 0.0, 2.0] and terminated


def test_shoot_bets_before_the_second_and_fourth_card():
    rules = SHOOT.replace(shoot_bet_points=("before_deal", "before_second_card", "before_fourth_card"))
    env = punter_env(rules=rules)
    obs, info = env.reset(seed=0, options={"stacked": "4S TD 3H 7C 2C 9D"})
    assert env.view.shoot_bet_point is None  # staking first
    steps = [STAKE2, NO_BET, BET2, TWIST, BET4, TWIST, STICK]
    points = []
    rewards = []
    for action in steps:
        points.append(env.view.shoot_bet_point)
        _, reward, terminated, _, info = env.step(action)
        rewards.append(reward)
    assert points == [None, "before_deal", "before_second_card", None, "before_fourth_card", None, None]
    # 4S 3H 2C 9D = 18 beats the banker's 17: +2 stake, +6 from the Shoot
    assert rewards[-1] == 4.0 and terminated and sum(rewards) == 4.0


def test_an_illegal_action_forfeits_the_hand_and_ends_with_a_penalty():
    env = punter_env(illegal_action_penalty=1.5)
    obs, info = env.reset(seed=0, options={"stacked": "TS TD 4H 7C"})
    total = env.table.total_chips
    env.step(STAKE2)
    env.step(BET2)
    assert not env.action_masks()[STICK]  # 14: too few to stick
    _, reward, terminated, truncated, info = env.step(STICK)
    assert terminated and not truncated
    assert reward == -2.0 - 1.5  # stake and Shoot bet lost as a bust, and the penalty
    assert info["illegal_action"].dtype == np.bool_ and info["illegal_action"]
    assert "8 (stick)" in env.last_message and "message" not in info
    assert env.table.total_chips == total and env.table.phase in (Phase.BANK_DECISION, Phase.DEAL_OVER)
    assert info["action_mask"].all() and not env.view.legal  # over: no decision; any index, ignored by a reset
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(TWIST)


def test_strict_mode_raises_naming_the_action_and_leaves_the_game_unchanged():
    env = punter_env(strict=True)
    env.reset(seed=0, options={"stacked": "TS TD 4H 7C"})
    env.step(STAKE2)
    env.step(NO_BET)
    before = pickle.dumps(env.table)
    mask = env.action_masks()
    with pytest.raises(IllegalActionError, match=r"index 8 \(stick\).*9 \(twist\), 10 \(buy 1x\)"):
        env.step(STICK)
    assert pickle.dumps(env.table) == before and np.array_equal(env.action_masks(), mask)
    env.step(TWIST)  # the game goes on
    assert len(env.table.hands[0].cards) == 3


def test_actions_outside_the_space_are_errors_not_forfeits():
    env = punter_env()
    env.reset(seed=0)
    for bad in (-1, 15, 2.5, "stick", None, True):
        with pytest.raises(ValueError, match="not in the action space"):
            env.step(bad)
    env.step(np.int64(STAKE2))  # numpy ints are fine


def test_stake_levels_and_boxes_of_the_casino_table():
    env = make("ShootPontoon-v0", rules="casino", num_players=2)
    assert env.action_table.labels == [
        "no further box", "stake 4", "stake 8", "stake 20", "no Shoot bet", "stick", "twist", "buy 1x",
        "split", "double stakes",
    ]
    # two boxes (stake 4, stake 8, no further box): box 0 TS 8H = 18, box 1 9C 8D = 17; the dealer
    # shows 7C, holds TD: a hard 17 stands. Box 0 wins 4, box 1 ties and loses 8: -4 chips / 4.
    obs, info = env.reset(seed=0, options={"stacked": "TS 9C 7C 8H 8D TD"})
    assert not info["action_mask"][0]  # a first box is not optional
    assert env.view.banker_cards == ()
    rewards = []
    for action in (1, 2, 0, 5, 5):
        _, reward, terminated, _, info = env.step(action)
        rewards.append(reward)
        if action == 1:
            assert info["action_mask"][0]
        if action == 0:
            assert env.view.banker_cards == (parse_card("7C"),)  # the dealer shows its first card
    assert rewards == [0.0, 0.0, 0.0, 0.0, -1.0] and terminated


def test_banker_draws_and_keeps_the_bank():
    # punter TS 7H = 17 sticks; banker 9C 7D = 16 twists 3S = 19 and sticks: +2 chips
    env = banker_env()
    obs, info = env.reset(seed=0, options={"stacked": "TS 9C 7H 7D 3S"})
    assert env.view.is_banker and env.view.banker_cards == tuple(env.table.banker_cards)
    assert list(np.flatnonzero(info["action_mask"])) == [B_STICK, B_TWIST]
    rewards = []
    for action in (B_TWIST, B_STICK, B_KEEP):
        _, reward, terminated, _, info = env.step(action)
        rewards.append(reward)
    assert rewards == [0.0, 1.0, 0.0] and terminated


def test_banker_bust_pays_and_a_sale_earns_the_price():
    env = banker_env(rules=SHOOT.replace(bank_sale_price=10))
    obs, info = env.reset(seed=0, options={"stacked": "TS 9C 7H 7D KS"})
    _, reward, terminated, _, info = env.step(B_TWIST)  # 26: bust, pays the punter's 2
    assert reward == -1.0 and not terminated
    assert list(np.flatnonzero(info["action_mask"])) == [B_KEEP, B_SELL]
    _, reward, terminated, _, _ = env.step(B_SELL)
    assert reward == 5.0 and terminated and env.table.banker == 1


class BetsTheShoot(Policy):
    """Minimum stake and a Shoot bet of everything the Shoot holds."""

    def shoot_bet(self, view, rng):
        from shoot_pontoon_env.actions import shoot_bet
        return shoot_bet(view.shoot_capacity)


def test_an_emptied_shoot_takes_the_bank_away_and_ends_the_banker_episode():
    env = banker_env(punters=BetsTheShoot(), deals_per_episode=5)
    obs, info = env.reset(seed=0, options={"stacked": "TS 9C 8H 8D"})  # punter 18 sticks
    _, reward, terminated, _, _ = env.step(B_STICK)  # banker 17 loses: 2 chips and the whole Shoot of 50
    assert reward == -26.0 and terminated and env.table.banker == 1 and env.table.turnovers == 1


class Buster(Policy):
    """Minimum stake, no Shoot bet, always twists."""

    def punter_play(self, view, rng):
        return TWIST_ACTION


def test_rewards_of_chips_moved_during_reset_reach_the_first_step():
    env = banker_env(punters=Buster())
    obs, info = env.reset(seed=0, options={"stacked": "TS 9C 5H 7D KS"})  # punter twists KS: 25
    assert env.table.hands[0].settled and env.table.phase == Phase.BANK_DECISION
    assert list(np.flatnonzero(info["action_mask"])) == [B_KEEP, B_SELL]
    _, reward, terminated, _, _ = env.step(B_KEEP)
    assert reward == 1.0 and terminated


def test_a_deal_without_a_banker_decision_is_acknowledged():
    # no bank sales and the punter busts before the banker's turn: the banker has no decision, so
    # the env asks for an acknowledgement (stick, the only legal action) that carries the reward
    env = banker_env(rules=SHOOT.replace(bank_sale=False), punters=Buster())
    obs, info = env.reset(seed=0, options={"stacked": "TS 9C 5H 7D KS"})
    assert env.table.phase == Phase.DEAL_OVER
    assert list(np.flatnonzero(info["action_mask"])) == [B_STICK]
    _, reward, terminated, _, info = env.step(B_STICK)
    assert reward == 1.0 and terminated


def test_live_env_survives_deepcopy_and_pickle_mid_deal():
    env = punter_env()
    env.reset(seed=0, options={"stacked": "8S TD 8H 7C TS 3C KC"})
    env.step(STAKE2)
    env.step(NO_BET)
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    script = [SPLIT, STICK, TWIST, STICK]
    expected = [env.step(a)[1] for a in script]
    for clone in clones:
        assert [clone.step(a)[1] for a in script] == expected
