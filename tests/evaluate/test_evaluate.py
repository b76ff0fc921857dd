"""Tournaments: common random numbers, confidence intervals, reports and plots."""

import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np

import shoot_pontoon_env.envs  # noqa: F401
from agents import make_agent
from evaluate.stats import mean_ci, summarise
from evaluate.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]


def make_env():
    return gym.make("ShootPontoon-Playtech-v0", num_players=2)


def test_the_same_agent_twice_gets_identical_hands():
    env = make_env()
    records = run_tournament(make_env, [make_agent("tips", env), make_agent("tips", env)], hands=200, seed=3)
    assert records[0].returns == records[1].returns
    paired = summarise(records[1], reference=records[0])
    assert paired.paired_diff == 0.0 and paired.paired_ci95 == 0.0


def test_summary_statistics():
    env = make_env()
    [record] = run_tournament(make_env, [make_agent("threshold16", env)], hands=300, seed=0)
    summary = summarise(record, optimal=-0.01)
    assert summary.hands == 300 and abs(summary.win + summary.push + summary.loss - 1) < 1e-9
    assert abs(sum(summary.hand_classes.values()) - 1) < 1e-9
    mean, ci = mean_ci(np.asarray(record.returns))
    assert summary.mean == mean and summary.ci95 == ci > 0
    assert summary.gap_to_optimal == -0.01 - summary.per_stake


def test_mean_ci_matches_the_normal_interval():
    values = np.array([1.0, -1.0, 1.0, -1.0])
    mean, ci = mean_ci(values)
    assert mean == 0.0 and abs(ci - 1.959963984540054 * np.std(values, ddof=1) / 2) < 1e-12


def test_command_line_writes_table_json_markdown_and_plots(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "evaluate", "--env", "ShootPontoon-v0", "--agents", "random", "tips", "threshold",
         "--hands", "150", "--no-optimal", "--reference", "tips", "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "tips" in result.stdout and "paired vs tips" in result.stdout
    report = json.loads((tmp_path / "report.json").read_text())
    assert [a["name"] for a in report["agents"]] == ["random", "tips", "threshold"]
    assert (tmp_path / "report.md").read_text().startswith("## ShootPontoon-v0")
    for png in ("bankroll.png", "strategy.png"):
        assert (tmp_path / png).read_bytes()[:4] == b"\x89PNG"


def test_checkpoint_curve_plots_paired_differences_by_steps(tmp_path):
    import dataclasses

    from evaluate.plots import checkpoint_curve

    env = make_env()
    records = run_tournament(make_env, [make_agent(n, env) for n in ("threshold15", "threshold16", "threshold17")],
                             hands=200, seed=0)
    reference, *others = [summarise(r, reference=records[0]) for r in records]
    assert checkpoint_curve([reference, *others], tmp_path / "none.png") is None
    named = [dataclasses.replace(s, name=f"run:model_{steps}_steps") for s, steps in zip(others, (1000, 500))]
    path = checkpoint_curve([reference, *named], tmp_path / "checkpoints.png")
    assert path.read_bytes()[:4] == b"\x89PNG"
