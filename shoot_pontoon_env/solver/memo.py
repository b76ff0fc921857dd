"""Each solution once per process: ``solve`` keeps the last few it computed, keyed by all it depends on.

Every table player named ``optimal`` (each ``batched_env``, agent and evaluation that seats one) asks
``solve`` for the same rules again; the answer depends only on the rules, the shoe, the Shoot
allowance and what the banker draws on, so it is computed once and handed out as copies. The kept
solution's arrays are made read-only and shared by the copies, while everything around them
(dicts, lists, the dataclasses) is copied, so no caller can change what another one reads: a write
into a solution's table raises NumPy's read-only error.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from ..rules import Rules
from ..players.policy import Policy
from ..players.strategies import DealerRulesBanker, StandOnBanker
from .solution import Solution

KEPT = 8
"""Solutions kept at most (the least recently used goes first): a process rarely plays more rule
sets at once, and a casino solution holds 28 MB of tables (the Shoot preset's 4 MB)."""

KEYED_BANKERS = (StandOnBanker, DealerRulesBanker)
"""Banker classes whose draws are a function of their fields alone, so their fields key a solution;
any other banker (a custom strategy may change between calls) is solved afresh every time."""

_kept: OrderedDict[Hashable, tuple[Solution, dict[int, np.ndarray]]] = OrderedDict()
"""Per key: the solution and its arrays by id (what the copies share)."""


def banker_key(rules: Rules, banker: Policy | None) -> Hashable | None:
    """What the solution depends on of ``banker``; None where that cannot be told (not kept)."""
    if rules.banker_play == "dealer":
        return "dealer"  # the dealer's fixed rule: the banker argument is not used
    if banker is None:
        banker = StandOnBanker()
    if type(banker) not in KEYED_BANKERS:
        return None
    fields = tuple(sorted(vars(banker).items()))
    try:
        hash(fields)
    except TypeError:
        return None
    return type(banker).__qualname__, fields


def _arrays(value: Any, found: dict[int, np.ndarray]) -> None:
    """Every NumPy array reachable from ``value`` through dataclasses, dicts, lists and tuples."""
    if isinstance(value, np.ndarray):
        found[id(value)] = value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            _arrays(getattr(value, item.name), found)
    elif isinstance(value, dict):
        for item in value.values():
            _arrays(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _arrays(item, found)


def _shared_copy(solution: Solution, arrays: dict[int, np.ndarray], banker: Policy | None) -> Solution:
    """A deep copy that shares the (read-only) arrays and the frozen Rules, with the caller's banker."""
    memo: dict[int, Any] = dict(arrays)
    memo[id(solution.rules)] = solution.rules
    out = copy.deepcopy(solution, memo)
    if solution.banker_strategy is not None and banker is not None:
        out.banker_strategy = banker  # as an uncached solve sets it: the caller's own object
    return out


def remembered(key: Hashable | None, banker: Policy | None, compute: Callable[[], Solution]) -> Solution:
    """The solution kept under ``key`` (a copy), computing and keeping it first if it is not there;
    ``key`` None: computed afresh and not kept."""
    if key is None:
        return compute()
    entry = _kept.get(key)
    if entry is None:
        solution = compute()
        solution.banker_strategy = copy.deepcopy(solution.banker_strategy)  # not the caller's object
        arrays: dict[int, np.ndarray] = {}
        _arrays(solution, arrays)
        for array in arrays.values():
            array.flags.writeable = False
        entry = _kept[key] = solution, arrays
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    elif key in _kept:
        _kept.move_to_end(key)
    return _shared_copy(*entry, banker)


def forget_solutions() -> None:
    """Drop every kept solution (their memory goes once no copy refers to their arrays)."""
    _kept.clear()
