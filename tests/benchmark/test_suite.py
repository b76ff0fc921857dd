"""ShootPontoonBench-v1: the tasks are fixed and scored against their references (random 0, reference 1),
the aggregates are rliable's, and the suite's smoke run for an algorithm (``--quick``) runs end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shoot_pontoon_env.benchmark import LEADERBOARD_TASKS, SUITE, TASKS, normalised, score_policy, task
from shoot_pontoon_env.benchmark.suite import BANKER, PAIR, PUNTER
from tests.hang_guard import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_names_its_tasks_once_and_covers_every_seat() -> None:
    names = [t.name for t in TASKS]
    assert SUITE == "ShootPontoonBench-v1" and len(set(names)) == len(names)
    assert {t.seat for t in TASKS} == {PUNTER, BANKER, PAIR}
    assert set(LEADERBOARD_TASKS) <= set(names)
    with pytest.raises(ValueError, match="task 'nope': expected one of"):
        task("nope")


def test_the_normalised_score_is_zero_for_random_and_one_for_the_reference() -> None:
    rng = np.random.default_rng(0)
    random, reference = rng.normal(-1, 1, 5000), rng.normal(0, 1, 5000)
    assert normalised(random, random, reference)[0] == pytest.approx(0.0)
    assert normalised(reference, random, reference)[0] == pytest.approx(1.0)
    half = (random + reference) / 2
    score, ci = normalised(half, random, reference)
    assert score == pytest.approx(0.5) and 0 <= ci < 0.05


@pytest.mark.parametrize("name", ["playtech-punter", "shoot-punter-bets"])
def test_the_reference_scores_one_and_its_monte_carlo_meets_the_exact_optimum(name: str) -> None:
    found = score_policy(task(name), "optimal", name="optimal", quick=True)
    assert found.score == pytest.approx(1.0) and found.raw == 0.0 and found.reference == "optimal"
    assert found.exact_optimum is not None and abs(found.optimum_z) < 3


def test_the_banker_task_is_scaled_by_the_best_rule_based_banker() -> None:
    found = score_policy(task("shoot-banker"), "random", name="uniform", quick=True)
    assert found.score == pytest.approx(0.0, abs=1e-12) and found.reference in ("stand17", "shoot_aware", "dealer")


def test_the_library_command_scores_named_policies(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "shoot_pontoon_env.benchmark", "--policy", "basic", "--policy",
                           "shoot-banker=dealer", "--tasks", "playtech-punter", "shoot-banker", "--quick", "--out",
                           str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert done.returncode == 0, done.stderr
    scores = json.loads((tmp_path / "scores.json").read_text())["scores"]
    assert [(s["task"], s["policy"]) for s in scores] == [("playtech-punter", "basic"), ("shoot-banker", "dealer")]
    assert scores[1]["score"] == 1.0 and "| shoot-banker | dealer |" in (tmp_path / "scores.md").read_text()


def test_the_quick_run_of_an_algorithm_trains_scores_and_aggregates(tmp_path: Path) -> None:
    pytest.importorskip("rliable")
    done = subprocess.run([sys.executable, "-m", "train.bench", "--algo", "maskable_ppo", "--seeds", "0", "1",
                           "--tasks", "playtech-punter", "shoot-banker", "--quick", "--out", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "bench.json").read_text())
    assert report["suite"] == SUITE and report["quick"] and len(report["scores"]) == 4
    iqm = report["aggregate"]["iqm"]
    assert iqm["low"] <= iqm["value"] <= iqm["high"]
    assert (tmp_path / "profile.png").stat().st_size > 10_000 and "| iqm |" in (tmp_path / "bench.md").read_text()
