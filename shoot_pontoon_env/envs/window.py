"""``SeatWindow``: what a picture of one seat's table shows (``render.py``'s text, ``picture.py``'s
image), read from either engine, so that asking for a picture does not choose which engine plays."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine.events import Event
from ..engine.view import SeatView
from ..rules import Rules
from ..seat.action_table import ActionTable


class SeatWindow(NamedTuple):
    rules: Rules
    seat: int
    view: SeatView
    balances: tuple[int, ...]
    to_act: int | None
    events: list[Event] | None
    """The deal's event log (None: the batched engine keeps none)."""
    deals_played: int
    deals_per_episode: int
    action_table: ActionTable
    mask: np.ndarray
    episode_over: bool
    last_message: str = ""
