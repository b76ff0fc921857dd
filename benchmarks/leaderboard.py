"""The leaderboard of docs/BENCHMARK.md from ``python -m train.bench`` runs: each learner's per-task mean
score and raw paired figure over its seeds, rliable's IQM and optimality gap with their intervals, and
one performance profile of every learner.

Run: ``.venv/bin/python benchmarks/leaderboard.py RUN/bench.json ... [--profile docs/images/leaderboard_profile.png]``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shoot_pontoon_env.benchmark.aggregate import aggregate, performance_profile  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="bench.json files of python -m train.bench")
    parser.add_argument("--profile", type=Path, default=None, help="draw every learner's performance profile here")
    args = parser.parse_args(argv)
    merged: dict[str, dict] = {}  # one learner's runs may come in several files (one per seed, say)
    for path in args.runs:
        report = json.loads(path.read_text())
        into = merged.setdefault(report["algo"], {"algo": report["algo"], "tasks": report["tasks"], "seeds": [],
                                                  "scores": []})
        if report["tasks"] != into["tasks"] or set(report["seeds"]) & set(into["seeds"]):
            raise SystemExit(f"{path}: tasks {report['tasks']} and seeds {report['seeds']} do not add to "
                             f"{into['tasks']}, seeds {into['seeds']}")
        into["seeds"] += report["seeds"]
        into["scores"] += report["scores"]
    reports = list(merged.values())
    tasks = reports[0]["tasks"]
    matrices = {}
    for report in reports:
        if report["tasks"] != tasks:
            raise SystemExit(f"{report['algo']}: tasks {report['tasks']}, expected {tasks}")
        matrices[report["algo"]] = np.array([[s["score"] for s in report["scores"] if s["task"] == t]
                                             for t in tasks]).T
    summary = aggregate(matrices)
    header = " | ".join(f"{t}: score (raw)" for t in tasks)
    print(f"| learner | seeds | {header} | IQM [95%] | optimality gap [95%] |")
    print("|---|---|" + "---|" * len(tasks) + "---|---|")
    for report in reports:
        cells = []
        for t in tasks:
            rows = [s for s in report["scores"] if s["task"] == t]
            scores, raws = np.array([s["score"] for s in rows]), np.array([s["raw"] for s in rows])
            cells.append(f"{scores.mean():.3f} ({raws.mean():+.4f})")
        iqm, gap = summary[report["algo"]]["iqm"], summary[report["algo"]]["optimality_gap"]
        print(f"| {report['algo']} | {len(report['seeds'])} | " + " | ".join(cells)
              + f" | {iqm['value']:.3f} [{iqm['low']:.3f}, {iqm['high']:.3f}] | "
              f"{gap['value']:.3f} [{gap['low']:.3f}, {gap['high']:.3f}] |")
    if args.profile is not None:
        performance_profile(matrices, args.profile)
        print(f"\nprofile: {args.profile}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
