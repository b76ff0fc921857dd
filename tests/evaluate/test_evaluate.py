"""Tournaments: common random numbers, confidence intervals, reports and plots."""

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import shoot_pontoon_env.envs  # noqa: F401
from agents import make_agent
from agents.base import Agent
from shoot_pontoon_env.evaluate.stats import mean_ci, summarise
from shoot_pontoon_env.evaluate.tournament import run_tournament
from shoot_pontoon_env.actions import ActionKind
from tests.hang_guard import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[2]


def make_env():
    return gym.make("ShootPontoon-Playtech-v0", num_players=2)


@pytest.mark.parametrize("batched", [True, False], ids=["batched", "scalar"])
def test_the_same_agent_twice_gets_identical_hands(batched):
    env = make_env()
    records = run_tournament(make_env, [make_agent("tips", env), make_agent("tips", env)], hands=200, seed=3,
                             batched=batched)
    assert [r.engine for r in records] == ["batched" if batched else "scalar"] * 2
    assert np.array_equal(np.asarray(records[0].returns), np.asarray(records[1].returns))
    paired = summarise(records[1], reference=records[0])
    assert paired.paired_diff == 0.0 and paired.paired_ci95 == 0.0


def test_agents_that_play_differently_meet_the_same_hands_on_the_batched_engine():
    """Common random numbers: whatever each agent draws, hand h's shoe order is the same, so agents
    that play a hand alike (the first two cards decide a stick on 17 or more for both) win alike."""
    env = make_env()
    sticky, twisty = (make_agent(name, env) for name in ("threshold17", "threshold21"))
    records = run_tournament(make_env, [sticky, twisty], hands=4000, seed=5, num_tables=64)
    same = np.asarray(records[0].returns) == np.asarray(records[1].returns)
    assert 0.3 < same.mean() < 1.0  # equal on the hands both stand on at once, and on others by chance


def test_batched_and_scalar_tournaments_deal_the_same_hands():
    env = make_env()
    batched, scalar = (run_tournament(make_env, [make_agent("basic", env)], hands=3000, seed=11, batched=b)[0]
                       for b in (True, False))
    assert np.array_equal(np.asarray(batched.per_stake), np.asarray(scalar.per_stake))


def test_summary_statistics():
    env = make_env()
    [record] = run_tournament(make_env, [make_agent("threshold16", env)], hands=300, seed=0)
    summary = summarise(record, optimal=-0.01)
    assert summary.hands == 300 and abs(summary.win + summary.push + summary.loss - 1) < 1e-9
    assert abs(sum(summary.hand_classes.values()) - 1) < 1e-9
    mean, ci = mean_ci(np.asarray(record.returns))
    assert summary.mean == mean and summary.ci95 == ci > 0
    assert summary.vs_solver_optimum == summary.per_stake - -0.01  # the agent minus the optimum: negative = worse


def test_mean_ci_matches_the_normal_interval():
    values = np.array([1.0, -1.0, 1.0, -1.0])
    mean, ci = mean_ci(values)
    assert mean == 0.0 and abs(ci - 1.959963984540054 * np.std(values, ddof=1) / 2) < 1e-12


def test_command_line_writes_table_json_markdown_and_plots(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "evaluate", "--env", "ShootPontoon-v0", "--agents", "random", "tips", "threshold",
         "--hands", "150", "--no-optimal", "--reference", "tips", "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "tips" in result.stdout and "vs tips" in result.stdout
    assert "Shoot bets won/placed" in result.stdout  # this table's punters may bet the Shoot before the deal
    report = json.loads((tmp_path / "report.json").read_text())
    assert [a["name"] for a in report["agents"]] == ["random", "tips", "threshold"]
    assert (tmp_path / "report.md").read_text().startswith("## ShootPontoon-v0")
    for png in ("bankroll.png", "strategy.png"):
        assert (tmp_path / png).read_bytes()[:4] == b"\x89PNG"


def test_checkpoint_curve_plots_paired_differences_by_steps(tmp_path):
    import dataclasses

    from shoot_pontoon_env.evaluate.plots import checkpoint_curve

    env = make_env()
    records = run_tournament(make_env, [make_agent(n, env) for n in ("threshold15", "threshold16", "threshold17")],
                             hands=200, seed=0)
    reference, *others = [summarise(r, reference=records[0]) for r in records]
    assert checkpoint_curve([reference, *others], tmp_path / "none.png") is None
    named = [dataclasses.replace(s, name=f"run:model_{steps}_steps") for s, steps in zip(others, (1000, 500))]
    path = checkpoint_curve([reference, *named], tmp_path / "checkpoints.png")
    assert path.read_bytes()[:4] == b"\x89PNG"


class FirstLegal(Agent):
    """A deterministic agent that acts on whole batches (the path of trained models): the first legal
    index of each row."""

    name = "first-legal"
    batched = True

    def choose(self, observation, action_mask, rng):
        return int(np.flatnonzero(action_mask)[0])

    def choose_batch(self, observations, action_masks, rng):
        return np.argmax(action_masks, axis=1)


def test_an_agent_acting_on_batches_plays_the_batched_engine_like_the_scalar_env():
    batched = run_tournament(make_env, [FirstLegal(), FirstLegal()], hands=3000, seed=4, num_tables=128)
    scalar = run_tournament(make_env, [FirstLegal()], hands=3000, seed=4, batched=False)[0]
    assert [r.engine for r in batched] == ["batched", "batched"] and scalar.engine == "scalar"
    assert np.array_equal(batched[0].returns, batched[1].returns)  # common random numbers
    stick_minimum = make_env().unwrapped.rules.stick_minimum
    for record in (batched[0], scalar):  # stick is the first legal index once it is legal, else twist
        assert sum(record.decisions.values()) >= 3000 and record.illegal == 0
        for (_, total, _, label), count in record.decisions.items():
            assert label == ("stick" if total >= stick_minimum else "twist"), (total, label, count)
    mine, theirs = np.asarray(batched[0].per_stake), np.asarray(scalar.per_stake)
    assert abs(mine.mean() - theirs.mean()) < 3 * (mean_ci(mine)[1] + mean_ci(theirs)[1])


BETTING = {"rules": {"preset": "shoot", "shoot_bet_points": ["before_second_card", "before_fourth_card"],
                     "max_shoot_bet": 2}}


def test_the_stake_part_and_the_shoot_part_add_up_to_the_return_per_unit_stake():
    def make():
        return gym.make("ShootPontoon-v0", **BETTING)

    env = make()
    optimal, plain = (make_agent(name, env) for name in ("optimal", "threshold15"))
    records = run_tournament(make, [optimal, plain], hands=400, seed=2, batched=False)
    bets, none = (summarise(r) for r in records)
    assert records[0].shoot_bets > 0 and bets.shoot_part != 0.0  # the optimum bets the Shoot here
    assert bets.stake_part + bets.shoot_part == pytest.approx(bets.per_stake)
    assert none.shoot_part == 0.0 and none.stake_part == none.per_stake


class ShootBettor(FirstLegal):
    """A batched agent that bets the largest Shoot bet it may at every betting point, else plays the
    first legal index."""

    name = "shoot-bettor"

    def choose_batch(self, observations, action_masks, rng):
        entries = self.context.action_table.entries
        bets = [i for i, e in enumerate(entries) if e.kind == ActionKind.SHOOT_BET and e.amount > 0]
        chosen = np.argmax(action_masks, axis=1)
        for index in bets:  # ascending amounts: the last legal one wins
            chosen = np.where(action_masks[:, index], index, chosen)
        return chosen

    def choose(self, observation, action_mask, rng):
        return int(self.choose_batch(observation[None], np.asarray(action_mask)[None], rng)[0])


def test_the_batched_engine_splits_the_return_into_the_stake_and_the_shoot_part_like_the_scalar_env():
    def make():
        return gym.make("ShootPontoon-v0", stake_levels=[2], **BETTING)

    batched = run_tournament(make, [ShootBettor()], hands=4000, seed=6, num_tables=256, env_kwargs=BETTING)[0]
    scalar = run_tournament(make, [ShootBettor()], hands=1500, seed=6, batched=False)[0]
    assert batched.engine == "batched" and batched.shoot_bets > 1000
    for record in (batched, scalar):  # one box at 2 chips, a bet of 2 chips at each of two points
        shoot, per_stake = np.asarray(record.shoot_part), np.asarray(record.per_stake)
        assert set(np.unique(shoot)) <= {-2.0, -1.0, 0.0, 1.0, 2.0} and len(shoot) == len(per_stake)
        assert 2 * shoot[shoot > 0].sum() == record.shoot_chips_won and (shoot == 2).sum() > 0
        assert 0 < (shoot != 0).sum() <= record.shoot_bets
        # Every hand carries a bet (a fresh Shoot of 50 has room for all of them; no splits, no buys): it is
        # won with the hand, lost with it and pushed with it, so each hand's Shoot part has its result's sign.
        assert np.array_equal(np.sign(shoot), np.sign(per_stake))
    mine, theirs = (summarise(r) for r in (batched, scalar))
    assert mine.stake_part + mine.shoot_part == pytest.approx(mine.per_stake)
    assert abs(mine.shoot_part - theirs.shoot_part) < 3 * (mine.shoot_part_ci95 + theirs.shoot_part_ci95)


def test_a_paired_difference_across_engines_is_paired():
    env = make_env()
    batched, scalar = (run_tournament(make_env, [make_agent("basic", env)], hands=50, seed=1, batched=b)[0]
                       for b in (True, False))
    paired = summarise(scalar, reference=batched)
    assert (batched.engine, scalar.engine) == ("batched", "scalar")
    assert paired.paired_diff == 0.0 and paired.paired_ci95 == 0.0


def test_the_optimum_of_a_freely_drawing_banker_is_found_on_either_engine():
    """The probe reads the banker's seat from the view (a batched episode has no Table)."""
    from shoot_pontoon_env.evaluate.optimum import optimal_value

    value = optimal_value(gym.make("ShootPontoon-v0"))
    assert value is not None and value == optimal_value(gym.make("ShootPontoon-v0", engine="table"))


PLAYTECH_DEMO = ["--env", "ShootPontoon-Playtech-v0", "--env-kwargs", '{"num_players": 2, "stake_levels": [1]}']
"""The table of ``make demo`` (a two-seat Playtech game at one stake)."""


def cells(line: str, bar: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip(bar).split(bar)]


def test_the_playtech_table_fits_120_columns_with_one_sign_against_the_optimum(tmp_path, capsys):
    """The demo's table: only the columns of a game without a Shoot, "vs optimal" as the agent minus
    optimal on the same hands (negative = worse), and no figure of optimal against itself."""
    from shoot_pontoon_env.evaluate.__main__ import main
    from shoot_pontoon_env.cli import run

    status = run(main, [*PLAYTECH_DEMO, "--agents", "random", "basic", "optimal", "zoo:playtech_punter",
                        "--hands", "300", "--quiet", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0
    lines = out[:out.index("solver optimum:")].splitlines()  # the title, the table and its note
    assert max(map(len, lines)) <= 120, "\n".join(line for line in lines if len(line) > 120)
    [header] = [cells(line, "┃") for line in lines if line.startswith("┃")]
    assert header == ["agent", "per unit stake", "vs optimal", "win", "push", "loss"]
    assert not any("Shoot" in line or "gap" in line for line in lines[1:])  # below the title (ShootPontoon-...)
    rows = {row[0]: dict(zip(header, row)) for row in (cells(line, "│") for line in lines if line.startswith("│"))}
    assert list(rows) == ["random", "basic", "optimal", "playtech_punter"]
    assert rows["optimal"]["vs optimal"] == "—" and "optimal minus" not in out

    def value(cell: str) -> float:
        return float(cell.split(" ± ")[0])

    for name in ("random", "playtech_punter"):  # the paired mean of common hands is the difference of means
        difference = value(rows[name]["per unit stake"]) - value(rows["optimal"]["per unit stake"])
        assert value(rows[name]["vs optimal"]) == pytest.approx(difference, abs=2e-4)
    assert value(rows["random"]["vs optimal"]) < -0.3  # random is far worse: the sign says so
    assert "vs optimal: agent minus optimal on the same hands (paired), per unit stake, negative = worse" in out
    report = json.loads((tmp_path / "report.json").read_text())
    random, optimal = report["agents"][0], report["agents"][2]
    assert random["vs_solver_optimum"] == pytest.approx(random["per_stake"] - report["optimal"])
    assert random["vs_solver_optimum"] < 0 and optimal["paired_diff"] is None
    markdown = (tmp_path / "report.md").read_text()  # the wider report keeps every figure
    for column in ("hands", "return/hand (base stakes)", "vs optimal (paired)", "vs solver optimum (unpaired)",
                   "stake / Shoot part", "Shoot bets won/placed"):
        assert f"| {column} |" in markdown


def untrained_checkpoint(path: Path) -> None:
    """An untrained MaskablePPO model of the Playtech punter's configuration, saved as training would."""
    from sb3_contrib import MaskablePPO

    env = gym.make("ShootPontoon-Playtech-v0", num_players=2, stake_levels=[1], observation="compact")
    MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64, 64]}, seed=0, device="cpu").save(path)


@pytest.fixture
def run_folder(tmp_path) -> Path:
    """A training run's folder: the zoo's Playtech punter as the final model, an untrained checkpoint at
    1,000 steps and copies of the final model as the later checkpoints."""
    zoo = ROOT / "agents" / "zoo" / "playtech_punter"
    run = tmp_path / "curve-seed0"
    (run / "checkpoints").mkdir(parents=True)
    for name in ("config.yaml", "model.zip"):
        (run / name).write_bytes((zoo / name).read_bytes())
    untrained_checkpoint(run / "checkpoints" / "model_1000_steps.zip")
    for steps in (2000, 3000, 4000, 5000):
        (run / "checkpoints" / f"model_{steps}_steps.zip").write_bytes((zoo / "model.zip").read_bytes())
    return run


def test_a_runs_learning_curve_is_paired_with_optimal_and_ends_on_the_tables_figure(run_folder, tmp_path, capsys):
    from shoot_pontoon_env.evaluate.__main__ import main
    from shoot_pontoon_env.cli import run

    out = tmp_path / "out"
    status = run(main, [*PLAYTECH_DEMO, "--agents", "basic", "optimal", str(run_folder / "model.zip"), "--hands",
                        "2000", "--learning-curve", str(run_folder), "--curve-points", "3", "--quiet",
                        "--out", str(out)])
    assert status == 0, capsys.readouterr().err
    report = json.loads((out / "report.json").read_text())
    curve = report["learning_curve"]
    # 3 checkpoints evenly spaced (the first and the last kept), then the final model at its own steps
    assert [(p["steps"], p["final"]) for p in curve] == [(1000, False), (3000, False), (5000, False), (6012928, True)]
    assert {p["paired_vs"] for p in curve} == {"optimal"} and {p["hands"] for p in curve} == {2000}
    [row] = [a for a in report["agents"] if a["name"] == "curve-seed0"]
    final = curve[-1]
    assert (final["paired_diff"], final["paired_ci95"]) == (row["paired_diff"], row["paired_ci95"])
    assert curve[1]["paired_diff"] == final["paired_diff"]  # the same weights on the same hands
    assert curve[0]["paired_diff"] < final["paired_diff"] - 0.1  # untrained: far worse, beyond both intervals
    assert curve[0]["paired_ci95"] > final["paired_ci95"]
    assert (out / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    assert "| 6012928 |" in (out / "report.md").read_text()


def test_the_curve_takes_evenly_spaced_checkpoints_of_a_run_or_of_its_checkpoints_folder(tmp_path):
    from shoot_pontoon_env.evaluate.curve import run_points

    folder = tmp_path / "run" / "checkpoints"
    folder.mkdir(parents=True)
    for steps in range(50_000, 6_000_001, 50_000):  # what a 6M-step run at the default frequency leaves
        (folder / f"model_{steps}_steps.zip").touch()
    (folder / "model_7_steps.zip.tmp").touch()
    for path in (folder.parent, folder):
        steps = [p.steps for p in run_points(path, 13)]
        assert len(steps) == 13 and steps[0] == 50_000 and steps[-1] == 6_000_000
        assert all(450_000 <= b - a <= 550_000 for a, b in zip(steps, steps[1:]))  # even, to a checkpoint
        assert not any(p.final for p in run_points(path, 13))
    assert len(run_points(folder, 500)) == 120
    with zipfile.ZipFile(folder.parent / "model.zip", "w") as model:  # the final model: trained to 6M steps
        model.writestr("data", json.dumps({"num_timesteps": 6_000_000}))
    points = run_points(folder, 13)  # the 6M checkpoint holds the final model's weights: the final model stands
    assert [(p.steps, p.final) for p in points[-2:]] == [(5_500_000, False), (6_000_000, True)]
    assert points[-1].path == folder.parent / "model.zip" and len(points) == 13


@pytest.mark.parametrize(("argv", "match"), [
    (["--learning-curve", "{empty}"], r"argument --learning-curve: .*empty: no checkpoints \(model_<steps>_steps"),
    (["--learning-curve", "{run}", "--agents", "basic"], r"argument --learning-curve: a run's curve is paired with "
                                                          r"the reference agent: add optimal"),
    (["--learning-curve", "nosuch"], r"argument --learning-curve: 'nosuch': no such file or folder"),
])
def test_a_learning_curve_that_cannot_be_drawn_is_one_line(argv, match, run_folder, tmp_path, capsys):
    import re

    from shoot_pontoon_env.evaluate.__main__ import main
    from shoot_pontoon_env.cli import run

    (tmp_path / "empty").mkdir()
    argv = [a.format(empty=tmp_path / "empty", run=run_folder) for a in argv]
    status = run(main, [*PLAYTECH_DEMO, *argv, "--hands", "10", "--quiet", "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert status == 2 and not out and len(err.strip().splitlines()) == 1
    assert re.search(match, err), err


def test_an_evaluations_npz_is_still_plotted_as_it_is(tmp_path, capsys):
    """SB3's EvalCallback file: its own unpaired points, no paired curve in the report."""
    from shoot_pontoon_env.evaluate.__main__ import main
    from shoot_pontoon_env.cli import run

    npz = tmp_path / "evaluations.npz"
    np.savez(npz, timesteps=np.array([1000, 2000]), results=np.array([[-1.0, 1.0, 0.0], [1.0, 1.0, -1.0]]),
             ep_lengths=np.ones((2, 3)))
    status = run(main, [*PLAYTECH_DEMO, "--agents", "optimal", "--hands", "20", "--learning-curve", str(npz),
                        "--quiet", "--out", str(tmp_path / "out")])
    assert status == 0, capsys.readouterr().err
    assert (tmp_path / "out" / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    assert "learning_curve" not in json.loads((tmp_path / "out" / "report.json").read_text())
