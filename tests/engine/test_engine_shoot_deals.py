"""Scripted deals of the Shoot Pontoon home game (seed 000): one per rule, exact chips afterwards.

Three seats unless said otherwise: seat 0 banks (posts a Shoot of 50 from 100 chips), seats 1 and
2 punt with 100 chips each. Dealing order: seat 1, seat 2, banker; twice.
"""

import copy
import pickle

import pytest
from scripted import new_table, play

from shoot_pontoon_env.actions import (
    KEEP_BANK, SELL_BANK, SPLIT, STICK, TWIST, ActionKind, IllegalActionError, LegalMove, buy,
    shoot_bet, stake,
)
from shoot_pontoon_env.engine import EventKind, Phase
from shoot_pontoon_env.rules import SHOOT

NO_BETS = [(1, shoot_bet(0)), (2, shoot_bet(0))]


def opening(s1=2, s2=2, b1=0, b2=0):
    return [(1, stake(s1)), (2, stake(s2)), (1, shoot_bet(b1)), (2, shoot_bet(b2))]


def test_banker_posts_the_shoot():
    table = new_table()
    assert table.shoot == 50 and table.balances == [50, 100, 100]
    assert table.net_position(0) == 0


def test_ordinary_win_and_loss_pay_one_stake():
    # P1 TS 8H = 18, P2 9C 7D = 16, banker TD 7C = 17
    table = play(new_table(), "TS 9C TD 8H 7D 7C",
                 opening(4, 2) + [(1, STICK), (2, STICK), (0, STICK), (0, KEEP_BANK)])
    assert table.balances == [48, 104, 98] and table.shoot == 50
    assert table.phase == Phase.DEAL_OVER


def test_banker_wins_ties():
    # P1 TS 7H = 17, P2 9C 8D = 17... banker TD 7C = 17: both tie and lose
    table = play(new_table(), "TS 9C TD 7H 8D 7C", opening() + [(1, STICK), (2, STICK), (0, STICK)])
    assert table.balances == [54, 98, 98]


def test_ties_push_option_returns_the_stake():
    table = play(new_table(SHOOT.replace(ties="push")), "TS 9C TD 7H 8D 7C",
                 opening() + [(1, STICK), (2, STICK), (0, STICK)])
    assert table.balances == [50, 100, 100]


def test_stick_needs_fifteen_and_a_rejected_action_changes_nothing():
    table = play(new_table(), "TS 9C TD 4H 8D 7C", opening())
    assert table.to_act == 1  # P1 holds 14
    before = pickle.dumps(table)
    with pytest.raises(IllegalActionError, match=r"illegal action stick.*legal now: twist, buy 2\.\.4"):
        table.apply(STICK)
    assert pickle.dumps(table) == before
    assert ActionKind.STICK not in {m.kind for m in table.legal_moves()}


def test_a_stuck_fifteen_loses_to_any_banker_hand_that_stands():
    # P1 TS 5H = 15 sticks; banker TD 4C = 14 sticks (free banker): P1 still loses
    table = play(new_table(), "TS 9C TD 5H 8D 4C", opening() + [(1, STICK), (2, STICK), (0, STICK)])
    assert table.balances == [50, 98, 102]  # P1 pays 2, P2 (17) beats the banker's 14
    # ...but a fifteen wins when the banker busts
    table = play(new_table(), "TS 9C TD 5H 8D 4C 9S", opening() + [(1, STICK), (2, STICK), (0, TWIST)])
    assert table.balances == [46, 102, 102]


def test_punter_pontoon_pays_double_and_is_not_asked_to_play():
    # P1 AS KH = Pontoon (stands at once, the ten turned up); P2 9C 8D; banker TD 9C... 19
    table = play(new_table(), "AS 9C TD KH 8D 9H", opening(3, 2) + [(2, STICK), (0, STICK)])
    assert table.balances == [50 - 6 + 2, 106, 98]
    pontoon = [e for e in table.events if e.kind == EventKind.PONTOON]
    assert pontoon[0].seat == 1


def test_banker_peeks_a_pontoon_punters_pay_double_and_shoot_bets_go_to_the_kitty():
    table = play(new_table(), "TS 9C AD 8H 8D KC", opening(3, 2, 5, 1))
    assert table.phase == Phase.BANK_DECISION  # no play at all
    assert table.balances == [50 + 6 + 4, 100 - 6 - 5, 100 - 4 - 1]
    assert table.shoot == 56


def test_no_peek_banker_pontoon_at_showdown_collects_double_of_the_whole_stake():
    rules = SHOOT.replace(banker_peek=False)
    # P1 TS 4H = 14 buys 3 (5H: 19) then sticks: stake 5; P2 9C 8D = 17; banker AD KC
    table = play(new_table(rules), "TS 9C AD 4H 8D KC 5H",
                 opening(2, 2) + [(1, buy(3)), (1, STICK), (2, STICK), (0, STICK)])
    assert table.balances == [50 + 10 + 4, 90, 96]


def test_five_card_trick_pays_double_on_the_whole_stake_and_shows_the_hand():
    # P1 2S 3H = 5, buys 2 (4C: 9), buys 4 (2D: 11), twists 5S = 16 -> five cards
    table = play(new_table(), "2S 9C TD 3H 8D 8C 4C 2D 5S",
                 opening(2, 2) + [(1, buy(2)), (1, buy(4)), (1, TWIST), (2, STICK), (0, STICK)])
    hand = table.hands[0]
    assert len(hand.cards) == 5 and all(hand.face_up) and hand.stake == 8
    assert table.balances == [50 - 16 + 2, 116, 98]


def test_banker_five_card_trick_beats_a_punter_21_unless_the_option_is_off():
    # P1 7S 7H twists 7C = 21 (three cards); P2 sticks 17; banker 2D 3C draws 2H 4S 5H = 16 in five
    table = play(new_table(), "7S 9C 2D 7H 8D 3C 7C 2H 4S 5H",
                 opening() + [(1, TWIST), (1, STICK), (2, STICK), (0, TWIST), (0, TWIST), (0, TWIST)])
    assert table.balances == [54, 98, 98]
    without = SHOOT.replace(banker_five_cards="total")
    table = play(new_table(without), "7S 9C 2D 7H 8D 3C 7C 2H 4S 5H",
                 opening() + [(1, TWIST), (1, STICK), (2, STICK), (0, TWIST), (0, TWIST), (0, TWIST)])
    assert table.balances == [46, 102, 102]  # 21 and 17 both beat a plain 16 on five cards


def test_banker_wins_a_five_card_trick_against_a_five_card_trick_whatever_the_totals():
    cards = "2S 9C 2D 3H 8D 3C 2C 3D 4S 2H 4C 5H"  # P1 14 in five, banker 16 in five
    script = opening() + [(1, TWIST), (1, TWIST), (1, TWIST), (2, STICK), (0, TWIST), (0, TWIST), (0, TWIST)]
    assert play(new_table(), cards, script).balances == [54, 98, 98]
    assert play(new_table(SHOOT.replace(ties="push")), cards, script).balances == [52, 100, 98]


def test_twenty_one_in_three_cards_beats_twenty():
    table = play(new_table(), "7S 9C TD 7H TH TC 7C",
                 opening() + [(1, TWIST), (1, STICK), (2, STICK), (0, STICK)])
    assert table.balances == [50 - 2 + 2, 102, 98]


def test_a_bust_loses_at_once_before_the_banker_plays():
    table = play(new_table(), "TS 9C TD 6H 8D 7C 9S", opening(3, 2, 4, 0) + [(1, TWIST)])
    assert table.to_act == 2
    assert table.balances == [53, 93, 98] and table.shoot == 54
    assert table.hands[0].settled and all(table.hands[0].face_up)


def test_buy_range_cap_and_no_buy_after_twist():
    table = play(new_table(), "2S 9C TD 3H 8D 7C 2C 2D", opening(2, 2))
    assert LegalMove(ActionKind.BUY, 2, 4) in table.legal_moves()
    table.apply(buy(4))  # stake 6
    table.apply(buy(4))  # stake 10 = 5x: no more buys
    assert ActionKind.BUY not in {m.kind for m in table.legal_moves()}
    assert table.hands[0].face_up == [False, False, False, False]  # bought cards face down
    table = play(new_table(), "2S 9C TD 3H 8D 7C 2C 2D", opening(2, 2) + [(1, TWIST)])
    assert ActionKind.BUY not in {m.kind for m in table.legal_moves()}
    assert table.hands[0].face_up[-1] is True  # twisted card face up


def test_buy_limit_shrinks_to_the_five_times_cap():
    table = play(new_table(), "2S 9C TD 2H 8D 7C 2C 2D", opening(2, 2) + [(1, buy(4)), (1, buy(3))])
    assert LegalMove(ActionKind.BUY, 2, 1) not in table.legal_moves()
    assert ActionKind.BUY not in {m.kind for m in table.legal_moves()}  # 9 staked: 1 left < 2
    table = play(new_table(), "2S 9C TD 2H 8D 7C 2C 2D", opening(2, 2) + [(1, buy(2)), (1, buy(2))])
    assert LegalMove(ActionKind.BUY, 2, 4) in table.legal_moves()  # 6 staked: 4 more allowed


def test_split_equal_ranks_into_hands_with_their_own_stakes():
    # P1 8S 8H splits: hand A 8S + 9D(=17), hand B 8H + TD (=18); banker TC 9H = 19... P2 sticks 17
    table = play(new_table(), "8S 9C TC 8H 8D 9H 9D TD",
                 opening(3, 2) + [(1, SPLIT), (1, STICK), (1, STICK), (2, STICK), (0, STICK)])
    assert [h.cards for h in table.hands[:2]] == [[31, 33], [30, 37]]
    assert table.balances == [50 + 3 + 3 + 2, 94, 98]


def test_split_needs_equal_rank_in_the_home_game_and_equal_value_in_the_casino_presets():
    table = play(new_table(), "KS 9C TC QH 8D 9H", opening())
    assert ActionKind.SPLIT not in {m.kind for m in table.legal_moves()}
    table = play(new_table(SHOOT.replace(split_match="value")), "KS 9C TC QH 8D 9H", opening())
    assert ActionKind.SPLIT in {m.kind for m in table.legal_moves()}


def test_resplit_up_to_the_limit():
    table = play(new_table(SHOOT.replace(max_split_hands=3)), "8S 9C TC 8H 7D 9H 8C 8D", opening())
    table.apply(SPLIT)  # A: 8S 8C; B: 8H
    table.apply(SPLIT)  # A: 8S 8D; C: 8C; third hand: limit reached
    assert len([h for h in table.hands if h.seat == 1]) == 3
    assert ActionKind.SPLIT not in {m.kind for m in table.legal_moves()}


def test_a_split_makes_two_hands_and_resplits_follow_max_split_hands():
    # the seed's "two independent hands" per split; a third 8 may split again up to the limit
    script = opening() + [(1, SPLIT)]
    table = play(new_table(SHOOT.replace(max_split_hands=2)), "8S 9C TC 8H 7D 9H 8C 8D", script)
    assert len([h for h in table.hands if h.seat == 1]) == 2
    assert ActionKind.SPLIT not in {m.kind for m in table.legal_moves()}  # 8S 8C: no resplit
    table = play(new_table(), "8S 9C TC 8H 7D 9H 8C 8D", script)
    assert SHOOT.max_split_hands == 4 and ActionKind.SPLIT in {m.kind for m in table.legal_moves()}


def test_punter_pontoon_against_the_bankers_pontoon_at_the_peek():
    # P1 AS KH Pontoon, P2 9C 9H; banker AD KC Pontoon at the peek
    cards = "AS 9C AD KH 9H KC"
    table = play(new_table(), cards, opening(2, 2, 1, 1))
    assert table.balances == [50 + 4 + 4, 100 - 4 - 1, 100 - 4 - 1] and table.shoot == 52
    table = play(new_table(SHOOT.replace(ties="push")), cards, opening(2, 2, 1, 1))
    assert table.balances == [50 + 4, 100, 100 - 4 - 1] and table.shoot == 51  # the Pontoon pushes


def test_split_hand_pontoon_counts_unless_the_option_says_no():
    # P1 AS AH splits: A gets KD (Pontoon), B gets 9D then sticks on 20; banker 9C... 19
    cards = "AS 9C TC AH 8D 9H KD 9D"
    table = play(new_table(), cards, opening() + [(1, SPLIT), (1, STICK), (2, STICK), (0, STICK)])
    assert table.balances == [50 - 4 - 2 + 2, 106, 98]
    table = play(new_table(SHOOT.replace(pontoon_after_split=False)), cards,
                 opening() + [(1, SPLIT), (1, STICK), (1, STICK), (2, STICK), (0, STICK)])
    assert table.balances == [50 - 2 - 2 + 2, 104, 98]


def test_split_hands_pay_double_when_the_banker_busts_only_under_the_literal_option():
    cards = "8S 9C TC 8H 8D 6H 9D TD 8C"  # banker TC 6H twists 8C: bust
    script = opening() + [(1, SPLIT), (1, STICK), (1, STICK), (2, STICK), (0, TWIST)]
    assert play(new_table(), cards, script).balances == [50 - 2 - 2 - 2, 104, 102]
    literal = new_table(SHOOT.replace(split_bust_pays_double=True))
    assert play(literal, cards, script).balances == [50 - 4 - 4 - 2, 108, 102]


def test_shoot_bets_win_from_the_kitty_and_losing_bets_swell_it():
    table = play(new_table(), "TS 9C TD 9H 7D 8C", opening(2, 2, 10, 6) + [(1, STICK), (2, STICK), (0, STICK)])
    # P1 19 beats 18 (wins 2 + Shoot 10); P2 16 loses 2 and the Shoot bet 6
    assert table.balances == [50 - 2 + 2, 112, 92] and table.shoot == 50 - 10 + 6


def test_combined_shoot_bets_never_exceed_the_remaining_shoot():
    table = new_table()
    table.start_deal(stacked="TS 9C TD 9H 7D 8C")
    table.apply(stake(2))
    table.apply(stake(2))
    assert table.legal_moves() == (LegalMove(ActionKind.SHOOT_BET, 0, 50),)
    table.apply(shoot_bet(45))
    assert table.legal_moves() == (LegalMove(ActionKind.SHOOT_BET, 0, 5),)
    with pytest.raises(IllegalActionError, match="shoot_bet 6"):
        table.apply(shoot_bet(6))


def test_shoot_bets_before_the_second_and_the_fourth_card():
    rules = SHOOT.replace(shoot_bet_points=("before_deal", "before_second_card", "before_fourth_card"))
    table = new_table(rules)
    table.start_deal(stacked="2S 9C TC 3H 8D 9H 4C 5D")
    for action in (stake(2), stake(2), shoot_bet(1), shoot_bet(0)):
        table.apply(action)
    assert [len(h.cards) for h in table.hands] == [1, 1] and table.shoot_bet_point == "before_second_card"
    table.apply(shoot_bet(3))
    table.apply(shoot_bet(0))
    assert table.shoot_bet_point is None and table.to_act == 1
    table.apply(TWIST)  # P1 2S 3H 4C = 9 on three cards: the fourth-card bet comes first
    assert table.shoot_bet_point == "before_fourth_card"
    assert table.legal_moves() == (LegalMove(ActionKind.SHOOT_BET, 0, 46),)
    table.apply(shoot_bet(6))
    assert table.hands[0].shoot_bet == 10
    notes = [e.note for e in table.events if e.kind == EventKind.SHOOT_BET]
    assert notes == ["before_deal", "before_second_card", "before_fourth_card"]
    table.apply(TWIST)  # 5D: 14
    for action in (TWIST,):
        table.apply(action)


def test_bank_passes_clockwise_when_a_deal_empties_the_shoot():
    # P1 bets the whole Shoot and wins: the bank passes to seat 1, who posts a new Shoot
    table = play(new_table(), "TS 9C TD 9H 7D 8C", [(1, stake(2)), (2, stake(2)), (1, shoot_bet(50)), (1, STICK), (2, STICK), (0, STICK)])
    assert table.banker == 1 and table.turnovers == 1
    assert table.phase == Phase.DEAL_OVER  # no sale decision after a turnover
    assert table.balances == [50 - 2 + 2, 100 + 2 + 50 - 50, 98] and table.shoot == 50
    assert table.punter_order == [2, 0]


def test_bank_limit_sends_the_excess_to_the_banker():
    table = play(new_table(SHOOT.replace(shoot_cap=55)), "TS 9C TD 6H 8D 7C 9S",
                 opening(2, 2, 4, 4) + [(1, TWIST), (2, STICK), (0, STICK)])
    # P1 busts: bet 4 -> Shoot 54; P2 17 ties the banker's 17: bet 4 -> 1 to the Shoot (55), 3 to the banker
    assert table.shoot == 55 and table.balances == [50 + 2 + 2 + 3, 94, 94]


def test_selling_the_bank_between_deals():
    table = play(new_table(SHOOT.replace(bank_sale_price=7)), "TS 9C TD 9H 7D 8C",
                 opening(2, 2, 0, 6) + [(1, STICK), (2, STICK), (0, STICK)])
    assert table.shoot == 56 and table.legal_moves() == (LegalMove(ActionKind.KEEP_BANK), LegalMove(ActionKind.SELL_BANK))
    table.apply(SELL_BANK)
    # seller takes the Shoot back (56) and the price (7); seat 1 pays and posts a new Shoot of 50
    assert table.banker == 1 and table.shoot == 50
    assert table.balances == [50 + 56 + 7, 102 - 7 - 50, 92]
    assert table.net_position(0) == 13 and table.net_position(1) == 102 - 100 - 7


def test_every_deal_conserves_chips_and_net_positions_sum_to_zero():
    table = play(new_table(), "TS 9C TD 9H 7D 8C", opening(2, 2, 10, 6) + [(1, STICK), (2, STICK), (0, STICK)])
    assert table.total_chips == 300 and sum(table.net_position(s) for s in range(3)) == 0


def test_double_stakes_then_a_single_twist_and_no_buys():
    rules = SHOOT.replace(double_stakes=True)
    table = play(new_table(rules), "TS 9C TD 2H 8D 8C 5S", opening(3, 2))
    assert ActionKind.DOUBLE in {m.kind for m in table.legal_moves()}
    table.apply(Action_double := __import__("shoot_pontoon_env.actions", fromlist=["DOUBLE"]).DOUBLE)
    assert {m.kind for m in table.legal_moves()} == {ActionKind.TWIST}  # 12: must twist once
    table.apply(TWIST)  # 17, and the hand stands
    assert table.to_act == 2 and table.hands[0].stake == 6
    for seat, action in ((2, STICK), (0, STICK)):
        table.apply(action)
    assert table.balances == [50 + 6 + 2, 94, 98]  # 17 and 17 lose to the banker's 18
    del Action_double


def test_double_stakes_is_not_offered_after_a_draw_or_without_the_option():
    table = play(new_table(), "TS 9C TD 2H 8D 8C 5S", opening())
    assert ActionKind.DOUBLE not in {m.kind for m in table.legal_moves()}
    table = play(new_table(SHOOT.replace(double_stakes=True)), "2S 9C TD 2H 8D 8C 5S", opening() + [(1, TWIST)])
    assert ActionKind.DOUBLE not in {m.kind for m in table.legal_moves()}


def test_progressive_shoot_adds_chips_from_each_losing_stake():
    table = play(new_table(SHOOT.replace(progressive_shoot_chips=1)), "TS 9C TD 7H 7D 8C",
                 opening(3, 2) + [(1, STICK), (2, STICK), (0, STICK)])
    # P1 17 and P2 16 lose to 18: 1 chip of each losing stake goes into the Shoot
    assert table.shoot == 52 and table.balances == [50 + 2 + 1, 97, 98]


def test_split_pontoon_variation_pays_triple_for_the_named_cards():
    rules = SHOOT.replace(special_pontoons=(("A*", "JC"),))
    table = play(new_table(rules), "AS AD TD JC KH 9C", opening(2, 2) + [(0, STICK)])
    # P1 AS JC: special Pontoon pays 3x; P2 AD KH: ordinary Pontoon 2x
    assert table.balances == [50 - 6 - 4, 106, 104]


def test_reserved_shoot_holds_a_share_back_and_pays_it_as_a_jackpot_when_the_bank_breaks():
    rules = SHOOT.replace(reserved_shoot_percent=20)
    table = new_table(rules)
    assert table.shoot == 40 and table.reserve == 10
    play(table, "TS 9C TD 9H 7D 8C", [(1, stake(2)), (2, stake(2)), (1, shoot_bet(40)), (1, STICK), (2, STICK), (0, STICK)])
    # P1 wins the whole table Shoot (40) and the reserve jackpot (10); seat 1 posts 50 = 40 + 10 reserve
    assert table.banker == 1 and table.shoot == 40 and table.reserve == 10
    assert table.balances == [50 - 2 + 2, 100 + 2 + 40 + 10 - 50, 98]


def test_reshuffle_every_deal_or_a_persistent_shoe_with_a_cut_card():
    import numpy as np
    from shoot_pontoon_env.engine import Table
    from shoot_pontoon_env.players.session import play_deal
    from shoot_pontoon_env.players.strategies import StandOnBanker, ThresholdPunter

    players = [StandOnBanker(), ThresholdPunter(), ThresholdPunter()]
    rng = np.random.default_rng(3)
    fresh = Table(SHOOT, 3, rng=np.random.default_rng(1))
    for _ in range(5):
        play_deal(fresh, players, rng)
    assert fresh.shoe.shuffles == 5
    kept = Table(SHOOT.replace(shoe="persistent", num_decks=2, penetration=0.5), 3, rng=np.random.default_rng(1))
    positions = []
    for _ in range(12):
        play_deal(kept, players, rng)
        positions.append(kept.shoe.position)
    assert kept.shoe.shuffles < 12 and sorted(positions) != positions  # reshuffled at the cut card only
    assert kept.seen_before_deal.sum() + 0 <= 104


def test_misdeal_returns_every_chip_and_voids_the_deal():
    table = play(new_table(), "TS 9C TD 6H 8D 7C 9S", opening(3, 2, 4, 0) + [(1, TWIST)])
    table.misdeal()
    assert table.balances == [50, 100, 100] and table.shoot == 50 and table.phase == Phase.DEAL_OVER
    assert table.events[-1].kind == EventKind.DEAL_END or any(e.kind == EventKind.MISDEAL for e in table.events)


def test_twisting_on_21_is_an_option():
    cards = "AS 9C TD 5H 8D 8C 5C"  # P1 A 5 5: soft 21 on three cards
    table = play(new_table(), cards, opening() + [(1, TWIST)])
    assert table.to_act == 1 and ActionKind.TWIST in {m.kind for m in table.legal_moves()}
    table = play(new_table(SHOOT.replace(draw_on_21="no")), cards, opening() + [(1, TWIST)])
    assert table.to_act == 2


def test_deepcopy_mid_deal_continues_identically():
    table = play(new_table(), "TS 9C TD 4H 8D 7C 5S", opening())
    clone = copy.deepcopy(table)
    for t in (table, clone):
        t.apply(TWIST)
        t.apply(STICK)
        t.apply(STICK)
        t.apply(STICK)
    assert table.balances == clone.balances and table.events == clone.events


def test_main_stakes_lie_between_the_minimum_and_the_maximum():
    table = new_table()
    table.start_deal()
    assert table.legal_moves() == (LegalMove(ActionKind.STAKE, 2, 10),)
    for bad in (1, 11):
        with pytest.raises(IllegalActionError, match=f"stake {bad}"):
            table.apply(stake(bad))


def test_dealing_order_one_card_each_from_the_bankers_left_then_a_second():
    table = new_table(players=4, banker=2)
    table.start_deal(stacked="2S 3S 4S 5S 6S 7S 8S 9S")
    for action in (stake(2), stake(2), stake(2), shoot_bet(0), shoot_bet(0), shoot_bet(0)):
        table.apply(action)
    cards = [(e.seat, e.card) for e in table.events if e.kind == EventKind.CARD]
    assert table.punter_order == [3, 0, 1]
    assert [seat for seat, _ in cards] == [3, 0, 1, 2, 3, 0, 1, 2]
    assert all(not e.face_up for e in table.events if e.kind == EventKind.CARD)
