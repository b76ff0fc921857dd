"""The shoe: card order fixed by a shuffle at defined moments, with a cut card when it persists."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .actions import is_int
from .cards import CARDS_PER_DECK


class ShoeExhaustedError(RuntimeError):
    """Every card is in a live hand: nothing is left to shuffle into a new stock."""


class Shoe:
    """``num_decks`` packs. Only :meth:`shuffle` and :meth:`restock` draw random numbers."""

    def __init__(self, num_decks: int) -> None:
        self.num_decks = num_decks
        self.order = np.tile(np.arange(CARDS_PER_DECK, dtype=np.int8), num_decks)
        self.position = 0
        self.shuffles = 0

    @property
    def size(self) -> int:
        return len(self.order)

    @property
    def remaining(self) -> int:
        return self.size - self.position

    def shuffle(self, rng: np.random.Generator) -> None:
        """Gather every card and shuffle the full shoe."""
        self.order = np.tile(np.arange(CARDS_PER_DECK, dtype=np.int8), self.num_decks)
        rng.shuffle(self.order)
        self.position = 0
        self.shuffles += 1

    def stack(self, top: Sequence[int]) -> None:
        """Put ``top`` on top of the shoe, the rest of the packs below it in a fixed order (tests)."""
        counts = np.full(CARDS_PER_DECK, self.num_decks)
        for card in top:
            if not is_int(card) or not 0 <= card < CARDS_PER_DECK:
                raise ValueError(f"stacked card must be an int in 0..51 or a card code, got {card!r}")
            counts[card] -= 1
            if counts[card] < 0:
                raise ValueError(f"stacked shoe holds card {card} more than {self.num_decks} time(s)")
        rest = np.repeat(np.arange(CARDS_PER_DECK), counts)
        self.order = np.concatenate([np.asarray(top, dtype=np.int8), rest.astype(np.int8)])
        self.position = 0

    def past_cut_card(self, penetration: float) -> bool:
        return self.position >= penetration * self.size

    def draw(self) -> int:
        if self.position >= self.size:
            raise ShoeExhaustedError("the shoe is empty")
        card = int(self.order[self.position])
        self.position += 1
        return card

    def restock(self, live_cards: Iterable[int], rng: np.random.Generator) -> None:
        """The stock ran out mid-deal: shuffle every card not in a live hand into a new stock."""
        counts = np.full(CARDS_PER_DECK, self.num_decks)
        for card in live_cards:
            counts[card] -= 1
        stock = np.repeat(np.arange(CARDS_PER_DECK), counts).astype(np.int8)
        if len(stock) == 0:
            raise ShoeExhaustedError("every card of the shoe is in a live hand")
        rng.shuffle(stock)
        self.order = stock
        self.position = 0
        self.shuffles += 1

    def seen_counts(self) -> np.ndarray:
        """How many of each rank (A..K, 13 entries) have left the shoe since its last shuffle."""
        dealt = self.order[: self.position].astype(np.int64) // 4
        return np.bincount(dealt, minlength=13)
