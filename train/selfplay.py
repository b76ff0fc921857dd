"""Self-play: a punter and a banker policy learnt together, each against a league of the other's
(and its own) frozen past snapshots and rule-based anchors.

``python -m train.selfplay --config train/configs/selfplay/shoot.yml [--set key=value ...] [--overwrite]``
(a folder that holds a run is refused unless ``--overwrite``, which removes that run's files first)

Each generation trains the punter (MaskablePPO, the existing stack of ``train/run.py``) for
``punter.total_timesteps`` steps at a table whose banker and other punters are drawn from the pools
for every episode, freezes it into the punter pool, then does the same for the banker against punters
from the punter pool. Drawing from all past snapshots (not only the newest) is what keeps the two
from chasing each other in cycles (fictitious self-play). After every generation both snapshots are
measured against fixed references on the same hands: the punter against the ``stand17`` banker (per
unit stake, beside the solver's optimum there) and the banker against ``tips`` punters.

The learners sit in the single-seat envs (``ShootPontoon-v0``, ``ShootPontoonBanker-v0``): they are
the whole table seen from one seat with the other seats' players fixed for the episode, and their
models then load and evaluate like any other (``python -m evaluate``, ``zoo:``).
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import yaml

import shoot_pontoon_env.envs  # noqa: F401  (registers the ids)
from shoot_pontoon_env.cli import Parser, UsageError, run

from .config import TrainConfig, apply_overrides, check_run_name, claim_folder, read_mapping
from .league import LeagueOpponents, Pool, snapshot_player
from .run import build_model, make_vec_env, save_provenance, save_run

ROLES = ("punter", "banker")
ENV_IDS = {"punter": "ShootPontoon-v0", "banker": "ShootPontoonBanker-v0"}
RUN_ENTRIES = ("selfplay.yaml", "history.json", "selfplay.png", *ROLES)
"""What a run writes in its folder (each role's run beneath its name): what ``--overwrite`` removes."""


@dataclass
class SelfPlayConfig:
    punter: dict[str, Any] = field(default_factory=dict)
    """TrainConfig fields of the punter learner (env_id ``ShootPontoon-v0``); ``total_timesteps`` is
    per generation."""
    banker: dict[str, Any] = field(default_factory=dict)
    """TrainConfig fields of the banker learner (env_id ``ShootPontoonBanker-v0``)."""
    generations: int = 5
    punter_anchors: list[str] = field(default_factory=lambda: ["tips"])
    """Rule-based punters in the punter pool from the start."""
    banker_anchors: list[str] = field(default_factory=lambda: ["stand17"])
    latest_share: float = 0.5
    """Chance that an opponent seat gets the newest snapshot of its role; otherwise any pool member."""
    eval_episodes: int = 4000
    """Hands per snapshot in the per-generation measurement (the same seeded hands each time)."""
    eval_seed: int = 1_000_000
    seed: int = 0
    log_dir: str = "runs"
    run_name: str = "selfplay"
    torch_threads: int = 1

    def __post_init__(self) -> None:
        for name in ("generations", "eval_episodes"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} = {value!r}: expected an int >= 1")
        if not 0.0 <= self.latest_share <= 1.0:
            raise ValueError(f"latest_share = {self.latest_share!r}: expected a number in 0..1")
        if not isinstance(self.run_name, str):
            raise ValueError(f"run_name = {self.run_name!r}: expected a string")
        check_run_name(self.run_name)

    @property
    def run_dir(self) -> Path:
        return Path(self.log_dir) / f"{self.run_name}-seed{self.seed}"

    def role(self, role: str) -> TrainConfig:
        """The TrainConfig of one learner: its block, written under ``run_dir/ROLE``."""
        fields = {"env_id": ENV_IDS[role], "vec_env": "dummy",  # the league plays in Python: scalar envs
                  **getattr(self, role), "seed": self.seed, "log_dir": str(self.run_dir),
                  "run_name": role, "eval_freq": 0, "checkpoint_freq": 0, "progress_bar": False,
                  "torch_threads": self.torch_threads}
        if fields["env_id"] != ENV_IDS[role]:
            raise ValueError(f"{role}.env_id = {fields['env_id']!r}: expected {ENV_IDS[role]!r}")
        try:
            return TrainConfig(**fields)
        except TypeError as error:
            raise ValueError(f"{role}: {error}") from None


def load_selfplay_config(path: str | Path | None, overrides: list[str] | None = None) -> SelfPlayConfig:
    """YAML of SelfPlayConfig fields, then ``key=value`` overrides (``punter.total_timesteps=256``)."""
    data = read_mapping(path, "self-play fields") if path is not None else {}
    apply_overrides(data, overrides)
    known = {f.name for f in dataclasses.fields(SelfPlayConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown self-play field(s) {unknown}: expected names from {sorted(known)}")
    return SelfPlayConfig(**data)


# --------------------------------------------------------------------------- one run
class SelfPlay:
    def __init__(self, config: SelfPlayConfig) -> None:
        self.config = config
        self.configs = {role: config.role(role) for role in ROLES}
        punter_kwargs, banker_kwargs = (self.configs[r].env_kwargs for r in ROLES)
        for key in ("rules", "num_players"):
            if punter_kwargs.get(key) != banker_kwargs.get(key):
                raise ValueError(f"punter.env_kwargs.{key} and banker.env_kwargs.{key} differ: the learners "
                                 "sit at one table")
        self.num_players = gym.make(ENV_IDS["punter"], **punter_kwargs).unwrapped.num_players
        self.pools = {"punter": Pool.of(config.punter_anchors, config.latest_share),
                      "banker": Pool.of(config.banker_anchors, config.latest_share)}
        self.history: list[dict[str, Any]] = []

    def opponent_seats(self, role: str, env: gym.Env) -> dict[int, Pool]:
        learner = env.unwrapped.seat
        seats = {s: self.pools["punter"] for s in range(1, self.num_players) if s != learner}
        if role == "punter":
            seats[0] = self.pools["banker"]
        return seats

    def vec_env(self, role: str):
        config = self.configs[role]

        def wrap(env: gym.Env, index: int) -> gym.Env:
            rng = np.random.default_rng([self.config.seed, ROLES.index(role), index])
            return LeagueOpponents(env, self.opponent_seats(role, env), rng)

        return make_vec_env(config, monitor_dir=config.run_dir / "monitor", wrap=wrap)

    def snapshot(self, role: str, model, generation: int) -> Path:
        config = self.configs[role]
        path = config.run_dir / "league" / f"gen{generation}.zip"
        model.save(path)
        self.pools[role].add(snapshot_player(model.policy, config.observation, ENV_IDS[role], config.env_kwargs,
                                             f"{role}-gen{generation}"))
        return path

    def run(self) -> dict[str, Path]:
        import torch

        torch.set_num_threads(self.config.torch_threads)
        self.config.run_dir.mkdir(parents=True, exist_ok=True)
        (self.config.run_dir / "selfplay.yaml").write_text(yaml.safe_dump(dataclasses.asdict(self.config),
                                                                          sort_keys=False))
        envs = {role: self.vec_env(role) for role in ROLES}
        models = {}
        for role in ROLES:
            save_provenance(self.configs[role])  # config.yaml first: snapshots load with it
            models[role] = build_model(self.configs[role], envs[role])
        self.history.append(self.measure(None, 0, {}))
        for generation in range(1, self.config.generations + 1):
            seconds = {}
            paths = {}
            for role in ROLES:
                start = time.perf_counter()
                models[role].learn(self.configs[role].total_timesteps, reset_num_timesteps=generation == 1,
                                   tb_log_name="tb")
                seconds[role] = time.perf_counter() - start
                paths[role] = self.snapshot(role, models[role], generation)
            self.history.append(self.measure(paths, generation, seconds))
            self.write_history()
            print(json.dumps(self.history[-1]), flush=True)
        final = {role: save_run(models[role], self.configs[role]) for role in ROLES}
        for env in envs.values():
            env.close()
        self.plot()
        return final

    # ------------------------------------------------------------------ measurements
    def measure(self, paths: dict[str, Path] | None, generation: int, seconds: dict[str, float]) -> dict[str, Any]:
        """Per-unit-stake return of the punter against ``stand17`` and the banker's return per deal against
        ``tips`` punters, on the same seeded hands every generation (generation 0: the anchors)."""
        from agents import make_agent
        from agents.trained import trained_agent
        from shoot_pontoon_env.evaluate.tournament import play_agent

        episodes, seed = self.config.eval_episodes, self.config.eval_seed
        punter_kwargs = {**self.configs["punter"].env_kwargs, "banker": "stand17", "punters": "tips"}
        banker_kwargs = {**self.configs["banker"].env_kwargs, "punters": "tips"}
        result: dict[str, Any] = {"generation": generation, "train_seconds": seconds,
                                  "steps": {r: generation * self.configs[r].total_timesteps for r in ROLES},
                                  "pools": {r: self.pools[r].names for r in ROLES}}
        for role, kwargs in (("punter", punter_kwargs), ("banker", banker_kwargs)):
            make = lambda: gym.make(ENV_IDS[role], **kwargs)  # noqa: E731
            if paths is None:
                agent = make_agent(self.config.punter_anchors[0] if role == "punter" else
                                   self.config.banker_anchors[0], make())
            else:
                agent = trained_agent(paths[role])
            record = play_agent(make, agent, episodes, seed)
            values = np.asarray(record.per_stake if role == "punter" else record.returns)
            result[role] = {"agent": agent.name, "mean": float(values.mean()),
                            "stderr": float(values.std(ddof=1) / np.sqrt(len(values)))}
        return result

    def write_history(self) -> None:
        (self.config.run_dir / "history.json").write_text(json.dumps(self.history, indent=2) + "\n")

    def plot(self) -> Path:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from shoot_pontoon_env.solver import solve

        generations = [h["generation"] for h in self.history]
        rules = gym.make(ENV_IDS["punter"], **self.configs["punter"].env_kwargs).unwrapped.rules
        optimum = solve(rules).expected_return  # against StandOnBanker(17), the solver's default banker
        figure, axes = plt.subplots(1, 2, figsize=(10, 4))
        titles = {"punter": "punter vs stand17 banker (per unit stake)", "banker": "banker vs tips punters (per deal)"}
        for axis, role in zip(axes, ROLES):
            means = np.array([h[role]["mean"] for h in self.history])
            errors = 1.96 * np.array([h[role]["stderr"] for h in self.history])
            axis.errorbar(generations, means, yerr=errors, marker="o", capsize=3, label="self-play snapshot")
            axis.axhline(means[0], color="grey", linestyle=":", label=f"anchor ({self.history[0][role]['agent']})")
            if role == "punter":
                axis.axhline(optimum, color="green", linestyle="--", label=f"solver optimum ({optimum:+.4f})")
            axis.set_title(titles[role])
            axis.set_xlabel("generation (0: the rule-based anchor)")
            axis.legend(loc="lower right")
        figure.tight_layout()
        path = self.config.run_dir / "selfplay.png"
        figure.savefig(path, dpi=100)
        plt.close(figure)
        return path


def main(argv: list[str] | None = None) -> int:
    """The command line: a mistake is one ``error: ...`` line and exit status 2 (``--debug``: traceback)."""
    return run(_main, argv)


def _main(argv: list[str]) -> int:
    parser = Parser(prog="python -m train.selfplay", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", help="YAML of SelfPlayConfig fields (train/configs/selfplay/*.yml)")
    parser.add_argument("--set", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="override fields, e.g. generations=1 punter.total_timesteps=2048")
    parser.add_argument("--replot", metavar="RUN_DIR", help="redraw RUN_DIR/selfplay.png from its history.json")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the earlier run in the run folder (its files are removed first); "
                             "without it, a folder that holds a run is refused")
    args = parser.parse_args(argv)
    try:
        if args.replot:
            run_dir = Path(args.replot)
            selfplay = SelfPlay(load_selfplay_config(run_dir / "selfplay.yaml"))
            selfplay.history = json.loads((run_dir / "history.json").read_text())
            print(selfplay.plot())
            return 0
        config = load_selfplay_config(args.config, args.set)
        selfplay = SelfPlay(config)
        claim_folder(config.run_dir, RUN_ENTRIES, args.overwrite)
    except (ValueError, OSError) as error:
        raise UsageError(str(error)) from None
    start = time.perf_counter()
    final = selfplay.run()
    print(f"self-play of {config.generations} generations in {time.perf_counter() - start:.0f}s; models: "
          + ", ".join(str(p) for p in final.values()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
