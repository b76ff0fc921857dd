"""Trained agents: a saved stable-baselines3 / sb3-contrib model behind the policy interface, and the
model zoo (``agents/zoo/NAME/model.zip`` with its ``config.yaml``), loadable by name.

Loading never unpickles: the policy is rebuilt from the run's configuration and the tensors are read
with torch's weights-only loader (``agents/safe_load.py``), so a crafted ``.zip`` cannot run code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from shoot_pontoon_env.envs.features import COMPACT_SIZE, compact_observation

from .base import Agent, EnvContext
from .safe_load import ModelFileError, load_policy, model_config

ZOO = Path(__file__).parent / "zoo"


def zoo_models() -> list[str]:
    """Names of the committed trained models."""
    return sorted(p.parent.name for p in ZOO.glob("*/model.zip"))


def zoo_path(name: str) -> Path:
    path = ZOO / name / "model.zip"
    if "/" in name or "\\" in name or name in ("", ".", "..") or not path.exists():
        raise ValueError(f"no trained model {name!r} in the zoo: expected one of {zoo_models()}")
    return path


def model_file(spec: str | Path) -> Path:
    """The model a spec names: ``zoo:NAME``, a model ``.zip``, a run folder holding ``model.zip``, or
    else the bare name of a zoo model; a path that names nothing is refused in one line."""
    if str(spec).startswith("zoo:"):
        return zoo_path(str(spec)[4:])
    path = Path(spec)
    if path.is_dir():
        if not (path / "model.zip").is_file():
            raise ModelFileError(f"{path}: a folder without a model.zip: expected a model .zip or a run folder")
        return path / "model.zip"
    if path.exists():
        return path
    if path.suffix == ".zip" or "/" in str(spec) or "\\" in str(spec):
        raise ModelFileError(f"{path}: no such model file")
    return zoo_path(str(spec))


class TrainedAgent(Agent):
    """Acts with a saved PPO or MaskablePPO model (deterministic by default; masked when it can).

    The run's configuration is read at construction; the policy is rebuilt for the env's spaces when
    the agent is bound, and a model whose weights do not fit that env is refused there."""

    def __init__(self, path: str | Path, *, deterministic: bool = True, name: str | None = None) -> None:
        super().__init__()
        path = model_file(path)
        self.config = model_config(path)
        self.algo = self.config.algo
        self.observation = self.config.observation
        self.policy = None
        self.deterministic = deterministic
        self.path = path
        run = path.parent.parent.name if path.parent.name == "checkpoints" else path.parent.name
        self.name = name or (run if path.name == "model.zip" else f"{run}:{path.stem}")

    def bind(self, context: EnvContext) -> TrainedAgent:
        super().bind(context)
        import gymnasium as gym

        context = self.context
        if context.observation_space is None or context.action_space is None:
            raise ValueError(f"{self.name}: bind a trained agent to an env (EnvContext.of(env)), which gives "
                             "the spaces its policy is rebuilt for")
        observation_space = context.observation_space
        if self.observation == "compact":
            observation_space = gym.spaces.Box(0.0, 1.0, shape=(COMPACT_SIZE,), dtype=np.float32)
        trained_on = f"{self.config.env_id} {self.config.env_kwargs or ''}".strip()
        what = (f"this env ({context.env_id}: observation of {context.observation_space.shape[0]} values, "
                f"{context.action_space.n} actions); the model was trained on {trained_on} "
                f"({self.config.source})")
        self.policy = load_policy(self.path, self.config, observation_space, context.action_space, what)
        return self

    batched = True

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One forward pass of the policy for the whole batch."""
        if self.policy is None:
            raise RuntimeError(f"{self.name}: bind the agent to an env before it acts")
        if self.observation == "compact":
            observations = compact_observation(observations)
        if self.algo == "maskable_ppo":
            actions, _ = self.policy.predict(observations, action_masks=action_masks,
                                             deterministic=self.deterministic)
        else:
            actions, _ = self.policy.predict(observations, deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.int64).reshape(len(observations))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.policy is None:
            raise RuntimeError(f"{self.name}: bind the agent to an env before it acts")
        if self.observation == "compact":
            observation = compact_observation(observation)
        if self.algo == "maskable_ppo":
            action, _ = self.policy.predict(observation, action_masks=action_mask, deterministic=self.deterministic)
        else:
            action, _ = self.policy.predict(observation, deterministic=self.deterministic)
        return int(action)
