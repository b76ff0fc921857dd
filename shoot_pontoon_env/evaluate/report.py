"""The tournament's report: a terminal table (rich) of the columns that apply to the game, and every
figure in JSON and Markdown.

One sign for every comparison: "vs X" is the agent minus X, so negative is worse. The terminal shows
the paired difference to the reference agent (on the same hands, so without the deal's noise); the
report files add the unpaired difference to the solver's exact optimum and the rest."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from shoot_pontoon_env.cli import strict_json

from .curve import CurvePoint
from .stats import Summary


@dataclass(frozen=True)
class Column:
    header: str
    cell: Callable[[Summary], str]


def _interval(value: float | None, ci: float | None) -> str:
    return "—" if value is None else f"{value:+.4f} ± {ci:.4f}"


def _paired(summary: Summary) -> str:
    """The paired difference; a plain dash for the reference itself and for an agent it cannot pair."""
    return "—" if summary.paired_vs is None else _interval(summary.paired_diff, summary.paired_ci95)


def _parts(summary: Summary) -> str:
    return "—" if summary.shoot_part is None else f"{summary.stake_part:+.4f} / {summary.shoot_part:+.4f}"


AGENT = Column("agent", lambda s: s.name)
HANDS = Column("hands", lambda s: f"{s.hands}")
RETURN = Column("return/hand (base stakes)", lambda s: _interval(s.mean, s.ci95))
PER_STAKE = Column("per unit stake", lambda s: _interval(s.per_stake, s.per_stake_ci95))
PARTS = Column("stake / Shoot part", _parts)
SOLVER = Column("vs solver optimum (unpaired)", lambda s: _interval(s.vs_solver_optimum, s.vs_solver_optimum_ci95))
WIN = Column("win", lambda s: f"{s.win:.3f}")
PUSH = Column("push", lambda s: f"{s.push:.3f}")
LOSS = Column("loss", lambda s: f"{s.loss:.3f}")
SHOOT_BETS = Column("Shoot bets won/placed", lambda s: f"{s.shoot_bets_won}/{s.shoot_bets_placed}")


def reference_of(summaries: Sequence[Summary]) -> str | None:
    """The agent the others are paired with (None if none is)."""
    return next((s.paired_vs for s in summaries if s.paired_vs), None)


def _paired_column(reference: str, suffix: str = "") -> Column:
    return Column(f"vs {reference}{suffix}", _paired)


def table_columns(summaries: Sequence[Summary], shoot_bets: bool) -> list[Column]:
    """The terminal's columns: the Shoot's only where the seat can bet it (``shoot_bets``), the return
    per hand only where it differs from the return per unit stake (several stakes, or the banker seat)."""
    punters = any(s.per_stake is not None for s in summaries)
    one_unit = all(s.per_stake is not None and math.isclose(s.mean, s.per_stake, abs_tol=1e-9) for s in summaries)
    reference = reference_of(summaries)
    return [AGENT, *([] if one_unit else [RETURN]), *([PER_STAKE] if punters else []),
            *([_paired_column(reference)] if reference else []), *([PARTS, SHOOT_BETS] if shoot_bets else []),
            WIN, PUSH, LOSS]


def unit_of(summaries: Sequence[Summary]) -> str:
    """The unit of the paired differences: the banker seat stakes nothing, so its differences are in base stakes."""
    return "per unit stake" if any(s.per_stake is not None for s in summaries) else "in base stakes"


TEXT_WIDTH = 120
"""Where the lines around the terminal table wrap (the table itself keeps its natural width)."""


def print_table(summaries: Sequence[Summary], title: str, *, shoot_bets: bool) -> None:
    """The title, the table at its natural width (never squeezed into a narrow terminal's, where cells
    would wrap: rich's box where rich is installed, plain aligned columns otherwise) and one line saying
    what its "vs" column means."""
    columns = table_columns(summaries, shoot_bets)
    rows = [[column.cell(summary) for column in columns] for summary in summaries]
    try:
        from rich.console import Console
        from rich.table import Table as RichTable
    except ImportError:  # the core install: gymnasium and numpy only
        Console = None
    if Console is None:
        widths = [max(len(column.header), *(len(row[i]) for row in rows)) for i, column in enumerate(columns)]
        print(title)
        for cells in ([c.header for c in columns], *rows):
            print("  ".join(cell.ljust(w) if column is AGENT else cell.rjust(w)
                            for cell, w, column in zip(cells, widths, columns)))
        say = print
    else:
        table = RichTable()
        for column in columns:
            table.add_column(column.header, justify="left" if column is AGENT else "right", no_wrap=True)
        for row in rows:
            table.add_row(*row)
        width = max(Console(width=10_000).measure(table).maximum, TEXT_WIDTH)
        console = Console(width=width, highlight=False, markup=False)  # names and env arguments as they are
        console.print(title)
        console.print(table)
        say = console.print
    reference = reference_of(summaries)
    if reference:
        say(f"vs {reference}: agent minus {reference} on the same hands (paired), {unit_of(summaries)}, "
            "negative = worse; ± 95% intervals.")


def to_markdown(summaries: Sequence[Summary], title: str, curve: Sequence[tuple[CurvePoint, Summary]] = ()) -> str:
    reference = reference_of(summaries)
    columns = [AGENT, HANDS, RETURN, PER_STAKE, *([_paired_column(reference, " (paired)")] if reference else []),
               SOLVER, PARTS, WIN, PUSH, LOSS, SHOOT_BETS]
    lines = [f"## {title}", "", "| " + " | ".join(c.header for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(c.cell(s) for c in columns) + " |" for s in summaries]
    lines += ["", "Intervals are 95% (normal approximation over independent hands). Every agent played the "
              "same seeded hands (common random numbers). Every \"vs\" figure is the agent minus the other: "
              "negative is worse."]
    if reference:
        lines += [f"\"vs {reference} (paired)\": the mean of the hand-by-hand differences to {reference} on the "
                  "same hands (per unit stake for punters, base stakes for the banker), free of the deal's noise."]
    if any(s.vs_solver_optimum is not None for s in summaries):
        lines += ["\"vs solver optimum (unpaired)\": the agent's own mean per unit stake minus the solver's exact "
                  "expected return, so it carries the deal's noise (the interval of the agent's mean)."]
    if curve:
        lines += ["", f"### Learning curve: the run's models vs {reference} on these hands", "",
                  f"| steps | model | vs {reference} (paired) | per unit stake |", "|---|---|---|---|"]
        lines += [f"| {point.steps} | {point.path}{' (final)' if point.final else ''} | {_paired(s)} | "
                  f"{PER_STAKE.cell(s)} |" for point, s in curve]
    return "\n".join(lines) + "\n"


def write_reports(summaries: Sequence[Summary], title: str, out_dir: Path, meta: dict,
                  curve: Sequence[tuple[CurvePoint, Summary]] = ()) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"json": out_dir / "report.json", "markdown": out_dir / "report.md"}
    report = {"title": title, **meta, "agents": [s.to_dict() for s in summaries]}
    if curve:
        report["learning_curve"] = [{"steps": p.steps, "model": str(p.path), "final": p.final, **s.to_dict()}
                                    for p, s in curve]
    paths["json"].write_text(strict_json(report, indent=2) + "\n")  # no bare NaN: null instead
    paths["markdown"].write_text(to_markdown(summaries, title, curve))
    return paths
