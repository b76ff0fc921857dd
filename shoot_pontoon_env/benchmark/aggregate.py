"""Aggregates over seeds and tasks as the field reports RL benchmarks (Agarwal et al., 2021, rliable): the
interquartile mean, the median, the mean and the optimality gap of the normalised scores, each with a
stratified bootstrap 95% interval, and performance profiles. Needs the ``benchmark`` extra (rliable)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

METRICS = ("iqm", "median", "mean", "optimality_gap")
BOOTSTRAP_REPS = 2000
CONFIDENCE = 0.95


def _rliable():
    try:
        from rliable import library as rly
        from rliable import metrics
    except ImportError as error:
        raise ImportError("the suite's aggregates need rliable: pip install -e '.[benchmark]' in a checkout "
                          f"({error})") from None
    return rly, metrics


def aggregate(scores: dict[str, np.ndarray], reps: int = BOOTSTRAP_REPS, seed: int = 0) -> dict[str, dict]:
    """``scores``: algorithm -> an array of normalised scores, one row per run (seed), one column per task.
    Returns algorithm -> metric -> {"value", "low", "high"} (rliable's point estimates and stratified
    bootstrap intervals)."""
    rly, metrics = _rliable()

    def every(matrix: np.ndarray) -> np.ndarray:
        return np.array([metrics.aggregate_iqm(matrix), metrics.aggregate_median(matrix),
                         metrics.aggregate_mean(matrix), metrics.aggregate_optimality_gap(matrix, 1.0)])

    matrices = {name: np.asarray(values, dtype=np.float64) for name, values in scores.items()}
    for name, matrix in matrices.items():
        if matrix.ndim != 2 or matrix.size == 0:
            raise ValueError(f"scores[{name!r}]: expected runs x tasks, got shape {matrix.shape}")
    np.random.seed(seed)  # rliable's bootstrap draws from numpy's global state: seeded for a replayable table
    points, intervals = rly.get_interval_estimates(matrices, every, reps=reps, confidence_interval_size=CONFIDENCE)
    return {name: {metric: {"value": float(points[name][i]), "low": float(intervals[name][0, i]),
                            "high": float(intervals[name][1, i])} for i, metric in enumerate(METRICS)}
            for name in matrices}


def performance_profile(scores: dict[str, np.ndarray], path: Path, reps: int = BOOTSTRAP_REPS) -> Path:
    """rliable's score distributions (the fraction of runs above each normalised score, with bootstrap
    bands) for every algorithm, drawn to ``path`` (matplotlib)."""
    rly, _ = _rliable()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rliable import plot_utils

    matrices = {name: np.asarray(values, dtype=np.float64) for name, values in scores.items()}
    low = min(float(m.min()) for m in matrices.values()) - 0.02  # the scores' own range, where they differ
    high = max(1.02, *(float(m.max()) + 0.01 for m in matrices.values()))
    taus = np.linspace(low, high, 121)
    np.random.seed(0)
    profiles, bands = rly.create_performance_profile(matrices, taus, reps=reps)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_utils.plot_performance_profiles(profiles, taus, performance_profile_cis=bands, ax=ax,
                                         xlabel=r"normalised score $\tau$ (0 random, 1 reference)",
                                         ylabel=r"fraction of runs with score > $\tau$")
    ax.legend(ax.get_lines()[:len(matrices)], list(matrices), loc="lower left", fontsize=9)
    ax.set_title("ShootPontoonBench-v1: score distributions")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
