"""The solved game (:class:`Solution`) and the per-hand values that ``solve`` builds it from and the
Shoot analysis (``shoot.py``) builds on: split plans, the better of playing and splitting each
two-card hand, and what the peek settles. ``solve.py`` and ``shoot.py`` both import them from here,
so the imports go one way (``solve.py`` runs the Shoot analysis, ``shoot.py`` never imports
``solve.py``); the names stay importable from ``solve.py`` as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..rules import Rules
from ..players.policy import Policy
from .dealer import PONTOON
from .deck import Deck
from .dp import Context, LevelResult, Static
from .payoff import payoff, punter_class
from .space import LEVELS, NUM_VALUES, TEN, Flags, key_of_values
from .split import SplitCounts, split_counts

INITIAL_FLAG = 0
"""Index of (stake 1, no buys, no twist, not doubled) in every Flags."""


def node_index(values: tuple[int, ...]) -> int:
    """Level index of a multiset of value indices."""
    return LEVELS[len(values) - 1].index[key_of_values([v + 1 for v in values])]


@dataclass(frozen=True)
class PairCase:
    weight: float
    pair_left: float


@dataclass
class PairInfo:
    """What a dealt pair of value ``pair`` looks like to the split rules."""

    same_rank: float
    """Chance that two cards of this value may be split (1 unless tens split by rank)."""
    cases: list[PairCase]
    cards_left: float
    share: float | None
    """Infinite deck: the fixed chance of a card that may be split again."""


def pair_info(deck: Deck, rules: Rules, up: int | None, pair: int) -> PairInfo:
    removed = np.zeros(NUM_VALUES)
    if up is not None:
        removed[up] += 1
    removed[pair] += 2
    rest = deck.remaining(removed)
    by_rank = rules.split_match == "rank" and pair == TEN
    if deck.infinite:
        share = deck.shares()[pair] / 4 if by_rank else deck.shares()[pair]
        return PairInfo(0.25 if by_rank else 1.0, [PairCase(1.0, 0.0)], 1.0, float(share))
    if not by_rank:
        return PairInfo(1.0, [PairCase(1.0, float(rest[pair]))], float(rest.sum()), None)
    per_rank = deck.rank_count()
    up_ranks = [(0.25, r0) for r0 in range(4)] if up == TEN else [(1.0, None)]
    cases = []
    for p_up, r0 in up_ranks:
        counts = [per_rank - (r == r0) for r in range(4)]
        tens = sum(counts)
        for c in counts:
            cases.append(PairCase(p_up * c * (c - 1) / (tens * (tens - 1)), c - 2))
    same = sum(c.weight for c in cases)
    return PairInfo(same, [PairCase(c.weight / same, c.pair_left) for c in cases], float(rest.sum()), None)


@dataclass
class SplitPlan:
    """The split decision for one pair against one up card, with its value in original stakes."""

    split: bool
    resplit: bool
    eg: float
    es: float
    counts: SplitCounts


@dataclass
class Solution:
    """The solved game: expected return, policy tables and how they were obtained."""

    rules: Rules
    num_decks: int | None
    banker: str
    expected_return: float
    """Per unit of initial stake, no Shoot bets."""
    seconds: float
    flags: Flags
    contexts: list[Context]
    context_index: dict[tuple[int | None, int | None], int]
    static: Static
    closed: list[LevelResult]
    """Play with no Shoot bet riding."""
    splits: dict[tuple[int | None, int], SplitPlan]
    up_probs: dict[int | None, float]
    start_probs: dict[int | None, np.ndarray]
    """Chance of each two-card hand (level-2 index) given the up card."""
    start_values: dict[int | None, np.ndarray]
    """Expected return of each two-card hand given the up card, the peek included."""
    shoot: object | None = None
    """A :class:`~shoot_pontoon_env.solver.shoot.ShootAnalysis` when requested."""
    banker_strategy: Policy | None = None
    """The free banker's strategy that was solved against (None under dealer rules)."""
    notes: list[str] = field(default_factory=list)

    @property
    def infinite(self) -> bool:
        return self.num_decks is None

    def context(self, up: int | None, split_of: int | None) -> int:
        return self.context_index[(up, split_of)]


def split_plan(sol_static: Static, results: list[LevelResult], deck: Deck, rules: Rules,
               ctx: int, up: int | None, pair: int, first: list[LevelResult] | None = None,
               resplit: bool | None = None) -> SplitPlan:
    """Value of splitting ``pair``, resplitting or not as ``resplit`` says (None: the better).
    ``first``: results to play the box's first hand by (a Shoot bet rides on it); the others play
    by ``results``."""
    info = pair_info(deck, rules, up, pair)
    node1 = node_index((pair,))
    p_second = sol_static.probs[0][ctx, node1]
    seconds = [node_index(tuple(sorted((pair, x)))) for x in range(NUM_VALUES)]

    def hand_values(res: list[LevelResult]) -> tuple[np.ndarray, np.ndarray]:
        return res[1].eg[ctx, seconds, INITIAL_FLAG], res[1].es[ctx, seconds, INITIAL_FLAG]

    eg_o, es_o = hand_values(results)
    eg_1, es_1 = hand_values(first) if first is not None else (eg_o, es_o)
    options = [False, True] if rules.max_split_hands > 2 else [False]
    if resplit is not None:
        options = [resplit]
    best: SplitPlan | None = None
    for again in options:
        eg = es = 0.0
        agg = np.zeros(4)
        for case in info.cases:
            p_pair = info.share if info.share is not None else case.pair_left / info.cards_left
            other = p_second.copy()
            other[pair] -= p_pair
            other = np.maximum(other, 0.0)
            other /= other.sum()
            counts = split_counts(case.pair_left, info.cards_left, rules.max_split_hands, again,
                                  infinite_share=info.share)
            rest_non = counts.non_pair - counts.first_non_pair
            rest_pair = counts.pair - counts.first_pair
            eg += case.weight * (counts.first_non_pair * other @ eg_1 + counts.first_pair * eg_1[pair]
                                 + rest_non * other @ eg_o + rest_pair * eg_o[pair])
            es += case.weight * (counts.first_non_pair * other @ es_1 + counts.first_pair * es_1[pair]
                                 + rest_non * other @ es_o + rest_pair * es_o[pair])
            agg += case.weight * np.array([counts.non_pair, counts.pair, counts.first_non_pair,
                                           counts.first_pair])
        plan = SplitPlan(True, again, float(eg), float(es), SplitCounts(*agg))
        if best is None or plan.eg + plan.es > best.eg + best.es + 1e-12:
            best = plan
    assert best is not None
    return best


def root_values(sol: Solution, results: list[LevelResult], deck: Deck, splits: dict,
                up: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(eg, es, split?) per two-card hand: the better of playing and splitting (no peek here);
    sets each plan's ``split`` to that choice."""
    rules = sol.rules
    ctx = sol.context(up, None)
    eg = results[1].eg[ctx, :, INITIAL_FLAG].copy()
    es = results[1].es[ctx, :, INITIAL_FLAG].copy()
    split_mask = np.zeros(len(eg), bool)
    for (u, pair), plan in splits.items():
        if u != up:
            continue
        node = node_index((pair, pair))
        same = pair_info(deck, rules, up, pair).same_rank
        plan.split = plan.eg + plan.es > eg[node] + es[node]
        if plan.split:
            split_mask[node] = True
            eg[node] = same * plan.eg + (1 - same) * eg[node]
            es[node] = same * plan.es + (1 - same) * es[node]
    return eg, es, split_mask


def peek_results(rules: Rules, static: Static, ctx: int) -> tuple[np.ndarray, np.ndarray]:
    """Per two-card hand: the stake multiple and the Shoot result settled at the peek, times the
    chance of the banker's Pontoon there (zeros without a peek). Each hand meets the Pontoon by the
    showdown's payoff, so a punter's Pontoon pushes under ``ties="push"``."""
    lv = LEVELS[1]
    if not rules.banker_peek:
        return np.zeros(lv.n), np.zeros(lv.n)
    pbp = 1.0 - static.no_pontoon[1][ctx]
    met = [payoff(punter_class(int(t), 2, bool(p)), PONTOON, rules, False) for t, p in zip(lv.total, lv.pontoon)]
    g, h = np.array(met, dtype=np.float64).T
    return g * pbp, h * pbp
