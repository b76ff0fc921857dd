"""Splits and resplits: how many split hands end with a non-pair second card, and how many with a
pair card they may not split again.

Hands from a split are played each on its own cards, the two original pair cards and the up card
(never on the other split hands' cards). The engine deals each split hand's cards in turn: its
second card (a pair card may be split again while the box has fewer than ``max_split_hands``
hands), then its draws, then the next hand. The cards that decide how many hands there are
(the successive second cards) are taken at predictable times, so by the predictable-sampling
theorem for exchangeable sequences they are distributed like consecutive draws from the shoe: the
chance of each pattern of pair / non-pair second cards is exact (hypergeometric).

Approximation (resplits only): each split hand's value given its second card is computed with
the shoe less the up card, the two original pair cards and its own cards, ignoring the extra
pair cards of resplits and the other hands' second cards. Without a resplit the result is exact:
then the value of a split is twice that of one hand (the other hand's cards are taken at
predictable times and drop out), which is what this computes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SplitCounts:
    """Expected numbers of split hands by second card, for the whole box and for its first hand."""

    non_pair: float
    pair: float
    first_non_pair: float
    first_pair: float


def split_counts(pair_left: float, cards_left: float, max_hands: int, resplit: bool,
                 infinite_share: float | None = None) -> SplitCounts:
    """Expected hand counts after splitting a pair. ``pair_left``/``cards_left``: cards that match
    the pair (may be resplit) and all cards left once the up card and the pair are out.
    ``infinite_share``: for an infinite deck, the fixed chance of a matching card."""
    cap = max_hands if resplit else 2
    totals = {"non_pair": 0.0, "pair": 0.0, "first_non_pair": 0.0, "first_pair": 0.0}
    # state: (hand being dealt its second card, hands in the box, pair cards drawn, others drawn)
    states: dict[tuple[int, int, int, int], float] = {(0, 2, 0, 0): 1.0}
    while states:
        nxt: dict[tuple[int, int, int, int], float] = {}
        for (i, hands, a, j), prob in states.items():
            if i >= hands:
                continue
            if infinite_share is not None:
                p_pair = infinite_share
            else:
                rest = cards_left - a - j
                p_pair = max(pair_left - a, 0.0) / rest if rest > 0 else 0.0
            if p_pair > 0:
                if hands < cap:
                    key = (i, hands + 1, a + 1, j)
                else:
                    totals["pair"] += prob * p_pair
                    if i == 0:
                        totals["first_pair"] += prob * p_pair
                    key = (i + 1, hands, a + 1, j)
                nxt[key] = nxt.get(key, 0.0) + prob * p_pair
            if p_pair < 1:
                totals["non_pair"] += prob * (1 - p_pair)
                if i == 0:
                    totals["first_non_pair"] += prob * (1 - p_pair)
                key = (i + 1, hands, a, j + 1)
                nxt[key] = nxt.get(key, 0.0) + prob * (1 - p_pair)
        states = nxt
    return SplitCounts(**totals)
