"""Plots as PNG files: the learning curve against the reference agent, strategy heatmaps, the bankrolls
and the paired differences over the hands."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import EngFormatter  # noqa: E402

from .curve import CurvePoint  # noqa: E402
from .report import reference_of, unit_of  # noqa: E402
from .stats import Z95, Summary, mean_ci, paired_differences  # noqa: E402
from .tournament import AgentRecord  # noqa: E402


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def bankroll(records: Sequence[AgentRecord], path: Path, reference: AgentRecord | None = None) -> Path:
    """Every agent's bankroll over the hands, then one panel per other agent: its cumulative paired
    difference to ``reference`` on its own scale, where bankrolls that lie on top of each other part.
    The grey band is where a difference of zero per hand would keep the sum 95% of the time."""
    others = [(f"C{i}", r, d) for i, r in enumerate(records)
              if reference is not None and (d := paired_differences(r, reference)) is not None]
    panels = 1 + len(others)
    cols = min(panels, 2)
    rows = -(-panels // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 4 * rows), squeeze=False)
    ax = axes[0][0]
    for record in records:
        ax.plot(np.cumsum(record.returns), label=record.name, linewidth=1)
    ax.set_xlabel("hand")
    ax.set_ylabel("cumulative return (base stakes)")
    ax.set_title("Bankroll over the same hands")
    ax.legend(fontsize=8)
    unit = "unit stakes" if reference is not None and len(reference.per_stake) else "base stakes"
    for ax, (colour, record, diff) in zip(axes.flat[1:], others):
        hands = np.arange(1, len(diff) + 1)
        mean, ci = mean_ci(diff)
        band = Z95 * float(np.std(diff, ddof=1) if len(diff) > 1 else 0.0) * np.sqrt(hands)
        ax.fill_between(hands, -band, band, color="0.85", label="95% band of no difference")
        ax.plot(hands, np.cumsum(diff), linewidth=1, color=colour)
        ax.axhline(0.0, color="black", linewidth=0.8)
        ax.set_xlabel("hand")
        ax.set_ylabel(f"cumulative difference ({unit})")
        same = "identical on every hand" if not diff.any() else f"{mean:+.4f} ± {ci:.4f} per hand"
        ax.set_title(f"{record.name} minus {reference.name}: {same}", fontsize=10)
        ax.legend(fontsize=8, loc="best")
    for ax in axes.flat[panels:]:
        ax.set_visible(False)
    return _save(fig, path)


def evaluations_curve(evaluations: Path, path: Path, optimal: float | None) -> Path:
    """An SB3 ``evaluations.npz`` (EvalCallback) as it is: each evaluation's mean episode return with
    its own 95% interval, unpaired (each evaluation deals other hands), so the points carry the deal's
    noise. A run folder gives the paired curve of :func:`learning_curve` instead."""
    with np.load(evaluations) as data:
        steps, results = data["timesteps"], data["results"]
    mean = results.mean(axis=1)
    ci = Z95 * results.std(axis=1, ddof=1) / np.sqrt(results.shape[1]) if results.shape[1] > 1 else 0 * mean
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.errorbar(steps, mean, yerr=ci, marker="o", capsize=3, label="mean episode return (95% CI)")
    if optimal is not None:
        ax.axhline(optimal, color="black", linestyle="--", label=f"solver optimum {optimal:+.4f} per unit stake")
    ax.set_xlabel("training steps")
    ax.xaxis.set_major_formatter(EngFormatter())
    ax.set_ylabel("mean episode return (base stakes)")
    ax.set_title(f"Training's periodic evaluations (SB3 EvalCallback: unpaired, {results.shape[1]} episodes each)",
                 fontsize=10)
    ax.legend()
    return _save(fig, path)


def _paired_curves(runs: dict[str, list[tuple[int, float, float]]], reference: str, unit: str, path: Path,
                   title: str, final: tuple[int, float, float] | None = None) -> Path:
    """Paired differences to ``reference`` against training steps with their 95% intervals, one line
    per run; ``final`` (steps, difference, interval) is marked as the final model's point."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for run, points in sorted(runs.items()):
        steps, diffs, cis = zip(*sorted(points))
        ax.errorbar(steps, diffs, yerr=cis, marker="o", markersize=4, capsize=3, label=f"{run} (95% CI)")
    if final is not None:
        steps, diff, ci = final
        ax.errorbar([steps], [diff], yerr=[ci], marker="*", markersize=12, capsize=3, color="C3", linestyle="none",
                    label=f"final model: {diff:+.4f} ± {ci:.4f}")
    ax.axhline(0.0, color="black", linestyle="--", label=reference)
    ax.set_xlabel("training steps")
    ax.xaxis.set_major_formatter(EngFormatter())
    ax.set_ylabel(f"vs {reference}, {unit} (agent minus {reference}, paired)", fontsize=9)
    ax.set_title(title)
    ax.legend()
    return _save(fig, path)


def learning_curve(curve: Sequence[tuple[CurvePoint, Summary]], path: Path) -> Path | None:
    """A run's checkpoints and final model against the reference on the tournament's hands (None where
    none was paired with it)."""
    paired = [(p, s) for p, s in curve if s.paired_diff is not None]
    if not paired:
        return None
    run = paired[-1][1].name.split(":")[0]  # a checkpoint is named RUN:model_STEPS_steps, the final model RUN
    final = next(((p.steps, s.paired_diff, s.paired_ci95) for p, s in paired if p.final), None)
    summaries = [s for _, s in paired]
    reference = reference_of(summaries)
    return _paired_curves({run: [(p.steps, s.paired_diff, s.paired_ci95) for p, s in paired]}, reference,
                          unit_of(summaries), path,
                          f"Learning curve: each model vs {reference} on the table's {summaries[0].hands} hands", final)


CHECKPOINT_NAME = re.compile(r"^(?P<run>.+):model_(?P<steps>\d+)_steps$")
"""How a trained model names a checkpoint (``models.trained.run_name``): ``RUN:model_STEPS_steps``."""


def checkpoint_curve(summaries: Sequence[Summary], path: Path) -> Path | None:
    """The checkpoints among a tournament's agents (None if it has none): their paired difference to the
    reference agent against training steps, one line per run."""
    runs: dict[str, list[tuple[int, float, float]]] = {}
    for summary in summaries:
        match = CHECKPOINT_NAME.match(summary.name)
        if match and summary.paired_vs and summary.paired_diff is not None:
            runs.setdefault(match["run"], []).append(
                (int(match["steps"]), summary.paired_diff, summary.paired_ci95 or 0.0))
    if not runs:
        return None
    return _paired_curves(runs, reference_of(summaries), unit_of(summaries), path, "Checkpoints on common hands")


def _policy_grid(record: AgentRecord, softness: str, cards: int) -> tuple[list[int], list[str], np.ndarray,
                                                                          np.ndarray]:
    """Per total: the index in the labels of the agent's most frequent action (-1: it never decided
    there) and that action's share of its decisions there."""
    totals = list(range(4, 22)) if softness == "hard" else list(range(12, 22))
    cells: dict[int, dict[str, int]] = {}
    for (soft, total, n, label), count in record.decisions.items():
        if soft == softness and n == cards:
            cells.setdefault(total, {}).setdefault(label, 0)
            cells[total][label] += count
    labels = sorted({label for per in cells.values() for label in per})
    grid, share = np.full(len(totals), -1.0), np.zeros(len(totals))
    for row, total in enumerate(totals):
        if total in cells:
            top = max(cells[total], key=lambda label: cells[total][label])
            grid[row] = labels.index(top)
            share[row] = cells[total][top] / sum(cells[total].values())
    return totals, labels, grid, share


def _cell_text(label: str) -> str:
    """A heatmap cell's action: buys keep their amount (``buy 1.5x``), other labels their first word."""
    return label if label.startswith("buy") else label.split()[0][:5]


UNIFORM_AGENTS = ("random",)
"""Agents that pick uniformly among the legal actions: a panel of their most frequent action would be
one draw of noise, so the heatmaps leave them out and say so."""
CELL_FONT, TICK_FONT, TITLE_FONT = 9, 9, 10
"""Point sizes of the heatmaps' text (9 pt at least, readable at the saved resolution)."""


def strategy_heatmaps(records: Sequence[AgentRecord], path: Path, max_cards: int = 4) -> Path:
    """``strategy_figure`` saved as a PNG at ``path``."""
    return _save(strategy_figure(records, max_cards), path)


def strategy_figure(records: Sequence[AgentRecord], max_cards: int = 4) -> plt.Figure:
    """Per agent: the most frequent action by hand total (rows) and number of cards (columns), hard
    and soft hands; blank where the agent never decided, paler where its choice there was less often
    the same (the colour's strength is the action's share of the agent's decisions in that cell).
    Uniformly random agents (``UNIFORM_AGENTS``) are named in the title, not drawn."""
    drawn = [r for r in records if r.name not in UNIFORM_AGENTS]
    left_out = [r.name for r in records if r.name in UNIFORM_AGENTS]
    labels = sorted({key[3] for r in drawn for key in r.decisions})
    colours = plt.get_cmap("tab10")
    fig, axes = plt.subplots(2, max(len(drawn), 1), figsize=(3.6 * max(len(drawn), 1), 10), squeeze=False)
    for col, record in enumerate(drawn):
        for row, softness in enumerate(("hard", "soft")):
            ax = axes[row][col]
            totals = list(range(4, 22)) if softness == "hard" else list(range(12, 22))
            image = np.ones((len(totals), max_cards - 1, 3))
            for c, cards in enumerate(range(2, max_cards + 1)):
                _, own_labels, grid, share = _policy_grid(record, softness, cards)
                for r, value in enumerate(grid):
                    if value >= 0:
                        label = own_labels[int(value)]
                        colour = np.asarray(colours(labels.index(label) % 10)[:3])
                        image[r, c] = 1 - share[r] * (1 - colour)  # white where no action dominates
                        ax.text(c, r, _cell_text(label), ha="center", va="center", fontsize=CELL_FONT)
            ax.imshow(image, aspect="auto", origin="lower")
            ax.set_yticks(range(len(totals)), [str(t) for t in totals], fontsize=TICK_FONT)
            ax.set_xticks(range(max_cards - 1), [str(c) for c in range(2, max_cards + 1)], fontsize=TICK_FONT)
            ax.set_title(f"{record.name}: {softness} hands", fontsize=TITLE_FONT)
            ax.set_xlabel("cards held", fontsize=TICK_FONT)
            ax.set_ylabel(f"{softness} total", fontsize=TICK_FONT)
    if not drawn:
        axes[0][0].set_visible(False)
        axes[1][0].set_visible(False)
    title = "Most frequent action per hand (paler: chosen less often)" + (
        f"; not drawn: {', '.join(left_out)} (uniform among the legal actions)" if left_out else "")
    width = fig.get_figwidth() * 72 / (TITLE_FONT * 0.6)  # characters of the title's size in a line
    fig.suptitle(textwrap.fill(title, int(width)), fontsize=TITLE_FONT)
    return fig
