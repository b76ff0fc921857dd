"""The whole configuration of a training run: one typed dataclass, loaded from YAML, overridable."""

from __future__ import annotations

import dataclasses
import math
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ALGOS = ("maskable_ppo", "ppo")
OPPONENT_ARGUMENTS = ("banker", "punters")
VEC_ENVS = ("batched", "dummy", "subproc")
OBSERVATIONS = ("flat", "compact")
LR_SCHEDULES = ("constant", "linear")
ENT_SCHEDULES = ("constant", "linear")


@dataclass
class TrainConfig:
    env_id: str = "ShootPontoon-Playtech-v0"
    """Gymnasium id of the environment (``ShootPontoon-v0``, ``ShootPontoonBanker-v0``, ...)."""
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments for ``gym.make`` (rules, num_players, stake_levels, ...)."""
    opponents: list[str] = field(default_factory=list)
    """Strategies mixed across the vectorized environments for robustness: env ``i`` gets
    ``opponents[i % len(opponents)]`` as its ``opponent_argument``. Empty: the env's default."""
    opponent_argument: str = "banker"
    """Which env argument the opponents fill: ``banker`` (punter seat) or ``punters`` (banker seat)."""
    algo: str = "maskable_ppo"
    """``maskable_ppo`` (sb3-contrib, uses ``env.action_masks()``) or ``ppo`` (stable-baselines3)."""
    total_timesteps: int = 204_800
    """Environment steps the model has trained on when the run ends (summed over the vectorized envs;
    with ``--resume``, counting the checkpoint's): a whole number of rollouts of ``n_steps x n_envs``
    steps, since SB3 collects whole rollouts (``python -m train`` refuses another value, naming the
    nearest allowed ones)."""
    n_envs: int = 4
    """Environments stepped in parallel."""
    vec_env: str = "batched"
    """``batched``: the ``n_envs`` tables stepped together by the batched engine (gym.make_vec's
    ``vector_entry_point``; the fastest, docs/RESULTS.md); ``dummy`` (SB3's DummyVecEnv of scalar envs
    in one process) or ``subproc`` (one process each). The same game either way; the episodes a seed
    deals differ between the batched engine and the scalar envs."""
    seed: int = 0
    """Seeds the model, the environments (env ``i`` gets ``seed + i``) and the evaluation env."""
    observation: str = "flat"
    """``flat`` (the env's observation) or ``compact`` (a punter seat's decision features, see
    ``shoot_pontoon_env.envs.features``); a trained agent applies the same choice when it acts."""
    learning_rate: float = 3e-4
    lr_schedule: str = "constant"
    """``constant`` or ``linear`` (from ``learning_rate`` down to 0 at the end of the run)."""
    n_steps: int = 1024
    """Rollout length per environment between updates."""
    batch_size: int = 256
    n_epochs: int = 10
    gamma: float = 1.0
    """Undiscounted: one deal is a short episode whose chips all count."""
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    ent_schedule: str = "constant"
    """``constant`` or ``linear`` (the entropy bonus from ``ent_coef`` down to 0 at the end of the run:
    rare actions stay tried while their value is learnt, and the final policy carries no bonus)."""
    clip_range: float = 0.2
    vf_coef: float = 0.5
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    """Hidden layers of the policy and value networks."""
    eval_freq: int = 20_000
    """Evaluate every this many total timesteps (0: never)."""
    eval_episodes: int = 2_000
    checkpoint_freq: int = 50_000
    """Save a checkpoint every this many total timesteps (0: never), once the update of the rollout that
    reaches each multiple is done (``checkpoints/model_N_steps.zip``, N its exact step count)."""
    log_dir: str = "runs"
    """Runs are written to ``log_dir/run_name``: TensorBoard logs, checkpoints, evaluations, model."""
    run_name: str = ""
    """Defaults to the config file's stem and the seed."""
    device: str = "cpu"
    torch_threads: int = 1
    """Threads torch may use: one is fastest for these small networks (measured in benchmarks). With
    more, ``python -m train`` makes OpenMP's idle threads sleep (``OMP_WAIT_POLICY=PASSIVE`` unless
    set): its default spins them, and beside a busy process two threads then ran 3-10x slower than one."""
    progress_bar: bool = True

    def __post_init__(self) -> None:
        """Every field checked, each error naming the field, its value and what is allowed."""
        for name, choices in (("algo", ALGOS), ("vec_env", VEC_ENVS), ("observation", OBSERVATIONS),
                              ("lr_schedule", LR_SCHEDULES), ("ent_schedule", ENT_SCHEDULES),
                              ("opponent_argument", OPPONENT_ARGUMENTS)):
            if getattr(self, name) not in choices:
                raise ValueError(f"{name} = {getattr(self, name)!r}: expected one of {choices}")
        if self.observation == "compact" and "Banker" in str(self.env_id):
            raise ValueError(f"observation = 'compact' with env_id = {self.env_id!r}: the compact observation is a "
                             "punter seat's; use observation: flat for the banker")
        for name in ("total_timesteps", "n_envs", "n_steps", "n_epochs", "eval_episodes", "torch_threads"):
            _check_int(name, getattr(self, name), 1)
        rollout = self.n_steps * self.n_envs
        _check_int("batch_size", self.batch_size, 2, rollout, "n_steps x n_envs, the rollout size")
        if rollout % self.batch_size:  # SB3's last minibatch would be the remainder: one sample is a NaN loss
            divisors = [d for d in range(2, min(rollout, 4096) + 1) if rollout % d == 0][-4:]
            raise ValueError(f"batch_size = {self.batch_size}: expected a divisor of n_steps x n_envs = "
                             f"{self.n_steps} x {self.n_envs} = {rollout} (the rollout size), e.g. {divisors}")
        _check_int("seed", self.seed, 0, 2**32 - 1)
        _check_int("eval_freq", self.eval_freq, 0, None, "0: never")
        _check_int("checkpoint_freq", self.checkpoint_freq, 0, None, "0: never")
        _check_number("learning_rate", self.learning_rate, 0.0, 1.0, above_low=True)
        _check_number("gamma", self.gamma, 0.0, 1.0)
        _check_number("gae_lambda", self.gae_lambda, 0.0, 1.0)
        _check_number("clip_range", self.clip_range, 0.0, 1.0, above_low=True)
        _check_number("ent_coef", self.ent_coef, 0.0, None)
        _check_number("vf_coef", self.vf_coef, 0.0, None)
        if not isinstance(self.net_arch, list) or not self.net_arch or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 65536 for n in self.net_arch
        ):  # [] would train a linear policy that no loader of this project rebuilds (safe_load refuses it)
            raise ValueError(f"net_arch = {self.net_arch!r}: expected a list of layer sizes (at least one, "
                             "ints in 1..65536), e.g. [64, 64]")
        if not isinstance(self.env_id, str) or not self.env_id:
            raise ValueError(f"env_id = {self.env_id!r}: expected a Gymnasium id such as 'ShootPontoon-v0'")
        if not isinstance(self.env_kwargs, dict):
            raise ValueError(f"env_kwargs = {self.env_kwargs!r}: expected a mapping of env arguments")
        if not isinstance(self.opponents, list) or not all(isinstance(o, str) for o in self.opponents):
            raise ValueError(f"opponents = {self.opponents!r}: expected a list of strategy names")
        for name in ("log_dir", "run_name", "device"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} = {getattr(self, name)!r}: expected a string")
        if not isinstance(self.progress_bar, bool):
            raise ValueError(f"progress_bar = {self.progress_bar!r}: expected true or false")
        if not self.log_dir:
            raise ValueError("log_dir = '': expected a folder")
        check_run_name(self.run_name)
        if self.device not in ("cpu", "cuda", "auto") and not self.device.startswith("cuda:"):
            raise ValueError(f"device = {self.device!r}: expected 'cpu', 'cuda', 'cuda:N' or 'auto'")

    @property
    def run_dir(self) -> Path:
        return Path(self.log_dir) / self.run_name

    @property
    def rollout_size(self) -> int:
        """Steps SB3 collects between two updates: the unit a run's step count moves by."""
        return self.n_steps * self.n_envs

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def check_budget(config: TrainConfig, start: int = 0, resume: str | Path | None = None) -> None:
    """``total_timesteps`` must be reachable exactly from ``start`` (0, or the steps of the checkpoint
    ``resume``) by whole rollouts, so that the model's ``num_timesteps`` ends equal to it (SB3 would
    otherwise overshoot to the end of the rollout that crosses it)."""
    total, rollout = config.total_timesteps, config.rollout_size
    if total <= start:
        raise ValueError(f"total_timesteps = {total}: expected more than the {start} steps of --resume "
                         f"{resume} (a resume continues to total_timesteps), e.g. {start + rollout}")
    if (total - start) % rollout:
        below = start + (total - start) // rollout * rollout
        nearest = " or ".join(str(n) for n in (below, below + rollout) if n > start)
        origin = f"the {start} steps of --resume {resume} plus " if start else ""
        raise ValueError(f"total_timesteps = {total}: expected {origin}a multiple of n_steps x n_envs = "
                         f"{config.n_steps} x {config.n_envs} = {rollout} (SB3 trains whole rollouts), "
                         f"e.g. {nearest}")


class RunExists(ValueError):
    """The run folder holds an earlier run that this one would write over: the message says what to do."""


def claim_folder(run_dir: Path, entries: Sequence[str], overwrite: bool, also: str = "") -> None:
    """Refuse to write over an earlier run in ``run_dir`` (any of ``entries``: what a run writes
    there), unless ``overwrite``: then remove those entries, and nothing else, saying so in one line.
    ``also`` adds to the hint (another way out, such as ``, --resume to continue it``)."""
    earlier = [name for name in entries if (run_dir / name).exists() or (run_dir / name).is_symlink()]
    if not earlier:
        return
    if not overwrite:
        raise RunExists(f"{run_dir} already holds a run ({', '.join(earlier)}): pass --overwrite to replace "
                        f"it{also}, or --set run_name=NAME for a new one")
    for name in earlier:
        path = run_dir / name
        try:
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        except OSError as error:
            raise RunExists(f"--overwrite: {path} of the earlier run cannot be removed "
                            f"({error.strerror or error})") from None
    print(f"--overwrite: removed the earlier run in {run_dir} ({', '.join(earlier)})", file=sys.stderr)


def env_kwargs_for(config: TrainConfig, index: int) -> dict[str, Any]:
    """The env arguments of vectorized env ``index``: the config's, with its share of the opponents."""
    kwargs = dict(config.env_kwargs)
    if config.opponents:
        kwargs[config.opponent_argument] = config.opponents[index % len(config.opponents)]
    return kwargs


def check_run_name(value: str, name: str = "run_name") -> None:
    """A run is written to ``log_dir/run_name``: a plain folder name, so that it stays inside ``log_dir``."""
    if value in (".", "..") or any(c in value for c in "/\\\0"):
        raise ValueError(f"{name} = {value!r}: expected a plain folder name (no '/', '\\', '.' or '..'), "
                         "written under log_dir")


def _check_int(name: str, value: Any, low: int, high: int | None = None, note: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"an int in {low}..{high}" if high is not None else f"an int >= {low}"
        raise ValueError(f"{name} = {value!r}: expected {allowed}{f' ({note})' if note else ''}")


def _check_number(name: str, value: Any, low: float, high: float | None, above_low: bool = False) -> None:
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or value < low or (above_low and value == low) or (high is not None and value > high)):
        start = f"above {low:g}" if above_low else f">= {low:g}"
        allowed = f"a number {start}" + (f" and <= {high:g}" if high is not None else "")
        raise ValueError(f"{name} = {value!r}: expected {allowed}")


def _parse_value(text: str) -> Any:
    """``key=value`` overrides are YAML scalars or lists: ``n_envs=2``, ``net_arch=[64,64]``; a number
    YAML reads as text (``3e-4``, which YAML 1.1 wants as ``3.0e-4``) is read as the number."""
    value = yaml.safe_load(text)
    if isinstance(value, str):
        try:
            return float(value) if "." in value or "e" in value.lower() else int(value)
        except ValueError:
            return value
    return value


def read_mapping(path: str | Path, what: str, label: str = "--config ") -> dict[str, Any]:
    """A YAML file's mapping, read with YAML's safe loader (``what`` it should hold names it in the
    error, after ``label`` and the path)."""
    try:
        loaded = yaml.safe_load(Path(path).read_text()) or {}
    except OSError as error:
        raise ValueError(f"{label}{path}: {error.strerror or error}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise ValueError(f"{label}{path}: not YAML ({' '.join(str(error).split())[:300]})") from None
    if not isinstance(loaded, dict):
        raise ValueError(f"{label}{path}: expected a mapping of {what}, not a {type(loaded).__name__}")
    return loaded


def apply_overrides(data: dict[str, Any], overrides: list[str] | None) -> dict[str, Any]:
    """``key=value`` overrides into ``data``: YAML values, ``head.key=value`` one key of a mapping."""
    for item in overrides or []:
        if "=" not in item:
            raise ValueError(f"--set {item!r}: expected key=value")
        key, text = item.split("=", 1)
        try:
            value = _parse_value(text)
        except yaml.YAMLError:
            raise ValueError(f"--set {item!r}: the value is not YAML") from None
        head, _, sub = key.partition(".")
        if sub:
            if not isinstance(data.setdefault(head, {}), dict):
                raise ValueError(f"--set {item!r}: {head} is not a mapping")
            data[head][sub] = value
        else:
            data[key] = value
    return data


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> TrainConfig:
    """A config from a YAML file of field names (unknown names are errors), then ``key=value``
    overrides (``env_kwargs.rules=shoot`` sets one key of a dict field)."""
    data: dict[str, Any] = {}
    if path is not None:
        data.update(read_mapping(path, "TrainConfig fields"))
        data.setdefault("run_name", Path(path).stem)
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    apply_overrides(data, overrides)
    unknown = sorted(str(k) for k in set(data) - known)
    if unknown:
        raise ValueError(f"unknown config field(s) {unknown}: expected names from {sorted(known)}")
    config = TrainConfig(**data)
    if not config.run_name:
        config.run_name = "run"
    config.run_name = f"{config.run_name}-seed{config.seed}" if "-seed" not in config.run_name else config.run_name
    return config
