"""A saved stable-baselines3 / sb3-contrib model acting on an env's observations, and where models are
found (a path, a run folder, or ``zoo:NAME`` in a model zoo folder).

Loading never unpickles: the policy is rebuilt from the run's configuration and the tensors are read
with torch's weights-only loader (:mod:`.safe_load`), so a crafted ``.zip`` cannot run code.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np

from ..rules import Rules
from ..seat.action_table import ActionTable
from ..seat.features import COMPACT_SIZE, compact_observation
from .mlp import ActorArrays
from .player import PolicyPlayer
from .safe_load import ModelConfig, ModelFileError, load_policy


# --------------------------------------------------------------------------- finding a model
def zoo_models(zoo: Path | None) -> list[str]:
    """Names of the models of a zoo folder (``NAME/model.zip`` each)."""
    return sorted(p.parent.name for p in zoo.glob("*/model.zip")) if zoo is not None else []


def zoo_path(name: str, zoo: Path | None) -> Path:
    if zoo is None:
        raise ValueError(f"no model zoo to find {name!r} in: the zoo is agents/zoo of a checkout of the "
                         "repository")
    path = zoo / name / "model.zip"
    if "/" in name or "\\" in name or name in ("", ".", "..") or not path.exists():
        raise ValueError(f"no trained model {name!r} in the zoo: expected one of {zoo_models(zoo)}")
    return path


def model_file(spec: str | Path, zoo: Path | None) -> Path:
    """The model a spec names: ``zoo:NAME`` (in the folder ``zoo``), a model ``.zip``, a run folder
    holding ``model.zip``, or else the bare name of a zoo model; a path that names nothing is refused
    in one line."""
    if str(spec).startswith("zoo:"):
        return zoo_path(str(spec)[4:], zoo)
    path = Path(spec)
    if path.is_dir():
        if not (path / "model.zip").is_file():
            raise ModelFileError(f"{path}: a folder without a model.zip: expected a model .zip or a run "
                                 "folder")
        return path / "model.zip"
    if path.exists():
        return path
    if path.suffix == ".zip" or "/" in str(spec) or "\\" in str(spec):
        raise ModelFileError(f"{path}: no such model file")
    return zoo_path(str(spec), zoo)


# --------------------------------------------------------------------------- acting
class TrainedPolicy:
    """A saved PPO or MaskablePPO model's policy, rebuilt for one env's spaces (``env_id`` and the
    spaces name it in errors): a model whose weights do not fit that env is refused here."""

    def __init__(self, path: Path, config: ModelConfig, env_id: str | None, observation_space: gym.Space,
                 action_space: gym.Space) -> None:
        self.config = config
        space = observation_space
        if config.observation == "compact":
            space = gym.spaces.Box(0.0, 1.0, shape=(COMPACT_SIZE,), dtype=np.float32)
        trained_on = f"{config.env_id} {config.env_kwargs or ''}".strip()
        what = (f"this env ({env_id}: observation of {observation_space.shape[0]} values, "
                f"{action_space.n} actions); the model was trained on {trained_on} ({config.source})")
        self.policy = load_policy(path, config, space, action_space, what)
        self._actor: ActorArrays | None = None

    @property
    def actor(self) -> ActorArrays:
        """The policy's actor as numpy arrays (built on first use)."""
        if self._actor is None:
            self._actor = ActorArrays.of_policy(self.policy, masked=self.config.algo == "maskable_ppo")
        return self._actor

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The deterministic action for one observation of the env, by the numpy actor (torch's
        action: tests/agents/test_actor_arrays.py), for callers asking one decision at a time."""
        if self.config.observation == "compact":
            observation = compact_observation(observation)
        return self.actor.act(observation, action_mask)

    def predict(self, observations: np.ndarray, action_masks: np.ndarray,
                deterministic: bool = True) -> np.ndarray:
        """The policy's action for an observation of the env (or one per row of a batch), masked when
        the algorithm reads masks."""
        if self.config.observation == "compact":
            observations = compact_observation(observations)
        if self.config.algo == "maskable_ppo":
            actions, _ = self.policy.predict(observations, action_masks=action_masks,
                                             deterministic=deterministic)
        else:
            actions, _ = self.policy.predict(observations, deterministic=deterministic)
        return actions


class TrainedPlayer(PolicyPlayer):
    """A trained policy at the table, deterministic, in the seat of the env it was rebuilt for (one
    decision at a time: played by its numpy actor)."""

    def __init__(self, trained: TrainedPolicy, rules: Rules, num_players: int, starting_chips: int,
                 action_table: ActionTable, name: str) -> None:
        super().__init__(rules, num_players, starting_chips, action_table, name)
        self.trained = trained

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        return self.trained.act(observation, action_mask)

    def kernel_network(self) -> tuple[ActorArrays, str] | None:
        """The model's numpy actor and the observation it reads, for the batched engine to play it
        inside the kernel (``PolicyPlayer.kernel_network``): what :meth:`choose` plays."""
        if (type(self).choose is not TrainedPlayer.choose or type(self).act is not PolicyPlayer.act
                or type(self.trained).act is not TrainedPolicy.act):
            return None  # a subclass that decides otherwise
        return self.trained.actor, self.trained.config.observation
