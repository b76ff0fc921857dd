"""One training run: vectorized envs, the model, callbacks, and the saved result with its provenance."""

from __future__ import annotations

import importlib.metadata
import json
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import yaml
from stable_baselines3 import PPO
from stable_baselines3.common import callbacks as sb3_callbacks
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, EvalCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids even without the entry point)
from shoot_pontoon_env.models.safe_load import ModelFileError, checkpoint_params, plain_data

# RunExists: python -m train catches it from here
from .config import RunExists, TrainConfig, check_budget, claim_folder, env_kwargs_for  # noqa: F401

PACKAGES = ("shoot-pontoon-env", "gymnasium", "numpy", "torch", "stable-baselines3", "sb3-contrib")
MODEL_FILE = "model.zip"
CONFIG_FILE = "config.yaml"
VERSIONS_FILE = "versions.json"
RUN_FILE = "run.json"
"""What the final model was trained on: its num_timesteps, and the checkpoint a resume started from."""
CHECKPOINTS, EVAL, BEST, TENSORBOARD, MONITOR = "checkpoints", "eval", "best", "tensorboard", "monitor"
RUN_ENTRIES = (CONFIG_FILE, VERSIONS_FILE, RUN_FILE, MODEL_FILE, CHECKPOINTS, EVAL, BEST, TENSORBOARD,
               MONITOR)
"""Everything a run writes in its folder: what ``--overwrite`` removes, and nothing else."""
EVAL_TABLES = 16
"""Tables of the batched evaluation env (SB3's evaluate_policy spreads the episodes over them)."""


def make_env_fn(config: TrainConfig, index: int, monitor_dir: Path | None = None,
                wrap: Callable[[gym.Env, int], gym.Env] | None = None) -> Callable[[], gym.Env]:
    """Env ``index`` of a run; ``wrap(env, index)`` goes innermost (self-play seats its league there)."""
    def build() -> gym.Env:
        env = gym.make(config.env_id, **env_kwargs_for(config, index), **observation_kwargs(config))
        if wrap is not None:
            env = wrap(env, index)
        filename = str(monitor_dir / f"env{index}") if monitor_dir is not None else None
        return Monitor(env, filename=filename)

    return build


def observation_kwargs(config: TrainConfig) -> dict[str, str]:
    """The env argument that gives the run's observation: the compact one is written by the env itself."""
    return {"observation": "compact"} if config.observation == "compact" else {}


def make_batched_env(config: TrainConfig, count: int) -> VecEnv:
    """The batched engine behind SB3's VecEnv: env ``i``'s opponents as in the scalar case, one batch of
    tables for each distinct set of env arguments."""
    from gymnasium.vector import AutoresetMode

    from shoot_pontoon_env.envs.sb3 import PontoonVecEnv

    groups: dict[str, tuple[dict[str, Any], int]] = {}
    for index in range(count):
        kwargs = env_kwargs_for(config, index)
        key = repr(sorted(kwargs.items()))
        groups[key] = (kwargs, groups.get(key, (kwargs, 0))[1] + 1)
    venvs = [gym.make_vec(config.env_id, num_envs=n, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs,
                          **observation_kwargs(config)) for kwargs, n in groups.values()]
    return PontoonVecEnv(venvs)


def make_vec_env(config: TrainConfig, monitor_dir: Path | None = None, count: int | None = None,
                 seed: int | None = None, wrap: Callable[[gym.Env, int], gym.Env] | None = None) -> VecEnv:
    """``count`` (default ``n_envs``) envs as SB3's VecEnv, by ``config.vec_env``. Monitor files are
    written for scalar envs; the batched engine reports episodes in its infos (what SB3 logs). ``wrap``
    (self-play's league) seats Python policies at the table: scalar envs only."""
    count = count or config.n_envs
    if config.vec_env == "batched":
        if wrap is not None:
            raise ValueError("vec_env = 'batched': this run seats Python policies at the table (a self-play "
                             "league), which the batched engine cannot play; use vec_env: dummy or subproc")
        vec: VecEnv = make_batched_env(config, count)
    else:
        fns = [make_env_fn(config, i, monitor_dir, wrap) for i in range(count)]
        vec = SubprocVecEnv(fns) if config.vec_env == "subproc" and len(fns) > 1 else DummyVecEnv(fns)
    vec.seed(config.seed if seed is None else seed)
    return vec


def algorithm_class(config: TrainConfig) -> type[BaseAlgorithm]:
    return MaskablePPO if config.algo == "maskable_ppo" else PPO


def learning_rate(config: TrainConfig) -> float | Callable[[float], float]:
    """The config's rate, or a schedule of SB3's remaining progress (1 at the start, 0 at the end)."""
    if config.lr_schedule == "linear":
        start = config.learning_rate
        return lambda progress_remaining: start * progress_remaining
    return config.learning_rate


class EntropySchedule(BaseCallback):
    """``ent_schedule: linear``: before each update the entropy coefficient is ``ent_coef`` times the
    remaining progress (SB3 has schedules for the learning rate and clip range, not for this)."""

    def __init__(self, start: float) -> None:
        super().__init__()
        self.start = start

    def _on_rollout_end(self) -> None:
        remaining = 1.0 - self.model.num_timesteps / max(self.model._total_timesteps, 1)
        self.model.ent_coef = self.start * max(remaining, 0.0)

    def _on_step(self) -> bool:
        return True


def build_model(config: TrainConfig, env: VecEnv) -> BaseAlgorithm:
    return algorithm_class(config)(
        "MlpPolicy", env, learning_rate=learning_rate(config), n_steps=config.n_steps,
        batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma,
        gae_lambda=config.gae_lambda, ent_coef=config.ent_coef, clip_range=config.clip_range,
        vf_coef=config.vf_coef, policy_kwargs={"net_arch": list(config.net_arch)},
        tensorboard_log=str(config.run_dir / TENSORBOARD), seed=config.seed, device=config.device, verbose=0,
    )


def load_checkpoint(model: BaseAlgorithm, path: Path) -> None:
    """Continue from a checkpoint without unpickling it: the model is built from this run's config,
    the checkpoint's policy and optimizer states are read by ``shoot_pontoon_env.models.safe_load`` (declared sizes
    bounded by this model's, torch's weights-only loader, every value finite, no entry the model has
    no use for) and handed to SB3's parameter loading; its step count comes from the plain JSON
    values of its ``data`` entry. A checkpoint of another architecture or env is refused, naming the
    mismatch."""
    names = model._get_torch_save_params()[0]  # policy, policy.optimizer
    tensor_bytes = sum(t.numel() * t.element_size() for t in model.policy.state_dict().values())
    params = checkpoint_params(path, names, tensor_bytes)
    try:
        model.set_parameters(params, exact_match=True, device=model.device)
    except (ValueError, RuntimeError, KeyError, TypeError, IndexError) as error:
        detail = " ".join(str(error).split())[:400]
        raise ModelFileError(f"{path}: does not fit this run's model ({detail})") from None
    data = plain_data(path)
    for name in ("num_timesteps", "_n_updates", "_episode_num"):
        value = data.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            setattr(model, name, value)


def package_versions() -> dict[str, str]:
    versions = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


class RolloutCheckpoint(BaseCallback):
    """Saves ``checkpoints/model_N_steps.zip`` at the first rollout boundary at or after every multiple
    of ``freq`` steps, once that rollout's update is done (the end of training is such a boundary), so a
    checkpoint's weights have been trained on exactly the ``num_timesteps`` it records. SB3's
    CheckpointCallback saves while a rollout is being collected, before its update: a resume from it
    would count steps its weights never learnt from."""

    def __init__(self, freq: int, folder: Path) -> None:
        super().__init__()
        self.freq = freq
        self.folder = folder
        self.due = freq

    def _init_callback(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)

    def _on_training_start(self) -> None:
        self.due = (self.model.num_timesteps // self.freq + 1) * self.freq

    def _on_rollout_start(self) -> None:
        self._save_if_due()

    def _on_training_end(self) -> None:
        self._save_if_due()

    def _on_step(self) -> bool:
        return True

    def _save_if_due(self) -> None:
        steps = self.model.num_timesteps
        if steps >= self.due:
            self.model.save(self.folder / f"model_{steps}_steps.zip")
            self.due = (steps // self.freq + 1) * self.freq


class ProgressBar(sb3_callbacks.ProgressBarCallback):
    """SB3's bar counting the run's steps from 0 (a resume: from the checkpoint's) to ``total_timesteps``,
    where SB3's counts only this call's steps."""

    def _on_training_start(self) -> None:
        self.pbar = sb3_callbacks.tqdm(total=self.locals["total_timesteps"], initial=self.model.num_timesteps)


PROGRESS_EVERY_S = 60.0
"""Seconds between two progress lines where the output is no terminal (a file, a pipe, a CI log)."""


class ProgressLines(BaseCallback):
    """The progress bar's information as one flushed line every ``every_s`` seconds (and at the end),
    for output that is no terminal: a bar redraws itself in place, which a file shows only when the
    run ends. ``clock`` and ``stream`` are the wall clock and where the lines go (stdout)."""

    def __init__(self, every_s: float = PROGRESS_EVERY_S, clock: Callable[[], float] = time.monotonic,
                 stream: Any = None) -> None:
        super().__init__()
        self.every_s, self.clock, self.stream = every_s, clock, stream
        self.began = self.last = 0.0
        self.start = self.total = 0

    def _on_training_start(self) -> None:
        self.began = self.last = self.clock()
        self.start = self.model.num_timesteps
        self.total = self.start + self.locals["total_timesteps"]

    def _on_step(self) -> bool:
        if self.clock() - self.last >= self.every_s:
            self.report()
        return True

    def _on_training_end(self) -> None:
        self.report()

    def report(self) -> None:
        now = self.clock()
        self.last = now
        steps, elapsed = self.model.num_timesteps, now - self.began
        rate = (steps - self.start) / elapsed if elapsed > 0 else 0.0
        left = (self.total - steps) / rate if rate > 0 else None
        line = (f"train: {steps:,} of {self.total:,} steps ({100 * steps / max(self.total, 1):.0f}%), "
                f"{elapsed:.0f} s, {rate:,.0f} steps/s" + (f", about {left:.0f} s left" if left else ""))
        print(line, file=self.stream or sys.stdout, flush=True)


def restore_evaluations(callback: EvalCallback, log: Path, start: int) -> None:
    """A resume continues the learning curve: the evaluations of ``log`` (the run's
    ``eval/evaluations.npz``) up to the checkpoint's ``start`` steps are kept in front of the new ones
    (SB3 would rewrite the file with the new ones only), and the best model is replaced only by a better
    one."""
    if not log.is_file():
        return
    with np.load(log) as saved:
        keep = saved["timesteps"] <= start
        callback.evaluations_timesteps = saved["timesteps"][keep].tolist()
        callback.evaluations_results = saved["results"][keep].tolist()
        callback.evaluations_length = saved["ep_lengths"][keep].tolist()
        if "successes" in saved.files:
            callback.evaluations_successes = saved["successes"][keep].tolist()
    if callback.evaluations_results:
        callback.best_mean_reward = float(np.mean(callback.evaluations_results, axis=1).max())


def callbacks(config: TrainConfig, start: int = 0) -> CallbackList:
    """The run's callbacks; ``start`` > 0: a resume in the checkpoint's own run folder from that many
    steps, whose learning curve continues."""
    items: list[BaseCallback] = []
    if config.ent_schedule == "linear":
        items.append(EntropySchedule(config.ent_coef))
    if config.checkpoint_freq:
        items.append(RolloutCheckpoint(config.checkpoint_freq, config.run_dir / CHECKPOINTS))
    if config.eval_freq:
        eval_env = make_vec_env(config, count=EVAL_TABLES if config.vec_env == "batched" else 1,
                                seed=config.seed + 10_000)
        cls = MaskableEvalCallback if config.algo == "maskable_ppo" else EvalCallback
        evaluation = cls(eval_env, n_eval_episodes=config.eval_episodes,
                         eval_freq=max(config.eval_freq // config.n_envs, 1),
                         log_path=str(config.run_dir / EVAL), best_model_save_path=str(config.run_dir / BEST),
                         deterministic=True, verbose=0)
        if start:
            restore_evaluations(evaluation, config.run_dir / EVAL / "evaluations.npz", start)
        items.append(evaluation)
    if config.progress_bar:  # a bar on a terminal, else a line now and then (a file shows a bar at the end)
        items.append(ProgressBar() if sys.stdout.isatty() else ProgressLines())
    return CallbackList(items)


def save_provenance(config: TrainConfig) -> None:
    """The configuration and exact package versions, beside the model and above the checkpoints."""
    run_dir = config.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / CONFIG_FILE).write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    (run_dir / VERSIONS_FILE).write_text(json.dumps(package_versions(), indent=2) + "\n")


def save_run(model: BaseAlgorithm, config: TrainConfig, record: dict[str, Any] | None = None) -> Path:
    """The final model beside its configuration, the exact package versions and ``run.json``: the
    steps it was trained on, with ``record`` (where a resume started, how long it took)."""
    save_provenance(config)
    trained = {"total_timesteps": config.total_timesteps, "num_timesteps": model.num_timesteps,
               "n_updates": model._n_updates, "resumed_from": None, "resumed_at_timesteps": 0,
               **(record or {})}
    (config.run_dir / RUN_FILE).write_text(json.dumps(trained, indent=2) + "\n")
    model.save(config.run_dir / MODEL_FILE)
    return config.run_dir / MODEL_FILE


def holds(run_dir: Path, path: str | Path) -> bool:
    """Whether ``path`` (a checkpoint) lies in ``run_dir``: a resume that continues that very run."""
    return Path(path).resolve().is_relative_to(run_dir.resolve())


def claim_run_dir(config: TrainConfig, resume: str | Path | None, overwrite: bool) -> None:
    """Refuse to write over an earlier run in ``config.run_dir`` (unless ``overwrite``: then remove what
    it wrote, saying so in one line), except with a resume of one of that run's own checkpoints."""
    if resume is None or not holds(config.run_dir, resume):
        claim_folder(config.run_dir, RUN_ENTRIES, overwrite)


def train(config: TrainConfig, resume: str | Path | None = None, overwrite: bool = False) -> Path:
    """Train to ``config.total_timesteps`` (from the checkpoint ``resume``'s step count, if given) and
    return the saved model's path. SB3's ``learn(n, reset_num_timesteps=False)`` trains ``n`` more
    steps, so a resume asks for the remainder. An earlier run in the folder is refused (``RunExists``)
    unless ``overwrite``; for a resume, once the checkpoint has been read (a bad one is named first)."""
    import torch

    if resume is None:
        claim_run_dir(config, resume, overwrite)
    torch.set_num_threads(config.torch_threads)
    env = make_vec_env(config, monitor_dir=config.run_dir / MONITOR)
    model = build_model(config, env)
    start = 0
    if resume is not None:
        load_checkpoint(model, Path(resume))
        claim_run_dir(config, resume, overwrite)
        start = model.num_timesteps
    check_budget(config, start, resume)
    save_provenance(config)  # written first, so that checkpoints can be evaluated during the run
    began = time.perf_counter()
    continuing = resume is not None and holds(config.run_dir, resume)
    model.learn(total_timesteps=config.total_timesteps - start,
                callback=callbacks(config, start if continuing else 0), reset_num_timesteps=resume is None,
                tb_log_name="tb")
    record = {"resumed_from": None if resume is None else str(resume), "resumed_at_timesteps": start,
              "seconds": round(time.perf_counter() - began, 1)}
    path = save_run(model, config, record)
    env.close()
    return path
