"""``WholeTableBatch``: N whole tables stepped together by the kernel, every learner's seat an agent.

Where a :class:`TableBatch` plays one agent seat against the kernel's table players, a whole-table
batch stops at whichever learner's seat is to act (pgx's multi-player shape: the current seat, its
observation and mask, and a reward for every seat at every step). The seats not in ``learners``
are played by their table players (``config.players``: rule-based, the solver's policy, an
``OptimalPunter``, or a trained network, an ``ObservationPolicy`` with a numpy actor, which plays only its
own role where the seat's player is split by role: ``models.player.RolePlayers``) inside the kernel.
Each table is one episode of ``ShootPontoonAECEnv``, step by step
(``tests/multiagent/test_batched_differential.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..seat.config import SeatConfig
from ..seat.episode import TableFacts
from ..engine.view import SeatView
from . import kernel_whole_table
from .tables import TableBatch, draw_keys, network_arrays, solver_players_policy
from .layout import C_PLAYERS, C_SEAT
from .readout import batch_facts, batch_seat_view


class WholeTableBatch(TableBatch):
    """The state of ``num_tables`` whole tables of one configuration (``config.seat`` is unused: the
    kernel encodes each table's seat to act) and the kernel calls that move it.

    After :meth:`reset` or :meth:`step`: ``seats[i]`` is the seat to act at table i (-1: its episode
    is over, and the next step starts a new one), ``obs[i]``/``mask[i]`` that seat's observation and
    legal indices (every index once over), ``rewards[i, s]`` seat s's reward of the step and
    ``terminated[i]`` whether table i's episode ended in it."""

    def __init__(self, config: SeatConfig, learners: Sequence[bool], num_tables: int, *,
                 feed_capacity: int = 0) -> None:
        super().__init__(config, num_tables, feed_capacity=feed_capacity, policy=solver_players_policy(config),
                         solver_players=True)
        if len(learners) != config.num_players or not any(learners):
            raise ValueError(f"learners = {list(learners)!r}: expected {config.num_players} flags, one at least true")
        n, players = self.num_tables, config.num_players
        self.learners = np.array(learners, dtype=np.bool_)
        self.rewards = np.zeros((n, players), dtype=np.float32)
        self.seats = np.full(n, -1, dtype=np.int64)
        self.bankers = np.zeros(n, dtype=np.int64)
        """Each table's first banker at its next reset."""
        self.marks = np.zeros((n, players), dtype=np.int64)
        """Each seat's wealth when its reward was last written (the kernel's)."""
        self.networks = network_arrays(config)
        """The trained networks the table players play by (``tables.network_arrays``)."""
        self.net_of = np.ascontiguousarray(np.tile(self.networks.of_seat.ravel(), (n, 1)))
        """``net_of[i, s]`` and ``net_of[i, num_players + s]``: the network (an index of ``networks``) that
        table i's seat s plays while it punts and while it banks, where ``config.players[s]`` is a network
        in that role (every table the same: the seat's; -1: its rule-based or solver player plays it)."""
        self.step_bankers = np.zeros(n, dtype=np.int64)
        """Every table's banker after the last reset or step (the ``banker`` column, contiguous)."""
        self._net_row = np.zeros(self.networks.row_size, dtype=np.float32)
        self._net_x = np.zeros(2 * self.networks.width, dtype=np.float64)

    def reset(self, rng: np.random.Generator, which: np.ndarray | None = None, *, carry: bool = True,
              keys: np.ndarray | None = None) -> None:
        """New episodes at the tables ``which`` (all by default), ``bankers`` banking first; ``carry``
        keeps a persistent shoe; ``keys``: each episode's shuffle key (by default drawn from ``rng``)."""
        which = self._all if which is None else np.ascontiguousarray(which, dtype=np.bool_)
        keys = draw_keys(rng, which, self._keys) if keys is None else keys
        self._play(rng, self._no_actions, which, carry, False, keys)

    def step(self, actions: np.ndarray, autoreset: np.ndarray, rng: np.random.Generator) -> None:
        """The seat to act at every table plays ``actions[i]`` (-1: the table waits, with zero rewards;
        ``autoreset`` rows start a new episode instead, carrying a persistent shoe)."""
        autoreset = np.ascontiguousarray(autoreset, dtype=np.bool_)
        self._play(rng, np.ascontiguousarray(actions, dtype=np.int64), autoreset, True, True,
                   draw_keys(rng, autoreset, self._keys) if autoreset.any() else self._no_keys)

    def _play(self, rng: np.random.Generator, actions: np.ndarray, resets: np.ndarray, carry: bool, step: bool,
              keys: np.ndarray) -> None:
        c = self.config
        net = self.networks
        self._check(kernel_whole_table.play_whole_tables(
            self.t, self.k8, c.c, c.f, c.tab, self.policy, net.ints, net.floats, self.net_of, self.obs, self.mask,
            actions, resets, bool(carry), step, np.ascontiguousarray(keys, dtype=np.int64), self.bankers,
            self.learners, self.marks, self.rewards, self.seats, self.terminated, self.step_bankers, self.step_deals,
            self.rng_handle(rng), self.scratch, self._net_row, self._net_x))

    # ------------------------------------------------------------------ any seat's view
    def observe(self, table: int, seat: int, row: np.ndarray, mask: np.ndarray) -> None:
        """Seat ``seat``'s observation and mask at table ``table`` into ``row`` and ``mask`` (no legal
        index unless the seat is to act)."""
        players = self.config.c[C_PLAYERS]
        if not 0 <= seat < players:
            raise ValueError(f"seat = {seat!r}: expected a seat of the table, 0..{players - 1}")
        if row.shape != self.obs.shape[1:] or mask.shape != self.mask.shape[1:]:
            raise ValueError(f"row of shape {row.shape} and mask of shape {mask.shape}: expected "
                             f"{self.obs.shape[1:]} and {self.mask.shape[1:]} (one table's observation and mask)")
        c = self.config
        kernel_whole_table.observe_whole_table(self.t[table], self.k8[table], c.c, c.f, seat, row, mask,
                                               self.scratch)

    def seat_view(self, table: int, seat: int) -> SeatView:
        """Seat ``seat``'s :class:`SeatView` at table ``table`` (what :meth:`observe` encodes)."""
        self.config.c[C_SEAT] = seat
        return batch_seat_view(self, self.seat_config.rules, table)

    def facts(self, table: int, seat: int) -> TableFacts:
        """Table ``table``'s public state, with ``seat``'s wealth."""
        self.config.c[C_SEAT] = seat
        return batch_facts(self, table)
