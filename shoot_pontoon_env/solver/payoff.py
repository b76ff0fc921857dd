"""Terminal payoffs: what a stood punter hand wins against each banker outcome, tabled from the
engine's settlement.

No pay rule is written here: every payoff is ``engine.settlement.settle``'s answer (``settlement.net``
of it), asked for the ranks a punter row and a banker outcome stand for (:data:`ROW_HANDS`,
``dealer.OUTCOME_RANKS``). A row or an outcome that stands for several ranks (a bust of any total, a
banker's Five Card Trick of any total) must be paid alike by the settlement; one that is not raises
:class:`PayRuleError`, naming the ranks the solver's classes would have to tell apart, so a new pay
rule is either followed here with no edit or refused where it is read.

A payoff has two parts per unit: ``g``, the stake multiple won (negative when lost), and ``h``, the
Shoot bet's result (+1 won, 0 push, -1 lost).
"""

from __future__ import annotations

from itertools import product

import numpy as np

from ..cards import CARDS_PER_DECK, HandClass, HandRank, hand_class
from ..engine import settlement
from ..rules import Rules
from .dealer import FIVE_CARD_TOTALS, FIVE_CARD_TRICK, NUM_OUTCOMES, OUTCOME_RANKS, outcome_index

SPECIAL_PONTOON = NUM_OUTCOMES
"""Punter class index of a Pontoon made of one of ``rules.special_pontoons``."""
FIVE_CARD_TRICK_ROWS = SPECIAL_PONTOON + 1
"""The row of a Five Card Trick of total ``FIVE_CARD_TOTALS[0]``; the other totals follow
(:func:`punter_row`), so that a rule paying a trick by its total is followed."""
NUM_CLASSES = FIVE_CARD_TRICK_ROWS + len(FIVE_CARD_TOTALS)
"""Rows of the payoff matrices."""


def _row_hands(row: int) -> tuple[tuple[HandRank, bool], ...]:
    if row == SPECIAL_PONTOON:
        return ((HandRank(HandClass.PONTOON, 21), True),)
    if row >= FIVE_CARD_TRICK_ROWS:
        return ((HandRank(HandClass.FIVE_CARD_TRICK, FIVE_CARD_TOTALS[row - FIVE_CARD_TRICK_ROWS]), False),)
    return tuple((rank, False) for rank in OUTCOME_RANKS[row])


ROW_HANDS: tuple[tuple[tuple[HandRank, bool], ...], ...] = tuple(_row_hands(r) for r in range(NUM_CLASSES))
"""The (rank, special Pontoon) of the stood hands each punter row stands for: a class index
(``punter_class``; row ``FIVE_CARD_TRICK`` is a trick of any total), the special Pontoon, then a Five
Card Trick of each total."""


class PayRuleError(ValueError):
    """The settlement pays two hands of one solver class differently: the class must be split."""


def punter_class(total: int, num_cards: int, pontoon: bool) -> int:
    """Class index of a stood punter hand (``pontoon``: an ace and a ten that count as one), as
    ``settlement.hand_rank`` classes it."""
    return outcome_index(hand_class(total, num_cards, pontoon=pontoon, five_card_trick=True), total)


def punter_row(total: int, num_cards: int, pontoon: bool) -> int:
    """The payoff row of a stood punter hand: its class index, a Five Card Trick's by its total."""
    cls = punter_class(total, num_cards, pontoon)
    return FIVE_CARD_TRICK_ROWS + total - FIVE_CARD_TOTALS[0] if cls == FIVE_CARD_TRICK else cls


def _results(row: int, banker: int, rules: Rules, from_split: bool) -> dict[tuple[int, int], tuple]:
    """``settlement.net`` of every (punter hand, banker rank) the row and outcome stand for."""
    found: dict[tuple[int, int], tuple] = {}
    for (rank, special), banker_rank in product(ROW_HANDS[row], OUTCOME_RANKS[banker]):
        hand = settlement.Stood(rank, from_split, special)
        found.setdefault(settlement.net(*settlement.settle(hand, banker_rank, rules)), (rank, banker_rank))
    return found


def payoff(cls: int, banker: int, rules: Rules, from_split: bool) -> tuple[int, int]:
    """(stake multiple, Shoot result) of punter row ``cls`` (a class index, ``SPECIAL_PONTOON``, or a
    :func:`punter_row`) against banker outcome ``banker``: ``settlement.settle``'s."""
    found = _results(cls, banker, rules, from_split)
    if len(found) > 1:
        examples = "; ".join(f"{hand} against {bank}: {result}" for result, (hand, bank) in found.items())
        raise PayRuleError(
            f"engine.settlement pays hands of one solver class differently ({examples}). The solver's "
            "classes (solver/dealer.py's OUTCOME_RANKS, solver/payoff.py's ROW_HANDS) must tell them apart")
    return next(iter(found))


def payoff_matrices(rules: Rules, from_split: bool) -> tuple[np.ndarray, np.ndarray]:
    """(NUM_CLASSES, NUM_OUTCOMES) arrays of ``g`` and ``h``. Row ``FIVE_CARD_TRICK``, a trick of any
    total, is NaN where the settlement pays tricks by their total (the solver reads ``punter_row``'s)."""
    g = np.zeros((NUM_CLASSES, NUM_OUTCOMES))
    h = np.zeros((NUM_CLASSES, NUM_OUTCOMES))
    by_total = [row for row in range(NUM_CLASSES) if row != FIVE_CARD_TRICK]
    for row, banker in product(by_total, range(NUM_OUTCOMES)):
        g[row, banker], h[row, banker] = payoff(row, banker, rules, from_split)
    tricks = slice(FIVE_CARD_TRICK_ROWS, NUM_CLASSES)
    alike = (g[tricks] == g[FIVE_CARD_TRICK_ROWS]).all() and (h[tricks] == h[FIVE_CARD_TRICK_ROWS]).all()
    g[FIVE_CARD_TRICK] = g[FIVE_CARD_TRICK_ROWS] if alike else np.nan
    h[FIVE_CARD_TRICK] = h[FIVE_CARD_TRICK_ROWS] if alike else np.nan
    return g, h


def bust_payoff(rules: Rules) -> tuple[int, int]:
    """(stake multiple, Shoot result) of a hand that busts: ``settlement.bust``'s, settled at once
    whatever the banker holds."""
    return settlement.net(*settlement.bust(rules))


def special_pontoon_share(rules: Rules) -> float:
    """Chance that a Pontoon is one of the special combinations, with its two cards drawn from a
    full shoe (every ace and every ten-value card equally likely by symmetry). Approximation: the
    few cards already out of the shoe (an up card, a split partner) are ignored here."""
    if not rules.special_pontoons:
        return 0.0
    aces = [c for c in range(CARDS_PER_DECK) if c // 4 == 0]
    tens = [c for c in range(CARDS_PER_DECK) if c // 4 >= 9]
    hits = sum(settlement.is_special_pontoon([a, t], rules) for a in aces for t in tens)
    return hits / (len(aces) * len(tens))

