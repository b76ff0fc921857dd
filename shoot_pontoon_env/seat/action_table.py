"""The Discrete action spaces: a fixed meaning per index, the legal-action mask, and the translation
between an index and an :class:`Action` (what ``Table.apply`` takes) for a given :class:`SeatView`.

Amounts come in configured *levels* so that one index always means the same thing: a stake level
is a chip amount, a Shoot bet level a chip amount, a buy level a multiple of the hand's original
stake (rounded half up to whole chips). A level is legal exactly when the Table's ``legal_moves``
allow its amount now; the mask is therefore derived, never decided here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..actions import Action, ActionKind, is_int
from ..engine.view import SeatView
from ..rules import CHIP_LIMIT, Rules
from .arguments import is_number

DEFAULT_LEVEL_MULTIPLES = (1, 2, 5)
"""Default stake and Shoot bet levels, in multiples of ``rules.base_stake``."""


@dataclass(frozen=True)
class ActionEntry:
    """What one index of the action space means."""

    kind: ActionKind
    amount: int = 0
    """Chips, for STAKE (0: no further box) and SHOOT_BET (0: no Shoot bet)."""
    multiple: float = 0.0
    """BUY only: the added stake as a multiple of the hand's original stake."""

    @property
    def label(self) -> str:
        if self.kind == ActionKind.STAKE:
            return f"stake {self.amount}" if self.amount else "no further box"
        if self.kind == ActionKind.SHOOT_BET:
            return f"Shoot bet {self.amount}" if self.amount else "no Shoot bet"
        if self.kind == ActionKind.BUY:
            return f"buy {self.multiple:g}x"
        if self.kind == ActionKind.DOUBLE:
            return "double stakes"
        return self.kind.name.lower().replace("_", " ")


def buy_amount(multiple: float, original_stake: int) -> int:
    """A buy level's chips: ``multiple`` x the original stake, rounded half up."""
    return int(math.floor(multiple * original_stake + 0.5))


class ActionTable:
    """An ordered tuple of :class:`ActionEntry`; index ``i`` of the Discrete space is ``entries[i]``."""

    def __init__(self, entries: Sequence[ActionEntry]) -> None:
        self.entries = tuple(entries)
        self._by_kind: dict[ActionKind, list[int]] = {}
        for index, entry in enumerate(self.entries):
            self._by_kind.setdefault(entry.kind, []).append(index)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def labels(self) -> list[str]:
        return [entry.label for entry in self.entries]

    def indices_by_kind(self) -> dict[ActionKind, tuple[int, ...]]:
        """The indices of each kind, in order (what :meth:`mask` visits for a legal move)."""
        return {kind: tuple(indices) for kind, indices in self._by_kind.items()}

    def index_of(self, kind: ActionKind, amount: int = 0) -> int:
        """The index of a fixed entry, e.g. ``index_of(ActionKind.STICK)`` (tests, scripts)."""
        for index in self._by_kind.get(kind, ()):
            if self.entries[index].amount == amount:
                return index
        raise KeyError(f"no action index for {kind.name} {amount}")

    def to_action(self, index: int, view: SeatView) -> Action | None:
        """The :class:`Action` index ``index`` stands for in ``view`` (None: no meaning now, e.g. a buy
        level when no hand is being played). Legality is not checked here; see :meth:`mask`."""
        entry = self.entries[index]
        if entry.kind == ActionKind.BUY:
            hand = view.current_hand
            if hand is None:
                return None
            return Action(ActionKind.BUY, buy_amount(entry.multiple, hand.original_stake))
        return Action(entry.kind, entry.amount)

    def mask(self, view: SeatView) -> np.ndarray:
        """Boolean mask of the indices whose action is legal in ``view`` (all False without a decision):
        index i is legal when some legal move of its kind allows its amount (``to_action``'s)."""
        legal = [False] * len(self.entries)
        hand = view.current_hand
        for move in view.legal:
            for index in self._by_kind.get(move.kind, ()):
                entry = self.entries[index]
                if entry.kind == ActionKind.BUY:
                    if hand is None:
                        continue
                    amount = buy_amount(entry.multiple, hand.original_stake)
                else:
                    amount = entry.amount
                if move.low <= amount <= move.high:
                    legal[index] = True
        return np.array(legal, dtype=bool)

    def to_index(self, action: Action, view: SeatView) -> int:
        """The legal index nearest to an :class:`Action`: the same kind with the nearest amount (ties:
        the lower index). A buy whose amount no legal level matches becomes a twist (always legal
        beside a buy). Used to let rule-based strategies act through the env."""
        mask = self.mask(view)
        kinds = [action.kind] + ([ActionKind.TWIST] if action.kind == ActionKind.BUY else [])
        for kind in kinds:
            candidates = [i for i in self._by_kind.get(kind, ()) if mask[i]]
            if not candidates:
                continue
            if kind != action.kind or kind not in (ActionKind.STAKE, ActionKind.SHOOT_BET, ActionKind.BUY):
                return candidates[0]
            return min(candidates, key=lambda i: (abs(self._amount(i, view) - action.amount), i))
        legal = np.flatnonzero(mask)
        raise ValueError(
            f"no legal action index for {action}: legal indices are "
            f"{', '.join(f'{i} ({self.entries[i].label})' for i in legal) or 'none'}"
        )

    def _amount(self, index: int, view: SeatView) -> int:
        action = self.to_action(index, view)
        return action.amount if action is not None else 0

    def describe(self, indices: Sequence[int] | np.ndarray) -> str:
        return ", ".join(f"{int(i)} ({self.entries[int(i)].label})" for i in indices) or "none"


# --------------------------------------------------------------------------- levels
def _sequence(name: str, levels: Any) -> tuple:
    """The levels as a tuple: a list, tuple or 1-D array (an ordered sequence, not a set, a string
    or a single number)."""
    if isinstance(levels, np.ndarray) and levels.ndim == 1:
        return tuple(levels.tolist())
    if not isinstance(levels, (list, tuple)):
        raise ValueError(f"{name} = {levels!r}: expected a list or tuple of levels in increasing order")
    return tuple(levels)


def _ascending(name: str, values: Sequence[float]) -> None:
    if any(b <= a for a, b in zip(values, values[1:])):
        raise ValueError(f"{name} = {tuple(values)!r}: expected strictly increasing values")


def stake_levels_for(rules: Rules, levels: Sequence[int] | None) -> tuple[int, ...]:
    """The configured stake levels, validated; by default 1, 2 and 5 base stakes within the limits."""
    if levels is None:
        derived = {min(max(m * rules.base_stake, rules.min_stake), rules.max_stake)
                   for m in DEFAULT_LEVEL_MULTIPLES}
        return tuple(sorted(derived))
    levels = _sequence("stake_levels", levels)
    if not levels or not all(
        is_int(s) and rules.min_stake <= s <= rules.max_stake for s in levels
    ):
        raise ValueError(
            f"stake_levels = {levels!r}: expected a non-empty sequence of chip amounts (ints) in "
            f"{rules.min_stake}..{rules.max_stake} (the rules' min_stake..max_stake)"
        )
    _ascending("stake_levels", levels)
    return tuple(int(s) for s in levels)


def shoot_bet_levels_for(rules: Rules, levels: Sequence[int] | None) -> tuple[int, ...]:
    """Shoot bet levels in chips; by default 1, 2 and 5 base stakes (capped by ``max_shoot_bet``),
    none when the rules have no Shoot."""
    if levels is None:
        if not rules.shoot or not rules.shoot_bet_points:
            return ()
        cap = rules.max_shoot_bet if rules.max_shoot_bet is not None else math.inf
        return tuple(sorted({int(min(m * rules.base_stake, cap)) for m in DEFAULT_LEVEL_MULTIPLES}))
    levels = _sequence("shoot_bet_levels", levels)
    if levels and not rules.shoot:
        raise ValueError(f"shoot_bet_levels = {levels!r}: expected () because these rules have no Shoot")
    if not all(is_int(b) and 1 <= b <= CHIP_LIMIT for b in levels):
        raise ValueError(f"shoot_bet_levels = {levels!r}: expected chip amounts (ints) in 1..{CHIP_LIMIT:,}")
    _ascending("shoot_bet_levels", levels)
    return tuple(int(b) for b in levels)


def buy_levels_for(rules: Rules, levels: Sequence[float] | None) -> tuple[float, ...]:
    """Buy levels as multiples of the original stake; by default the rules' minimum, midpoint and
    maximum multiple (deduplicated), none when the rules allow no buys."""
    low, high = rules.buy_min_multiple, rules.buy_max_multiple
    if levels is None:
        return tuple(sorted({float(low), (low + high) / 2, float(high)})) if rules.buys_allowed else ()
    levels = _sequence("buy_levels", levels)
    if levels and not rules.buys_allowed:
        raise ValueError(f"buy_levels = {levels!r}: expected () because these rules allow no buys")
    if not all(is_number(m) and low <= m <= high for m in levels):
        raise ValueError(
            f"buy_levels = {levels!r}: expected multiples of the original stake in {low}..{high} "
            "(the rules' buy_min_multiple..buy_max_multiple)"
        )
    _ascending("buy_levels", levels)
    return tuple(float(m) for m in levels)


def punter_action_table(
    rules: Rules,
    stake_levels: Sequence[int] | None = None,
    shoot_bet_levels: Sequence[int] | None = None,
    buy_levels: Sequence[float] | None = None,
) -> ActionTable:
    """The punter seat's actions, in this fixed order: no further box, the stake levels, no Shoot
    bet, the Shoot bet levels, stick, twist, the buy levels, split, double stakes."""
    entries = [ActionEntry(ActionKind.STAKE, 0)]
    entries += [ActionEntry(ActionKind.STAKE, s) for s in stake_levels_for(rules, stake_levels)]
    entries.append(ActionEntry(ActionKind.SHOOT_BET, 0))
    entries += [ActionEntry(ActionKind.SHOOT_BET, b) for b in shoot_bet_levels_for(rules, shoot_bet_levels)]
    entries += [ActionEntry(ActionKind.STICK), ActionEntry(ActionKind.TWIST)]
    entries += [ActionEntry(ActionKind.BUY, multiple=m) for m in buy_levels_for(rules, buy_levels)]
    entries += [ActionEntry(ActionKind.SPLIT), ActionEntry(ActionKind.DOUBLE)]
    return ActionTable(entries)


def banker_action_table() -> ActionTable:
    """The banker seat's actions: 0 stick, 1 twist, 2 keep the bank, 3 sell the bank."""
    return ActionTable([
        ActionEntry(ActionKind.STICK), ActionEntry(ActionKind.TWIST),
        ActionEntry(ActionKind.KEEP_BANK), ActionEntry(ActionKind.SELL_BANK),
    ])
