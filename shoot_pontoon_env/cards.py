"""Cards, card codes and hand valuation: the one place in Python that knows what a hand is worth.

A card is an ``int`` in ``0..51``: ``rank * 4 + suit`` with ranks ``A 2 .. 9 T J Q K`` (0..12)
and suits ``C D H S`` (0..3). Integers keep shoes as NumPy arrays and states cheap to copy.

A hand's best total and softness are :func:`best_total`'s, its class is :func:`hand_class`'s (and
:func:`evaluate`'s, from the cards). The batched engine's kernel and the solver's state tables keep
compiled and vectorised copies; ``docs/RULES.md`` names each, and ``tests/test_one_valuation.py`` holds
them to these functions on every hand of one to five cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARDS_PER_DECK = 52
FIVE_CARDS = 5
"""Five cards that have not bust are a Five Card Trick, and a punter hand stops there; so does the
banker's, unless it draws on (``Rules.banker_five_cards``)."""


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


def hand_class(total: int, num_cards: int, *, pontoon: bool, five_card_trick: bool) -> HandClass:
    """The class of a hand from its best total and its number of cards. ``pontoon``: its cards are
    an ace and a ten-value card that count as a Pontoon (:func:`is_pontoon_pair`, where the hand may
    hold one); ``five_card_trick``: five cards of 21 or under rank as a Five Card Trick."""
    if total > 21:
        return HandClass.BUST
    if pontoon:
        return HandClass.PONTOON
    if five_card_trick and num_cards >= FIVE_CARDS:
        return HandClass.FIVE_CARD_TRICK
    if total == 21:
        return HandClass.TWENTY_ONE
    return HandClass.TOTAL


def evaluate(cards: Sequence[int], *, pontoon_possible: bool, five_card_trick: bool) -> HandRank:
    """Classify a finished hand. ``pontoon_possible`` is False for hands whose first two cards
    do not count as a Pontoon (a split hand under rules that say so)."""
    total, _ = best_total(cards)
    pontoon = pontoon_possible and is_pontoon_pair(cards)
    return HandRank(hand_class(total, len(cards), pontoon=pontoon, five_card_trick=five_card_trick), total)


def format_cards(cards: Sequence[int]) -> str:
    return " ".join(card_code(c) for c in cards)
