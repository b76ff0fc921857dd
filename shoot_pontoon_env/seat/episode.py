"""The episode contract, written once for one seat and for the whole table; ``TableFacts``: what either
engine says about the table beyond a seat's view; ``EngineChoice``: which engine plays each episode.

An episode is a table played from a reset to its last deal on one engine: the Table (the readable
reference) or the batched engine at one table. :class:`Episode` is one seat's (the single-seat envs':
``seat/table_episode.py`` on the Table, ``vector/kernel_episode.py`` on the kernel);
``multiagent.episodes.WholeTableEpisode`` is the whole table's, every seat an agent (the AEC env's).
Both are :class:`BaseEpisode` subclasses and keep this contract.

Who decides an illegal action, and what happens to it:

- The engine never judges an action index. ``Table.apply`` takes an ``Action`` and always raises
  ``IllegalActionError`` for one the rules do not allow (the kernel's table players never send one).
- The episode decides legality, from its ``mask``: an index is legal exactly where ``mask`` is true
  (the legal indices of the seat to act, the agent's for a seat's episode; every index once the
  episode is over, so that no mask is empty). It never raises for an illegal index: the seat to act
  forfeits its hands in play (``Table.forfeit``: as if bust, a banker's hand as a bust, a bank
  decision keeps the bank; chips are conserved), its reward carries ``config.illegal_action_penalty``
  (in base stakes) on top, and ``illegal`` is set until the next step. A seat's episode then ends
  (its deal played to the end); the whole table plays on.
- The env decides what the user sees. Before stepping the episode it looks the index up in the
  episode's ``mask`` and, for an illegal one, calls :func:`refuse`: with ``strict=True`` that raises
  ``IllegalActionError`` and the episode is not stepped (nothing changes); otherwise the env steps it
  and shows the message (``last_message``) and ``info["illegal_action"]``. An index outside the action
  space is no action at all: the env raises ``ValueError`` before any of this.

What a step returns: one seat's episode, ``(observation, reward, terminated)``: the agent's
observation, its wealth's change since the last step in base stakes (the penalty on top) and whether
the episode is over; the whole table's, ``(rewards, over)``: every seat's reward, each as the agent's,
and whether the episode is over. After a reset or a step, on either engine and either kind: ``mask``,
``deals`` (deals started), ``terminal`` (the episode is over) and ``illegal`` (the last step's index was
illegal).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Generic, NamedTuple, TypeVar

import numpy as np

from ..actions import IllegalActionError, LegalMove
from ..engine.events import Event
from ..engine.hand import Hand
from ..engine.view import SeatView
from .action_table import ActionTable
from .arguments import check_engine
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


class BaseEpisode(ABC):
    """What every episode is, for one seat or for the whole table (the contract: the module doc)."""

    engine: str
    """``"table"`` or ``"batched"``: which engine plays it."""

    mask: np.ndarray
    """The legal action indices of the seat to act now, as booleans (every index once the episode is
    over): the one place an index is judged legal. The episode's own array: copy it to keep it."""

    deals: int
    """Deals started in this episode."""

    terminal: bool
    """Whether the episode is over (a reset must come next)."""

    illegal: bool
    """Whether the last step's index was illegal (its seat forfeited, the penalty charged)."""

    def __init__(self, config: SeatConfig) -> None:
        self.config = config

    def events(self) -> list[Event] | None:
        """The deal's event log (the Table keeps one; the batched engine keeps none: None)."""
        return None


class Episode(BaseEpisode):
    """One seat's episode: :meth:`reset` starts one, :meth:`step` plays the agent's action index (an
    illegal one forfeits the agent's hand in play and ends the episode)."""

    def __init__(self, config: SeatConfig) -> None:
        super().__init__(config)
        self.deals = 0
        self.terminal = False
        self.illegal = False

    @abstractmethod
    def reset(self, np_random: np.random.Generator, *, carry: bool,
              stacked: list[int] | None = None, key: int | None = None) -> np.ndarray:
        """A new episode, its first observation returned; ``carry``: a persistent shoe carries over
        from this episode object's last one (a reset without a seed); ``stacked``: the first deal's
        cards (the Table only); ``key``: the shoe's shuffle key (by default drawn from ``np_random``
        on the batched engine; the Table shuffles by ``np_random`` without one)."""

    @abstractmethod
    def step(self, index: int, np_random: np.random.Generator) -> tuple[np.ndarray, float, bool]:
        """The agent's action index: the observation, the reward and whether the episode is over."""

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


def illegal_message(action_table: ActionTable, index: int, mask: np.ndarray) -> str:
    """What an illegal index meant and which were legal (every env's words)."""
    return (f"illegal action {index} ({action_table.entries[index].label}); legal were "
            f"{action_table.describe(np.flatnonzero(mask))}")


def refuse(action_table: ActionTable, index: int, mask: np.ndarray, legal: Callable[[], Sequence[LegalMove]],
           strict: bool, who: str = "") -> str:
    """The env's side of an illegal ``index`` (``mask``: the episode's): with ``strict`` raise
    ``IllegalActionError`` (``legal()``: the seat's legal moves), before the episode is stepped, so
    nothing changes; otherwise the message the env shows, ``who`` (the seat, the table) first."""
    message = (f"{who}: " if who else "") + illegal_message(action_table, index, mask)
    if strict:
        raise IllegalActionError(f"index {index} ({action_table.entries[index].label})", legal(), message)
    return message


E = TypeVar("E", bound=BaseEpisode)


class EngineChoice(Generic[E]):
    """Which engine plays each episode of an env (the single-seat envs' and the whole table's):
    ``"table"``, the reference Table (which keeps the event log); ``"batched"``, the batched engine at
    one table (a config it cannot play is a ``ValueError`` naming the argument); ``"auto"``, the batched
    engine where it can play the config (a ``ValueError`` building its episode: a table player it has
    no code for, chip counts past its int32 range, numba disabled), else the Table. A stacked deal
    always plays on the Table. Each engine's episode is built once and kept, so that a persistent shoe
    carries over from one reset to the next on it."""

    def __init__(self, engine: str, batched: Callable[[], E], table: Callable[[], E]) -> None:
        self.engine = check_engine(engine)
        self._build_batched, self._build_table = batched, table
        self._batched: E | None = None
        self._tried = False
        self.table_episode: E | None = None
        """The Table's episode, once one has been played (None before)."""

    @property
    def batched_episode(self) -> E | None:
        """The batched engine's episode, built at the first ask; None under ``"table"``, or under
        ``"auto"`` where the batched engine cannot play the config."""
        if not self._tried:
            self._batched = self._batched_or_none()
            self._tried = True
        return self._batched

    def _batched_or_none(self) -> E | None:
        if self.engine == "table":
            return None
        try:
            return self._build_batched()
        except ValueError as error:
            if self.engine == "batched":
                raise ValueError(f"engine = 'batched': {error}") from None
            return None

    def episode(self, stacked: bool) -> E:
        """The episode that plays the next reset: the batched engine's where there is one and the deal
        is not stacked, else the Table's."""
        batched = None if stacked else self.batched_episode
        if batched is not None:
            return batched
        if self.table_episode is None:
            self.table_episode = self._build_table()
        return self.table_episode

    def renew_batched(self) -> None:
        """Let the batched engine's episode go (a new config: a new batch, with no shoe to carry over);
        the next ask builds it anew."""
        self._batched, self._tried = None, False
