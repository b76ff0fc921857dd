"""One settlement: a pay rule is written in ``engine/settlement.py`` only, and every engine that pays
follows a change to it with no edit of its own.

The change patched in is a rule no option expresses: a Five Card Trick of exactly 21 pays 3:1 (the
Shoot preset pays every trick 2:1). With only ``settlement.win_multiple`` replaced,

- the Table pays it in a scripted deal;
- the solver's payoff table (``solver/payoff.py``, tabled from ``settlement.settle``) pays it in the row
  of a trick of 21 and nowhere else, and the solver's exact value of a two-card start moves with it,
  to the value of the slow reference (``tests/solver/reference.py``, which pays by
  ``settlement.showdown`` itself);
- the batched kernel's settlement bytes (``vector/layout.showdown_table``, data the compiled kernel
  indexes at run time, so nothing is recompiled) pay it too when built under the patch.

A rule the solver's classes cannot express (one that reads the total of a banker's Five Card Trick,
which the solver's banker outcomes collapse) is refused by name, not paid wrongly.
"""

from __future__ import annotations

import itertools

import pytest
from solver.reference import start_value

from shoot_pontoon_env.actions import STICK, TWIST, shoot_bet, stake
from shoot_pontoon_env.cards import FIVE_CARDS, HandClass, best_total, evaluate
from shoot_pontoon_env.engine import Table, settlement
from shoot_pontoon_env.engine.hand import Hand
from shoot_pontoon_env.players.strategies import StandOnBanker
from shoot_pontoon_env.rules import SHOOT
from shoot_pontoon_env.solver import dealer, solve
from shoot_pontoon_env.solver.payoff import (
    FIVE_CARD_TRICK_ROWS, NUM_CLASSES, ROW_HANDS, PayRuleError, payoff_matrices, punter_class, punter_row,
)
from shoot_pontoon_env.solver.solution import node_index


@pytest.fixture
def trick_of_21_pays_3(monkeypatch):
    original = settlement.win_multiple

    def win_multiple(hand: settlement.Stood, rules, banker_bust: bool) -> int:
        if hand.rank == (HandClass.FIVE_CARD_TRICK, 21):
            return 3
        return original(hand, rules, banker_bust)

    monkeypatch.setattr(settlement, "win_multiple", win_multiple)


class FreshStandOn17(StandOnBanker):
    """Stand on 17, as the default banker, under a class the solver's memo does not keep (so no
    solution computed under the patch outlives this test, and none from before it is handed back)."""


def _deal() -> Table:
    """Seat 1: 2S 3H, twists 4C 5D 7S: 21 in five cards, a Five Card Trick. Seat 2: 9C 8D = 17 sticks;
    the banker (seat 0): TD 8C = 18 sticks. Stakes 2 each, no Shoot bets."""
    table = Table(SHOOT, 3, starting_chips=100)
    table.start_deal(stacked="2S 9C TD 3H 8D 8C 4C 5D 7S")
    for action in (stake(2), stake(2), shoot_bet(0), shoot_bet(0), TWIST, TWIST, TWIST, STICK, STICK):
        table.apply(action)
    assert [len(h.cards) for h in table.hands] == [5, 2] and all(h.settled for h in table.hands)
    return table


TRICK_OF_21 = punter_row(21, FIVE_CARDS, False)
TRICK_OF_20 = punter_row(20, FIVE_CARDS, False)
WINS = range(dealer.FIVE_CARD_TRICK)
"""Banker outcomes a punter's trick beats under the Shoot preset: a bust, every total, a 21."""


def test_the_table_pays_what_the_settlement_says():
    assert _deal().balances == [50 - 4 + 2, 104, 98]  # the preset: a trick pays 2:1


def test_the_table_follows_a_patched_pay_rule(trick_of_21_pays_3):
    assert _deal().balances == [50 - 6 + 2, 106, 98]


def test_the_solvers_payoffs_follow_a_patched_pay_rule(trick_of_21_pays_3):
    for from_split in (False, True):
        g, h = payoff_matrices(SHOOT, from_split)
        assert (g[TRICK_OF_21, WINS] == 3).all() and (g[TRICK_OF_20, WINS] == 2).all()
        assert list(g[TRICK_OF_21, dealer.FIVE_CARD_TRICK:]) == [-1, -2]  # the banker's trick, Pontoon
        assert (h[TRICK_OF_21] == h[TRICK_OF_20]).all()


def test_every_five_card_hand_is_paid_as_the_table_pays_it(trick_of_21_pays_3):
    """Every stood five-card hand, from a split or not, against every banker outcome: the payoff row
    the solver reads for it is ``settlement.showdown`` of the hand itself."""
    for from_split in (False, True):
        g, h = payoff_matrices(SHOOT, from_split)
        for ranks in itertools.combinations_with_replacement(range(13), FIVE_CARDS):
            cards = [rank * 4 for rank in ranks]
            total = best_total(cards)[0]
            if total > 21:
                continue
            row = punter_row(total, FIVE_CARDS, False)
            hand = Hand(seat=1, box=0, original_stake=1, stake=1, cards=cards, from_split=from_split)
            for outcome, ranks_of_outcome in enumerate(dealer.OUTCOME_RANKS):
                result = settlement.net(*settlement.showdown(hand, ranks_of_outcome[-1], SHOOT))
                assert (g[row, outcome], h[row, outcome]) == result, (ranks, outcome)


def test_the_solvers_values_follow_a_patched_pay_rule(monkeypatch):
    start = (1, 1)  # 2-2: the start most likely to end in a trick
    node = node_index(start)
    before = solve(SHOOT, banker=FreshStandOn17())
    original = settlement.win_multiple
    monkeypatch.setattr(settlement, "win_multiple", lambda hand, rules, banker_bust: (
        3 if hand.rank == (HandClass.FIVE_CARD_TRICK, 21) else original(hand, rules, banker_bust)))
    after = solve(SHOOT, banker=FreshStandOn17())
    assert after.closed[1].eg[0, node, 0] > before.closed[1].eg[0, node, 0] + 1e-4
    assert after.closed[1].eg[0, node, 0] == pytest.approx(start_value(after, start)[0], abs=1e-12)
    assert after.expected_return > before.expected_return


def test_the_kernels_settlement_bytes_follow_a_patched_pay_rule(trick_of_21_pays_3):
    """The kernel indexes ``layout.showdown_table``, built by calling ``settlement.showdown`` (kept per
    rules for the process: ``__wrapped__`` builds it afresh here without touching that cache)."""
    pytest.importorskip("numba")
    from shoot_pontoon_env.vector import layout

    table = layout.showdown_table.__wrapped__(SHOOT)
    trick, total = int(HandClass.FIVE_CARD_TRICK), int(HandClass.TOTAL)
    assert list(table[trick, 21, 0, 0, total, 18]) == [layout.O_WIN, 3]
    assert list(table[trick, 20, 0, 0, total, 18]) == [layout.O_WIN, 2]


def test_a_rule_the_solvers_classes_cannot_express_is_refused(monkeypatch):
    original = settlement.settle

    def settle(hand, banker, rules):  # a punter's 21 beats a banker's trick of fifteen or less
        if hand.rank.hand_class == HandClass.TWENTY_ONE and banker == (HandClass.FIVE_CARD_TRICK, 15):
            return settlement.Outcome.WIN, 1
        return original(hand, banker, rules)

    monkeypatch.setattr(settlement, "settle", settle)
    with pytest.raises(PayRuleError, match="OUTCOME_RANKS"):
        payoff_matrices(SHOOT, False)


def test_each_class_index_stands_for_the_ranks_it_is_given():
    """The ranks a banker outcome and a punter row stand for are the ranks ``outcome_index`` and
    ``punter_row`` give those indices (the collapse ``payoff.py`` checks is the one the solver makes)."""
    for index, ranks in enumerate(dealer.OUTCOME_RANKS):
        assert {dealer.outcome_index(*rank) for rank in ranks} == {index}
    for row in range(NUM_CLASSES):
        for rank, special in ROW_HANDS[row]:
            if special or rank.hand_class == HandClass.BUST:
                continue
            ncards = FIVE_CARDS if rank.hand_class == HandClass.FIVE_CARD_TRICK else 3
            pontoon = rank.hand_class == HandClass.PONTOON
            expected = punter_row(rank.total, 2 if pontoon else ncards, pontoon)
            assert row in (expected, punter_class(rank.total, ncards, pontoon)), (row, rank)
    assert punter_row(10, FIVE_CARDS, False) == FIVE_CARD_TRICK_ROWS + 10 - dealer.FIVE_CARD_TOTALS[0]


def test_the_ranks_cover_every_hand_a_deal_can_show_down():
    """Every stood punter hand of two to five cards has a row that stands for its rank, and every
    banker hand an outcome (a banker that draws on past five cards shows a total, a 21 or a bust)."""
    rows = {rank for hands in ROW_HANDS for rank, _ in hands}
    outcomes = {rank for ranks in dealer.OUTCOME_RANKS for rank in ranks}
    for size in range(2, FIVE_CARDS + 1):
        for ranks in itertools.combinations_with_replacement(range(13), size):
            cards = [rank * 4 for rank in ranks]
            for trick in (True, False):
                rank = evaluate(cards, pontoon_possible=True, five_card_trick=trick)
                if rank.hand_class == HandClass.BUST and rank.total > dealer.BUST_TOTALS[-1]:
                    continue  # bust before its last card: never valued
                assert rank in outcomes, cards
                assert rank in rows, cards
