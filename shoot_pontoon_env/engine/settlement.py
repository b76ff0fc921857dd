"""Who wins a showdown and at what multiple: the one place where hands are compared and paid.

Every pay rule is written here and nowhere else. The Table calls :func:`showdown` (and :func:`bust`,
:func:`net`); the batched kernel indexes a table of :func:`showdown` (``vector/layout.showdown_table``);
the solver tables :func:`settle` over its hand classes (``solver/payoff.py``), and refuses, naming the
class, a rule that pays two hands of one class differently. ``tests/test_one_settlement.py`` patches a
pay rule here and watches the Table and the solver follow it.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

from ..cards import RANKS, SUITS, HandClass, HandRank, evaluate
from ..rules import Rules
from .hand import Hand


class Outcome(IntEnum):
    LOSE = 0
    PUSH = 1
    WIN = 2


def hand_rank(hand: Hand, rules: Rules) -> HandRank:
    return evaluate(
        hand.cards,
        pontoon_possible=rules.pontoon_after_split or not hand.from_split,
        five_card_trick=True,
    )


def banker_rank(cards: Sequence[int], rules: Rules) -> HandRank:
    return evaluate(cards, pontoon_possible=True, five_card_trick=rules.banker_five_cards == "trick")


def comparison_key(rank: HandRank) -> tuple[int, int]:
    """Totals decide only between plain totals: two Five Card Tricks are equal whatever their sum."""
    return (int(rank.hand_class), rank.total if rank.hand_class == HandClass.TOTAL else 0)


def _matches(card: int, pattern: str) -> bool:
    return RANKS[card // 4] == pattern[0] and (pattern[1] == "*" or SUITS[card % 4] == pattern[1])


def is_special_pontoon(cards: Sequence[int], rules: Rules) -> bool:
    """The Split Pontoon variation: a Pontoon made of one of the configured card combinations."""
    if len(cards) != 2:
        return False
    a, b = cards
    return any(
        (_matches(a, p) and _matches(b, q)) or (_matches(a, q) and _matches(b, p))
        for p, q in rules.special_pontoons
    )


class Stood(NamedTuple):
    """All that the settlement reads of a punter hand: its rank, whether it came from a split, and
    whether it is a special Pontoon (``is_special_pontoon``). Every pay rule below is a function of
    these, so a table of them (the solver's ``payoff.payoff_matrices``, the kernel's
    ``layout.showdown_table``) is the settlement itself."""

    rank: HandRank
    from_split: bool = False
    special: bool = False


def stood(hand: Hand, rules: Rules) -> Stood:
    """What the settlement reads of ``hand``."""
    rank = hand_rank(hand, rules)
    special = rank.hand_class == HandClass.PONTOON and is_special_pontoon(hand.cards, rules)
    return Stood(rank, hand.from_split, special)


def bust(rules: Rules) -> tuple[Outcome, int]:
    """A punter hand that busts, or is forfeited as if bust, loses its stake (and its Shoot bet) at once."""
    return Outcome.LOSE, 1


def win_multiple(hand: Stood, rules: Rules, banker_bust: bool) -> int:
    """What a winning hand is paid, in multiples of its stake."""
    hand_class = hand.rank.hand_class
    if hand_class == HandClass.PONTOON:
        multiple = rules.special_pontoon_pays if hand.special else rules.pontoon_pays
    elif hand_class == HandClass.FIVE_CARD_TRICK:
        multiple = rules.five_card_trick_pays
    elif hand_class == HandClass.TWENTY_ONE:
        multiple = rules.twenty_one_pays
    else:
        multiple = rules.win_pays
    if banker_bust and hand.from_split and rules.split_bust_pays_double:
        multiple = max(multiple, 2)
    return multiple


def settle(hand: Stood, banker: HandRank, rules: Rules) -> tuple[Outcome, int]:
    """The pay rule: the outcome of a stood punter hand against the banker's final hand, and the stake
    multiple won (WIN) or lost (LOSE). Every engine pays by it: the Table through :func:`showdown`, the
    batched kernel and the solver from tables of it."""
    rank = hand.rank
    if rank.hand_class == HandClass.BUST:
        return bust(rules)
    if banker.hand_class == HandClass.BUST:
        return Outcome.WIN, win_multiple(hand, rules, banker_bust=True)
    loss = rules.banker_pontoon_multiple if banker.hand_class == HandClass.PONTOON else 1
    low = rules.punter_loses_at_or_below
    if rank.hand_class == HandClass.TOTAL and low is not None and rank.total <= low:
        return Outcome.LOSE, loss
    mine, theirs = comparison_key(rank), comparison_key(banker)
    both_tricks = rank.hand_class == banker.hand_class == HandClass.FIVE_CARD_TRICK
    if mine > theirs or (both_tricks and rules.punter_trick_beats_banker_trick):
        return Outcome.WIN, win_multiple(hand, rules, banker_bust=False)
    if mine == theirs and rules.ties == "push":
        return Outcome.PUSH, 0
    return Outcome.LOSE, loss


def showdown(hand: Hand, banker: HandRank, rules: Rules) -> tuple[Outcome, int]:
    """Outcome of a stood punter hand against the banker's final hand, and the stake multiple won
    (WIN) or lost (LOSE): :func:`settle` of what it reads of the hand."""
    return settle(stood(hand, rules), banker, rules)


def net(outcome: Outcome, multiple: int) -> tuple[int, int]:
    """What a settled hand nets per chip of its stake and per chip of its Shoot bet (negative: lost):
    a win is paid ``multiple`` stakes and wins the Shoot bet from the Shoot, a push returns both, a
    loss pays ``multiple`` stakes and loses the Shoot bet. ``Table._settle_hand`` moves these chips."""
    if outcome == Outcome.WIN:
        return multiple, 1
    if outcome == Outcome.PUSH:
        return 0, 0
    return -multiple, -1
