"""The observation: its index table, what it hides, and decode_view as an inverse that rule-based
strategies cannot tell from the real SeatView."""

import numpy as np
import pytest
from env_helpers import make

from shoot_pontoon_env.actions import Action, ActionKind, buy, shoot_bet, stake
from shoot_pontoon_env.cards import best_total, parse_card
from shoot_pontoon_env.seat import encoding as enc
from shoot_pontoon_env.seat.action_table import punter_action_table
from shoot_pontoon_env.seat.encoding import decode_banker_seat, decode_view
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.players.strategies import STRATEGIES

RICH_SHOOT = SHOOT.replace(
    shoot_bet_points=("before_deal", "before_second_card", "before_fourth_card"), double_stakes=True,
    shoe="persistent", num_decks=2, reserved_shoot_percent=20, bank_sale_price=4,
)
DECODE_CONFIGS = [
    ("ShootPontoon-v0", {}),
    ("ShootPontoon-v0", {"rules": "casino", "num_players": 3}),
    ("ShootPontoon-v0", {"rules": "playtech", "seat": 2}),
    ("ShootPontoon-v0", {"rules": RICH_SHOOT, "deals_per_episode": 4, "num_players": 5, "seat": 3,
                         "punters": ["random", "tips", "shoot_aware"]}),
    ("ShootPontoonBanker-v0", {}),
    ("ShootPontoonBanker-v0", {"rules": RICH_SHOOT.replace(bank_sale=False), "deals_per_episode": 3,
                               "punters": "random"}),
]


def test_index_table_blocks_are_contiguous_and_documented_sizes_hold():
    blocks = list(enc.BLOCKS.values())
    assert blocks[0].start == 0
    assert all(a.stop == b.start for a, b in zip(blocks, blocks[1:]))
    assert enc.HANDS_START == blocks[-1].stop == 134
    assert enc.observation_size(SHOOT, 4) == 134 + 35 * 12 == 554
    assert make().observation_space.shape == (554,)


@pytest.mark.parametrize("env_id, kwargs", DECODE_CONFIGS)
def test_strategies_choose_the_same_index_from_the_observation_as_from_the_view(env_id, kwargs):
    env = make(env_id, **kwargs)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=11)
    draws = 0
    for _ in range(400):
        view = env.view
        decoded = decode_view(obs, env.rules, starting_chips=env.starting_chips)
        assert decode_banker_seat(obs) == view.banker
        assert np.array_equal(env.action_table.mask(decoded), info["action_mask"])
        assert decoded.legal == view.legal and decoded.current == view.current
        assert decoded.shoot == view.shoot and decoded.balance == view.balance
        assert np.array_equal(decoded.seen_counts, view.seen_counts)
        assert [best_total(h.cards) for h in decoded.hands] == [best_total(h.cards) for h in view.hands]
        assert [h.seat for h in decoded.hands] == [h.seat for h in view.hands]
        assert sorted(c // 4 for c in decoded.banker_cards) == sorted(c // 4 for c in view.banker_cards)
        for name, make_strategy in STRATEGIES.items():
            strategy = make_strategy()
            real = strategy.act(view, np.random.default_rng(draws))
            again = strategy.act(decoded, np.random.default_rng(draws))
            draws += 1
            assert env.action_table.to_index(real, view) == env.action_table.to_index(again, decoded), name
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            obs, info = env.reset()


def test_another_seats_face_down_cards_do_not_reach_the_observation():
    """Two deals that differ only in the other punter's face-down cards look the same to seat 1."""
    observations = []
    for other in ("9C 8D", "KC 2D"):
        a, b = other.split()
        env = make(num_players=3)
        obs, _ = env.reset(seed=0, options={"stacked": f"TS {a} TD 8H {b} 7C"})
        observations.append([obs])
        for action in (1, 4):  # stake 2, no Shoot bet: now seat 1 plays its 18
            obs, *_ = env.step(action)
            observations[-1].append(obs)
        assert env.view.current_hand.cards == (parse_card("TS"), parse_card("8H"))
    for first, second in zip(*observations):
        assert np.array_equal(first, second)


def test_the_banker_sees_its_own_cards_and_the_punters_face_up_ones_only():
    env = make("ShootPontoonBanker-v0", num_players=2, punters="threshold")
    obs, _ = env.reset(seed=0, options={"stacked": "2S 9C 3H 7D TC 4S"})  # punter 5 twists TC, 4S: 19
    view = env.view
    assert view.banker_hidden == 0 and len(view.banker_cards) == 2
    hand = view.hands[0]
    assert hand.hidden_cards == 2 and parse_card("TC") in hand.cards
    assert obs[enc.BANKER_TOTAL] == pytest.approx(16 / 21)
    assert obs[enc.hand_slot(0).start + enc.H_HIDDEN] == pytest.approx(2 / 5)


def test_card_counts_carry_over_with_a_persistent_shoe_and_a_seed_starts_afresh():
    env = make(rules=SHOOT.replace(shoe="persistent", num_decks=2))
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=5)
    assert obs[enc.COUNT_SHOE] == 0
    terminated = False
    while not terminated:
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    seen = int(env.view.seen_counts.sum())
    obs, _ = env.reset()  # the shoe and its count carry over
    assert obs[enc.COUNT_SHOE] == pytest.approx(seen / 104)
    assert int(env.view.seen_counts.sum()) == seen
    obs, _ = env.reset(seed=5)  # a seed: a fresh shoe
    assert obs[enc.COUNT_SHOE] == 0


def test_action_table_translates_both_ways():
    env = make()
    env.reset(seed=0, options={"stacked": "9S TD 5H 7C"})
    table, view = env.action_table, env.view
    assert table.to_index(stake(3), view) == 1  # nearest level, ties to the lower
    assert table.to_index(stake(9), view) == 3
    assert table.to_action(2, view) == Action(ActionKind.STAKE, 4)
    env.step(2)
    assert env.action_table.to_index(shoot_bet(7), env.view) == 6  # 7 -> 4 (|3|) over 10 (|3|)
    env.step(4)
    view = env.view  # 14 on a stake of 4: buy 4..8
    assert [table.to_action(i, view) for i in (10, 11, 12)] == [buy(4), buy(6), buy(8)]
    assert table.to_index(buy(5), view) == 10 and table.to_index(buy(8), view) == 12
    assert table.to_index(buy(7), view) == 11  # 7 lies 1 from 6 (1.5x) and 1 from 8: the lower


def test_a_buy_without_a_legal_level_becomes_a_twist():
    # stakes capped at twice the original: only a 1x buy is legal, and the only level is 2x
    env = make(rules=SHOOT.replace(max_stake_multiple=2), buy_levels=(2.0,))
    env.reset(seed=0, options={"stacked": "9S TD 5H 7C"})
    env.step(1)
    env.step(4)
    view = env.view
    assert any(m.kind == ActionKind.BUY and m.high == 2 for m in view.legal)
    assert not env.action_masks()[env.action_table.index_of(ActionKind.TWIST) + 1]
    assert env.action_table.labels[env.action_table.to_index(buy(2), view)] == "twist"
    assert punter_action_table(SHOOT).to_index(buy(2), view) == 10
