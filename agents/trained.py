"""Trained agents: a saved stable-baselines3 / sb3-contrib model behind the policy interface, and the
model zoo (``agents/zoo/NAME/model.zip`` with its ``config.yaml``), loadable by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

from shoot_pontoon_env.envs.features import compact_observation

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


def training_config(model_path: Path) -> dict:
    """The ``config.yaml`` of a model's run: beside the model, or one level up for a checkpoint."""
    for folder in (model_path.parent, model_path.parent.parent):
        if (folder / "config.yaml").exists():
            return yaml.safe_load((folder / "config.yaml").read_text()) or {}
    return {}


class TrainedAgent(Agent):
    """Acts with a saved PPO or MaskablePPO model (deterministic by default; masked when it can)."""

    def __init__(self, path: str | Path, *, deterministic: bool = True, name: str | None = None) -> None:
        super().__init__()
        path = Path(path)
        if not path.exists():
            path = zoo_path(str(path))
        config = training_config(path)
        algo = config.get("algo", "maskable_ppo")
        self.observation = config.get("observation", "flat")
        if algo == "ppo":
            from stable_baselines3 import PPO as algorithm
        else:
            from sb3_contrib import MaskablePPO as algorithm
        self.algo = algo
        self.model = algorithm.load(path, device="cpu")
        self.deterministic = deterministic
        self.path = path
        run = path.parent.parent.name if path.parent.name == "checkpoints" else path.parent.name
        self.name = name or (run if path.name == "model.zip" else f"{run}:{path.stem}")

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.observation == "compact":
            observation = compact_observation(observation)
        if self.algo == "maskable_ppo":
            action, _ = self.model.predict(observation, action_masks=action_mask, deterministic=self.deterministic)
        else:
            action, _ = self.model.predict(observation, deterministic=self.deterministic)
        return int(action)
