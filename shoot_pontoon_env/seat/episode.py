"""``Episode``: one seat's episode on either engine, behind the interface the front doors and the
differential test use; ``TableFacts``: what either engine says about the table beyond the seat's view."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import NamedTuple

import numpy as np

from ..engine.events import Event
from ..engine.hand import Hand
from ..engine.view import SeatView
from .config import SeatConfig


class TableFacts(NamedTuple):
    """The whole table's public state now, as both engines keep it (``tests/vector`` compares them)."""

    balances: tuple[int, ...]
    shoot: int
    reserve: int
    banker: int
    to_act: int | None
    total_chips: int
    wealth: int
    """The agent seat's (``Table.wealth``)."""
    turnovers: int


class Episode(ABC):
    """One seat's episode: :meth:`reset` starts one, :meth:`step` plays the agent's action index.

    After either, ``mask`` holds the legal indices (every index once the episode is over, so that no
    mask is empty), ``deals`` the deals started, ``terminal`` whether the episode is over, and
    ``illegal`` whether the last step's index was illegal (the agent's hand in play was forfeited)."""

    engine: str
    """``"table"`` or ``"batched"``: which engine plays it."""

    mask: np.ndarray
    """The legal action indices now, as booleans (the episode's own array: copy it to keep it)."""

    def __init__(self, config: SeatConfig) -> None:
        self.config = config
        self.deals = 0
        self.terminal = False
        self.illegal = False

    @abstractmethod
    def reset(self, np_random: np.random.Generator, *, carry: bool,
              stacked: list[int] | None = None) -> np.ndarray:
        """A new episode, its first observation returned; ``carry``: a persistent shoe carries over
        from this episode object's last one (a reset without a seed); ``stacked``: the first deal's
        cards (the Table only)."""

    @abstractmethod
    def step(self, index: int, np_random: np.random.Generator) -> tuple[np.ndarray, float, bool]:
        """The agent's action index (an illegal one forfeits the hand in play and ends the episode):
        the observation, the reward and whether the episode is over."""

    @property
    @abstractmethod
    def view(self) -> SeatView:
        """The agent seat's :class:`SeatView` now (what the observation encodes)."""

    @abstractmethod
    def hands(self) -> list[Hand]:
        """Every punter hand at the table now, face-down cards too (for records, not for the agent)."""

    @abstractmethod
    def facts(self) -> TableFacts:
        """The table's public state now."""

    def events(self) -> list[Event] | None:
        """The deal's event log (the Table keeps one; the batched engine keeps none: None)."""
        return None
