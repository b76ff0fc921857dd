"""One whole table's episode on either engine, every seat an agent: on the Table (the readable
reference) or on the batched engine at one table (``vector/whole_table.py``). The AEC env picks one
per episode (``seat.episode.EngineChoice``) and asks it the same questions, so it has no branches per
engine of its own. A whole table's episode keeps the contract one seat's does (``seat/episode.py``):
it judges an index by its own ``mask``, forfeits and charges the penalty for an illegal one, and
never raises for it."""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from ..engine.events import Event
from ..engine.table import Phase, Table
from ..engine.view import SeatView, seat_view
from ..seat.config import SeatConfig
from ..seat.episode import BaseEpisode, TableFacts
from ..seat.table_episode import carry_shoe, child_rng, table_facts
from ..vector.whole_table import WholeTableBatch


class WholeTableEpisode(BaseEpisode):
    """A whole table's episode: :meth:`reset` deals the first deal, :meth:`step` plays the action
    index of the seat to act (an illegal one forfeits its hands in play, ``Table.forfeit``, and the
    others play on) and the table on to the next decision. ``to_act`` is the seat to act (None once
    over), ``mask`` its legal indices, ``deals`` the deals started, ``banker`` the seat holding the
    bank."""

    def __init__(self, config: SeatConfig) -> None:
        super().__init__(config)
        self.terminal = False
        self.illegal = False

    @abstractmethod
    def reset(self, np_random: np.random.Generator, banker: int, *, carry: bool,
              stacked: list[int] | None = None) -> None:
        """A new episode with ``banker`` banking first; ``carry``: a persistent shoe carries over from
        this object's last episode; ``stacked``: the first deal's cards (the Table only)."""

    def step(self, index: int, np_random: np.random.Generator) -> tuple[list[float], bool]:
        """Play ``index`` for the seat to act, or forfeit its hands in play where ``mask`` does not
        allow it: every seat's reward (its wealth's change in base stakes, the penalty on top for an
        illegal index) and whether the episode is over. ``np_random`` is the env's (the kernel's random
        table players draw from it)."""
        self.illegal = not self.mask[index]
        rewards, self.terminal = self._play(index, self.illegal, np_random)
        return rewards, self.terminal

    @abstractmethod
    def _play(self, index: int, illegal: bool, np_random: np.random.Generator) -> tuple[list[float], bool]:
        """:meth:`step` on this engine, told whether ``index`` is illegal."""

    @abstractmethod
    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``seat``'s observation (float32) and mask (int8; all zeros unless it is to act)."""

    @abstractmethod
    def seat_view(self, seat: int) -> SeatView:
        """``seat``'s :class:`SeatView` (what :meth:`observe` encodes)."""

    @property
    @abstractmethod
    def to_act(self) -> int | None: ...

    @property
    @abstractmethod
    def deals(self) -> int: ...

    @property
    @abstractmethod
    def banker(self) -> int: ...

    @abstractmethod
    def facts(self, seat: int) -> TableFacts:
        """The table's public state, with ``seat``'s wealth."""

    def events(self) -> list[Event] | None:
        """The deal's event log (the Table keeps one; the batched engine keeps none: None)."""
        return None


class ReferenceWholeTable(WholeTableEpisode):
    """The episode on a :class:`Table`, the table players' code in Python: the reference of the
    batched engine. The seats not in ``learners`` (all are, by default) are played by
    ``config.players`` between the learners' decisions, as the kernel plays them (a seat split by
    role, ``models.player.RolePlayers``, by the player of the role it holds at each decision)."""

    engine = "table"

    def __init__(self, config: SeatConfig, learners: tuple[bool, ...] | None = None) -> None:
        super().__init__(config)
        self.learners = learners or (True,) * config.num_players
        self.table: Table | None = None
        self.mask = np.zeros(len(config.action_table), dtype=bool)
        self._stacked = False
        self._deals = 0
        self._marks: list[int] = []

    def reset(self, np_random: np.random.Generator, banker: int, *, carry: bool,
              stacked: list[int] | None = None) -> None:
        config = self.config
        previous = self.table
        table = Table(config.rules, config.num_players, rng=child_rng(np_random),
                      starting_chips=config.starting_chips, banker=banker)
        if previous is not None and carry and stacked is None and not self._stacked:
            carry_shoe(previous, table)
        table.start_deal(stacked=stacked)  # a ValueError for cards the packs cannot hold
        self.table, self._stacked, self._deals = table, stacked is not None, 1
        self._marks = [table.wealth(s) for s in range(config.num_players)]  # the first step pays what moves now
        if self._play_on(np_random):
            raise RuntimeError("the episode ended before a learner's first decision")  # refused by the settings
        self.terminal = self.illegal = False
        self._refresh()

    def _play(self, index: int, illegal: bool, np_random: np.random.Generator) -> tuple[list[float], bool]:
        table = self.table
        offender = table.to_act
        if illegal:
            table.forfeit()
        else:
            table.apply(self.config.action_table.to_action(index, seat_view(table, offender)))
        over = self._play_on(np_random)
        self._refresh()
        unit = self.config.rules.base_stake
        rewards = []
        for seat in range(self.config.num_players):
            wealth = table.wealth(seat)
            rewards.append((wealth - self._marks[seat]) / unit
                           - (self.config.illegal_action_penalty if illegal and seat == offender else 0.0))
            self._marks[seat] = wealth
        return rewards, over

    def _play_on(self, np_random: np.random.Generator) -> bool:
        """The table plays on to a learner's decision (False) or the end of the last deal (True)."""
        table, players = self.table, self.config.players
        while True:
            if table.phase == Phase.DEAL_OVER:
                if self._deals >= self.config.deals_per_episode:
                    return True
                table.start_deal()
                self._deals += 1
                continue
            seat = table.to_act
            if self.learners[seat]:
                return False
            table.apply(players[seat].act(seat_view(table, seat), np_random))

    def _refresh(self) -> None:
        """The seat to act's legal indices (every index once the episode is over)."""
        to_act = self.table.to_act
        if to_act is None:
            self.mask = np.ones(len(self.config.action_table), dtype=bool)
        else:
            self.mask = self.config.action_table.mask(seat_view(self.table, to_act))

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        view = seat_view(self.table, seat)
        deals_left = (self.config.deals_per_episode - self._deals) / self.config.deals_per_episode
        return self.config.encoder.encode(view, deals_left), self.config.action_table.mask(view).astype(np.int8)

    def seat_view(self, seat: int) -> SeatView:
        return seat_view(self.table, seat)

    @property
    def to_act(self) -> int | None:
        return self.table.to_act

    @property
    def deals(self) -> int:
        return self._deals

    @property
    def banker(self) -> int:
        return self.table.banker

    def facts(self, seat: int) -> TableFacts:
        return table_facts(self.table, seat)

    def events(self) -> list[Event]:
        return list(self.table.events)


class KernelWholeTable(WholeTableEpisode):
    """The episode on a one-table :class:`WholeTableBatch`, every seat a learner's. Building it raises
    ``ValueError`` where the batched engine cannot play the config (chip counts past its int32 range)."""

    engine = "batched"

    def __init__(self, config: SeatConfig) -> None:
        super().__init__(config)
        self.batch = WholeTableBatch(config, [True] * config.num_players, 1)
        self._action = np.zeros(1, dtype=np.int64)
        self._no_reset = np.zeros(1, dtype=np.bool_)
        self._row = np.zeros(config.observation_size, dtype=np.float32)
        self._mask = np.zeros(len(config.action_table), dtype=np.bool_)

    def reset(self, np_random: np.random.Generator, banker: int, *, carry: bool,
              stacked: list[int] | None = None) -> None:
        if stacked is not None:
            raise ValueError("a stacked deal plays on the Table (engine='table')")
        self.batch.bankers[0] = banker
        self.batch.reset(np_random, carry=carry)
        self.terminal = self.illegal = False

    @property
    def mask(self) -> np.ndarray:
        """The kernel's own mask row of the seat to act (every index once over)."""
        return self.batch.mask[0]

    def _play(self, index: int, illegal: bool, np_random: np.random.Generator) -> tuple[list[float], bool]:
        batch = self.batch  # the kernel judges the index by the same mask, and forfeits an illegal one
        self._action[0] = index
        batch.step(self._action, self._no_reset, np_random)
        return batch.rewards[0].tolist(), bool(batch.terminated[0])

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        batch = self.batch
        if seat == batch.seats[0]:
            return batch.obs[0].copy(), batch.mask[0].astype(np.int8)
        batch.observe(0, seat, self._row, self._mask)
        return self._row.copy(), self._mask.astype(np.int8)

    def seat_view(self, seat: int) -> SeatView:
        return self.batch.seat_view(0, seat)

    @property
    def to_act(self) -> int | None:
        seat = int(self.batch.seats[0])
        return seat if seat >= 0 else None

    @property
    def deals(self) -> int:
        return int(self.batch.deals[0])

    @property
    def banker(self) -> int:
        return int(self.batch.banker[0])

    def facts(self, seat: int) -> TableFacts:
        return self.batch.facts(0, seat)
