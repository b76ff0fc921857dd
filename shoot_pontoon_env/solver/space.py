"""The state space of one punter hand: card multisets by value, and the stake/buy/twist flags.

Suits never matter to play and ranks only through their value (the ten-value ranks are one value),
so a hand is a multiset of values 1..10 (index 0..9, the ace first). Card order matters only for
the first two cards (Pontoon, pairs), and a two-card multiset already says what they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import rules as rules_module  # not MAX_DRAWS itself: the kernel fingerprints this module's constants
from ..cards import FIVE_CARDS
from ..rules import Rules

NUM_VALUES = 10
ACE, TEN = 0, 9
VALUE_OF_INDEX = np.arange(1, NUM_VALUES + 1)

# Action codes of the policy tables.
STICK, TWIST, DOUBLE, SPLIT = 0, 1, 8, 9
BUY_BASE = 2
"""BUY of ``a`` times the original stake has code ``BUY_BASE + a`` (a = 1..5)."""


def buy_code(multiple: int) -> int:
    return BUY_BASE + multiple


def action_letter(code: int) -> str:
    """One-letter (or letter+digit) name used in the printed tables."""
    if code == STICK:
        return "S"
    if code == TWIST:
        return "T"
    if code == DOUBLE:
        return "D"
    if code == SPLIT:
        return "P"
    return f"B{code - BUY_BASE}"


def best_of(hard: np.ndarray, has_ace: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best totals and softness, as ``cards.best_total`` computes them: its vectorised copy for the
    solver's hand tables (``tests/test_one_valuation.py`` holds the two equal)."""
    soft = has_ace & (hard + 10 <= 21)
    return np.where(soft, hard + 10, hard), soft


@dataclass(frozen=True)
class Level:
    """All multisets of ``size`` card values with a hard total of 21 or less (any, for one card)."""

    size: int
    counts: np.ndarray
    """(n, 10) int: how many cards of each value."""
    hard: np.ndarray
    total: np.ndarray
    soft: np.ndarray
    pontoon: np.ndarray
    """Two cards, an ace and a ten-value card."""
    index: dict[tuple[int, ...], int]
    child: np.ndarray
    """(n, 10) int: index in the next level after adding a card of each value, -1 when it busts
    (and for the fifth card, where no card is drawn)."""

    @property
    def n(self) -> int:
        return len(self.hard)


def _build_levels() -> tuple[Level, ...]:
    keys: list[list[tuple[int, ...]]] = [[], [tuple(int(v == i) for v in range(NUM_VALUES)) for i in range(NUM_VALUES)]]
    for size in range(2, FIVE_CARDS + 1):
        seen: dict[tuple[int, ...], None] = {}
        for key in keys[size - 1]:
            hard = sum(c * (v + 1) for v, c in enumerate(key))
            for v in range(NUM_VALUES):
                if hard + v + 1 <= 21:
                    new = list(key)
                    new[v] += 1
                    seen.setdefault(tuple(new), None)
        keys.append(sorted(seen))
    levels = []
    for size in range(1, FIVE_CARDS + 1):
        counts = np.array(keys[size], dtype=np.int64)
        hard = counts @ VALUE_OF_INDEX
        total, soft = best_of(hard, counts[:, ACE] > 0)
        index = {key: i for i, key in enumerate(keys[size])}
        child = np.full((len(counts), NUM_VALUES), -1, dtype=np.int64)
        if size < FIVE_CARDS:
            nxt = {key: i for i, key in enumerate(keys[size + 1])}
            for i, key in enumerate(keys[size]):
                for v in range(NUM_VALUES):
                    new = list(key)
                    new[v] += 1
                    child[i, v] = nxt.get(tuple(new), -1)
        pontoon = (counts.sum(axis=1) == 2) & (counts[:, ACE] == 1) & (counts[:, TEN] == 1)
        levels.append(Level(size, counts, hard, total, soft, pontoon, index, child))
    return tuple(levels)


LEVELS: tuple[Level, ...] = _build_levels()
"""``LEVELS[k - 1]`` holds the hands of ``k`` cards."""


def level(size: int) -> Level:
    return LEVELS[size - 1]


def key_of_values(values: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Multiset key of card values 1..10."""
    key = [0] * NUM_VALUES
    for value in values:
        key[value - 1] += 1
    return tuple(key)


@dataclass(frozen=True)
class Flags:
    """The reachable (stake multiple, buys, twisted, doubled) states of a hand and their moves.

    Stakes are integer multiples of the original stake: the expected return is linear in every buy
    amount for a fixed continuation, and the constraints on buy amounts (each in its range, their
    sum along any line of play under the stake limit) form a totally unimodular system with integer
    bounds, so an optimal play exists that buys whole multiples only, and enumerating them is exact.
    """

    states: tuple[tuple[int, int, int, int], ...]
    index: dict[tuple[int, int, int, int], int]
    stake: np.ndarray
    twist_to: np.ndarray
    """Flag state after a twist, -1 when no twist is allowed by the flags."""
    buy_to: np.ndarray
    """(nf, 6): flag state after a buy of ``a`` times the stake (column a), -1 when not allowed."""
    double_to: np.ndarray
    terminal: np.ndarray
    """Doubled and twisted: the hand stands (Double Stakes allows one twist)."""
    doubled: np.ndarray

    @property
    def n(self) -> int:
        return len(self.states)

    def key(self, stake: int, buys: int, twisted: bool, doubled: bool, rules: Rules) -> tuple[int, int, int, int]:
        return (stake, buys if rules.max_buys is not None else 0, int(twisted), int(doubled))


def stake_limit(rules: Rules) -> int:
    """The largest stake multiple a hand can hold: the rules' ``max_stake_multiple``, or where they
    set none, the stake after the largest buy at every draw a hand can buy with (at most
    ``MAX_DRAWS`` cards follow the first two, and ``max_buys`` may allow fewer). A stake above this
    is never reached, so enumerating up to it is exact, and it keeps the enumeration finite."""
    if rules.max_stake_multiple is not None:
        return rules.max_stake_multiple
    buys = rules_module.MAX_DRAWS if rules.max_buys is None else min(rules.max_buys, rules_module.MAX_DRAWS)
    return max(1 + buys * rules.buy_max_multiple, 2 if rules.double_stakes else 1)


def build_flags(rules: Rules) -> Flags:
    """Breadth-first over what the rules let a hand do, from (stake 1, no buys, no twist, not doubled).
    Finite for every legal rule set: stakes stop at :func:`stake_limit`, buys at ``max_buys``."""
    track_buys = rules.max_buys is not None
    limit = stake_limit(rules)
    start = (1, 0, 0, 0)
    order = [start]
    seen = {start}
    edges: dict[tuple[int, int, int, int], dict[str, object]] = {}
    i = 0
    while i < len(order):
        s, b, t, d = order[i]
        i += 1
        moves: dict[str, object] = {"twist": None, "buy": {}, "double": None}
        if d:
            if not t:
                moves["twist"] = (s, b, 1, 1)
        else:
            moves["twist"] = (s, b, 1, 0)
            can_buy = rules.buys_allowed and (not t or rules.buy_after_twist)
            if track_buys and b >= rules.max_buys:  # type: ignore[operator]
                can_buy = False
            if can_buy:
                for a in range(rules.buy_min_multiple, rules.buy_max_multiple + 1):
                    if s + a <= limit:
                        moves["buy"][a] = (s + a, b + 1 if track_buys else 0, t, 0)  # type: ignore[index]
            if rules.double_stakes and s == 1 and b == 0 and not t:
                moves["double"] = (2 * s, b, t, 1)
        edges[(s, b, t, d)] = moves
        targets = [moves["twist"], moves["double"], *moves["buy"].values()]  # type: ignore[union-attr]
        for target in targets:
            if target is not None and target not in seen:
                seen.add(target)  # type: ignore[arg-type]
                order.append(target)  # type: ignore[arg-type]
    states = tuple(order)
    index = {state: k for k, state in enumerate(states)}
    n = len(states)
    twist_to = np.full(n, -1, dtype=np.int64)
    buy_to = np.full((n, 6), -1, dtype=np.int64)
    double_to = np.full(n, -1, dtype=np.int64)
    for state, moves in edges.items():
        k = index[state]
        if moves["twist"] is not None:
            twist_to[k] = index[moves["twist"]]  # type: ignore[index]
        if moves["double"] is not None:
            double_to[k] = index[moves["double"]]  # type: ignore[index]
        for a, target in moves["buy"].items():  # type: ignore[union-attr]
            buy_to[k, a] = index[target]
    stake = np.array([s for s, _, _, _ in states], dtype=np.int64)
    terminal = np.array([bool(t and d) for _, _, t, d in states])
    doubled = np.array([bool(d) for _, _, _, d in states])
    return Flags(states, index, stake, twist_to, buy_to, double_to, terminal, doubled)
