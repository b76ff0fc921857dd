"""Trained agents: a saved stable-baselines3 / sb3-contrib model behind the policy interface, and the
model zoo (``agents/zoo/NAME/model.zip`` with its ``config.yaml``), loadable by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

from .base import Agent

ZOO = Path(__file__).parent / "zoo"


def zoo_models() -> list[str]:
    """Names of the committed trained models."""
    return sorted(p.parent.name for p in ZOO.glob("*/model.zip"))


def zoo_path(name: str) -> Path:
    path = ZOO / name / "model.zip"
    if not path.exists():
        raise ValueError(f"no trained model {name!r} in the zoo: expected one of {zoo_models()}")
    return path


class TrainedAgent(Agent):
    """Acts with a saved PPO or MaskablePPO model (deterministic by default; masked when it can)."""

    def __init__(self, path: str | Path, *, deterministic: bool = True, name: str | None = None) -> None:
        super().__init__()
        path = Path(path)
        if not path.exists():
            path = zoo_path(str(path))
        config_file = path.parent / "config.yaml"
        algo = "maskable_ppo"
        if config_file.exists():
            algo = (yaml.safe_load(config_file.read_text()) or {}).get("algo", algo)
        if algo == "ppo":
            from stable_baselines3 import PPO as algorithm
        else:
            from sb3_contrib import MaskablePPO as algorithm
        self.algo = algo
        self.model = algorithm.load(path, device="cpu")
        self.deterministic = deterministic
        self.path = path
        self.name = name or path.parent.name

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.algo == "maskable_ppo":
            action, _ = self.model.predict(observation, action_masks=action_mask, deterministic=self.deterministic)
        else:
            action, _ = self.model.predict(observation, deterministic=self.deterministic)
        return int(action)
