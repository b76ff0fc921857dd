"""How the kernel plays the agent's seat itself (:class:`BatchPlayer`), and the solver's policy as
arrays the kernel can look up: ``OptimalPunter``'s decisions without Python.

``OptimalPunter.punter_play`` reads a decision from ``Solution.closed[cards - 1].act[context, node,
flag]`` after an optional split from ``Solution.splits``; this module packs exactly those tables
(and the maps from up card, split card, stake flags and card values to their indices) into one int32
array. The kernel walks a hand's node through ``space.LEVELS``' child tables, which is the same index
``solve.node_index`` computes from the sorted values.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ..rules import Rules
from ..solver.player import OptimalPunter
from ..solver.space import LEVELS, MAX_CARDS, NUM_VALUES
from ..strategies import Strategy
from .layout import AP_STRATEGY, AP_TABLE, AP_UNIFORM, UnbatchableStrategy, strategy_code

(P_CTX, P_FLAG, P_START, P_SPLIT, P_STAKE, P_CHILD, P_ACT, P_LEVEL_SIZE, P_FLAGS) = (
    0, 1, 2, 3, 4, 5, 5 + MAX_CARDS, 5 + 2 * MAX_CARDS, 5 + 3 * MAX_CARDS)
HEADER = P_FLAGS + 1
"""Header: offsets of the context map (11 x 11: up card + 1, split card + 1), the flag map
(stake multiple 0..20 x buys 0..3 x twisted x doubled), the first card's node (10), the split plans
(11 x 10 x 2), the stake, the child table of each level, the action table of each level (context x
node x flag), each level's size, and the number of flag states."""
MAX_STAKE_MULTIPLE = 20
MAX_BUYS = 3


def policy_table(strategy: OptimalPunter, *, base_stake: int, min_stake: int, max_stake: int) -> np.ndarray:
    """The int32 policy array of an ``OptimalPunter`` that places no Shoot bets."""
    if strategy.shoot_bets:
        raise ValueError("an OptimalPunter with shoot_bets=True decides its Shoot bets from the Shoot's size: "
                         "the batched engine plays it only without them")
    sol = strategy.solution
    parts: list[np.ndarray] = []
    header = np.zeros(HEADER, dtype=np.int32)
    size = HEADER

    def add(array: np.ndarray) -> int:
        nonlocal size
        start = size
        parts.append(np.asarray(array, dtype=np.int32).ravel())
        size += parts[-1].size
        return start

    ctx = np.full((NUM_VALUES + 1, NUM_VALUES + 1), -1, dtype=np.int32)
    for (up, split_of), index in sol.context_index.items():
        ctx[0 if up is None else up + 1, 0 if split_of is None else split_of + 1] = index
    header[P_CTX] = add(ctx)
    flags = np.full((MAX_STAKE_MULTIPLE + 1, MAX_BUYS + 1, 2, 2), -1, dtype=np.int32)
    for stake, buys, twisted, doubled in itertools.product(range(MAX_STAKE_MULTIPLE + 1), range(MAX_BUYS + 1),
                                                           (0, 1), (0, 1)):
        index = sol.flags.index.get(sol.flags.key(stake, buys, bool(twisted), bool(doubled), sol.rules))
        if index is not None:
            flags[stake, buys, twisted, doubled] = index
    header[P_FLAG] = add(flags)
    header[P_START] = add([LEVELS[0].index[tuple(int(v == i) for v in range(NUM_VALUES))] for i in range(NUM_VALUES)])
    splits = np.zeros((NUM_VALUES + 1, NUM_VALUES, 2), dtype=np.int32)
    for (up, pair), plan in sol.splits.items():
        splits[0 if up is None else up + 1, pair] = (int(plan.split), int(plan.resplit))
    header[P_SPLIT] = add(splits)
    header[P_STAKE] = min(max(base_stake, min_stake), max_stake)
    for level in range(MAX_CARDS):
        header[P_CHILD + level] = add(LEVELS[level].child)
        header[P_ACT + level] = add(sol.closed[level].act)
        header[P_LEVEL_SIZE + level] = LEVELS[level].n
    header[P_FLAGS] = sol.flags.n
    return np.concatenate([header] + parts)


NO_POLICY = np.zeros(HEADER, dtype=np.int32)
"""The policy array of batches whose agent seat is not played by a solver's table."""


@dataclass(frozen=True)
class BatchPlayer:
    """How the kernel plays the agent's seat: ``mode`` (layout.AP_*) with its rule-based player or
    policy array."""

    mode: int
    strategy: Strategy | None = None
    policy: np.ndarray = field(default_factory=lambda: NO_POLICY)

    @classmethod
    def uniform(cls) -> BatchPlayer:
        return cls(AP_UNIFORM)

    @classmethod
    def of_strategy(cls, strategy: Strategy, rules: Rules) -> BatchPlayer | None:
        """The batched form of a table-player strategy, or None when the kernel cannot play it."""
        if type(strategy) is OptimalPunter:
            if strategy.shoot_bets:
                return None
            return cls(AP_TABLE, None, policy_table(strategy, base_stake=rules.base_stake,
                                                     min_stake=rules.min_stake, max_stake=rules.max_stake))
        try:
            strategy_code("agent", strategy)
        except UnbatchableStrategy:
            return None
        return cls(AP_STRATEGY, strategy)
