"""``KernelEpisode``: one seat's episode on the batched engine at one table (the kernel that
``gym.make_vec`` steps, ``vector/kernel_seat.py``), read back through ``vector/readout.py``."""

from __future__ import annotations

import numpy as np

from ..engine.hand import Hand
from ..engine.view import SeatView
from .tables import TableBatch
from .readout import batch_facts, batch_hands, batch_seat_view
from ..seat.config import SeatConfig
from ..seat.episode import Episode, TableFacts


class KernelEpisode(Episode):
    """One seat's episode on a one-table :class:`TableBatch`. Building it raises ``ValueError`` (naming
    the argument) where the batched engine cannot play the config: a table player it has no code for,
    or chip counts that could pass its int32 range."""

    engine = "batched"

    def __init__(self, config: SeatConfig) -> None:
        super().__init__(config)
        self.batch = TableBatch(config, 1)
        self._action = np.zeros(1, dtype=np.int64)
        self._no_reset = np.zeros(1, dtype=np.bool_)
        self._view: SeatView | None = None

    def reset(self, np_random: np.random.Generator, *, carry: bool,
              stacked: list[int] | None = None, key: int | None = None) -> np.ndarray:
        if stacked is not None:
            raise ValueError("a stacked deal plays on the Table (engine='table')")
        self.batch.reset(np_random, carry=carry, keys=None if key is None else np.array([key], dtype=np.int64))
        self._read()
        return self.batch.obs[0].copy()

    def step(self, index: int, np_random: np.random.Generator) -> tuple[np.ndarray, float, bool]:
        batch = self.batch
        self._action[0] = index
        batch.step(self._action, self._no_reset, np_random)
        self._read()
        return batch.obs[0].copy(), float(batch.rewards[0]), self.terminal

    @property
    def mask(self) -> np.ndarray:
        """The kernel's own mask row (read where it lies: the env copies it once, into its info)."""
        return self.batch.mask[0]

    def _read(self) -> None:
        batch = self.batch
        self.deals = int(batch.deals[0])
        self.terminal = bool(batch.terminated[0])
        self.illegal = bool(batch.illegal[0])
        self._view = None  # read back when asked for

    @property
    def view(self) -> SeatView:
        if self._view is None:
            self._view = batch_seat_view(self.batch, self.config.rules)
        return self._view

    def hands(self) -> list[Hand]:
        return batch_hands(self.batch)

    def facts(self) -> TableFacts:
        return batch_facts(self.batch)
