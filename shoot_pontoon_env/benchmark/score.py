"""A policy's score on a task of the suite: the raw paired figure and the normalised score with their
95% intervals, each on the task's own fixed hands (``suite.py`` says how each task is scaled)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .suite import PAIR, PAIR_ZERO, PUNTER, Task

Z95 = 1.959963984540054
ZERO = "random (the zero)"
"""How a task's evaluation names its uniform random policy (its score 0)."""


@dataclass
class TaskScore:
    """One policy (or pair) on one task."""

    task: str
    policy: str
    score: float
    """(policy - random) / (reference - random) on the task's hands; the pair task: 1 - its
    exploitability / the zero pair's."""
    score_ci95: float | None
    raw: float
    """The paired figure: the policy minus the reference on the same hands (per unit stake for a punter,
    per deal in base stakes for the banker); the pair task: its exploitability per unit stake."""
    raw_ci95: float | None
    reference: str
    reference_value: float
    """The reference's mean on these hands (the pair task: the zero pair's exploitability)."""
    random_value: float | None
    exact_optimum: float | None = None
    """The solver's exact expected return where the reference is ``optimal`` (its Monte Carlo is
    ``reference_value``, within three standard errors of it: ``optimum_z``)."""
    optimum_z: float | None = None
    hands: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


def _values(record: Any, seat: str) -> np.ndarray:
    return np.asarray(record.per_stake if seat == PUNTER else record.returns, dtype=np.float64)


def normalised(policy: np.ndarray, random: np.ndarray, reference: np.ndarray) -> tuple[float, float]:
    """The score (policy - random) / (reference - random) of per-hand values on common hands, and its
    95% half-width by the delta method (the three are correlated hand by hand)."""
    n = len(policy)
    gap = float(np.mean(reference - random))
    score = float(np.mean(policy - random)) / gap
    # d(score) = (dp - dr)/gap - score (dref - dr)/gap: its per-hand terms' standard error
    terms = ((policy - random) - score * (reference - random)) / gap
    return score, Z95 * float(np.std(terms, ddof=1)) / math.sqrt(n)


def score_policy(task: Task, policy: Any, *, name: str = "policy", quick: bool = False,
                 resolve: Any = None) -> TaskScore:
    """``policy`` (any spec ``shoot_pontoon_env.evaluate.evaluate`` takes; for the pair task, a
    ``(punter, banker)`` tuple) scored on ``task``."""
    if task.seat == PAIR:
        return score_pair(task, policy, name=name)
    import time

    from ..evaluate import BANKER_REFERENCES, evaluate

    start = time.perf_counter()
    reference = "optimal" if task.seat == PUNTER else BANKER_REFERENCES
    result = evaluate(task.env_id, {name: policy, ZERO: "random"}, hands=task.hands(quick),
                      seed=task.eval_seed, env_kwargs=task.env_kwargs, reference=reference, resolve=resolve)
    mine, random_row = result[name], result[ZERO]
    values = {s.name: _values(result.records[s.name], task.seat) for s in result}
    score, score_ci = normalised(values[name], values[ZERO], values[result.reference])
    raw, raw_ci = (mine.paired_diff, mine.paired_ci95) if mine.paired_vs is not None else (0.0, 0.0)
    z = None
    if result.optimal is not None and task.seat == PUNTER:
        ref = values[result.reference]
        z = (float(np.mean(ref)) - result.optimal) / (float(np.std(ref, ddof=1)) / math.sqrt(len(ref)))
    return TaskScore(task.name, name, score, score_ci, raw, raw_ci, result.reference,
                     float(np.mean(values[result.reference])),
                     random_row.per_stake if task.seat == PUNTER else random_row.mean,
                     result.optimal if task.seat == PUNTER else None, z, result.hands,
                     time.perf_counter() - start)


def score_pair(task: Task, pair: Any, *, name: str = "policy") -> TaskScore:
    """The heads-up pair task: ``pair`` is ``(punter, banker)``, each any policy the solver's best
    responses can ask (deterministic)."""
    import time

    from ..evaluate import exploitability

    if not (isinstance(pair, tuple) and len(pair) == 2):
        raise ValueError(f"task {task.name}: expected a (punter, banker) pair, got {pair!r}")
    start = time.perf_counter()
    mine = exploitability(pair[0], pair[1], task.rules).exploitability
    zero = exploitability(*PAIR_ZERO, task.rules).exploitability
    return TaskScore(task.name, name, 1 - mine / zero, None, mine, None, f"{PAIR_ZERO[0]}/{PAIR_ZERO[1]}", zero, None,
                     hands=0, seconds=time.perf_counter() - start)


__all__ = ["TaskScore", "normalised", "score_pair", "score_policy"]
