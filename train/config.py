"""The whole configuration of a training run: one typed dataclass, loaded from YAML, overridable."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ALGOS = ("maskable_ppo", "ppo")
VEC_ENVS = ("dummy", "subproc")
OBSERVATIONS = ("flat", "compact")
LR_SCHEDULES = ("constant", "linear")


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
    total_timesteps: int = 200_000
    """Environment steps to train for (summed over the vectorized envs)."""
    n_envs: int = 4
    """Environments stepped in parallel."""
    vec_env: str = "dummy"
    """``dummy`` (one process; best for a cheap env on few cores) or ``subproc``."""
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
    clip_range: float = 0.2
    vf_coef: float = 0.5
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    """Hidden layers of the policy and value networks."""
    eval_freq: int = 20_000
    """Evaluate every this many total timesteps (0: never)."""
    eval_episodes: int = 2_000
    checkpoint_freq: int = 50_000
    """Save a checkpoint every this many total timesteps (0: never)."""
    log_dir: str = "runs"
    """Runs are written to ``log_dir/run_name``: TensorBoard logs, checkpoints, evaluations, model."""
    run_name: str = ""
    """Defaults to the config file's stem and the seed."""
    device: str = "cpu"
    torch_threads: int = 1
    """Threads torch may use: one is fastest for these small networks (measured in benchmarks)."""
    progress_bar: bool = True

    def __post_init__(self) -> None:
        if self.algo not in ALGOS:
            raise ValueError(f"algo = {self.algo!r}: expected one of {ALGOS}")
        if self.vec_env not in VEC_ENVS:
            raise ValueError(f"vec_env = {self.vec_env!r}: expected one of {VEC_ENVS}")
        if self.observation not in OBSERVATIONS:
            raise ValueError(f"observation = {self.observation!r}: expected one of {OBSERVATIONS}")
        if self.lr_schedule not in LR_SCHEDULES:
            raise ValueError(f"lr_schedule = {self.lr_schedule!r}: expected one of {LR_SCHEDULES}")
        if self.opponent_argument not in ("banker", "punters"):
            raise ValueError(f"opponent_argument = {self.opponent_argument!r}: expected 'banker' or 'punters'")
        for name in ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "eval_episodes"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} = {value!r}: expected an int >= 1")

    @property
    def run_dir(self) -> Path:
        return Path(self.log_dir) / self.run_name

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _parse_value(text: str) -> Any:
    """``key=value`` overrides are YAML scalars or lists: ``n_envs=2``, ``net_arch=[64,64]``."""
    return yaml.safe_load(text)


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> TrainConfig:
    """A config from a YAML file of field names (unknown names are errors), then ``key=value``
    overrides (``env_kwargs.rules=shoot`` sets one key of a dict field)."""
    data: dict[str, Any] = {}
    if path is not None:
        loaded = yaml.safe_load(Path(path).read_text()) or {}
        if not isinstance(loaded, dict):
            raise ValueError(f"{path}: expected a mapping of TrainConfig fields")
        data.update(loaded)
        data.setdefault("run_name", Path(path).stem)
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    for item in overrides or []:
        if "=" not in item:
            raise ValueError(f"override {item!r}: expected key=value")
        key, text = item.split("=", 1)
        head, _, sub = key.partition(".")
        if sub:
            data.setdefault(head, {})[sub] = _parse_value(text)
        else:
            data[key] = _parse_value(text)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown config field(s) {unknown}: expected names from {sorted(known)}")
    config = TrainConfig(**data)
    if not config.run_name:
        config.run_name = "run"
    config.run_name = f"{config.run_name}-seed{config.seed}" if "-seed" not in config.run_name else config.run_name
    return config
