"""Evaluations on the batched engine: many hands of one agent, dealt by common random numbers.

Hand ``h`` of an evaluation seeded ``seed`` starts a fresh table whose shoe is shuffled by the key
``kernel_evaluation.hand_key(seed, h)``: the lazy shuffle draws each position's card from (key, shuffle,
position) alone, so every agent meets the same shoe order in hand ``h`` however many cards it takes,
as in the scalar tournament, where hand ``h`` is reset with seed ``seed + h``.

The agent's seat is played either by the kernel itself (a :class:`BatchPlayer`: a rule-based player,
a solver's policy table, or uniform over the mask; no Python per step) or from actions a Python
callback chooses for every table at once (a trained network's forward pass).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..seat.config import SeatConfig
from . import kernel_evaluation
from .tables import TableBatch
from .layout import AP_NONE, T_HAND, T_NEEDS_RESET
from .policy import NO_POLICY, BatchPlayer

__all__ = ["BatchActor", "BatchPlayer", "HandResults", "evaluate_hands"]

BatchActor = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(observations, masks) of every table -> one action index per table."""
STEPS_PER_CALL = 64
"""Steps each table takes per kernel call of a self-playing evaluation (between progress updates)."""


@dataclass
class HandResults:
    """Per hand (index h): the episode's return, net per unit of initial stake (NaN without own hands)
    and the Shoot bets' share of it, outcome (+1, 0, -1) and the Shoot after it; and totals over all
    hands."""

    returns: np.ndarray
    per_stake: np.ndarray
    shoot_part: np.ndarray
    outcome: np.ndarray
    shoot_after: np.ndarray
    totals: np.ndarray
    """kernel_evaluation.R_*: hand classes, Shoot bets placed and won, chips bet and won, turnovers, illegal
    actions."""
    decisions: np.ndarray
    """Counts (soft, total, cards, action index) of the agent's playing decisions."""


def evaluate_hands(config: SeatConfig, hands: int, seed: int, *,
                   player: BatchPlayer | None = None, actor: BatchActor | None = None, num_tables: int = 4096,
                   progress: Callable[[int], object] | None = None, rng: np.random.Generator | None = None,
                   episode_starts: Callable[[np.ndarray], object] | None = None) -> HandResults:
    """Play ``hands`` hands at tables of the seat configuration ``config`` (an env's ``config``), the
    agent's seat played by ``player`` (in the kernel) or by ``actor`` (one call per step for every
    table). ``progress(k)`` is called as hands finish; ``episode_starts(rows)``, before each call of
    ``actor``, with the tables (a bool per row) whose episode begins at the observation it is given
    (a recurrent policy's memory is reset there)."""
    if (player is None) == (actor is None):
        raise ValueError("evaluate_hands needs exactly one of player (played by the kernel) or actor")
    tables = max(1, min(num_tables, hands))
    mode = player.mode if player is not None else AP_NONE
    batch = TableBatch(config, tables, autopilot=(mode, player.strategy if player else None),
                       policy=player.policy if player is not None else NO_POLICY, blind=player is not None)
    rng = rng if rng is not None else np.random.default_rng(seed)
    batch.t[:, T_NEEDS_RESET] = 1
    batch.t[:, T_HAND] = -1
    results = HandResults(
        returns=np.zeros(hands), per_stake=np.full(hands, np.nan), shoot_part=np.full(hands, np.nan), outcome=np.zeros(hands, dtype=np.int8),
        shoot_after=np.zeros(hands, dtype=np.int64), totals=np.zeros(kernel_evaluation.R_FIELDS, dtype=np.int64),
        decisions=np.zeros(2 * kernel_evaluation.D_TOTALS * kernel_evaluation.D_CARDS * len(config.action_table),
                           dtype=np.int64),
    )
    running = np.zeros(tables)
    actions = np.zeros(tables, dtype=np.int64)
    c = batch.config
    done_before = 0

    def call(external: bool, budget: int) -> int:
        active = kernel_evaluation.play_hands(batch.t, batch.k8, c.c, c.f, c.tab, batch.policy, batch.obs,
                                              batch.mask, actions, external, seed, hands, budget, running,
                                              results.returns, results.per_stake, results.shoot_part, results.outcome,
                                              results.shoot_after, results.totals, results.decisions,
                                              batch.rng_handle(rng), batch.scratch)
        batch._check()
        return int(active)

    def report() -> None:
        nonlocal done_before
        if progress is None:
            return
        hand, waiting = batch.t[:, T_HAND].astype(np.int64), batch.t[:, T_NEEDS_RESET] != 0
        done = int(np.where(hand >= 0, (hand - np.arange(tables)) // tables + waiting, 0).sum())
        if done > done_before:
            progress(done - done_before)
            done_before = done

    if actor is None:
        while call(False, STEPS_PER_CALL) > 0:
            report()
    else:
        active = call(True, 0)  # every table to its first hand
        hand = batch.t[:, T_HAND].copy()
        starts = np.ones(tables, dtype=bool)
        while active > 0:
            if episode_starts is not None:
                episode_starts(starts)
            actions[:] = actor(batch.obs, batch.mask)
            active = call(True, 1)
            now = batch.t[:, T_HAND]
            np.not_equal(now, hand, out=starts)
            hand[:] = now
            report()
    report()
    return results
