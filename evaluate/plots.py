"""Plots as PNG files: learning curve against the optimum, strategy heatmaps, bankroll over hands."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .stats import Summary  # noqa: E402
from .tournament import AgentRecord  # noqa: E402


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def bankroll(records: Sequence[AgentRecord], path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for record in records:
        ax.plot(np.cumsum(record.returns), label=record.name, linewidth=1)
    ax.set_xlabel("hand")
    ax.set_ylabel("cumulative return (base stakes)")
    ax.set_title("Bankroll over the tournament's hands (same seeds for every agent)")
    ax.legend()
    return _save(fig, path)


def learning_curve(evaluations: Path, path: Path, optimal: float | None, base_per_stake: float = 1.0) -> Path:
    """From an SB3 ``evaluations.npz`` (EvalCallback): mean evaluation return against timesteps."""
    data = np.load(evaluations)
    steps, results = data["timesteps"], data["results"]
    mean = results.mean(axis=1) * base_per_stake
    sem = results.std(axis=1, ddof=1) / np.sqrt(results.shape[1]) * base_per_stake
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.errorbar(steps, mean, yerr=1.96 * sem, marker="o", capsize=3, label="trained agent (95% CI)")
    if optimal is not None:
        ax.axhline(optimal, color="black", linestyle="--", label=f"solver optimum {optimal:+.4f}")
    ax.set_xlabel("timesteps")
    ax.set_ylabel("expected return per unit stake")
    ax.set_title("Learning curve")
    ax.legend()
    return _save(fig, path)


CHECKPOINT_NAME = re.compile(r"^(?P<run>.+):model_(?P<steps>\d+)_steps$")
"""How :class:`agents.trained.TrainedAgent` names a checkpoint: ``RUN:model_STEPS_steps``."""


def checkpoint_curve(summaries: Sequence[Summary], path: Path) -> Path | None:
    """Paired difference to the reference agent against training steps, one line per run, for the
    checkpoints in a tournament (None if it has none). On common hands this curve is far less noisy
    than the periodic evaluations of :func:`learning_curve`."""
    runs: dict[str, list[tuple[int, float, float]]] = {}
    for summary in summaries:
        match = CHECKPOINT_NAME.match(summary.name)
        if match and summary.paired_vs and summary.paired_diff is not None:
            runs.setdefault(match["run"], []).append(
                (int(match["steps"]), summary.paired_diff, summary.paired_ci95 or 0.0))
    if not runs:
        return None
    reference = next(s.paired_vs for s in summaries if s.paired_vs)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for run, points in sorted(runs.items()):
        steps, diffs, cis = zip(*sorted(points))
        ax.errorbar(steps, diffs, yerr=cis, marker="o", capsize=3, label=f"{run} (95% CI)")
    ax.axhline(0.0, color="black", linestyle="--", label=reference)
    ax.set_xlabel("timesteps")
    ax.set_ylabel(f"paired difference to {reference}")
    ax.set_title("Checkpoints on common hands")
    ax.legend()
    return _save(fig, path)


def _policy_grid(record: AgentRecord, softness: str, cards: int) -> tuple[list[int], list[str], np.ndarray]:
    totals = list(range(4, 22)) if softness == "hard" else list(range(12, 22))
    cells = {}
    for (soft, total, n, label), count in record.decisions.items():
        if soft == softness and n == cards:
            cells.setdefault(total, {}).setdefault(label, 0)
            cells[total][label] += count
    labels = sorted({label for per in cells.values() for label in per})
    grid = np.full(len(totals), -1.0)
    for row, total in enumerate(totals):
        if total in cells:
            grid[row] = labels.index(max(cells[total], key=cells[total].get))
    return totals, labels, grid


def _cell_text(label: str) -> str:
    """A heatmap cell's action: buys keep their amount (``buy 1.5x``), other labels their first word."""
    return label if label.startswith("buy") else label.split()[0][:5]


def strategy_heatmaps(records: Sequence[AgentRecord], path: Path, max_cards: int = 4) -> Path:
    """Per agent: the most frequent action by hand total (rows) and number of cards (columns),
    hard and soft hands; blank where the agent never decided."""
    labels = sorted({key[3] for r in records for key in r.decisions})
    colours = plt.get_cmap("tab10")
    fig, axes = plt.subplots(2, len(records), figsize=(3.2 * len(records), 8), squeeze=False)
    for col, record in enumerate(records):
        for row, softness in enumerate(("hard", "soft")):
            ax = axes[row][col]
            totals = list(range(4, 22)) if softness == "hard" else list(range(12, 22))
            image = np.ones((len(totals), max_cards - 1, 3))
            for c, cards in enumerate(range(2, max_cards + 1)):
                _, own_labels, grid = _policy_grid(record, softness, cards)
                for r, value in enumerate(grid):
                    if value >= 0:
                        label = own_labels[int(value)]
                        image[r, c] = colours(labels.index(label) % 10)[:3]
                        ax.text(c, r, _cell_text(label), ha="center", va="center", fontsize=6)
            ax.imshow(image, aspect="auto", origin="lower")
            ax.set_yticks(range(len(totals)), [str(t) for t in totals], fontsize=7)
            ax.set_xticks(range(max_cards - 1), [str(c) for c in range(2, max_cards + 1)])
            ax.set_title(f"{record.name}: {softness}", fontsize=9)
            ax.set_xlabel("cards")
    return _save(fig, path)
