"""Cards, card codes and hand valuation: the one place that knows what a hand is worth.

A card is an ``int`` in ``0..51``: ``rank * 4 + suit`` with ranks ``A 2 .. 9 T J Q K`` (0..12)
and suits ``C D H S`` (0..3). Integers keep shoes as NumPy arrays and states cheap to copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARDS_PER_DECK = 52


class HandClass(IntEnum):
    """Hand classes from weakest to strongest, in the order of the seed's ranking."""

    BUST = 0
    TOTAL = 1  # 21 or under on fewer than five cards, not 21 (ranked by total)
    TWENTY_ONE = 2  # 21 that is neither a Pontoon nor a Five Card Trick
    FIVE_CARD_TRICK = 3
    PONTOON = 4


class HandRank(NamedTuple):
    """A hand's class and best total; tuples compare class first, then total."""

    hand_class: HandClass
    total: int


def rank_of(card: int) -> int:
    return card // 4


def suit_of(card: int) -> int:
    return card % 4


def value_of(card: int) -> int:
    """Pip value with the ace as 1 and every ten-value card (T J Q K) as 10."""
    return min(card // 4 + 1, 10)


def card_code(card: int) -> str:
    """Two-character code such as ``"AS"`` or ``"TC"``."""
    if not 0 <= card < CARDS_PER_DECK:
        raise ValueError(f"card must be in 0..51, got {card!r}")
    return RANKS[card // 4] + SUITS[card % 4]


def parse_card(code: str) -> int:
    """Inverse of :func:`card_code`; accepts ``"10"`` for a ten and either letter case."""
    text = code.strip().upper().replace("10", "T")
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(
            f"card code must be a rank in {RANKS!r} followed by a suit in {SUITS!r}, got {code!r}"
        )
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def parse_cards(codes: str | Sequence[str]) -> list[int]:
    """``"AS TC 5H"`` or ``["AS", "TC"]`` -> card ints."""
    items = codes.split() if isinstance(codes, str) else list(codes)
    return [parse_card(c) for c in items]


def best_total(cards: Sequence[int]) -> tuple[int, bool]:
    """Best total not over 21 where possible, and whether an ace counts as 11 in it (soft)."""
    hard = 0
    has_ace = False
    for card in cards:
        value = min(card // 4 + 1, 10)
        hard += value
        has_ace = has_ace or value == 1
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def is_pontoon_pair(cards: Sequence[int]) -> bool:
    """An ace and a ten-value card as exactly two cards."""
    if len(cards) != 2:
        return False
    values = sorted(value_of(c) for c in cards)
    return values == [1, 10]


def evaluate(cards: Sequence[int], *, pontoon_possible: bool, five_card_trick: bool) -> HandRank:
    """Classify a finished hand. ``pontoon_possible`` is False for hands whose first two cards
    do not count as a Pontoon (a split hand under rules that say so)."""
    total, _ = best_total(cards)
    if total > 21:
        return HandRank(HandClass.BUST, total)
    if pontoon_possible and is_pontoon_pair(cards):
        return HandRank(HandClass.PONTOON, 21)
    if five_card_trick and len(cards) >= 5:
        return HandRank(HandClass.FIVE_CARD_TRICK, total)
    if total == 21:
        return HandRank(HandClass.TWENTY_ONE, 21)
    return HandRank(HandClass.TOTAL, total)


def format_cards(cards: Sequence[int]) -> str:
    return " ".join(card_code(c) for c in cards)
