"""Trained agents: a saved stable-baselines3 / sb3-contrib model behind the policy interface, and the
model zoo (``agents/zoo/NAME/model.zip`` with its ``config.yaml``), loadable by name.

Loading never unpickles: the policy is rebuilt from the run's configuration and the tensors are read
with torch's weights-only loader (``agents/safe_load.py``), so a crafted ``.zip`` cannot run code. The
loading and the acting are the package's (``shoot_pontoon_env.models``, which ``play`` uses too); this
module puts them behind the agent interface, with this folder's zoo.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from shoot_pontoon_env.models import trained as _trained
from shoot_pontoon_env.models.trained import TrainedPolicy

from .base import Agent, EnvContext
from shoot_pontoon_env.models.safe_load import model_config

ZOO = Path(__file__).parent / "zoo"


def zoo_models() -> list[str]:
    """Names of the committed trained models."""
    return _trained.zoo_models(ZOO)


def zoo_path(name: str) -> Path:
    return _trained.zoo_path(name, ZOO)


def model_file(spec: str | Path) -> Path:
    """The model a spec names: ``zoo:NAME``, a model ``.zip``, a run folder holding ``model.zip``, or
    else the bare name of a zoo model; a path that names nothing is refused in one line."""
    return _trained.model_file(spec, ZOO)


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
        self.trained: TrainedPolicy | None = None
        self.deterministic = deterministic
        self.path = path
        run = path.parent.parent.name if path.parent.name == "checkpoints" else path.parent.name
        self.name = name or (run if path.name == "model.zip" else f"{run}:{path.stem}")

    def bind(self, context: EnvContext) -> TrainedAgent:
        super().bind(context)
        context = self.context
        if context.observation_space is None or context.action_space is None:
            raise ValueError(f"{self.name}: bind a trained agent to an env (EnvContext.of(env)), which gives "
                             "the spaces its policy is rebuilt for")
        self.trained = TrainedPolicy(self.path, self.config, context.env_id, context.observation_space,
                                     context.action_space)
        self.policy = self.trained.policy
        return self

    batched = True

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One forward pass of the policy for the whole batch."""
        if self.policy is None:
            raise RuntimeError(f"{self.name}: bind the agent to an env before it acts")
        actions = self.trained.predict(observations, action_masks, self.deterministic)
        return np.asarray(actions, dtype=np.int64).reshape(len(observations))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        if self.policy is None:
            raise RuntimeError(f"{self.name}: bind the agent to an env before it acts")
        return int(self.trained.predict(observation, action_mask, self.deterministic))
