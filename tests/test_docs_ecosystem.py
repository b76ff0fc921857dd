"""docs/ECOSYSTEM.md runs as written: every python block as a script and every bash block as a
command, in a fresh folder laid out like a checkout (hyperparams/ beside it, the repository on the
path), one after the other as a reader would."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "ECOSYSTEM.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks() -> list[tuple[str, str]]:
    return [(language, code) for language, code in BLOCK.findall(PAGE.read_text())]


def needs_torchrl(code: str) -> bool:
    """TorchRL is no extra of this project: its blocks run where it is installed."""
    return "torchrl" in code


def run_block(number: int, language: str, code: str, cwd: Path) -> str:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PATH=path, MPLBACKEND="Agg")
    if language == "python":
        command = [sys.executable, "-c", code]
    else:
        command = ["bash", "-euo", "pipefail", "-c", code]
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"block {number} ({language}) failed:\n{code}\n{result.stderr[-3000:]}"
    return result.stdout


def test_the_page_has_its_sections_and_blocks():
    text = PAGE.read_text()
    assert text.startswith("# Using with SB3, rl-zoo3, CleanRL, TorchRL, RLlib, Gymnasium vector envs")
    for section in ("Action masks through wrappers", "Stable-Baselines3", "Gymnasium vector envs", "CleanRL",
                    "rl-baselines3-zoo", "videos", "The batched engine",
                    "compact observation over any vector env", "## TorchRL", "## RLlib", "## OpenSpiel"):
        assert section in text
    languages = [language for language, code in blocks() if not needs_torchrl(code)]
    assert languages.count("python") == 8 and languages.count("bash") == 2
    assert [language for language, code in blocks() if needs_torchrl(code)] == ["python", "python"]
    assert "disable_env_checking=True" in text  # RLlib's pre-check, switched off (Ray is not in this venv)


def test_every_block_runs_as_written(tmp_path):
    pytest.importorskip("rl_zoo3")
    pytest.importorskip("moviepy")
    (tmp_path / "hyperparams").symlink_to(ROOT / "hyperparams")
    text = "\n".join(run_block(number, language, code, tmp_path)
                     for number, (language, code) in enumerate(blocks())
                     if language in ("python", "bash") and not needs_torchrl(code))
    assert "legal now:" in text and "masked evaluation:" in text and "(540, 960, 3) uint8" in text
    assert "returns in base stakes:" in text and "MCCFR information states visited:" in text
    for mode in ("NEXT_STEP", "SAME_STEP", "DISABLED"):
        assert f"{mode}: " in text and "no illegal action" in text
    assert "iteration 4: mean reward per step" in text
    assert "ShootPontoonVectorEnv (1024, 239) every mask holds a legal action: True" in text
    assert "trained on the batched engine: 4096 steps" in text
    assert "compact rows, wrapped and written by the kernel alike: (4, 106)" in text
    run = tmp_path / "logs" / "ppo_mask" / "ShootPontoon-Playtech-v0_1"
    assert (run / "best_model.zip").is_file() and (run / "ShootPontoon-Playtech-v0.zip").is_file()
    evaluations = np.load(run / "evaluations.npz")
    assert evaluations["results"].shape[1] == 50 and len(evaluations["timesteps"]) >= 2
    # masked evaluation: unmasked, an untrained policy mostly picks an illegal index at its first decision
    # (1 of 8 is legal) and the episode ends there; with masks every hand is played out
    assert evaluations["ep_lengths"].mean() > 1.5
    assert (tmp_path / "reports" / "zoo" / "report.json").is_file()
    assert "best_model" in (tmp_path / "reports" / "zoo" / "report.md").read_text()
    assert len(list((tmp_path / "videos" / "shoot").glob("*.mp4"))) == 3


def test_the_torchrl_blocks_run_as_written(tmp_path):
    pytest.importorskip("torchrl")
    text = "\n".join(run_block(number, language, code, tmp_path)
                     for number, (language, code) in enumerate(blocks()) if needs_torchrl(code))
    assert text.count("TorchRL DISABLED: ") == 3 and text.count("no illegal action") == 3
    assert "TorchRL GymEnv: torch.Size([50]) steps, illegal actions: 0" in text
    assert "TorchRL whole table: ['seat_0', 'seat_1', 'seat_2'] illegal actions: 0" in text
