"""Scripted deals of the casino rule sets (seed 003 'casino', seed 004 'playtech'): seat 0 deals."""

from scripted import new_table, play

from shoot_pontoon_env.actions import SPLIT, STICK, TWIST, ActionKind, LegalMove, buy, stake
from shoot_pontoon_env.engine import EventKind, Phase
from shoot_pontoon_env.rules import CASINO, PLAYTECH


def kinds(table):
    return {m.kind for m in table.legal_moves()}


def test_dealer_hits_soft_17_and_stands_on_hard_17():
    # player TS 8H = 18 sticks; dealer AC 6D = soft 17 draws 5S (12), TD (22): bust
    table = play(new_table(PLAYTECH, 2, 1000), "TS AC 8H 6D 5S TD", [(1, stake(10)), (1, STICK)])
    assert table.balances == [990, 1010] and table.phase == Phase.DEAL_OVER
    assert [c for c in table.banker_cards] == [0, 21, 19, 37]
    # dealer TC 7D = hard 17 stands: the player's 17 ties and loses
    table = play(new_table(PLAYTECH, 2, 1000), "TS TC 7H 7D", [(1, stake(10)), (1, STICK)])
    assert table.balances == [1010, 990] and len(table.banker_cards) == 2


def test_dealer_rule_can_stand_on_soft_17():
    rules = PLAYTECH.replace(dealer_hits_soft_17=False)
    table = play(new_table(rules, 2, 1000), "TS AC 8H 6D 5S TD", [(1, stake(10)), (1, STICK)])
    assert len(table.banker_cards) == 2 and table.balances == [990, 1010]


def test_must_twist_on_14_or_less():
    table = play(new_table(PLAYTECH, 2, 1000), "TS TC 4H 7D", [(1, stake(10))])
    assert ActionKind.STICK not in kinds(table)


def test_playtech_peek_dealer_pontoon_takes_the_original_stake_only():
    table = play(new_table(PLAYTECH, 2, 1000), "AS AC KH KD", [(1, stake(10))])
    # even the player's Pontoon loses to the dealer's: one stake, no play
    assert table.balances == [1010, 990] and table.phase == Phase.DEAL_OVER


def test_casino_no_peek_dealer_pontoon_at_the_end_takes_the_whole_stake_once():
    table = play(new_table(CASINO, 2, 1000), "5S AC 6H KD TS",
                 [(1, stake(10)), (1, stake(0)), (1, buy(10))])
    # player 5 6 buys (stake 20) the TS: 21 stands (no drawing on 21); dealer Pontoon collects 20
    assert table.balances == [1020, 980]


def test_casino_shows_the_dealers_first_card():
    table = play(new_table(CASINO, 2, 1000), "TS 9C 4H 7D", [(1, stake(10)), (1, stake(0))])
    cards = [e for e in table.events if e.kind == EventKind.CARD and e.seat == 0]
    assert [e.face_up for e in cards] == [True, False]
    table = play(new_table(PLAYTECH, 2, 1000), "TS 9C 4H 7D", [(1, stake(10))])
    cards = [e for e in table.events if e.kind == EventKind.CARD and e.seat == 0]
    assert [e.face_up for e in cards] == [False, False]


def test_pontoon_and_five_card_trick_pay_two_to_one_and_21_even_money():
    table = play(new_table(PLAYTECH, 2, 1000), "AS TC KH 8D", [(1, stake(10))])
    assert table.balances == [980, 1020]
    table = play(new_table(PLAYTECH, 2, 1000), "2S TC 3H 8D 2C 4D 3S",
                 [(1, stake(10)), (1, TWIST), (1, TWIST), (1, TWIST)])
    assert table.balances == [980, 1020]  # 14 in five cards
    table = play(new_table(PLAYTECH, 2, 1000), "7S TC 7H 9D 7C", [(1, stake(10)), (1, TWIST)])
    assert table.balances == [990, 1010]  # 21 in three beats 19, even money


DEALER_FIVE = "7S 2C 7H 3D 7C 4C 5S 2H 3H"
"""Player 7 7 twists 7C: a hard 21 in three; dealer 2 3 draws 4 5 2: 16 on five cards (then 3H)."""


def test_dealer_five_cards_are_a_trick_that_beats_a_21():
    table = play(new_table(PLAYTECH, 2, 1000), DEALER_FIVE, [(1, stake(10)), (1, TWIST)])
    assert len(table.banker_cards) == 5 and table.balances == [1010, 990]  # the trick stops below 17


def test_dealer_five_cards_as_a_total_or_drawing_on_are_options():
    table = play(new_table(PLAYTECH.replace(banker_five_cards="total"), 2, 1000), DEALER_FIVE,
                 [(1, stake(10)), (1, TWIST)])
    assert len(table.banker_cards) == 5 and table.balances == [990, 1010]  # 21 beats a plain 16
    table = play(new_table(PLAYTECH.replace(banker_five_cards="draw_on"), 2, 1000), DEALER_FIVE,
                 [(1, stake(10)), (1, TWIST)])
    assert len(table.banker_cards) == 6 and table.balances == [990, 1010]  # 16 draws 3H: 19


TRICK_AGAINST_TRICK = "2S 2D 3H 3C 2C 4D 3S 4C 5S 2H"
"""Player 2 3 2 4 3: 14 in five; dealer 2 3 draws 4 5 2: 16 in five."""


def test_a_player_trick_ties_the_dealers_trick_in_playtech_and_beats_it_in_the_casino_rules():
    table = play(new_table(PLAYTECH, 2, 1000), TRICK_AGAINST_TRICK,
                 [(1, stake(10)), (1, TWIST), (1, TWIST), (1, TWIST)])
    assert len(table.banker_cards) == 5 and table.balances == [1010, 990]  # seed 004: a tie, the dealer's
    table = play(new_table(CASINO, 2, 1000), TRICK_AGAINST_TRICK,
                 [(1, stake(10)), (1, stake(0)), (1, TWIST), (1, TWIST), (1, TWIST)])
    assert len(table.banker_cards) == 5 and table.balances == [980, 1020]  # seed 003: 2:1 unless Pontoon


def test_a_soft_21_under_five_cards_may_chase_the_trick_and_a_hard_21_stands():
    # player A 5 twists 5C: soft 21 in three cards, may twist or buy; buys 2D (13), twists 3S: 16 in five
    table = play(new_table(PLAYTECH, 2, 1000), "AS TC 5H 8D 5C 2D 3S", [(1, stake(10)), (1, TWIST)])
    assert {ActionKind.STICK, ActionKind.TWIST, ActionKind.BUY} <= kinds(table)
    table.apply(buy(10))
    table.apply(TWIST)
    assert table.balances == [960, 1040]  # a Five Card Trick on the doubled stake against 18
    # player 7 7 twists 7C: a hard 21 stands at once, as under draw_on_21="no"
    for rules in (PLAYTECH, PLAYTECH.replace(draw_on_21="no")):
        table = play(new_table(rules, 2, 1000), "7S TC 7H 9D 7C", [(1, stake(10)), (1, TWIST)])
        assert table.phase == Phase.DEAL_OVER and table.balances == [990, 1010]
    table = play(new_table(PLAYTECH.replace(draw_on_21="any"), 2, 1000), "7S TC 7H 9D 7C",
                 [(1, stake(10)), (1, TWIST)])
    assert ActionKind.TWIST in kinds(table)
    table = play(new_table(PLAYTECH.replace(draw_on_21="no"), 2, 1000), "AS TC 5H 8D 5C", [(1, stake(10)), (1, TWIST)])
    assert table.phase == Phase.DEAL_OVER  # the soft 21 stands too


def test_soft_17_counts_the_ace_as_eleven():
    # dealer A 6 (soft 17) hits and draws K: A 6 K is a hard 17 with an ace, and stands
    table = play(new_table(PLAYTECH, 2, 1000), "TS AC 8H 6D KD 5S", [(1, stake(10)), (1, STICK)])
    assert len(table.banker_cards) == 3 and table.balances == [990, 1010]


def test_with_push_ties_a_pontoon_meets_the_dealers_pontoon_alike_at_the_peek_and_at_the_showdown():
    for peek in (True, False):
        table = play(new_table(PLAYTECH.replace(ties="push", banker_peek=peek), 2, 1000), "AS AC KH KD",
                     [(1, stake(10))])
        assert table.balances == [1000, 1000] and table.phase == Phase.DEAL_OVER
    table = play(new_table(PLAYTECH.replace(ties="push"), 2, 1000), "9S AC KH KD", [(1, stake(10))])
    assert table.balances == [1010, 990]  # any other hand loses at the peek


def test_casino_buy_is_a_single_double_allowed_after_a_twist_with_free_drawing_after():
    table = play(new_table(PLAYTECH, 2, 1000), "2S TC 3H 8D 2C 2D 3S 4S", [(1, stake(10)), (1, TWIST)])
    assert LegalMove(ActionKind.BUY, 10, 10) in table.legal_moves()
    table.apply(buy(10))
    assert ActionKind.BUY not in kinds(table) and ActionKind.TWIST in kinds(table)
    table.apply(TWIST)  # 2 3 2 2 3 = 12 in five cards: a Five Card Trick on a doubled stake
    assert table.balances == [960, 1040]


def test_casino_splits_equal_values_up_to_three_hands_and_aces_play_like_any_pair():
    table = play(new_table(CASINO, 2, 1000), "KS 9C QH 8D JD TD 5S", [(1, stake(10)), (1, stake(0)), (1, SPLIT)])
    assert ActionKind.SPLIT in kinds(table)  # K Q split; K J is a pair of equal value again
    table.apply(SPLIT)
    assert ActionKind.SPLIT not in kinds(table) and len(table.hands) == 3
    table = play(new_table(CASINO, 2, 1000), "AS 9C AH 8D 5D", [(1, stake(10)), (1, stake(0)), (1, SPLIT)])
    assert {ActionKind.TWIST, ActionKind.BUY} <= kinds(table)  # A 5 after a split: twist or buy


def test_up_to_three_boxes_each_its_own_hand():
    table = new_table(CASINO, 2, 1000)
    table.start_deal(stacked="TS 9S 8S TC KH 9H 8H 7D")
    table.apply(stake(10))
    assert table.legal_moves() == (LegalMove(ActionKind.STAKE, 0, 0), LegalMove(ActionKind.STAKE, 1, 4000))
    table.apply(stake(20))
    table.apply(stake(5))  # third box: staking ends
    assert [h.stake for h in table.hands] == [10, 20, 5] and table.to_act == 1
    for _ in range(3):
        table.apply(STICK)
    # boxes 20, 18, 16 against the dealer's 17: win 10, win 20, lose 5
    assert table.balances == [1000 - 10 - 20 + 5, 1000 + 25]


def test_declining_a_further_box():
    table = new_table(CASINO, 2, 1000)
    table.start_deal(stacked="TS TC 9H 7D")
    table.apply(stake(10))
    table.apply(stake(0))
    assert len(table.hands) == 1 and table.phase == Phase.PLAY
