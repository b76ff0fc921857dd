"""The event log of a deal: what was dealt (face up or down), what was done, what was paid."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

# Accounts that chips move between besides the seats (seat numbers are 0..n-1): an Event's ``src``
# and ``dst``. (``rules.SHOOT`` is the Shoot preset, not an account.)
SHOOT_ACCOUNT = -1
RESERVE_ACCOUNT = -2
TABLE_ACCOUNT = -3  # chips staked on a hand, lying on the table until the hand is settled


class EventKind(str, Enum):
    SHUFFLE = "shuffle"
    DEAL_START = "deal_start"
    POST_SHOOT = "post_shoot"
    STAKE = "stake"
    SHOOT_BET = "shoot_bet"
    CARD = "card"
    PEEK = "peek"
    REVEAL = "reveal"
    ACTION = "action"
    BUST = "bust"
    PONTOON = "pontoon"
    FIVE_CARD_TRICK = "five_card_trick"
    PAYMENT = "payment"
    RESULT = "result"
    TURNOVER = "turnover"
    BANK_SALE = "bank_sale"
    MISDEAL = "misdeal"
    FORFEIT = "forfeit"
    DEAL_END = "deal_end"


class Event(NamedTuple):
    """One entry of the log. ``hand`` is the index in ``Table.hands`` (None for the banker)."""

    kind: EventKind
    seat: int | None = None
    hand: int | None = None
    card: int | None = None
    face_up: bool = False
    amount: int = 0
    src: int | None = None
    dst: int | None = None
    note: str = ""


def account_name(account: int) -> str:
    names = {SHOOT_ACCOUNT: "shoot", RESERVE_ACCOUNT: "reserve", TABLE_ACCOUNT: "table"}
    return names.get(account, f"seat {account}")
