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
from typing import Any

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


class DealMeans:
    """The banker's mean chips over one kept deal at each state its keep/sell decision sees (the
    Shoot, the reserve, and whether a deal is left to play): running means over about the last
    ``window`` kept deals of each, so that they follow the players as they learn.

    A keep/sell decision is worth a chip or two where one deal's chips spread over tens: its sampled
    return is mostly the luck of the cards. With these means in place of each kept deal's chips it
    is the tenure's path (which Shoots it met, when it ended) and not the cards' luck; its
    expectation is the same wherever the means are exact (:meth:`SeatSamples.advantages`)."""

    KEY_SIZE = 3

    def __init__(self, window: int, min_count: int = 1_000) -> None:
        self.window, self.min_count = int(window), min(int(min_count), int(window))
        self.table: dict[tuple[float, ...], list[float]] = {}
        """key -> [kept deals counted, mean chips]."""
        self.since: dict[tuple[float, ...], list[float]] = {}
        """key -> [kept deals, their chips summed] since :meth:`take_recent`: the plain means of a
        generation, beside the running ones (a state met more rarely than ``window`` deals a generation
        has a running mean that remembers the whole run)."""

    def lookup(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each key's mean and whether it rests on ``min_count`` deals (if not, the sample's own chips
        are used)."""
        means = np.zeros(len(keys), dtype=np.float64)
        known = np.zeros(len(keys), dtype=np.bool_)
        if len(keys) == 0:
            return means, known
        unique, inverse = np.unique(keys, axis=0, return_inverse=True)
        for u, key in enumerate(unique):
            count, mean = self.table.get(tuple(key.tolist()), (0, 0.0))
            at = inverse.reshape(-1) == u
            means[at], known[at] = mean, count >= self.min_count
        return means, known

    def update(self, keys: np.ndarray, chips: np.ndarray) -> None:
        """Add kept deals' chips, in order (a running mean whose weight stops falling at ``window``)."""
        for key, value in zip(map(tuple, keys.tolist()), chips.tolist()):
            entry = self.table.setdefault(key, [0, 0.0])
            entry[0] += 1
            entry[1] += (value - entry[1]) / min(entry[0], self.window)
            recent = self.since.setdefault(key, [0, 0.0])
            recent[0] += 1
            recent[1] += value

    def take_recent(self) -> list[list[float]]:
        """The kept deals since the last call, as [key values, count, plain mean] rows (then forgotten)."""
        rows = [[*key, count, total / count] for key, (count, total) in sorted(self.since.items())]
        self.since = {}
        return rows

    def state(self) -> list[list[float]]:
        """A JSON-able copy (a resume restores it)."""
        return [[*key, count, mean] for key, (count, mean) in sorted(self.table.items())]

    def restore(self, rows: Any) -> None:
        size = self.KEY_SIZE + 2
        if not (isinstance(rows, list) and all(isinstance(row, list) and len(row) == size
                                               and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                       for v in row) for row in rows)):
            raise ValueError(f"deal_means: expected a list of [{self.KEY_SIZE} key values, count, mean] rows")
        self.table = {tuple(float(v) for v in row[:self.KEY_SIZE]): [int(row[-2]), float(row[-1])] for row in rows}


@dataclass(frozen=True)
class BankDecision:
    """How the banker's keep/sell decision is trained, apart from its draws: ``keep`` and ``sell``,
    its action indices in the banker's env; ``gae_lambda``, its own GAE lambda (none: the role's);
    ``deal_means``, when given, its return along the tenure with each kept deal's chips replaced by
    their mean at the decision's state (the sale's chips stay as they came)."""

    keep: int
    sell: int
    gae_lambda: float | None = None
    deal_means: DealMeans | None = None

    @property
    def actions(self) -> tuple[int, int]:
        return (self.keep, self.sell)


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
        self.held = np.zeros(capacity, dtype=np.float64)
        """The part of a sample's reward that reached its seat before it (its first of the episode)."""
        self.key = np.zeros((capacity, DealMeans.KEY_SIZE), dtype=np.float64)
        """A banker decision's state as :class:`DealMeans` keys it (zeros where not given)."""
        self.obs = [np.zeros((capacity, size), dtype=np.float32) for size in self.obs_sizes]
        self.masks = [np.zeros((capacity, size), dtype=np.bool_) for size in self.mask_sizes]

    _PER_SAMPLE = ("table", "seat", "role", "row", "action", "logp", "value", "reward", "next", "done", "of_episode",
                   "of_step", "held", "key")

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
            actions: np.ndarray, logp: np.ndarray, values: np.ndarray, keys: np.ndarray | None = None) -> None:
        """One step's decisions of one role (each table at most once in a step); ``keys``, the banker's
        states as :class:`DealMeans` keys them, where its keep/sell decisions are trained by them."""
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
        self.key[index] = 0.0 if keys is None else keys
        previous = self.last[tables, seats]
        linked = previous >= 0
        self.next[previous[linked]] = index[linked]
        self.reward[index] = self.held[index] = self.pending[tables, seats]
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

    def advantages(self, gae_lambdas: tuple[float, float], bank: BankDecision | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """GAE (gamma 1: chips are not discounted within an episode) along each seat's chain, for the
        finished samples (``finished()``), with each role's lambda, or ``bank``'s at a keep/sell
        decision; unfinished ones get zeros. With ``bank.deal_means`` a keep/sell decision's return is
        instead the sum, over it and the keep/sell decisions after it in the episode, of each one's
        chips to the next (the deal it kept, or the sale), a kept deal's being its mean where known."""
        advantage, returns, _ = self._advantages(gae_lambdas, bank)
        return advantage, returns

    def _advantages(self, gae_lambdas: tuple[float, float], bank: BankDecision | None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`advantages` and each sample's chips to its seat's next keep/sell decision (with what
        reached the seat before its first decision, ``held``, which a kept deal's mean does not replace)."""
        n = self.n
        ready = np.flatnonzero(self.finished())
        advantage = np.zeros(n, dtype=np.float64)
        value = self.value[:n].astype(np.float64)
        lambdas = np.asarray(gae_lambdas, dtype=np.float64)[self.role[:n]]
        at_bank = np.zeros(n, dtype=np.bool_)
        if bank is not None:
            banker = np.flatnonzero(self.role[:n] == 1)
            at_bank[banker] = self.masks[1][self.row[banker]][:, list(bank.actions)].any(axis=1)
            if bank.gae_lambda is not None:
                lambdas[at_bank] = bank.gae_lambda
        means = bank.deal_means if bank is not None else None
        deal = np.zeros(n, dtype=np.float64)
        """Chips from a sample to its seat's next keep/sell decision (or the episode's end)."""
        later = np.zeros(n, dtype=np.float64)
        """The return of the seat's next keep/sell decision after the sample (0: none)."""
        if means is not None:
            expected, known = means.lookup(self.key[:n])
            use_mean = at_bank & known & (self.action[:n] == bank.keep)
        steps = self.of_step[ready]
        # a sample's next decision is at a later step: one vectorised pass per step, the last first
        bounds = np.flatnonzero(np.diff(steps)) + 1
        for block in reversed(np.split(ready, bounds)):
            nxt = self.next[block]
            go_on = (nxt >= 0) & ~self.done[block]
            j = np.where(go_on, nxt, 0)
            reward = self.reward[block]
            if means is not None:
                deal[block] = reward + np.where(go_on & ~at_bank[j], deal[j], 0.0)
                later[block] = np.where(go_on, np.where(at_bank[j], advantage[j] + value[j], later[j]), 0.0)
            following = np.where(go_on, value[j] + lambdas[block] * advantage[j], 0.0)
            advantage[block] = reward + following - value[block]
            if means is not None:
                mine = at_bank[block]
                chips = np.where(use_mean[block], self.held[block] + expected[block], deal[block])
                advantage[block] = np.where(mine, chips + later[block] - value[block], advantage[block])
        return advantage, advantage + value, deal

    def take_finished(self, gae_lambdas: tuple[float, float], bank: BankDecision | None = None) -> list[Batch]:
        """The finished samples as one :class:`Batch` per role (removed from the store; the running
        episodes' samples stay, renumbered); their kept deals' chips join ``bank.deal_means`` after
        their advantages are taken."""
        advantage, returns, deal = self._advantages(gae_lambdas, bank)
        n = self.n
        ready = self.finished()
        if bank is not None and bank.deal_means is not None:
            banker = np.flatnonzero(ready & (self.role[:n] == 1) & (self.action[:n] == bank.keep))
            kept = banker[self.masks[1][self.row[banker]][:, list(bank.actions)].all(axis=1)]
            bank.deal_means.update(self.key[kept], deal[kept] - self.held[kept])
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
