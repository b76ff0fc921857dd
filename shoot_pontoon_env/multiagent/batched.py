"""``batched_env``: N whole tables at once on the batched engine, every learner's seat an agent, in
pgx's multi-player shape (the seat to act, its observation and mask, a reward for every seat)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from ..actions import IllegalActionError
from ..rules import Rules
from ..seat.arguments import check_int
from ..strategies import Strategy
from ..vector.engine import MAX_TABLES
from ..vector.whole_table import WholeTableBatch
from .config import first_banker_of, whole_table_settings


class BatchedTableEnv:
    """``num_tables`` whole Shoot Pontoon tables stepped together (numba kernel, one core).

    ## Description
    Each table is one episode of :class:`~shoot_pontoon_env.multiagent.ShootPontoonAECEnv` with the
    same arguments, and the tables step together: :meth:`step` takes one action per table, for its
    seat to act. Seats given in ``players`` are played inside the kernel by those table players
    (rule-based strategies, the solver's policy, or frozen trained networks), so a learner can train
    some seats against fixed others; every other seat is a learner's.
    ``tests/multiagent/test_batched_differential.py`` holds every table equal to the Table-based AEC
    env step by step.

    ## Spaces
    ``action_space``: ``Discrete(n)``, the AEC env's seat action table (``action_table.labels``).
    ``observation_space``: the flat ``Box(float32)`` of one seat's own view; an observation batch is
    ``(num_tables, size)``, each row the view of that table's seat to act.

    ## Returns
    ``reset(seed=None, options=None) -> (obs, info)`` and ``step(actions) -> (obs, rewards,
    terminations, truncations, info)``, numpy arrays over the tables: ``rewards`` is
    ``(num_tables, num_players)`` float32, every seat's chips won in the step in base stakes (zero-sum
    but for the illegal-action penalty; a learner sums a seat's rewards from one decision of it to its
    next); ``info["current_seat"]`` ``(num_tables,)`` int64 is the seat to act (-1 where the episode
    just ended), ``info["action_mask"]`` ``(num_tables, n)`` bool its legal indices (every index where
    the episode just ended), ``info["illegal_action"]`` which tables' actions were illegal.

    ## Episode End
    An action of -1 lets table i wait: nothing changes there and its rewards are zero (a trainer
    that steps only some tables). ``terminations[i]`` when table i's ``deals_per_episode``-th deal is over; ``truncations[i]`` after
    ``max_cycles`` decisions of its learners. The next step starts a new episode at such a table
    (Gymnasium's next-step autoreset: its action is ignored and its rewards are zero), carrying a
    persistent shoe. An illegal action forfeits the seat's hands in play (``Table.forfeit``) and costs
    ``illegal_action_penalty``; with ``strict=True`` it raises :class:`IllegalActionError` and no table
    moves.

    ## Arguments
    ``num_tables`` (1..2**24), ``players`` (a dict of seat -> strategy name or Strategy for the seats
    the kernel plays: ``tips``, ``threshold``, ``stand17``, ``dealer``, ``shoot_aware``, ``random`` ..., or
    the solver's policy, ``optimal`` or ``basic``: one solver policy a table; or a trained network, a
    ``models.player.ActorPlayer`` or a ``models.trained.TrainedPlayer``, played by its numpy actor over
    its own action table, for the table's rules and size: a different one per seat if need be),
    and the AEC env's ``rules``, ``num_players``, ``first_banker``, ``stake_levels``,
    ``shoot_bet_levels``, ``buy_levels``, ``deals_per_episode``, ``max_cycles``,
    ``illegal_action_penalty``, ``strict`` and ``starting_chips``.
    """

    def __init__(
        self,
        num_tables: int,
        rules: str | Rules = "shoot",
        num_players: int = 4,
        first_banker: int | str = 0,
        stake_levels: Sequence[int] | None = None,
        shoot_bet_levels: Sequence[int] | None = None,
        buy_levels: Sequence[float] | None = None,
        deals_per_episode: int | None = None,
        max_cycles: int | None = None,
        illegal_action_penalty: float = 1.0,
        strict: bool = False,
        starting_chips: int = 1000,
        players: Mapping[int, Strategy | str] | None = None,
    ) -> None:
        self.num_tables = check_int("num_tables", num_tables, 1, MAX_TABLES)
        self.settings = whole_table_settings(rules, num_players, first_banker, stake_levels, shoot_bet_levels,
                                             buy_levels, deals_per_episode, max_cycles, illegal_action_penalty,
                                             strict, starting_chips, players)
        config = self.settings.config
        self.rules, self.num_players = config.rules, config.num_players
        self.action_table = config.action_table
        self.learners = self.settings.learners
        self.batch = WholeTableBatch(config, self.learners, self.num_tables)
        self.action_space = spaces.Discrete(len(self.action_table))
        self.observation_space = spaces.Box(config.encoder.low, config.encoder.high, dtype=np.float32)
        self.np_random: np.random.Generator | None = None
        self._decisions = np.zeros(self.num_tables, dtype=np.int64)
        self._ended = np.zeros(self.num_tables, dtype=np.bool_)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """New episodes at every table (``seed``: the one Generator every table's cards and random
        players draw from; None continues this env's, carrying a persistent shoe)."""
        if options:
            raise ValueError(f"options = {options!r}: the batched whole table takes no reset options "
                             "(a stacked deal plays on the AEC env)")
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        batch = self.batch
        for i in range(self.num_tables):
            batch.bankers[i] = first_banker_of(self.settings, self.np_random)
        batch.reset(self.np_random, carry=seed is None)
        self._decisions[:] = 0
        self._ended[:] = False
        return batch.obs.copy(), self._info(np.zeros(self.num_tables, dtype=np.bool_))

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if self.np_random is None:
            raise RuntimeError("call reset() before step()")
        batch = self.batch
        actions = self._check_actions(actions)
        resets = self._ended.copy()
        waiting = (actions < 0) & ~resets
        illegal = ~batch.mask[np.arange(self.num_tables), actions] & ~resets & ~waiting
        if self.settings.strict and illegal.any():
            i = int(np.flatnonzero(illegal)[0])
            index = int(actions[i])
            raise IllegalActionError(f"index {index} ({self.action_table.entries[index].label})",
                                     batch.seat_view(i, int(batch.seats[i])).legal,
                                     f"table {i}, seat {batch.seats[i]}: index {index} is not legal now")
        if resets.any():
            for i in np.flatnonzero(resets):
                batch.bankers[i] = first_banker_of(self.settings, self.np_random)
        batch.step(actions, resets, self.np_random)
        self._decisions = np.where(resets, 0, self._decisions + ~waiting)
        terminations = batch.terminated.copy()
        limit = self.settings.max_cycles
        truncations = (~terminations & (self._decisions >= limit) & ~resets if limit is not None
                       else np.zeros(self.num_tables, dtype=np.bool_))
        self._ended = terminations | truncations
        if truncations.any():  # the episode stops here: no seat to act, every index allowed (as when over)
            batch.seats[truncations] = -1
            batch.mask[truncations] = True
        return batch.obs.copy(), batch.rewards.copy(), terminations, truncations, self._info(illegal)

    def _check_actions(self, actions: Any) -> np.ndarray:
        n = len(self.action_table)
        array = np.asarray(actions)
        if array.shape != (self.num_tables,) or array.dtype.kind not in "iu":
            raise ValueError(f"actions: expected {self.num_tables} action indices (ints in 0..{n - 1}), one per "
                             f"table, got an array of shape {array.shape} and dtype {array.dtype}")
        bad = (array < -1) | (array >= n)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"actions[{i}] = {int(array[i])}: expected an action index in 0..{n - 1} "
                             "(or -1: the table waits)")
        return array.astype(np.int64)

    def _info(self, illegal: np.ndarray) -> dict[str, np.ndarray]:
        batch = self.batch
        return {"current_seat": batch.seats.copy(), "action_mask": batch.mask.copy(), "illegal_action": illegal,
                "banker": batch.step_bankers.copy(), "deal": batch.step_deals.copy()}

    def close(self) -> None:
        pass


def batched_env(num_tables: int, **kwargs: Any) -> BatchedTableEnv:
    """``num_tables`` whole tables on the batched engine (arguments: :class:`BatchedTableEnv`)."""
    return BatchedTableEnv(num_tables, **kwargs)
