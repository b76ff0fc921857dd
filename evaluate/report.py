"""The tournament's report as a terminal table (rich), JSON and Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

from shoot_pontoon_env.cli import strict_json

from .stats import Summary

COLUMNS = ("agent", "hands", "return/hand (base stakes)", "per unit stake", "stake / Shoot part",
           "gap to optimal", "win", "push", "loss", "Shoot bets won/placed")

TABLE_WIDTH = 200
"""Characters of the terminal table with agent names of up to 12 characters; longer names widen it."""


def _row(s: Summary) -> list[str]:
    gap = "—" if s.gap_to_optimal is None else f"{s.gap_to_optimal:+.4f} ± {s.gap_ci95:.4f}"
    unit = "—" if s.per_stake is None else f"{s.per_stake:+.4f} ± {s.per_stake_ci95:.4f}"
    parts = "—" if s.shoot_part is None else f"{s.stake_part:+.4f} / {s.shoot_part:+.4f}"
    return [
        s.name, f"{s.hands}", f"{s.mean:+.4f} ± {s.ci95:.4f}", unit, parts, gap,
        f"{s.win:.3f}", f"{s.push:.3f}", f"{s.loss:.3f}", f"{s.shoot_bets_won}/{s.shoot_bets_placed}",
    ]


def print_table(summaries: Sequence[Summary], title: str, console: Console | None = None) -> None:
    table = RichTable(title=title)
    reference = next((s.paired_vs for s in summaries if s.paired_vs), None)
    columns = COLUMNS + ((f"paired vs {reference}",) if reference else ())
    for column in columns:
        table.add_column(column, justify="left" if column == "agent" else "right", no_wrap=column == "agent")
    for summary in summaries:
        paired = (f"{summary.paired_diff:+.4f} ± {summary.paired_ci95:.4f}",) if summary.paired_vs else ("—",)
        table.add_row(*_row(summary), *(paired if reference else ()))
    longest_name = max((len(s.name) for s in summaries), default=0)
    (console or Console(width=TABLE_WIDTH + max(longest_name - 12, 0))).print(table)


def to_markdown(summaries: Sequence[Summary], title: str) -> str:
    lines = [f"## {title}", "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_row(s)) + " |" for s in summaries]
    lines += ["", "Intervals are 95% (normal approximation over independent hands). Every agent played the "
              "same seeded hands (common random numbers)."]
    paired = [s for s in summaries if s.paired_vs]
    if paired:
        lines += ["", f"Paired differences against {paired[0].paired_vs} (same hands; per unit stake for "
                  "punters, base stakes for the banker):", ""]
        lines += [f"- {s.name}: {s.paired_diff:+.4f} ± {s.paired_ci95:.4f}" for s in paired]
    return "\n".join(lines) + "\n"


def write_reports(summaries: Sequence[Summary], title: str, out_dir: Path, meta: dict) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"json": out_dir / "report.json", "markdown": out_dir / "report.md"}
    report = {"title": title, **meta, "agents": [s.to_dict() for s in summaries]}
    paths["json"].write_text(strict_json(report, indent=2) + "\n")  # no bare NaN: null instead
    paths["markdown"].write_text(to_markdown(summaries, title))
    return paths
