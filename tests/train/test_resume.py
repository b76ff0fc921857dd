"""``--resume`` continues a run to ``total_timesteps``; a run never lands past its budget; an existing
run is refused unless ``--overwrite`` replaces it."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from shoot_pontoon_env.models.safe_load import plain_data
from shoot_pontoon_env.cli import run
from tests.hang_guard import HANG_GUARD_S
from train.__main__ import main
from train.config import load_config

ROOT = Path(__file__).resolve().parents[2]
PLAYTECH = ROOT / "train" / "configs" / "playtech_punter.yml"
TINY = ["n_envs=2", "n_steps=64", "batch_size=64", "n_epochs=1", "eval_freq=128", "eval_episodes=4",
        "checkpoint_freq=128", "progress_bar=false"]
"""Rollouts of 2 x 64 = 128 steps: a checkpoint and an evaluation after every one."""


def train(log_dir: Path, total: int, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "train", "--config", str(PLAYTECH), "--set", *TINY,
                           f"total_timesteps={total}", f"log_dir={log_dir}", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)


@pytest.fixture(scope="module")
def first_run(tmp_path_factory) -> Path:
    """A run of 256 steps (two rollouts), copied by each test that changes it."""
    log_dir = tmp_path_factory.mktemp("first")
    result = train(log_dir, 256)
    assert result.returncode == 0, result.stderr[-3000:]
    return log_dir / load_config(PLAYTECH).run_name


def copy_of(run_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / run_dir.name
    shutil.copytree(run_dir, copy)
    return copy


def steps_of(model: Path) -> tuple[int, int]:
    """A model file's ``num_timesteps`` and ``_n_updates`` (plain JSON, nothing unpickled)."""
    data = plain_data(model)
    return data["num_timesteps"], data["_n_updates"]


def test_a_run_ends_at_total_timesteps_and_checkpoints_hold_what_they_name(first_run):
    assert steps_of(first_run / "model.zip") == (256, 2)
    # saved after each rollout's update (SB3's CheckpointCallback saves before it: 0 updates at 128 steps)
    assert steps_of(first_run / "checkpoints" / "model_128_steps.zip") == (128, 1)
    assert steps_of(first_run / "checkpoints" / "model_256_steps.zip") == (256, 2)
    trained = json.loads((first_run / "run.json").read_text())
    assert trained == {"total_timesteps": 256, "num_timesteps": 256, "n_updates": 2, "resumed_from": None,
                       "resumed_at_timesteps": 0, "seconds": trained["seconds"]}


def test_resume_continues_to_total_timesteps(first_run, tmp_path):
    run_dir = copy_of(first_run, tmp_path)
    checkpoint = run_dir / "checkpoints" / "model_128_steps.zip"
    result = train(tmp_path, 512, "--resume", str(checkpoint))
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"to 512 steps (resumed at 128 steps from {checkpoint})" in result.stdout
    assert steps_of(run_dir / "model.zip") == (512, 4)  # 128 + three rollouts, not 128 + 512
    assert yaml.safe_load((run_dir / "config.yaml").read_text())["total_timesteps"] == 512
    trained = json.loads((run_dir / "run.json").read_text())
    assert (trained["num_timesteps"], trained["total_timesteps"]) == (512, 512)
    assert (trained["resumed_from"], trained["resumed_at_timesteps"]) == (str(checkpoint), 128)
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == [
        f"model_{n}_steps.zip" for n in (128, 256, 384, 512)]
    # the learning curve continues from the checkpoint: the first run's evaluation at 256 is replaced
    with np.load(run_dir / "eval" / "evaluations.npz") as evaluations:
        assert evaluations["timesteps"].tolist() == [128, 256, 384, 512]
        assert evaluations["results"].shape == (4, 4)


def test_the_progress_bar_ends_at_its_total(tmp_path):
    from train.run import ProgressBar, build_model, make_vec_env

    config = load_config(PLAYTECH, [*TINY, "total_timesteps=384", f"log_dir={tmp_path}"])
    model = build_model(config, make_vec_env(config))
    model.learn(256, callback=[bar := ProgressBar()])
    assert (bar.pbar.n, bar.pbar.total) == (256, 256)
    model.learn(128, callback=[bar := ProgressBar()], reset_num_timesteps=False)  # a resume: from 256 to 384
    assert (bar.pbar.initial, bar.pbar.n, bar.pbar.total) == (256, 384, 384)


def test_a_budget_that_is_not_whole_rollouts_is_one_error_line(capsys, tmp_path):
    assert run(main, ["--config", str(PLAYTECH), "--set", *TINY, "total_timesteps=300",
                      f"log_dir={tmp_path}"]) == 2
    assert capsys.readouterr().err == ("error: total_timesteps = 300: expected a multiple of n_steps x n_envs = "
                                       "64 x 2 = 128 (SB3 trains whole rollouts), e.g. 256 or 384\n")
    assert run(main, ["--config", str(PLAYTECH), "--set", "total_timesteps=6000000",
                      f"log_dir={tmp_path}"]) == 2
    assert capsys.readouterr().err == ("error: total_timesteps = 6000000: expected a multiple of n_steps x "
                                       "n_envs = 64 x 256 = 16384 (SB3 trains whole rollouts), e.g. 5996544 "
                                       "or 6012928\n")
    assert not any(tmp_path.iterdir())


def test_a_resume_to_no_more_steps_or_off_the_rollouts_is_one_error_line(first_run, capsys, tmp_path):
    checkpoint = first_run / "checkpoints" / "model_256_steps.zip"
    before = (first_run / "model.zip").read_bytes()
    for total, expected in (
        (256, f"expected more than the 256 steps of --resume {checkpoint} (a resume continues to "
              "total_timesteps), e.g. 384"),
        (128, f"expected more than the 256 steps of --resume {checkpoint}"),
        (400, f"expected the 256 steps of --resume {checkpoint} plus a multiple of n_steps x n_envs = 64 x 2 = "
              "128 (SB3 trains whole rollouts), e.g. 384 or 512"),
    ):
        assert run(main, ["--config", str(PLAYTECH), "--set", *TINY, f"total_timesteps={total}",
                          f"log_dir={first_run.parent}", "--resume", str(checkpoint)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: total_timesteps = {total}: {expected}") and err.count("\n") == 1, err
    assert (first_run / "model.zip").read_bytes() == before


def test_a_new_run_into_an_existing_one_is_refused_in_one_line(first_run, capsys):
    before = (first_run / "model.zip").read_bytes()
    assert run(main, ["--config", str(PLAYTECH), "--set", *TINY, "total_timesteps=256",
                      f"log_dir={first_run.parent}"]) == 2
    assert capsys.readouterr().err == (
        f"error: {first_run} already holds a run (config.yaml, versions.json, run.json, model.zip, checkpoints, "
        "eval, best, tensorboard): pass --overwrite to replace it, or --set run_name=NAME for a new one\n")
    assert (first_run / "model.zip").read_bytes() == before
    # a resume from another run's checkpoint does not write over this one either
    other = first_run.parent / "other.zip"
    shutil.copy(first_run / "checkpoints" / "model_128_steps.zip", other)
    assert run(main, ["--config", str(PLAYTECH), "--set", *TINY, "total_timesteps=256",
                      f"log_dir={first_run.parent}", "--resume", str(other)]) == 2
    assert "already holds a run" in capsys.readouterr().err


def test_overwrite_replaces_the_earlier_run_and_keeps_what_is_not_a_run(first_run, tmp_path):
    run_dir = copy_of(first_run, tmp_path)
    (run_dir / "checkpoints" / "model_999_steps.zip").write_bytes(b"stale")
    (run_dir / "notes.txt").write_text("mine")
    result = train(tmp_path, 128, "--overwrite")
    assert result.returncode == 0, result.stderr[-3000:]
    assert (
        f"--overwrite: removed the earlier run in {run_dir} (config.yaml, versions.json, run.json, model.zip, "
        "checkpoints, eval, best, tensorboard)") in result.stderr.splitlines()
    assert steps_of(run_dir / "model.zip") == (128, 1)
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == ["model_128_steps.zip"]
    assert (run_dir / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("config", sorted((ROOT / "train" / "configs").glob("*.yml")), ids=lambda p: p.stem)
def test_every_committed_config_trains_whole_rollouts(config):
    from train.config import check_budget

    check_budget(load_config(config))
