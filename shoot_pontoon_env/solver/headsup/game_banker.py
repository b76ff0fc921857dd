"""The banker's side of heads-up play: every multiset of values a free banker's hand can hold, level
by level, and the joint chance of a whole deal.

A banker's decision depends on its cards only through their multiset (its total, softness and the
cards it removes from the shoe), so its hands are the nodes of a graph by multiset: level ``m`` holds
the hands of ``m`` cards, ``child[i, v]`` the hand after drawing value ``v``. Ordered lines of play
are counted by the level-2 ``start`` multiplicities (1 for a pair, 2 otherwise; 0 for a Pontoon under
a peek, settled before the punter plays) and one edge per drawn card.

The chance of a deal in which the punter's cards have value counts ``K`` and the banker's ``b`` is
``prod_v ff(n_v, K_v + b_v) / ff(N, |K| + |b|)`` (``ff`` the falling factorial): cards are drawn
without replacement and the chance of a sequence depends only on its multiset. This is exact for
the finite shoe; nothing here is approximated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...cards import FIVE_CARDS, is_pontoon_pair
from ...rules import Rules
from ..dealer import _cards, banker_outcome, engine_done
from ..deck import NEG, Deck
from ..space import NUM_VALUES


@dataclass(frozen=True)
class BankerLevel:
    """The banker hands of one number of cards."""

    counts: np.ndarray
    """(n, 10) int: value counts."""
    outcome: np.ndarray
    """(n,) outcome index if the hand stands (``dealer.NUM_OUTCOMES``)."""
    can_draw: np.ndarray
    """(n,) bool: the rules let the banker draw (not bust, under five cards, may draw on its total)."""
    child: np.ndarray
    """(n, 10) int: index in the next level after drawing each value; -1 where it cannot draw."""
    values: list[tuple[int, ...]]
    """Each hand's values, ascending."""
    index: dict[tuple[int, ...], int]
    """The node of each ascending value tuple."""


@dataclass(frozen=True)
class BankerSpace:
    levels: dict[int, BankerLevel]
    """Levels 2..5 by number of cards."""
    start: np.ndarray
    """(n_2,) ordered two-card deals of each level-2 hand that the banker plays on."""
    pontoon_start: np.ndarray
    """(10,) value counts of the banker's Pontoon (A and a ten-value card)."""
    pontoon_orders: int
    """Ordered deals of a banker's Pontoon settled at the peek (2 under a peek, else 0)."""

    def index(self, values: tuple[int, ...]) -> tuple[int, int]:
        """(level, node) of a hand given its values in any order."""
        key = tuple(sorted(values))
        level = self.levels[len(key)]
        return len(key), level.index[key]

    @property
    def size(self) -> int:
        return sum(len(lv.values) for lv in self.levels.values())


def banker_space(rules: Rules) -> BankerSpace:
    """The banker's hands for a free banker of ``rules`` (stopping at five cards)."""
    pairs = sorted({tuple(sorted((a, b))) for a in range(NUM_VALUES) for b in range(NUM_VALUES)})
    level_values: dict[int, list[tuple[int, ...]]] = {2: pairs}
    m = 2
    while m < FIVE_CARDS:
        nxt = set()
        for values in level_values[m]:
            if not engine_done(values, rules):
                nxt.update(tuple(sorted(values + (v,))) for v in range(NUM_VALUES))
        level_values[m + 1] = sorted(nxt)
        m += 1
    levels: dict[int, BankerLevel] = {}
    for m in sorted(level_values, reverse=True):
        vals = level_values[m]
        up = {v: i for i, v in enumerate(level_values.get(m + 1, []))}
        child = np.full((len(vals), NUM_VALUES), -1, dtype=np.int64)
        can = np.zeros(len(vals), dtype=bool)
        for i, values in enumerate(vals):
            if not engine_done(values, rules):
                can[i] = True
                child[i] = [up[tuple(sorted(values + (v,)))] for v in range(NUM_VALUES)]
        counts = np.array([[values.count(v) for v in range(NUM_VALUES)] for values in vals], dtype=np.int64)
        outcome = np.array([banker_outcome(values, rules) for values in vals], dtype=np.int64)
        levels[m] = BankerLevel(counts, outcome, can, child, vals, {v: i for i, v in enumerate(vals)})
    start = np.array([
        0 if rules.banker_peek and is_pontoon_pair(_cards(values)) else (1 if values[0] == values[1] else 2)
        for values in pairs], dtype=np.float64)
    pontoon = np.zeros(NUM_VALUES, dtype=np.int64)
    pontoon[0] = pontoon[NUM_VALUES - 1] = 1
    return BankerSpace(dict(sorted(levels.items())), start, pontoon, 2 if rules.banker_peek else 0)


@dataclass(frozen=True)
class JointChance:
    """Log falling factorials of one shoe, to score whole deals by their value counts."""

    log_ff: np.ndarray
    """(10, width): ``log ff(n_v, j)``, NEG where ``j > n_v``."""
    log_den: np.ndarray
    """(width,): ``log ff(N, k)``."""
    full: np.ndarray
    """(10,): cards of each value in the full shoe."""

    @classmethod
    def of(cls, rules: Rules) -> JointChance:
        full = Deck.of(rules).full()
        width = int(full.sum()) + 1
        log_ff = np.full((NUM_VALUES, width), NEG)
        for v in range(NUM_VALUES):
            n = int(full[v])
            log_ff[v, 0] = 0.0
            for j in range(1, n + 1):
                log_ff[v, j] = log_ff[v, j - 1] + np.log(n - j + 1)
        total = int(full.sum())
        log_den = np.full(width, NEG)
        log_den[0] = 0.0
        for k in range(1, total + 1):
            log_den[k] = log_den[k - 1] + np.log(total - k + 1)
        return cls(log_ff, log_den, full)

    def chance(self, punter: np.ndarray, banker: np.ndarray) -> np.ndarray:
        """(B, R): the chance of a deal of banker counts ``banker`` (B, 10) and punter counts
        ``punter`` (R, 10), every card in a given position."""
        width = self.log_ff.shape[1] - 1
        log = np.zeros((len(banker), len(punter)))
        for v in range(NUM_VALUES):
            idx = np.minimum(banker[:, v][:, None] + punter[:, v][None, :], width)
            log += self.log_ff[v][idx]
        size = np.minimum(banker.sum(axis=1)[:, None] + punter.sum(axis=1)[None, :], width)
        log -= self.log_den[size]
        return np.exp(np.maximum(log, -700.0)) * (log > NEG / 2)
