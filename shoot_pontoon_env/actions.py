"""What a seat can do: action kinds, actions with an amount, and legal-move ranges."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import IntEnum
from typing import NamedTuple

import numpy as np


class ActionKind(IntEnum):
    STAKE = 0  # a box's main stake (amount; 0 declines a further box)
    SHOOT_BET = 1  # a Shoot bet (amount; 0 places none)
    STICK = 2
    TWIST = 3
    BUY = 4  # draw a card for an added stake (amount)
    SPLIT = 5
    DOUBLE = 6  # Double Stakes variation
    KEEP_BANK = 7  # banker, between deals
    SELL_BANK = 8  # banker, between deals


AMOUNT_KINDS = frozenset({ActionKind.STAKE, ActionKind.SHOOT_BET, ActionKind.BUY})


class Action(NamedTuple):
    kind: ActionKind
    amount: int = 0

    def __str__(self) -> str:
        name = self.kind.name.lower()
        return f"{name} {self.amount}" if self.kind in AMOUNT_KINDS else name


STICK = Action(ActionKind.STICK)
TWIST = Action(ActionKind.TWIST)
SPLIT = Action(ActionKind.SPLIT)
DOUBLE = Action(ActionKind.DOUBLE)
KEEP_BANK = Action(ActionKind.KEEP_BANK)
SELL_BANK = Action(ActionKind.SELL_BANK)


def stake(amount: int) -> Action:
    return Action(ActionKind.STAKE, amount)


def shoot_bet(amount: int) -> Action:
    return Action(ActionKind.SHOOT_BET, amount)


def buy(amount: int) -> Action:
    return Action(ActionKind.BUY, amount)


class LegalMove(NamedTuple):
    """One kind of action with the inclusive range of amounts it allows (0..0 when amountless)."""

    kind: ActionKind
    low: int = 0
    high: int = 0

    def allows(self, action: Action) -> bool:
        return action.kind == self.kind and self.low <= action.amount <= self.high

    def actions(self) -> Iterator[Action]:
        for amount in range(self.low, self.high + 1):
            yield Action(self.kind, amount)

    def __str__(self) -> str:
        name = self.kind.name.lower()
        if self.kind not in AMOUNT_KINDS:
            return name
        return f"{name} {self.low}" if self.low == self.high else f"{name} {self.low}..{self.high}"


class IllegalActionError(ValueError):
    """An action that the current state does not allow; the state is left unchanged."""

    def __init__(self, action: object, legal: Sequence[LegalMove], reason: str = "") -> None:
        self.action = action
        self.legal = tuple(legal)
        allowed = ", ".join(str(m) for m in legal) or "none (no decision is pending)"
        detail = f" ({reason})" if reason else ""
        super().__init__(f"illegal action {action!s}{detail}; legal now: {allowed}")


def is_int(value: object) -> bool:
    """A whole number as the Table counts chips and seats: a Python or NumPy int, not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_legal(action: Action, legal: Sequence[LegalMove]) -> bool:
    return any(move.allows(action) for move in legal)
