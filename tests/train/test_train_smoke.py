"""Every training configuration runs end to end in a subprocess with a tiny budget."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.hang_guard import HANG_GUARD_S
from train.config import TrainConfig, load_config

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted((ROOT / "train" / "configs").glob("*.yml"))
TINY = ["total_timesteps=256", "n_envs=2", "n_steps=64", "batch_size=64", "n_epochs=1", "eval_freq=128",
        "eval_episodes=4", "checkpoint_freq=128", "progress_bar=false"]


def test_there_is_a_config_per_preset_and_seat():
    assert {c.stem for c in CONFIGS} == {"playtech_punter", "casino_punter", "shoot_punter",
                                      "shoot_punter_betting", "shoot_punter_dealer", "shoot_punter_mix",
                                      "shoot_banker"}


RUNS = [(config, "dummy") for config in CONFIGS] + [
    (config, "batched") for config in CONFIGS if config.stem in ("playtech_punter", "shoot_banker")
]
"""Every config on scalar envs; the batched engine with one batch (playtech) and with a batch per
opponent of the mix (shoot_banker)."""


@pytest.mark.parametrize(("config", "vec_env"), RUNS, ids=lambda v: v.stem if isinstance(v, Path) else v)
def test_training_smoke_run(config, vec_env, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "train", "--config", str(config), "--set", *TINY, f"vec_env={vec_env}",
         f"log_dir={tmp_path}"],
        cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    run = tmp_path / load_config(config).run_name
    assert (run / "model.zip").exists() and (run / "checkpoints").is_dir()
    assert (run / "eval" / "evaluations.npz").exists()
    saved = yaml.safe_load((run / "config.yaml").read_text())
    assert saved["total_timesteps"] == 256 and saved["env_id"] == yaml.safe_load(config.read_text())["env_id"]
    versions = json.loads((run / "versions.json").read_text())
    assert {"gymnasium", "torch", "stable-baselines3", "sb3-contrib", "shoot-pontoon-env"} <= set(versions)


def test_config_overrides_and_errors(tmp_path):
    config = load_config(ROOT / "train" / "configs" / "shoot_banker.yml", ["n_envs=2", "env_kwargs.num_players=3",
                                                                           "net_arch=[32,32]"])
    assert config.n_envs == 2 and config.env_kwargs["num_players"] == 3 and config.net_arch == [32, 32]
    assert config.run_name == "shoot_banker-seed0" and isinstance(config, TrainConfig)
    with pytest.raises(ValueError, match=r"unknown config field\(s\) \['n_env'\]"):
        load_config(None, ["n_env=2"])
    with pytest.raises(ValueError, match=r"algo = 'dqn': expected one of"):
        load_config(None, ["algo=dqn"])


def test_repeated_set_flags_all_apply():
    from train.__main__ import build_parser

    args = build_parser().parse_args(["--set", "n_envs=2", "--set", "seed=3", "observation=compact"])
    config = load_config(None, args.set)
    assert (config.n_envs, config.seed, config.observation) == (2, 3, "compact")


def test_learning_rate_schedule_and_observation_choices():
    from train.run import learning_rate

    linear = learning_rate(load_config(None, ["learning_rate=0.001", "lr_schedule=linear"]))
    assert linear(1.0) == pytest.approx(0.001) and linear(0.25) == pytest.approx(0.00025)
    assert learning_rate(load_config(None, ["learning_rate=0.001"])) == 0.001
    with pytest.raises(ValueError, match=r"lr_schedule = 'cosine': expected one of \('constant', 'linear'\)"):
        load_config(None, ["lr_schedule=cosine"])
    with pytest.raises(ValueError, match=r"observation = 'pixels': expected one of \('flat', 'compact'\)"):
        load_config(None, ["observation=pixels"])


def test_entropy_schedule_decays_to_zero(tmp_path):
    from train.run import build_model, callbacks, make_vec_env

    config = load_config(ROOT / "train" / "configs" / "playtech_punter.yml",
                         [*TINY, "total_timesteps=512", "eval_freq=0", "checkpoint_freq=0", "ent_coef=0.01",
                          "ent_schedule=linear", f"log_dir={tmp_path}"])
    env = make_vec_env(config)
    model = build_model(config, env)
    seen = []
    original_train = model.train

    def recording_train():
        seen.append(model.ent_coef)
        original_train()

    model.train = recording_train
    model.learn(total_timesteps=config.total_timesteps, callback=callbacks(config))
    assert seen == pytest.approx([0.01 * 0.75, 0.01 * 0.5, 0.01 * 0.25, 0.0])
    with pytest.raises(ValueError, match=r"ent_schedule = 'cosine': expected one of \('constant', 'linear'\)"):
        load_config(None, ["ent_schedule=cosine"])


RECORD_OMP_AT_TORCH_IMPORT = """
import os, sys
from shoot_pontoon_env.cli import run
from train.__main__ import main

class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" and "torch" not in sys.modules:
            print("at torch import:", os.environ.get("OMP_WAIT_POLICY"))
        return None

sys.meta_path.insert(0, Watch())
sys.exit(run(main, sys.argv[1:]))
"""


@pytest.mark.parametrize(("threads", "policy"), [(2, "PASSIVE"), (1, "None")])
def test_more_torch_threads_sleep_when_idle(threads, policy, tmp_path):
    """OpenMP reads OMP_WAIT_POLICY once, as torch loads it: ``python -m train`` sets it before then
    (spinning threads collapse beside a busy process), and leaves one thread's run as it was."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    result = subprocess.run(
        [sys.executable, "-c", RECORD_OMP_AT_TORCH_IMPORT, "--config", str(ROOT / "train" / "configs" /
         "playtech_punter.yml"), "--set", *TINY, "eval_freq=0", f"torch_threads={threads}",
         f"log_dir={tmp_path}"],
        cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines()[0] == f"at torch import: {policy}"
