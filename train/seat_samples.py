"""Every learner seat's decisions at many whole tables as one store of training samples, each chip of
reward credited to a decision of the seat it belongs to.

A table's step pays every seat (``batched_env``'s ``rewards``, shape tables x seats). A seat's rewards
from one of its decisions to its next are that decision's reward; what reaches a seat before its
first decision of an episode (the banker collecting from punters who bust before its turn) is held
and paid with its first decision, as ``train/rllib_tables.py`` does for RLlib. A seat that is never
asked in an episode has no sample to carry its chips: they are counted in ``unasked`` instead, so
that credited + unasked is every chip the seat won (``tests/train/test_table_selfplay.py``).

Samples are released whole episodes at a time (:meth:`take_finished`): a seat's advantages are then
computed along its own chain of decisions with no bootstrap across a rollout's end, and a sample
whose episode is still running waits for the next update.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ROLES = ("punter", "banker")
"""Role 0 is a punter's decision, role 1 the banker's: each role has its own network and inputs."""


@dataclass
class Batch:
    """One role's finished samples, ready for a PPO update."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    logp: np.ndarray
    values: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray
    rewards: np.ndarray
    tables: np.ndarray
    seats: np.ndarray
    episodes: np.ndarray
    """Where each sample was taken (its table, seat and that table's episode): for checks."""

    def __len__(self) -> int:
        return len(self.actions)


@dataclass(frozen=True)
class BankLambda:
    """GAE's lambda at the banker's keep/sell decision, apart from its draws: ``actions``, the
    banker's action indices that mark it (either legal)."""

    actions: tuple[int, ...]
    gae_lambda: float


class SeatSamples:
    """The samples of ``num_tables`` tables of ``num_players`` seats (tables numbered across every
    group of envs a trainer steps). ``obs_sizes[r]`` and ``mask_sizes[r]``: role r's input width and
    action count."""

    def __init__(self, num_tables: int, num_players: int, obs_sizes: tuple[int, int],
                 mask_sizes: tuple[int, int], capacity: int = 1 << 16) -> None:
        self.num_tables, self.num_players = num_tables, num_players
        self.obs_sizes, self.mask_sizes = obs_sizes, mask_sizes
        self.n = 0
        self.rows = [0, 0]
        self._allocate(capacity)
        self.last = np.full((num_tables, num_players), -1, dtype=np.int64)
        """Each seat's latest sample of the running episode (-1: not asked yet)."""
        self.pending = np.zeros((num_tables, num_players), dtype=np.float64)
        """Rewards that reached a seat before its first decision of the episode."""
        self.episode = np.zeros(num_tables, dtype=np.int64)
        """Each table's running episode, counted from 0."""
        self.step = 0
        """Steps counted by :meth:`tick`: a seat's next decision always comes at a later step."""
        self.unasked = np.zeros(num_players, dtype=np.float64)
        """Chips won by learner seats in episodes that never asked them (no sample to carry them)."""
        self.ignored = np.zeros(num_players, dtype=np.float64)
        """Chips won by seats a frozen player held (not trained on)."""

    # ------------------------------------------------------------------ storage
    def _allocate(self, capacity: int) -> None:
        self.capacity = capacity
        self.table = np.zeros(capacity, dtype=np.int64)
        self.seat = np.zeros(capacity, dtype=np.int64)
        self.role = np.zeros(capacity, dtype=np.int8)
        self.row = np.zeros(capacity, dtype=np.int64)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.logp = np.zeros(capacity, dtype=np.float32)
        self.value = np.zeros(capacity, dtype=np.float32)
        self.reward = np.zeros(capacity, dtype=np.float64)
        self.next = np.full(capacity, -1, dtype=np.int64)
        self.done = np.zeros(capacity, dtype=np.bool_)
        self.of_episode = np.zeros(capacity, dtype=np.int64)
        self.of_step = np.zeros(capacity, dtype=np.int64)
        self.obs = [np.zeros((capacity, size), dtype=np.float32) for size in self.obs_sizes]
        self.masks = [np.zeros((capacity, size), dtype=np.bool_) for size in self.mask_sizes]

    _PER_SAMPLE = ("table", "seat", "role", "row", "action", "logp", "value", "reward", "next", "done", "of_episode",
                   "of_step")

    def _grow(self, need: int) -> None:
        if need <= self.capacity:
            return
        old = {name: getattr(self, name) for name in self._PER_SAMPLE}
        obs, masks = self.obs, self.masks
        self._allocate(max(need, 2 * self.capacity))
        for name, array in old.items():
            getattr(self, name)[: len(array)] = array
        for r in range(len(ROLES)):
            self.obs[r][: len(obs[r])] = obs[r]
            self.masks[r][: len(masks[r])] = masks[r]

    # ------------------------------------------------------------------ the stream
    def add(self, tables: np.ndarray, seats: np.ndarray, role: int, obs: np.ndarray, masks: np.ndarray,
            actions: np.ndarray, logp: np.ndarray, values: np.ndarray) -> None:
        """One step's decisions of one role (each table at most once in a step)."""
        k = len(tables)
        if k == 0:
            return
        self._grow(self.n + k)
        index = np.arange(self.n, self.n + k)
        rows = np.arange(self.rows[role], self.rows[role] + k)
        self.table[index], self.seat[index], self.role[index], self.row[index] = tables, seats, role, rows
        self.action[index], self.logp[index], self.value[index] = actions, logp, values
        self.obs[role][rows] = obs
        self.masks[role][rows] = masks
        self.next[index] = -1
        self.done[index] = False
        self.of_episode[index] = self.episode[tables]
        self.of_step[index] = self.step
        previous = self.last[tables, seats]
        linked = previous >= 0
        self.next[previous[linked]] = index[linked]
        self.reward[index] = self.pending[tables, seats]
        self.pending[tables, seats] = 0.0
        self.last[tables, seats] = index
        self.n += k
        self.rows[role] += k

    def credit(self, first_table: int, rewards: np.ndarray, learner: np.ndarray) -> None:
        """A step's rewards of tables ``first_table..`` (``rewards``: tables x seats): each learner
        seat's to its latest decision, or held until its first; ``learner`` marks the seats the
        learner holds this episode."""
        tables = slice(first_table, first_table + len(rewards))
        last = self.last[tables]
        paid = learner & (last >= 0)
        np.add.at(self.reward, last[paid], rewards[paid])
        held = learner & (last < 0)
        self.pending[tables][held] += rewards[held]
        self.ignored += np.where(learner, 0.0, rewards).sum(axis=0)

    def tick(self) -> None:
        """Every table has stepped once: later decisions belong to a later step."""
        self.step += 1

    def end_episodes(self, tables: np.ndarray) -> None:
        """The episodes of ``tables`` are over: each seat's last decision is terminal."""
        if len(tables) == 0:
            return
        last = self.last[tables]
        self.done[last[last >= 0]] = True
        never = (last < 0)
        self.unasked += np.where(never, self.pending[tables], 0.0).sum(axis=0)
        self.pending[tables] = 0.0
        self.last[tables] = -1
        self.episode[tables] += 1

    # ------------------------------------------------------------------ release
    def finished(self) -> np.ndarray:
        """Which stored samples belong to episodes that are over."""
        n = self.n
        return self.of_episode[:n] < self.episode[self.table[:n]]

    def advantages(self, gae_lambdas: tuple[float, float], bank: BankLambda | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """GAE (gamma 1: chips are not discounted within an episode) along each seat's chain, for the
        finished samples (``finished()``), with each role's lambda, or ``bank``'s at a keep/sell
        decision; unfinished ones get zeros."""
        n = self.n
        ready = np.flatnonzero(self.finished())
        advantage = np.zeros(n, dtype=np.float64)
        value = self.value[:n].astype(np.float64)
        lambdas = np.asarray(gae_lambdas, dtype=np.float64)[self.role[:n]]
        if bank is not None:
            banker = np.flatnonzero(self.role[:n] == 1)
            at_bank = self.masks[1][self.row[banker]][:, list(bank.actions)].any(axis=1)
            lambdas[banker[at_bank]] = bank.gae_lambda
        steps = self.of_step[ready]
        # a sample's next decision is at a later step: one vectorised pass per step, the last first
        bounds = np.flatnonzero(np.diff(steps)) + 1
        for block in reversed(np.split(ready, bounds)):
            nxt = self.next[block]
            go_on = (nxt >= 0) & ~self.done[block]
            j = np.where(go_on, nxt, 0)
            following = np.where(go_on, value[j] + lambdas[block] * advantage[j], 0.0)
            advantage[block] = self.reward[block] + following - value[block]
        return advantage, advantage + value

    def take_finished(self, gae_lambdas: tuple[float, float], bank: BankLambda | None = None) -> list[Batch]:
        """The finished samples as one :class:`Batch` per role (removed from the store; the running
        episodes' samples stay, renumbered)."""
        advantage, returns = self.advantages(gae_lambdas, bank)
        n = self.n
        ready = self.finished()
        batches = []
        for r in range(len(ROLES)):
            pick = np.flatnonzero(ready & (self.role[:n] == r))
            rows = self.row[pick]
            batches.append(Batch(obs=self.obs[r][rows].copy(), masks=self.masks[r][rows].copy(),
                                 actions=self.action[pick].copy(), logp=self.logp[pick].copy(),
                                 values=self.value[pick].copy(), advantages=advantage[pick].astype(np.float32),
                                 returns=returns[pick].astype(np.float32), rewards=self.reward[pick].copy(),
                                 tables=self.table[pick].copy(), seats=self.seat[pick].copy(),
                                 episodes=self.of_episode[pick].copy()))
        self._keep(np.flatnonzero(~ready))
        return batches

    def _keep(self, keep: np.ndarray) -> None:
        """Keep only the samples ``keep`` (in order), renumbering links and each seat's latest."""
        new_index = np.full(self.n, -1, dtype=np.int64)
        new_index[keep] = np.arange(len(keep))
        for name in self._PER_SAMPLE:
            array = getattr(self, name)
            array[: len(keep)] = array[keep]
        nxt = self.next[: len(keep)]
        self.next[: len(keep)] = np.where(nxt >= 0, new_index[np.maximum(nxt, 0)], -1)
        rows = [0, 0]
        for r in range(len(ROLES)):
            mine = np.flatnonzero(self.role[: len(keep)] == r)
            old_rows = self.row[mine]
            self.obs[r][: len(mine)] = self.obs[r][old_rows]
            self.masks[r][: len(mine)] = self.masks[r][old_rows]
            self.row[mine] = np.arange(len(mine))
            rows[r] = len(mine)
        self.rows = rows
        live = self.last >= 0
        self.last[live] = new_index[self.last[live]]
        self.n = len(keep)
