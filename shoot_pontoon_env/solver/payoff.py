"""Terminal payoffs: what a stood punter hand wins against each banker outcome.

Written from the Rules alone (the solver does not call the engine's settlement; hands are classed by
``cards.hand_class``), and tested against ``engine.settlement.showdown`` on random hands. A payoff has
two parts per unit: ``g``, the stake multiple won (negative when lost), and ``h``, the Shoot bet's
result (+1 won, 0 push, -1 lost).
"""

from __future__ import annotations

from itertools import product

import numpy as np

from ..cards import CARDS_PER_DECK, RANKS, SUITS, hand_class
from ..rules import Rules
from .dealer import BUST, FIVE_CARD_TRICK, NUM_OUTCOMES, PONTOON, TWENTY_ONE, outcome_index

SPECIAL_PONTOON = NUM_OUTCOMES
"""Punter class index of a Pontoon made of one of ``rules.special_pontoons``."""
NUM_CLASSES = NUM_OUTCOMES + 1


def punter_class(total: int, num_cards: int, pontoon: bool) -> int:
    """Class index of a stood punter hand (``pontoon``: an ace and a ten that count as one), as
    ``settlement.hand_rank`` classes it."""
    return outcome_index(hand_class(total, num_cards, pontoon=pontoon, five_card_trick=True), total)


def _key(cls: int) -> tuple[int, int]:
    """Comparison key as ``settlement.comparison_key``: class first, totals only between totals."""
    if cls == SPECIAL_PONTOON:
        cls = PONTOON
    rank = {TWENTY_ONE: 2, FIVE_CARD_TRICK: 3, PONTOON: 4}.get(cls, 1)
    return rank, cls if rank == 1 else 0


def payoff(cls: int, banker: int, rules: Rules, from_split: bool) -> tuple[int, int]:
    """(stake multiple, Shoot result) of punter class ``cls`` against banker outcome ``banker``."""
    if cls == BUST:
        return -1, -1
    if cls == SPECIAL_PONTOON:
        multiple = rules.special_pontoon_pays
    elif cls == PONTOON:
        multiple = rules.pontoon_pays
    elif cls == FIVE_CARD_TRICK:
        multiple = rules.five_card_trick_pays
    elif cls == TWENTY_ONE:
        multiple = rules.twenty_one_pays
    else:
        multiple = rules.win_pays
    if banker == BUST:
        if from_split and rules.split_bust_pays_double:
            multiple = max(multiple, 2)
        return multiple, 1
    loss = rules.banker_pontoon_multiple if banker == PONTOON else 1
    low = rules.punter_loses_at_or_below
    if _key(cls)[0] == 1 and low is not None and cls <= low:
        return -loss, -1
    mine, theirs = _key(cls), _key(banker)
    both_tricks = cls == banker == FIVE_CARD_TRICK
    if mine > theirs or (both_tricks and rules.punter_trick_beats_banker_trick):
        return multiple, 1
    if mine == theirs and rules.ties == "push":
        return 0, 0
    return -loss, -1


def payoff_matrices(rules: Rules, from_split: bool) -> tuple[np.ndarray, np.ndarray]:
    """(NUM_CLASSES, NUM_OUTCOMES) arrays of ``g`` and ``h``."""
    g = np.zeros((NUM_CLASSES, NUM_OUTCOMES))
    h = np.zeros((NUM_CLASSES, NUM_OUTCOMES))
    for cls, banker in product(range(NUM_CLASSES), range(NUM_OUTCOMES)):
        g[cls, banker], h[cls, banker] = payoff(cls, banker, rules, from_split)
    return g, h


def _matches(card: int, pattern: str) -> bool:
    return RANKS[card // 4] == pattern[0] and (pattern[1] == "*" or SUITS[card % 4] == pattern[1])


def special_pontoon_share(rules: Rules) -> float:
    """Chance that a Pontoon is one of the special combinations, with its two cards drawn from a
    full shoe (every ace and every ten-value card equally likely by symmetry). Approximation: the
    few cards already out of the shoe (an up card, a split partner) are ignored here."""
    if not rules.special_pontoons:
        return 0.0
    aces = [c for c in range(CARDS_PER_DECK) if c // 4 == 0]
    tens = [c for c in range(CARDS_PER_DECK) if c // 4 >= 9]
    hits = sum(
        any((_matches(a, p) and _matches(t, q)) or (_matches(a, q) and _matches(t, p))
            for p, q in rules.special_pontoons)
        for a in aces for t in tens
    )
    return hits / (len(aces) * len(tens))
