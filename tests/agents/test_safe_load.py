"""Loading a model runs nothing the file holds: crafted .zip files whose pickled entries carry a
payload (making a marker folder) are loaded (the payload in ``data`` is never read) or refused (a
payload in ``policy.pth``) by ``make_agent``, ``evaluate --agents`` and ``train --resume``; the same
files do run their payload through the unsafe loaders, so the payloads are live."""

import base64
import io
import json
import os
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import yaml

import shoot_pontoon_env.envs  # noqa: F401
from agents import make_agent
from shoot_pontoon_env.models.safe_load import ModelFileError
from tests.hang_guard import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[2]
PLAYTECH = ROOT / "train" / "configs" / "playtech_punter.yml"
TINY = ["total_timesteps=128", "n_envs=2", "n_steps=64", "batch_size=64", "n_epochs=1", "eval_freq=0",
        "checkpoint_freq=0", "progress_bar=false"]


class Payload:
    """Unpickling this makes the folder ``path``: proof that code from the file ran."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (os.mkdir, (self.path,))


def rewrite_zip(path: Path, changes: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    entries.update(changes)
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in entries.items():
            archive.writestr(name, content)


def run_folder(tmp_path: Path, name: str) -> tuple[Path, object]:
    """A run folder as ``python -m train`` writes it (config.yaml, model.zip), from the Playtech
    config, with a model of that config (untrained)."""
    from train.config import load_config
    from train.run import build_model, make_vec_env, save_run

    config = load_config(PLAYTECH, [*TINY, f"log_dir={tmp_path}", f"run_name={name}"])
    model = build_model(config, make_vec_env(config, count=1))
    return save_run(model, config), config


def with_data_payload(path: Path, marker: Path) -> Path:
    """Every pickled entry of ``data`` replaced by the payload."""
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read("data"))
    blob = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    for value in data.values():
        if isinstance(value, dict) and ":serialized:" in value:
            value[":serialized:"] = blob
    rewrite_zip(path, {"data": json.dumps(data).encode()})
    return path


def with_tensor_payload(path: Path, marker: Path) -> Path:
    """``policy.pth`` replaced by a torch file whose unpickling runs the payload."""
    import torch

    buffer = io.BytesIO()
    torch.save({"mlp_extractor.policy_net.0.weight": Payload(marker)}, buffer)
    rewrite_zip(path, {"policy.pth": buffer.getvalue()})
    return path


@pytest.fixture
def playtech_env():
    return gym.make("ShootPontoon-Playtech-v0", num_players=2, stake_levels=[1])


def test_the_payloads_are_live_for_the_unpickling_loaders(tmp_path):
    """The control: SB3's own load and torch's full unpickler do run them."""
    import torch
    from sb3_contrib import MaskablePPO

    model_path, _ = run_folder(tmp_path, "evil")
    with_data_payload(model_path, tmp_path / "ran-data")
    with pytest.raises(Exception):  # noqa: B017  (the payload returns None where a class was expected)
        MaskablePPO.load(model_path)
    assert (tmp_path / "ran-data").is_dir()
    with_tensor_payload(model_path, tmp_path / "ran-tensors")
    with zipfile.ZipFile(model_path) as archive:
        torch.load(io.BytesIO(archive.read("policy.pth")), weights_only=False)
    assert (tmp_path / "ran-tensors").is_dir()


def test_make_agent_ignores_a_pickled_payload_in_data_and_plays(tmp_path, playtech_env):
    model_path, _ = run_folder(tmp_path, "evil")
    with_data_payload(model_path, tmp_path / "ran")
    agent = make_agent(str(model_path), playtech_env)
    assert not (tmp_path / "ran").exists()
    obs, info = playtech_env.reset(seed=0)
    assert info["action_mask"][agent.choose(obs, info["action_mask"], np.random.default_rng(0))]


def test_make_agent_refuses_a_payload_in_the_tensors(tmp_path, playtech_env):
    model_path, _ = run_folder(tmp_path, "evil")
    with_tensor_payload(model_path, tmp_path / "ran")
    with pytest.raises(ModelFileError, match=r"refused: policy\.pth holds more than tensors"):
        make_agent(str(model_path), playtech_env)
    assert not (tmp_path / "ran").exists()


def test_a_file_whose_contents_do_not_match_its_config_is_refused(tmp_path, playtech_env):
    model_path, config = run_folder(tmp_path, "liar")
    saved = yaml.safe_load((model_path.parent / "config.yaml").read_text())
    saved["net_arch"] = [32]
    (model_path.parent / "config.yaml").write_text(yaml.safe_dump(saved))
    with pytest.raises(ModelFileError, match=r"its weights do not fit .*file \(64, 106\), expected \(32, 106\)"):
        make_agent(str(model_path), playtech_env)
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(saved))
    with pytest.raises(ModelFileError, match=r"not a stable-baselines3 model zip"):
        make_agent(str(tmp_path / "junk.zip"), playtech_env)
    lonely = tmp_path / "a" / "b" / "model.zip"
    lonely.parent.mkdir(parents=True)
    lonely.write_bytes(model_path.read_bytes())
    with pytest.raises(ModelFileError, match=r"no config\.yaml beside it"):
        make_agent(str(lonely), playtech_env)


def test_zoo_models_load_without_any_unpickling(monkeypatch):
    """Every committed model loads with SB3's and cloudpickle's unpicklers made to fail."""
    import cloudpickle
    from stable_baselines3.common import save_util

    def forbidden(*args, **kwargs):
        raise AssertionError("unpickling was attempted")

    monkeypatch.setattr(cloudpickle, "loads", forbidden)
    monkeypatch.setattr(save_util, "json_to_data", forbidden)
    from agents.trained import ZOO, zoo_models

    for name in zoo_models():
        config = yaml.safe_load((ZOO / name / "config.yaml").read_text())
        env = gym.make(config["env_id"], **config["env_kwargs"])
        agent = make_agent(f"zoo:{name}", env)
        obs, info = env.reset(seed=0)
        assert info["action_mask"][agent.choose(obs, info["action_mask"], np.random.default_rng(0))]


def test_evaluate_and_train_resume_run_no_payload(tmp_path):
    model_path, _ = run_folder(tmp_path, "evil")
    with_data_payload(model_path, tmp_path / "ran-data")
    evaluate = [sys.executable, "-m", "evaluate", "--env", "ShootPontoon-Playtech-v0", "--env-kwargs",
                '{"num_players": 2, "stake_levels": [1]}', "--agents", str(model_path), "--hands", "20",
                "--no-optimal", "--quiet", "--out", str(tmp_path / "report")]
    result = subprocess.run(evaluate, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 0, result.stderr[-2000:]
    resume = [sys.executable, "-m", "train", "--config", str(PLAYTECH), "--set", *TINY, f"log_dir={tmp_path}",
              "run_name=resumed", "--resume", str(model_path)]
    result = subprocess.run(resume, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 0, result.stderr[-2000:]
    assert not (tmp_path / "ran-data").exists()

    with_tensor_payload(model_path, tmp_path / "ran-tensors")
    for command in (evaluate, resume):
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr[-2000:]
        assert "refused: policy.pth holds more than tensors" in result.stderr
    assert not (tmp_path / "ran-tensors").exists()


def test_resume_refuses_a_checkpoint_of_another_architecture(tmp_path):
    model_path, _ = run_folder(tmp_path, "other")
    result = subprocess.run(
        [sys.executable, "-m", "train", "--config", str(PLAYTECH), "--set", *TINY, "net_arch=[32]",
         f"log_dir={tmp_path}", "run_name=resumed", "--resume", str(model_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert result.returncode == 2 and result.stderr.startswith("error: argument --resume: ")
    assert "does not fit this run's model" in result.stderr and result.stderr.count("\n") == 1
