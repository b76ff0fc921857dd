"""The shoe as counts of card values, finite (a shoe shuffled before the deal) or infinite.

Probabilities of card sequences drawn without replacement depend only on the multiset drawn:
``P = prod_v ff(n_v, c_v) / ff(N, k)`` with ``ff`` the falling factorial. The infinite deck replaces
each factor by the value's fixed share, so one code path serves both.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..cards import FIVE_CARDS
from ..rules import PACKS, Rules, pack_value_counts
from .space import ACE, NUM_VALUES, TEN

NEG = -1e30
"""Stands for log(0): finite, so that 0 * NEG is 0 inside matrix products."""



@functools.lru_cache(maxsize=None)
def pack_values(pack: str) -> np.ndarray:
    """(10,): cards of each value in one pack of ``PACKS[pack]`` (read-only: the solver asks often)."""
    counts = np.array(pack_value_counts(pack), dtype=np.float64)
    counts.flags.writeable = False
    return counts


@dataclass(frozen=True)
class Deck:
    """``num_decks`` packs counted by value, or an infinite deck when ``num_decks`` is None; ``pack`` is
    ``Rules.pack`` (a short pack has no cards of the values it lacks; every pack holds the ace and all
    four ten-value ranks, which the split rules' rank chances rely on)."""

    num_decks: int | None
    pack: str = "full"

    @classmethod
    def of(cls, rules: Rules, infinite: bool = False) -> Deck:
        """The shoe of ``rules`` (``infinite``: drawn with replacement from its pack)."""
        return cls(None if infinite else rules.num_decks, rules.pack)

    @property
    def infinite(self) -> bool:
        return self.num_decks is None

    def shares(self) -> np.ndarray:
        """(10,): the chance of each value in a full shoe (the infinite deck's fixed chances)."""
        return pack_values(self.pack) / len(PACKS[self.pack]) / 4

    def full(self) -> np.ndarray:
        """Counts of the full shoe by value (shares for the infinite deck)."""
        if self.num_decks is None:
            return self.shares()
        return pack_values(self.pack) * self.num_decks

    def rank_count(self) -> float:
        """Cards of one rank in the full shoe (a share for the infinite deck)."""
        return 1.0 / len(PACKS[self.pack]) if self.num_decks is None else 4.0 * self.num_decks

    def remaining(self, removed: np.ndarray) -> np.ndarray:
        """Counts left after ``removed`` (..., 10) is taken out, never below zero."""
        if self.num_decks is None:
            return np.broadcast_to(self.shares(), removed.shape).astype(np.float64)
        return np.maximum(self.full() - removed, 0.0)

    def draw_probs(self, removed: np.ndarray) -> np.ndarray:
        """(..., 10): the chance of each value as the next card once ``removed`` is out."""
        rest = self.remaining(removed)
        total = rest.sum(axis=-1, keepdims=True)
        return np.divide(rest, total, out=np.zeros_like(rest), where=total > 0)

    def no_pontoon(self, removed: np.ndarray, up: int | None) -> np.ndarray:
        """(...): the chance that the banker's first two cards are not an ace and a ten-value card,
        given ``removed`` (which holds the banker's up card, if any) is out of the shoe."""
        rest = self.remaining(removed)
        total = rest.sum(axis=-1)
        if up is None:
            if self.infinite:
                bp = 2 * rest[..., ACE] * rest[..., TEN]
            else:
                denom = total * (total - 1)
                bp = np.divide(2 * rest[..., ACE] * rest[..., TEN], denom, out=np.zeros_like(total),
                               where=denom > 0)
        elif up in (ACE, TEN):
            other = rest[..., TEN if up == ACE else ACE]
            bp = np.divide(other, total, out=np.zeros_like(total), where=total > 0)
        else:
            bp = np.zeros_like(total)
        return 1.0 - bp

    def log_factors(self, removed: np.ndarray, depth: int = FIVE_CARDS) -> tuple[np.ndarray, np.ndarray]:
        """For rows of ``removed`` (M, 10): ``L`` (M, 10, depth) with ``L[m, v, j-1]`` the log
        of the chance factor of drawing ``j`` cards of value ``v`` (``log ff(n_v, j)``, or
        ``j log p_v``), and ``den`` (M, depth) with the log of ``ff(N, k)`` (zeros when
        infinite). ``depth``: the most cards drawn (five, or more for a banker that draws on)."""
        rest = self.remaining(removed)
        m = len(rest)
        steps = np.arange(depth, dtype=np.float64)
        if self.infinite:
            logp = np.where(rest > 0, np.log(np.where(rest > 0, rest, 1.0)), NEG)
            L = logp[:, :, None] * (steps + 1)[None, None, :]
            return L, np.zeros((m, depth))
        x = rest[:, :, None] - steps[None, None, :]
        logs = np.where(x > 0, np.log(np.where(x > 0, x, 1.0)), NEG)
        L = np.cumsum(logs, axis=2)
        total = rest.sum(axis=1)[:, None] - steps[None, :]
        den = np.cumsum(np.where(total > 0, np.log(np.where(total > 0, total, 1.0)), NEG), axis=1)
        return L, den


def multiset_prob(deck: Deck, removed: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Chance of drawing one given ordered sequence with value counts ``counts`` (10,) from the
    shoe less ``removed`` (M, 10): the same for every order of the same multiset."""
    L, den = deck.log_factors(removed)
    k = int(counts.sum())
    logp = sum(L[:, v, c - 1] for v, c in enumerate(counts) if c > 0)
    if k:
        logp = logp - den[:, k - 1]
    return np.exp(logp)


def two_card_probs(deck: Deck, removed: np.ndarray) -> np.ndarray:
    """(10, 10): chance that the next two cards are values (i, j) in that order."""
    first = deck.draw_probs(removed)
    out = np.zeros((NUM_VALUES, NUM_VALUES))
    for i in range(NUM_VALUES):
        after = removed.copy()
        after[i] += 1
        out[i] = first[i] * deck.draw_probs(after)
    return out
