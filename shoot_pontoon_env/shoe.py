"""The shoe: card order fixed by a shuffle at defined moments, with a cut card when it persists.

A shoe shuffles with a Generator, or, given a key (``Shoe.key``), as the batched engine does: lazily, a
Fisher-Yates step per card drawn whose uniform number is a hash of (key, shuffle, position), so that
the cards of an episode depend on its key alone. Keyed, the Table deals the same cards as the batched
engine (``vector/kernel_deals.py``), which is how every route of an evaluation deals hand h alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .actions import is_int
from .cards import CARDS_PER_DECK, card_code


MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
"""The 64-bit golden ratio of SplitMix64: the step between one shuffle's seed and the next's."""
KEY_RANGE = 2**62
"""Shuffle keys are ints of [0, 2**62)."""


def mix(z: int) -> int:
    """SplitMix64's finaliser: a bijective scramble of 64 bits."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def shuffle_seed(key: int, shuffles: int) -> int:
    """The seed of a keyed shoe's shuffle number ``shuffles``."""
    return mix(key ^ ((shuffles * GOLDEN) & MASK64))


def keyed_uniform(seed: int, position: int) -> float:
    """A uniform number in [0, 1) from a shuffle's seed and a position (53 bits, as a double holds)."""
    return (mix((seed + position) & MASK64) >> 11) * (1.0 / 9007199254740992.0)


def hand_key(seed: int, hand: int) -> int:
    """The shuffle key of hand ``hand`` of an evaluation seeded ``seed``: every route that plays the
    evaluation deals hand ``hand`` from a fresh table with this key."""
    return mix((mix(seed & MASK64) + hand) & MASK64) >> 2


def check_key(key: object) -> int:
    """``key`` as a shuffle key, or a ValueError naming it and the range."""
    if not is_int(key) or not 0 <= key < KEY_RANGE:
        raise ValueError(f"shuffle key {key!r}: expected an int in [0, 2**62)")
    return int(key)


class ShoeExhaustedError(RuntimeError):
    """Every card is in a live hand: nothing is left to shuffle into a new stock."""


FULL_PACK = tuple(range(CARDS_PER_DECK))


class Shoe:
    """``num_decks`` packs of ``pack`` (one pack's cards in pack order: the full 52, or a short pack's,
    ``Rules.pack_cards``). Only :meth:`shuffle` and :meth:`restock` draw random numbers; a keyed shoe
    (``key``) draws none, its order decided card by card in :meth:`draw`."""

    def __init__(self, num_decks: int, key: int | None = None, pack: Sequence[int] = FULL_PACK) -> None:
        self.num_decks = num_decks
        self.pack = tuple(int(card) for card in pack)
        self.order = self._pack_order()
        self.position = 0
        self.shuffles = 0
        self.key = None if key is None else check_key(key)
        """The shuffle key (None: shuffles by the Generator given)."""
        self.shuffled = self.size
        """Positions whose card is settled (below it a keyed shuffle has drawn; a Generator's, all)."""
        self._seed = 0

    @property
    def size(self) -> int:
        return len(self.order)

    @property
    def remaining(self) -> int:
        return self.size - self.position

    def shuffle(self, rng: np.random.Generator) -> None:
        """Gather every card and shuffle the full shoe (keyed: the order is drawn card by card; a full
        shoe keeps its arrangement, a restocked one starts again in pack order and shuffle count, as the
        batched engine's ``kernel_deals.shuffle`` does)."""
        full = self.num_decks * len(self.pack)
        if self.key is None:
            self.order = self._pack_order()
            rng.shuffle(self.order)
            self.shuffled = full
        else:
            if self.size != full:
                self.order = self._pack_order()
                self.shuffles = 0
            self.shuffled = 0
        self.position = 0
        self.shuffles += 1
        self._reseed()

    def _pack_order(self) -> np.ndarray:
        return np.tile(np.array(self.pack, dtype=np.int8), self.num_decks)

    def full_counts(self) -> np.ndarray:
        """(52,): copies of each card in the full shoe (0 for a card a short pack lacks)."""
        counts = np.zeros(CARDS_PER_DECK, dtype=np.int64)
        counts[list(self.pack)] = self.num_decks
        return counts

    def _reseed(self) -> None:
        if self.key is not None:
            self._seed = shuffle_seed(self.key, self.shuffles)

    def stack(self, top: Sequence[int]) -> None:
        """Put ``top`` on top of the shoe, the rest of the packs below it in a fixed order (tests)."""
        counts = self.full_counts()
        for card in top:
            if not is_int(card) or not 0 <= card < CARDS_PER_DECK:
                raise ValueError(f"stacked card must be an int in 0..51 or a card code, got {card!r}")
            if card not in self.pack:
                raise ValueError(f"stacked card {card_code(card)} is not in the shoe's pack (its cards: "
                                 f"{' '.join(card_code(c) for c in self.pack)})")
            counts[card] -= 1
            if counts[card] < 0:
                raise ValueError(f"stacked shoe holds card {card} more than {self.num_decks} time(s)")
        rest = np.repeat(np.arange(CARDS_PER_DECK), counts)
        self.order = np.concatenate([np.asarray(top, dtype=np.int8), rest.astype(np.int8)])
        self.position = 0
        self.shuffled = self.size

    def past_cut_card(self, penetration: float) -> bool:
        return self.position >= penetration * self.size

    def draw(self) -> int:
        p = self.position
        if p >= self.size:
            raise ShoeExhaustedError("the shoe is empty")
        if p >= self.shuffled:  # a keyed shuffle's Fisher-Yates step for this position
            j = p + int(keyed_uniform(self._seed, p) * (self.size - p))
            self.order[p], self.order[j] = self.order[j], self.order[p]
            self.shuffled = p + 1
        self.position = p + 1
        return int(self.order[p])

    def restock(self, live_cards: Iterable[int], rng: np.random.Generator) -> None:
        """The stock ran out mid-deal: shuffle every card not in a live hand into a new stock (keyed:
        the stock in card order, drawn card by card)."""
        counts = self.full_counts()
        for card in live_cards:
            counts[card] -= 1
        stock = np.repeat(np.arange(CARDS_PER_DECK), counts).astype(np.int8)
        if len(stock) == 0:
            raise ShoeExhaustedError("every card of the shoe is in a live hand")
        if self.key is None:
            rng.shuffle(stock)
        self.order = stock
        self.shuffled = 0 if self.key is not None else len(stock)
        self.position = 0
        self.shuffles += 1
        self._reseed()

    def seen_counts(self) -> np.ndarray:
        """How many of each rank (A..K, 13 entries) have left the shoe since its last shuffle."""
        dealt = self.order[: self.position].astype(np.int64) // 4
        return np.bincount(dealt, minlength=13)
