"""The rl-baselines3-zoo routes play MaskablePPO with masks: the zoo's enjoy script
(``shoot_pontoon_env.integrations.zoo_enjoy``) and its hyperparameter search (``-optimize`` through
``shoot_pontoon_env.integrations.zoo``). Unmasked, an untrained MaskablePPO picks an illegal index at
its first decision, so every episode is one step long and scores -2.0; masked, the hands are played
out. Each runs as a user would, in a fresh folder, with a budget of seconds."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.hang_guard import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[1]
ENV = ["--env", "ShootPontoon-Playtech-v0", "--gym-packages", "shoot_pontoon_env.envs"]


def run(tmp_path: Path, module: str, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    result = subprocess.run([sys.executable, "-m", module, *args], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    pytest.importorskip("rl_zoo3")
    (tmp_path / "hyperparams").symlink_to(ROOT / "hyperparams")
    return tmp_path


def test_enjoy_plays_a_ppo_mask_run_with_masks(folder):
    pytest.importorskip("requests")  # rl_zoo3.enjoy imports it
    run(folder, "shoot_pontoon_env.integrations.zoo", "--algo", "ppo_mask", *ENV, "--conf-file",
        "hyperparams/ppo_mask.yml", "-n", "64", "-params", "n_envs:1", "n_steps:64", "batch_size:64",
        "--eval-freq", "-1", "--seed", "0")
    out = run(folder, "shoot_pontoon_env.integrations.zoo_enjoy", "--algo", "ppo_mask", *ENV, "-f", "logs",
              "--no-render", "-n", "300", "--seed", "0")
    episodes = int(re.search(r"^(\d+) Episodes$", out, re.M).group(1))
    mean_reward = float(re.search(r"^Mean reward: (\S+)", out, re.M).group(1))
    mean_length = float(re.search(r"^Mean episode length: (\S+)", out, re.M).group(1))
    assert episodes > 20
    assert mean_length > 1.5 and mean_reward > -1.5  # unmasked: 1.00 and -2.00


def test_optimize_scores_ppo_mask_trials_with_masks(folder):
    pytest.importorskip("pandas")  # the search's report
    # --seed 2 fixes the random sampler's draws on two light trials (n_steps 32)
    search = ["-optimize", "--n-trials", "2", "--n-jobs", "1", "--sampler", "random", "--pruner", "none",
              "--seed", "2", "-n", "128", "--n-evaluations", "1", "--eval-episodes", "20", "--no-optim-plots",
              "--optimization-log-path", "logs/search"]
    out = run(folder, "shoot_pontoon_env.integrations.zoo", "--algo", "ppo_mask", *ENV, "--conf-file",
              "hyperparams/ppo_mask.yml", *search, "-params", "n_envs:1", "-f", "logs")
    assert "Number of finished trials:  2" in out
    best = float(re.search(r"^Value:\s+(\S+)", out, re.M).group(1))
    assert best > -1.5
    for trial in (0, 1):
        evaluations = np.load(folder / "logs" / "search" / f"trial_{trial}" / "evaluations.npz")
        assert evaluations["results"].shape == (1, 20)
        assert evaluations["ep_lengths"].mean() > 1.5  # unmasked: every episode ends at its first step
    assert list((folder / "logs" / "ppo_mask").glob("report_ShootPontoon-Playtech-v0_2-trials-*.csv"))


def test_register_maskable_ppo_adds_the_sampler_and_the_masked_trial_callback():
    pytest.importorskip("rl_zoo3")
    from rl_zoo3 import exp_manager, hyperparams_opt
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
    from stable_baselines3.common.callbacks import EvalCallback

    from shoot_pontoon_env.integrations.zoo import MaskableTrialEvalCallback, register_maskable_ppo

    eval_callback, trial_callback = exp_manager.EvalCallback, exp_manager.TrialEvalCallback
    try:
        register_maskable_ppo(masked_evaluation=True)
        assert hyperparams_opt.HYPERPARAMS_SAMPLER["ppo_mask"] is hyperparams_opt.sample_ppo_params
        assert hyperparams_opt.HYPERPARAMS_CONVERTER["ppo_mask"] is hyperparams_opt.convert_onpolicy_params
        assert exp_manager.TrialEvalCallback is MaskableTrialEvalCallback
        # TrialEvalCallback's super()._on_step() is sb3-contrib's masked evaluation, not SB3's
        mro = MaskableTrialEvalCallback.__mro__
        assert mro.index(MaskableEvalCallback) < mro.index(EvalCallback)
    finally:
        exp_manager.EvalCallback, exp_manager.TrialEvalCallback = eval_callback, trial_callback
