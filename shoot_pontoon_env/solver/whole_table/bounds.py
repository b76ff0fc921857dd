"""A certified interval for a mean estimated from sampled tables: where each sample is an exact value that
lies in a known range, the empirical Bernstein bound (Maurer and Pontil, "Empirical Bernstein Bounds and
Sample Variance Penalization", COLT 2009, Theorem 4) holds with a stated probability over the sampling,
whatever the values' law: no normal approximation, which a standard error leans on."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..headsup.game_punter import PunterRows

CONFIDENCE = 0.999
"""The default chance that the certified interval holds the true mean."""


@dataclass(frozen=True)
class CertifiedInterval:
    """``low <= mean <= high`` with probability at least ``confidence`` over the sampled tables."""

    low: float
    high: float
    confidence: float
    width: float
    """The range every sample lies in (its length): the bound's one assumption besides independence."""
    method: str = "empirical Bernstein (Maurer and Pontil 2009, Theorem 4), both sides"

    def to_dict(self) -> dict:
        return {"low": self.low, "high": self.high, "confidence": self.confidence, "range": self.width,
                "method": self.method}

    def shifted(self, by: float, negate: bool = False) -> CertifiedInterval:
        """The interval of ``by - mean`` (``negate``) or ``by + mean``, with the same chance."""
        low, high = (by - self.high, by - self.low) if negate else (by + self.low, by + self.high)
        return CertifiedInterval(low, high, self.confidence, self.width, self.method)


def empirical_bernstein(values: np.ndarray, low: float, high: float,
                        confidence: float = CONFIDENCE) -> CertifiedInterval:
    """An interval holding the mean of independent samples ``values``, each within ``[low, high]``, with
    probability at least ``confidence``: on each side ``sqrt(2 V ln(4/d) / n) + 7 w ln(4/d) / (3 (n - 1))``
    from the sample mean (``V`` the sample variance, ``w = high - low``, ``d = 1 - confidence`` split
    between the two sides), clipped to ``[low, high]``."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n < 2:
        raise ValueError(f"{n} samples: a certified interval needs two or more")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence = {confidence!r}: expected a chance strictly between 0 and 1")
    width = high - low
    if not width >= 0:
        raise ValueError(f"range [{low}, {high}]: expected low <= high")
    slack = 1e-9 * max(1.0, width)  # the exact values' own rounding
    if values.min() < low - slack or values.max() > high + slack:
        raise ValueError(f"samples within [{values.min()}, {values.max()}] outside the stated range [{low}, {high}]")
    log_term = math.log(4 / (1 - confidence))
    variance = float(values.var(ddof=1))
    half = math.sqrt(2 * variance * log_term / n) + 7 * width * log_term / (3 * (n - 1))
    mean = float(values.mean())
    return CertifiedInterval(max(low, mean - half), min(high, mean + half), confidence, width)


def box_swing(rows: PunterRows) -> float:
    """The most the banker's outcome moves a punter's box's net (per unit of its initial stake) at any row its
    policy reaches, Shoot bets included: two bankers that meet the same table, one drawing where the other
    stands, differ there by at most this much a box (at the peek, where no banker decides, by nothing)."""
    reached = rows.mass > 0 if rows.mass is not None else np.ones(len(rows.payoff), dtype=bool)
    scale = rows.mass[reached, None] if rows.mass is not None else 1.0
    nets = rows.payoff[reached] / scale
    return float((nets.max(axis=1) - nets.min(axis=1)).max())
