"""The Table: the readable reference engine of a Pontoon table (no Gymnasium here)."""

from .events import RESERVE_ACCOUNT, SHOOT_ACCOUNT, TABLE_ACCOUNT, Event, EventKind, account_name
from .hand import Hand
from .settlement import Outcome, banker_rank, hand_rank, showdown
from .table import MAX_PLAYERS, MIN_PLAYERS, Phase, Table

__all__ = [
    "MAX_PLAYERS", "MIN_PLAYERS", "RESERVE_ACCOUNT", "SHOOT_ACCOUNT", "TABLE_ACCOUNT", "Event", "EventKind",
    "Hand", "Outcome", "Phase", "Table", "account_name", "banker_rank", "hand_rank", "showdown",
]
