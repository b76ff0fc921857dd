"""How the kernel plays the agent's seat itself (:class:`BatchPlayer`), and the solver's policy as
arrays the kernel can look up: ``OptimalPunter``'s decisions without Python.

``OptimalPunter.punter_play`` reads a decision from ``Solution.closed[cards - 1].act[context, node,
flag]`` after an optional split from ``Solution.splits``, or, where it bets the Shoot, from the
Shoot policy's tables (``solver.shoot``: the bets at each point, and the tables and split plans of a
hand with a bet riding or still ahead); this module packs exactly those tables (and the maps from up
card, split card, stake flags and card values to their indices) into one int32 array. The kernel
walks a hand's node through ``space.LEVELS``' child tables, which is the same index
``solve.node_index`` computes from the sorted values.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ..cards import FIVE_CARDS
from ..rules import MAX_DRAWS, MAX_STAKE_MULTIPLE, Rules
from ..solver.player import OptimalPunter
from ..solver.space import LEVELS, NUM_VALUES
from ..players.policy import Policy
from .layout import AP_STRATEGY, AP_TABLE, AP_UNIFORM, UnbatchableStrategy, strategy_code

(P_CTX, P_FLAG, P_START, P_SPLIT, P_STAKE, P_CHILD, P_ACT, P_LEVEL_SIZE, P_FLAGS) = (
    0, 1, 2, 3, 4, 5, 5 + FIVE_CARDS, 5 + 2 * FIVE_CARDS, 5 + 3 * FIVE_CARDS)
(P_SHOOT, P_OPEN, P_BET_DEAL, P_BET_SECOND, P_BET_FOURTH, P_SPLIT_OPEN, P_SPLIT_FULL, P_ACT_OPEN, P_ACT_FULL) = (
    P_FLAGS + 1, P_FLAGS + 2, P_FLAGS + 3, P_FLAGS + 4, P_FLAGS + 5, P_FLAGS + 6, P_FLAGS + 7, P_FLAGS + 8,
    P_FLAGS + 8 + FIVE_CARDS)
P_SHOOT_CHIPS = P_ACT_FULL + FIVE_CARDS
HEADER = P_SHOOT_CHIPS + 1
"""Header: offsets of the context map (11 x 11: up card + 1, split card + 1), the flag map
(stake multiple 0..20 x buys 0..3 x twisted x doubled), the first card's node (10), the split plans
(11 x 10 x 2), the stake, the child table of each level, the action table of each level (context x
node x flag), each level's size, and the number of flag states. Then the Shoot policy
(``solver.shoot``; read only where P_SHOOT is 1): whether the before-fourth-card point is open
(P_OPEN), the bet before the deal, the bets before the second card (11 x 10: up card + 1, first
card) and before the fourth (context x three-card node x flag), the split plans of a hand with the
fourth-card bet ahead and with the allowance riding, the action tables of both states, and the allowance in
chips (P_SHOOT_CHIPS: ``OptimalPunter.shoot_bet_chips``)."""
MAX_BUYS = MAX_DRAWS
"""The flag map's stake multiples run to the largest ``Rules.max_stake_multiple`` (MAX_STAKE_MULTIPLE),
its buys to the largest ``Rules.max_buys`` (MAX_DRAWS)."""


def policy_table(strategy: OptimalPunter, *, base_stake: int, min_stake: int, max_stake: int) -> np.ndarray:
    """The int32 policy array of an ``OptimalPunter``, with its Shoot policy where it bets the Shoot."""
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

    def split_plans(plans: dict) -> np.ndarray:
        splits = np.zeros((NUM_VALUES + 1, NUM_VALUES, 2), dtype=np.int32)
        for (up, pair), plan in plans.items():
            splits[0 if up is None else up + 1, pair] = (int(plan.split), int(plan.resplit))
        return splits

    header[P_SPLIT] = add(split_plans(sol.splits))
    header[P_STAKE] = min(max(base_stake, min_stake), max_stake)
    for level in range(FIVE_CARDS):
        header[P_CHILD + level] = add(LEVELS[level].child)
        header[P_ACT + level] = add(sol.closed[level].act)
        header[P_LEVEL_SIZE + level] = LEVELS[level].n
    header[P_FLAGS] = sol.flags.n
    shoot = sol.shoot if strategy.shoot_bets else None
    if shoot is not None:  # OptimalPunter.shoot_bet, _splits and _table under solver.shoot's policy
        header[P_SHOOT] = 1
        header[P_OPEN] = int("before_fourth_card" in shoot.points)
        header[P_BET_DEAL] = int(shoot.bet_deal)
        header[P_SHOOT_CHIPS] = strategy.shoot_bet_chips
        second = np.zeros((NUM_VALUES + 1, NUM_VALUES), dtype=np.int32)
        for (up, first), bet in shoot.bet_second.items():
            second[0 if up is None else up + 1, first] = int(bet)
        header[P_BET_SECOND] = add(second)
        header[P_BET_FOURTH] = add(shoot.bet_fourth.astype(np.int32))
        header[P_SPLIT_OPEN] = add(split_plans(shoot.splits_open))
        header[P_SPLIT_FULL] = add(split_plans(shoot.splits_full))
        for level in range(FIVE_CARDS):
            header[P_ACT_OPEN + level] = add(shoot.open[level].act)
            header[P_ACT_FULL + level] = add(shoot.full[level].act)
    return np.concatenate([header] + parts)


def seat_roles(argument: str, player: Policy) -> list[tuple[str, Policy]]:
    """The (argument, player) of each of a seat's two roles, punting then banking: the two players of a
    seat split by role (``models.player.RolePlayers``, read by its ``role_players()``: named
    ``argument['punter']`` and ``argument['banker']`` in errors), or the one player in both. The kernel
    keeps a seat's players in this order (``WholeTableBatch.net_of``)."""
    split = getattr(player, "role_players", None)
    if not callable(split):
        return [(argument, player), (argument, player)]
    return [(f"{argument}[{role!r}]", part) for role, part in zip(("punter", "banker"), split())]


def distinct_players(argument: str, player: Policy) -> list[tuple[str, Policy]]:
    """``seat_roles`` with the player of both roles once."""
    return list({id(part): (name, part) for name, part in seat_roles(argument, player)}.values())


NO_POLICY = np.zeros(HEADER, dtype=np.int32)
"""The policy array of batches whose agent seat is not played by a solver's table."""


@dataclass(frozen=True)
class BatchPlayer:
    """How the kernel plays the agent's seat: ``mode`` (layout.AP_*) with its rule-based player or
    policy array."""

    mode: int
    strategy: Policy | None = None
    policy: np.ndarray = field(default_factory=lambda: NO_POLICY)

    @classmethod
    def uniform(cls) -> BatchPlayer:
        return cls(AP_UNIFORM)

    @classmethod
    def of_strategy(cls, strategy: Policy, rules: Rules) -> BatchPlayer | None:
        """The batched form of a table-player strategy, or None when the kernel cannot play it."""
        if type(strategy) is OptimalPunter:
            return cls(AP_TABLE, None, policy_table(strategy, base_stake=rules.base_stake,
                                                     min_stake=rules.min_stake, max_stake=rules.max_stake))
        try:
            strategy_code("agent", strategy)
        except UnbatchableStrategy:
            return None
        return cls(AP_STRATEGY, strategy)
