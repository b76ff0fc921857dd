"""Summaries with 95% confidence intervals (normal approximation; hands are independent)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from .tournament import AgentRecord

Z95 = 1.959963984540054


@dataclass
class Summary:
    name: str
    hands: int
    mean: float
    """Expected return per hand, in base stakes."""
    ci95: float
    """Half-width of the 95% interval of ``mean``."""
    per_stake: float | None
    """Expected return per unit of initial stake (None for the banker seat, which stakes nothing)."""
    per_stake_ci95: float | None
    stake_part: float | None
    """The main stakes' share of ``per_stake`` (None where the Shoot's share was not recorded)."""
    shoot_part: float | None
    """The Shoot bets' share of ``per_stake``: chips won from the Shoot less Shoot bets lost."""
    shoot_part_ci95: float | None
    win: float
    push: float
    loss: float
    hand_classes: dict[str, float]
    shoot_bets_placed: int
    shoot_bets_won: int
    shoot_chips_bet: int
    shoot_chips_won: int
    mean_shoot_after: float
    turnovers: int
    illegal_actions: int
    vs_solver_optimum: float | None = None
    """This agent's return per unit stake minus the solver's exact optimum (where a solver value is
    given), unpaired, so it carries the deal's noise; like every "vs" figure, negative = worse."""
    vs_solver_optimum_ci95: float | None = None
    paired_vs: str | None = None
    paired_diff: float | None = None
    """Mean per-hand difference (this agent - ``paired_vs``) on the same seeds: per unit stake for
    punters, in base stakes for the banker seat."""
    paired_ci95: float | None = None
    seconds: float = 0.0
    """Wall seconds of its hands."""

    def to_dict(self) -> dict:
        return asdict(self)


def mean_ci(values: np.ndarray) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    std = float(np.std(values, ddof=1)) if n > 1 else 0.0
    return float(np.mean(values)), Z95 * std / math.sqrt(n)


def summarise(record: AgentRecord, optimal: float | None = None, reference: AgentRecord | None = None) -> Summary:
    returns = np.asarray(record.returns, dtype=float)
    per_stake = np.asarray(record.per_stake, dtype=float)
    mean, ci = mean_ci(returns)
    ps_mean, ps_ci = mean_ci(per_stake) if len(per_stake) else (None, None)
    shoot = None if record.shoot_part is None else np.asarray(record.shoot_part, dtype=float)
    sh_mean, sh_ci = mean_ci(shoot) if shoot is not None and len(shoot) else (None, None)
    n = max(len(returns), 1)
    classes = sum(record.hand_classes.values()) or 1
    summary = Summary(
        name=record.name, hands=len(returns), mean=mean, ci95=ci, per_stake=ps_mean, per_stake_ci95=ps_ci,
        stake_part=None if sh_mean is None or ps_mean is None else ps_mean - sh_mean, shoot_part=sh_mean,
        shoot_part_ci95=sh_ci,
        win=record.outcomes["win"] / n, push=record.outcomes["push"] / n, loss=record.outcomes["loss"] / n,
        hand_classes={k: v / classes for k, v in sorted(record.hand_classes.items())},
        shoot_bets_placed=record.shoot_bets, shoot_bets_won=record.shoot_bets_won,
        shoot_chips_bet=record.shoot_chips_bet, shoot_chips_won=record.shoot_chips_won,
        mean_shoot_after=float(np.mean(record.shoot_after)) if len(record.shoot_after) else 0.0,
        turnovers=record.turnovers, illegal_actions=record.illegal, seconds=record.seconds,
    )
    if optimal is not None and ps_mean is not None:
        summary.vs_solver_optimum = ps_mean - optimal
        summary.vs_solver_optimum_ci95 = ps_ci
    diff = None if reference is None else paired_differences(record, reference)
    if diff is not None:
        summary.paired_vs = reference.name
        summary.paired_diff, summary.paired_ci95 = mean_ci(diff)
    return summary


def paired_differences(record: AgentRecord, reference: AgentRecord) -> np.ndarray | None:
    """Hand by hand, ``record`` minus ``reference`` on their common hands: per unit stake for punters,
    in base stakes for the banker seat (either engine: both deal hand h alike). None for the reference
    itself."""
    if reference is record:
        return None
    per_stake = np.asarray(record.per_stake, dtype=float)
    same_unit = len(per_stake) and len(reference.per_stake) == len(per_stake)
    mine, theirs = (per_stake, reference.per_stake) if same_unit else (record.returns, reference.returns)
    return np.asarray(mine, dtype=float) - np.asarray(theirs, dtype=float)

