"""A saved stable-baselines3 / sb3-contrib model as a policy (:class:`TrainedPlayer`, an
``ObservationPolicy``: at a table, in an env's agent seat, in ``evaluate``), the model rebuilt for one
env's spaces (:class:`TrainedPolicy`: its numpy actor and torch's predict), and where models are found
(a path, a run folder, or ``zoo:NAME`` in a model zoo folder).

Loading never unpickles: the policy is rebuilt from the run's configuration and the tensors are read
with torch's weights-only loader (:mod:`.safe_load`), so a crafted ``.zip`` cannot run code.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np

from ..seat.features import COMPACT_SIZE, compact_observation
from .mlp import ActorArrays
from .player import EnvContext, ObservationPolicy
from .safe_load import ModelConfig, ModelFileError, load_policy, model_config


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

    def sample(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray | int:
        """An action drawn with the policy's chances for an observation of the env (or one per row of a
        batch), with ``rng`` (:meth:`ActorArrays.sample`)."""
        if self.config.observation == "compact":
            observations = compact_observation(observations)
        return self.actor.sample(observations, action_masks, rng)

    def predict(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The policy's deterministic action for an observation of the env (or one per row of a batch),
        by torch in one forward pass, masked when the algorithm reads masks."""
        if self.config.observation == "compact":
            observations = compact_observation(observations)
        if self.config.algo == "maskable_ppo":
            actions, _ = self.policy.predict(observations, action_masks=action_masks, deterministic=True)
        else:
            actions, _ = self.policy.predict(observations, deterministic=True)
        return actions


def run_name(path: Path) -> str:
    """How a model is named by its file: its run folder's name (``RUN`` for ``RUN/model.zip``), and a
    checkpoint by its run and steps (``RUN:model_STEPS_steps``)."""
    run = path.parent.parent.name if path.parent.name == "checkpoints" else path.parent.name
    return run if path.name == "model.zip" else f"{run}:{path.stem}"


class TrainedPlayer(ObservationPolicy):
    """A saved PPO or MaskablePPO model as a policy (deterministic by default; masked when it can).

    ``path``: a model ``.zip``, a run folder holding ``model.zip``, or ``zoo:NAME`` (a model of the
    folder ``zoo``). The run's configuration is read safely at construction; the policy is rebuilt
    for the spaces of the env it is bound to (:meth:`bind`, which refuses a model whose weights do not
    fit that env). One decision at a time it plays its numpy actor (``choose``, what the batched
    engine plays inside the kernel), a batch in one forward pass of torch (``choose_batch``). With
    ``deterministic=False`` it draws each action with the policy's chances by the numpy actor, with the
    Generator it is handed: a seeded run replays."""

    batched = True

    def __init__(self, path: str | Path, *, name: str | None = None, deterministic: bool = True,
                 zoo: Path | None = None, config: ModelConfig | None = None,
                 env: gym.Env | EnvContext | None = None) -> None:
        path = model_file(path, zoo)
        self.path = path
        self.config = config if config is not None else model_config(path)
        self.algo = self.config.algo
        self.observation = self.config.observation
        self.deterministic = deterministic
        self.trained: TrainedPolicy | None = None
        super().__init__(None, name or run_name(path))
        if env is not None:
            self.bind(env)

    def bind(self, context: gym.Env | EnvContext) -> TrainedPlayer:
        """Rebuild the policy for the spaces of ``context`` (an env, or an EnvContext read from one)."""
        super().bind(context)
        bound = self._bound()
        if bound.observation_space is None or bound.action_space is None:
            raise ValueError(f"{self.name}: bind a trained model to an env (or EnvContext.of(env)), which gives "
                             "the spaces its policy is rebuilt for")
        self.trained = TrainedPolicy(self.path, self.config, bound.env_id, bound.observation_space,
                                     bound.action_space)
        return self

    @property
    def policy(self):
        """The rebuilt SB3 policy (None before :meth:`bind`)."""
        return None if self.trained is None else self.trained.policy

    def _model(self) -> TrainedPolicy:
        if self.trained is None:
            raise RuntimeError(f"{self.name}: bind the model to an env (bind(env)) before it acts")
        return self.trained

    def choose(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        trained = self._model()
        if self.deterministic:
            return trained.act(observation, action_mask)
        return int(trained.sample(observation, action_mask, rng))

    def choose_batch(self, observations: np.ndarray, action_masks: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
        """One forward pass of the policy for the whole batch (sampling: each action drawn with ``rng``)."""
        trained = self._model()
        if self.deterministic:
            actions = trained.predict(observations, action_masks)
        else:
            actions = trained.sample(observations, action_masks, rng)
        return np.asarray(actions, dtype=np.int64).reshape(len(observations))

    def kernel_network(self) -> tuple[ActorArrays, str] | None:
        """The model's numpy actor and the observation it reads, for the batched engine to play it
        inside the kernel (``ObservationPolicy.kernel_network``): what :meth:`choose` plays."""
        if (self.trained is None or not self.deterministic or type(self).choose is not TrainedPlayer.choose
                or type(self).act is not ObservationPolicy.act or type(self.trained).act is not TrainedPolicy.act):
            return None  # unbound, sampling, or a subclass that decides otherwise
        return self.trained.actor, self.trained.config.observation
